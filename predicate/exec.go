package predicate

// -exec, -execdir, -ok and -okdir.
//
// Children run without a shell, one at a time for the whole process
// (execMu), as in GNU find, where evaluation is serial. What gfind
// guarantees about the order of its output and a child's:
//
//   - Everything the worker that starts a child printed before (its
//     Buffer) is written before the child starts, as GNU's
//     fflush(stdout) does.
//   - While a child runs, no worker writes a record to standard output
//     and no diagnostic is written (the Sink's and the Diag's locks are
//     held, output/hold.go), so the child's output is never split by, or
//     splits, one of ours: `-print -exec echo X {} \;` prints each
//     "X path" line right after its "path" line, in every mode.
//   - With one worker (-j1) the order is exactly GNU's.
//
// Records that another worker buffered before this child started may
// come after the child's output: in a parallel walk no order between
// workers is defined. A -exec ... + batch is shared by the workers (see
// "batches" below); one that runs at the end, the usual case, runs
// after every record has been written, as GNU's does. One that fills up
// during the walk runs after the records of the worker that filled it;
// records other workers printed before adding their files may come
// after its output.
//
// Batch sizes: a batch holds as much as the kernel takes (argRoom: on
// Linux a quarter of the stack limit, 2 MiB by default, elsewhere
// kern.argmax; less the environment and 2048 bytes), like bfs; GNU find stops at 128 KiB, so it starts
// many more children for the same files (TestExecPlusEveryPathOnce
// logs the counts; a run's are in bench/NOTES.md, "-exec ... +
// batches").

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// The limits on a new program's arguments that are the same everywhere;
// the system's own, argMax and maxArgStrlen, are in sys_<os>.go.
const (
	// execHeadroom is what GNU (and POSIX xargs) leave for the child to
	// add to its environment before it runs something else.
	execHeadroom = 2048
	// ptrSize is the size of one argv or envp pointer, which the kernel
	// counts against the same limit as the strings: its own pointer
	// size, 8 bytes on a 64-bit kernel even for a 32-bit program (Linux's
	// bprm_stack_limits counts sizeof(void *)), so 8 on every GOARCH: on
	// a 32-bit kernel that errs on the safe side.
	ptrSize = 8
	// pathRoom is set aside in every batch for the program's file name,
	// which the kernel also copies into the new image.
	pathRoom = 4096
)

// Costs in the units of cost.go: a fork and exec is about a millisecond.
const (
	costExec      = 1e6
	costExecBatch = 100 // -exec ... +: the child's cost spread over its files
)

// execNode is -exec, -execdir, -ok and -okdir.
type execNode struct {
	op    string   // as given: "-exec", "-execdir", "-ok" or "-okdir"
	cmd   []string // the command and its arguments; for "+", without the final {}
	multi bool     // terminated by "{} +"
	inDir bool     // -execdir, -okdir: run in the file's directory with ./name
	ask   bool     // -ok, -okdir: prompt first
	// room is what a batch's file arguments may take in the new
	// program's argument area: the kernel's limit less the environment,
	// the headroom, the command's own words and room for its path.
	room int
	// dirIdx is, for -execdir ... +, the node's index in
	// Command.execdirs and execdirState.held.
	dirIdx int

	// mu guards the batches: cur, dirs and what they hold.
	mu   sync.Mutex
	cur  *batch            // -exec ... +: the batch every worker adds to
	dirs map[string]*batch // -execdir ... +: per directory (see enterDir)
}

func parseExec(p *parser, op string, v variant) error {
	n := &execNode{op: op, inDir: v&inFileDir != 0, ask: v&askFirst != 0}
	if n.inDir {
		// GNU's insert_exec_ok turns -ignore_readdir_race off here.
		p.walk.IgnoreReaddirRace = false
		if err := checkPathSafety(p, op); err != nil {
			return err
		}
	}
	start, end := p.i, p.i
	// A '+' ends the command only right after an argument that is
	// exactly {} (GNU 4.11, bug 66365, as POSIX says): in "echo x{} +"
	// the '+' is an argument, and the command goes on to a ';'.
	sawBraces, braces := false, 0
	for ; end < len(p.args) && p.args[end] != ";"; end++ {
		a := p.args[end]
		if !n.ask && sawBraces && a == "+" {
			n.multi = true
			break
		}
		sawBraces = a == "{}"
		if strings.Contains(a, "{}") {
			braces++
			if end == start && n.inDir {
				// The command would be whatever file the walk found,
				// which whoever can write to the tree chooses. GNU 4.9
				// meant to refuse this but its test never fired (it
				// compared the index in the whole argv with 0); GNU
				// 4.11 refuses any {} in the command's name.
				return p.errorf("You may not use {} within the utility name for -execdir and -okdir, because this is a potential security problem.")
			}
		}
	}
	switch {
	case end == len(p.args):
		return p.errorf("missing argument to `%s'", op)
	case end == start:
		return p.errorf("invalid argument `%s' to `%s'", p.args[end], op)
	}
	if n.multi {
		// The argument before the '+' is {}, so a {} anywhere else is a
		// second one. (GNU's "In -exec ... {} + the {} must appear by
		// itself" can no longer happen: such an argument does not end
		// the command.)
		if braces > 1 {
			suffix := ""
			if op == "-execdir" {
				suffix = "dir"
			}
			return p.errorf("Only one instance of {} is supported with -exec%s ... +", suffix)
		}
		n.cmd = slices.Clone(p.args[start : end-1])
	} else {
		n.cmd = slices.Clone(p.args[start:end])
	}
	room, ok := argRoom(os.Environ())
	if !ok {
		return p.errorf("The environment is too large for exec().")
	}
	n.room = room - pathRoom
	for _, w := range n.cmd {
		n.room -= len(w) + 1 + ptrSize
	}
	p.i = end + 1
	if n.multi {
		p.atExit = append(p.atExit, n.close) // the last batches
	}
	p.push(n)
	return nil
}

// checkPathSafety is GNU's check_path_safety for -execdir and -okdir: a
// command looked up in $PATH must not be found relative to the
// directory it runs in, which the walk chose.
func checkPathSafety(p *parser, action string) error {
	path, ok := os.LookupEnv("PATH")
	if !ok {
		return nil // the default path is safe
	}
	for dir := range strings.SplitSeq(path, ":") {
		switch {
		case dir == "" || dir == ".":
			return p.errorf("The current directory is included in the PATH environment variable, which is insecure in combination with the %s action of find.  Please remove the current directory from your $PATH (that is, remove \".\", doubled colons, or leading or trailing colons)", action)
		case dir[0] != '/':
			return p.errorf("The relative path %s is included in the PATH environment variable, which is insecure in combination with the %s action of find.  Please remove that entry from $PATH", p.quote(dir), action)
		}
	}
	return nil
}

// argRoom returns how many bytes of a new program's arguments (each
// string with its NUL, plus its pointer) fit with the environment env,
// after GNU's headroom; false when the environment leaves no room.
// argMax (sys_<os>.go) is the system's limit for the strings and
// pointers of both the arguments and the environment.
func argRoom(env []string) (int, bool) {
	limit := argMax()
	size := uint64(execHeadroom + ptrSize) // the argv NULL, to be safe
	for _, kv := range env {
		size += uint64(len(kv) + 1 + ptrSize)
	}
	if size >= limit {
		return 0, false
	}
	return int(limit - size), true
}

func (n *execNode) Eval(e *walker.Entry, s *State) bool {
	if n.multi {
		if s.act() && !s.Stopped() {
			n.add(e, s)
		}
		return true // POSIX: -exec ... {} + is always true
	}
	if !s.act() || s.Stopped() {
		return false // -quit: nothing runs after it
	}
	target, wd := string(e.Path), workDir{fd: -1}
	if n.inDir {
		target, wd = execdirTarget(e)
	}
	argv := make([]string, len(n.cmd))
	for i, w := range n.cmd {
		argv[i] = strings.ReplaceAll(w, "{}", target)
		if len(argv[i]) >= maxArgStrlen {
			s.Out.Flush()
			s.Diag.FileError(e.Path, n.tooLong())
			return false
		}
	}
	j := job{argv: argv, wd: wd}
	if n.ask {
		j.prompt = n.prompt(e.Path)
	}
	return launch(s.Out, s.sink, s.Diag, j) == childOK
}

func (n *execNode) Facts() Facts {
	switch {
	case n.multi:
		return Facts{Effects: EffectExec, Cost: costExecBatch, Prob: 1}
	default:
		return Facts{Effects: EffectExec, Cost: costExec, Prob: 0.5}
	}
}

func (n *execNode) Args() []string {
	args := append([]string{n.op}, n.cmd...)
	if n.multi {
		return append(args, "{}", "+")
	}
	return append(args, ";")
}

// tooLong is the error for a file name that would make one argument
// longer than the kernel takes.
func (n *execNode) tooLong() error {
	return fmt.Errorf("cannot pass it to %s: one argument may hold at most %d bytes", n.program(), maxArgStrlen-1)
}

// program names the command in messages.
func (n *execNode) program() string {
	if len(n.cmd) == 0 {
		return "the file"
	}
	return n.cmd[0]
}

// prompt is GNU's question for -ok and -okdir: the command's first word
// as given and the file's path, unquoted.
func (n *execNode) prompt(path []byte) []byte {
	q := make([]byte, 0, len(n.cmd[0])+len(path)+16)
	q = append(q, "< "...)
	q = append(q, n.cmd[0]...)
	q = append(q, " ... "...)
	q = append(q, path...)
	return append(q, " > ? "...)
}

// A workDir is where an -execdir child runs: the directory open as fd
// (valid during the visit or owned by a batch), else the directory
// named by path (relative to gfind's working directory; with fd, the
// fallback when /proc is missing). fd -1 and path "" is gfind's own
// working directory.
type workDir struct {
	fd   int
	path string
}

// execdirTarget returns what -execdir passes for {} and where the child
// runs: "./name" in the directory that holds the file. For a starting
// point that is the directory part of its path (GNU's mdir_name) and
// "./" and the rest (base_name), or "/" alone for a name made only of
// slashes (no "./" before a name that starts with '/').
func execdirTarget(e *walker.Entry) (string, workDir) {
	if e.DirFD() != unix.AT_FDCWD {
		return "./" + string(e.AtName()), workDir{fd: e.DirFD(), path: string(e.Path[:e.NameOff])}
	}
	dir, base := splitRoot(string(e.Path))
	if base[0] == '/' {
		return base, workDir{fd: -1, path: dir}
	}
	return "./" + base, workDir{fd: -1, path: dir}
}

// splitRoot splits a starting point as gnulib's mdir_name and base_name
// do: "a/b/" is "a" and "b/", "b" is "." and "b", "/" is "/" and "/".
// base_name keeps one trailing slash of several ("a//" is "a/"), and
// turns a name made only of slashes into "/": GNU runs
// "find // -execdir echo {} ;" as "echo /".
func splitRoot(path string) (dir, base string) {
	end := len(path)
	for end > 0 && path[end-1] == '/' {
		end--
	}
	if end == 0 {
		if path == "" {
			return ".", "."
		}
		return "/", "/"
	}
	i := strings.LastIndexByte(path[:end], '/')
	base = path[i+1 : end]
	if end < len(path) {
		base = path[i+1 : end+1]
	}
	if i < 0 {
		return ".", base
	}
	dir = strings.TrimRight(path[:i], "/")
	if dir == "" {
		dir = "/"
	}
	return dir, base
}

// dirKey identifies the directory an -execdir child for e runs in: the
// path of the parent as the walk names it (a starting point's
// directory part). Two entries share a directory when their keys are
// equal.
func dirKey(e *walker.Entry) []byte {
	if e.DirFD() != unix.AT_FDCWD {
		return e.Path[:e.NameOff]
	}
	dir, _ := splitRoot(string(e.Path))
	return []byte(dir)
}

// A job is one child to run.
type job struct {
	argv   []string
	wd     workDir
	prompt []byte // -ok, -okdir: ask this first
	// batch: an E2BIG from execve is childTooBig, to retry with fewer
	// files, rather than a failure to report.
	batch bool
}

type outcome int

const (
	childOK       outcome = iota // ran and exited 0
	childFailed                  // exited non-zero, was killed, or could not be run (reported)
	childDeclined                // -ok was answered no
	childTooBig                  // execve said E2BIG to a batch: nothing ran, nothing reported
)

// execMu lets one child (or -ok question) happen at a time.
var execMu sync.Mutex

// launch runs j to completion. It writes what out (or, when out is nil,
// nothing: the caller flushed every Buffer) holds, then holds the
// standard output and the diagnostics while asking (-ok) and while the
// child runs.
func launch(out *output.Buffer, sink *output.Sink, diag *output.Diag, j job) outcome {
	execMu.Lock()
	defer execMu.Unlock()
	var release func()
	if out != nil {
		release = out.FlushHold()
	} else {
		release = sink.Hold()
	}
	stderr, releaseDiag := diag.Hold()
	res, note := run(j, stderr, diag.Quote) // Quote takes no lock
	releaseDiag()
	release()
	switch {
	case note == "":
	case j.batch:
		// A batch's failure is the run's (the exit status says so), and
		// bfs's -noerror does not hide it either.
		diag.Notef("%s", note)
	default:
		// The child's complaint in GNU, which does not change find's
		// exit status by itself; -noerror hides it, as in bfs.
		diag.FileNotef("%s", note)
	}
	return res
}

// run asks (for -ok), then starts the child and waits for it. It
// returns the outcome and, for a failure to report, the message (made
// by the caller of launch once the Diag is free).
func run(j job, stderr io.Writer, quote func(string) string) (outcome, string) {
	stdin := os.Stdin
	if j.prompt != nil {
		_, _ = stderr.Write(j.prompt)
		if !answerYes() {
			return childDeclined, ""
		}
		// GNU gives the child /dev/null so that it cannot eat the
		// answers meant for find.
		stdin = devNull()
	}
	attr := &os.ProcAttr{Files: []*os.File{stdin, os.Stdout, os.Stderr}}
	switch {
	case j.wd.fd >= 0:
		// Checked here because the child's chdir failing would be
		// reported as a failure of execve.
		if err := unix.Faccessat(j.wd.fd, ".", unix.X_OK, 0); err != nil {
			return childFailed, "Failed to change directory: " + output.Strerror(err)
		}
		attr.Dir = procFDDir(j.wd)
	case j.wd.path != "":
		attr.Dir = j.wd.path
	}
	name := j.argv[0]
	path, err := lookPath(name)
	if err != nil {
		return childFailed, quote(name) + ": " + output.Strerror(err)
	}
	proc, err := startChild(path, j.argv, attr)
	if errors.Is(err, syscall.ENOEXEC) {
		// execvp runs a file without a #! line with the shell.
		proc, err = startChild("/bin/sh", append([]string{"/bin/sh", path}, j.argv[1:]...), attr)
	}
	if errors.Is(err, errInterrupted) {
		return childFailed, "" // gfind is dying of a signal
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && pe.Op == "chdir" {
			return childFailed, "Failed to change directory: " + output.Strerror(pe.Err)
		}
		if errors.Is(err, syscall.E2BIG) && j.batch {
			return childTooBig, ""
		}
		return childFailed, quote(name) + ": " + output.Strerror(err)
	}
	st, err := waitChild(proc)
	if interrupted() {
		return childFailed, "" // we killed it; gfind is dying of the signal
	}
	if err != nil {
		return childFailed, "error waiting for " + quote(name) + ": " + output.Strerror(err)
	}
	ws, _ := st.Sys().(syscall.WaitStatus)
	switch {
	case ws.Signaled():
		return childFailed, fmt.Sprintf("%s terminated by signal %d", quote(name), int(ws.Signal()))
	case ws.ExitStatus() != 0:
		return childFailed, ""
	}
	return childOK, ""
}

// procFDDir names the directory open as wd.fd for the child's chdir:
// the child has the same descriptor until it calls execve, so it changes
// to exactly the directory the walk holds, whatever its path (even one
// longer than PATH_MAX). Without /proc, wd.path is the fallback.
func procFDDir(wd workDir) string {
	if !haveProcFD() {
		return wd.path
	}
	return "/proc/self/fd/" + strconv.Itoa(wd.fd)
}

// devNull is /dev/null open for reading, the standard input of -ok
// children; nil (a closed descriptor) if it cannot be opened.
var devNull = sync.OnceValue(func() *os.File {
	f, err := os.Open(os.DevNull)
	if err != nil {
		return nil
	}
	return f
})

// stdinLines reads the answers to -ok's questions from os.Stdin, made
// on first use. It is buffered, like GNU's stdin, and used only with
// execMu held.
var stdinLines *bufio.Reader

// answerYes reads one line from the standard input and reports whether
// it is a yes: GNU's yesno uses rpmatch, whose answer in the C locale is
// yes for a line starting with 'y' or 'Y'. End of input is no.
func answerYes() bool {
	if stdinLines == nil {
		stdinLines = bufio.NewReader(os.Stdin)
	}
	line, err := stdinLines.ReadString('\n')
	if err != nil && line == "" {
		return false
	}
	return line[0] == 'y' || line[0] == 'Y'
}

// lookPath finds the program execvp would run for name: name itself if
// it has a slash, else the first executable regular file in $PATH
// (default "/bin:/usr/bin"; an empty entry is the current directory).
// As in glibc, a candidate that exists but cannot be executed makes the
// error EACCES rather than ENOENT, and the search goes on.
func lookPath(name string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	if name == "" {
		return "", syscall.ENOENT
	}
	path, ok := os.LookupEnv("PATH")
	if !ok {
		path = "/bin:/usr/bin"
	}
	denied := false
	for dir := range strings.SplitSeq(path, ":") {
		cand := name
		if dir != "" {
			cand = dir + "/" + name
		}
		var st unix.Stat_t
		if err := unix.Stat(cand, &st); err != nil {
			switch err {
			case unix.ENOENT, unix.ENOTDIR, unix.ESTALE, unix.ENODEV, unix.ETIMEDOUT, unix.ENAMETOOLONG, unix.ELOOP:
			case unix.EACCES:
				denied = true
			default:
				return "", err
			}
			continue
		}
		if st.Mode&unix.S_IFMT != unix.S_IFREG || unix.Access(cand, unix.X_OK) != nil {
			denied = true
			continue
		}
		return cand, nil
	}
	if denied {
		return "", syscall.EACCES
	}
	return "", syscall.ENOENT
}

// -exec ... + and -execdir ... +: batches.
//
// Each -exec ... + has one batch, shared by every worker, and each
// -execdir ... + one per directory, shared by the workers visiting that
// directory. A batch runs when the next file would not fit (the room
// the kernel leaves), for -execdir when the walk leaves its directory,
// and otherwise at the end (Command.Close): files that fit in one
// command line get one child, whatever the number of workers, as in
// GNU find.
//
// -execdir under a parallel walk: a worker is "in" the directory of the
// entry it last visited. It leaves it when it visits an entry of
// another directory (State.enterDir, before evaluating that entry, as
// GNU runs its pending -execdir batches when the walk moves on). A
// directory's batch runs when the last worker in it leaves, so memory
// stays bounded: at most one batch per worker and -execdir node, each
// at most the kernel's argument room, plus what -quit or a stop leaves
// for Close. A huge directory whose getdents chunks the walk hands out
// to other workers (walker.Options.Hold) is held, as if by one more
// worker, while a chunk is out: the worker that took it may not have
// visited any of it yet, and the others may all have moved on. So a
// directory's batch is one child unless the argument room splits it,
// whatever the number of workers; GNU's gets one per stretch of the
// walk between subdirectories. With one worker (-j1) the batches run
// exactly where GNU runs them.

// A batch collects files for one command: a child, or a few when the
// kernel refuses the whole (see run).
type batch struct {
	n     *execNode
	sink  *output.Sink
	diag  *output.Diag
	files []string
	size  int // bytes the files take in the argument area
	// -execdir: the directory the files are in, as dirKey names it, and
	// where the child will run (a duplicate of the walk's descriptor,
	// owned by the batch, or a path for a starting point's directory).
	key string
	wd  workDir
	// users counts, for -execdir, the workers whose current directory
	// this is; the batch runs when the last one leaves (under n.mu).
	users int
}

// execdirState is one worker's place among the -execdir ... + batches.
type execdirState struct {
	nodes []*execNode // the Command's -execdir ... + nodes
	held  []*batch    // per node, the batch of the directory this worker is in
	cur   string      // that directory, as dirKey names it
	in    bool        // cur is set
}

// execdirNodes returns the -execdir ... + nodes of expr and numbers
// them (execNode.dirIdx).
func execdirNodes(expr Node) []*execNode {
	var nodes []*execNode
	forEachNode(expr, func(n Node) {
		if x, ok := n.(*execNode); ok && x.multi && x.inDir {
			x.dirIdx = len(nodes)
			nodes = append(nodes, x)
		}
	})
	return nodes
}

// enterDir makes e's directory the worker's current one for the
// -execdir ... + batches, leaving the one it was in: a batch whose last
// worker leaves runs now (leave). Called before e is evaluated, so that
// `-print -execdir echo {} +` shows a directory's batch before the paths
// that follow it, as GNU does.
func (s *State) enterDir(e *walker.Entry) {
	x := s.dirs
	key := dirKey(e)
	if x.in && string(key) == x.cur {
		return
	}
	k := string(key)
	for i, n := range x.nodes {
		if b := x.held[i]; b != nil {
			n.leave(b, s)
		}
		x.held[i] = n.enter(k, s)
	}
	x.cur, x.in = k, true
}

// dirBatch returns n's batch for e's directory. Visit has entered it
// already, unless Eval is called alone or on a State made without n's
// Command (tests), which then tracks n too.
func (s *State) dirBatch(n *execNode, e *walker.Entry) *batch {
	x := s.dirs
	i := n.dirIdx
	if x == nil || i >= len(x.nodes) || x.nodes[i] != n {
		if x == nil {
			x = &execdirState{}
			s.dirs = x
		}
		if i = slices.Index(x.nodes, n); i < 0 {
			i = len(x.nodes)
			x.nodes = append(x.nodes, n)
			x.held = append(x.held, nil)
		}
	}
	s.enterDir(e)
	if x.held[i] == nil {
		x.held[i] = n.enter(x.cur, s)
	}
	return x.held[i]
}

// enter counts a worker in the directory key and returns its batch.
func (n *execNode) enter(key string, s *State) *batch {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.dirs == nil {
		n.dirs = map[string]*batch{}
	}
	b := n.dirs[key]
	if b == nil {
		b = &batch{n: n, sink: s.sink, diag: s.Diag, key: key, wd: workDir{fd: -1}}
		n.dirs[key] = b
	}
	b.users++
	return b
}

// leave counts a worker out of b's directory and runs b if it was the
// last one. After -quit (or a stop) the batch is left for Close.
func (n *execNode) leave(b *batch, s *State) {
	ok := s.act() && !s.Stopped() // running the batch is an action; the gate comes before n.mu
	n.mu.Lock()
	b.users--
	if b.users > 0 || !ok && len(b.files) > 0 {
		n.mu.Unlock()
		return
	}
	delete(n.dirs, b.key)
	n.mu.Unlock()
	if len(b.files) > 0 {
		b.run(s.Out)
	}
}

// HoldsDirs reports whether the expression keeps something per
// directory that the walk's pieces must hold (State.HoldDir): -execdir
// ... + batches.
func (c *Command) HoldsDirs() bool { return len(c.execdirs) > 0 }

// HoldDir counts the walker in or out of directory dir (as dirKey names
// it) for the -execdir ... + batches, while it hands a piece of the
// directory to another worker (walker.Options.Hold): the batch waits for
// that piece's visits, as for a worker in the directory.
func (s *State) HoldDir(dir []byte, held bool) {
	if s.dirs == nil {
		return
	}
	key := string(dir)
	for _, n := range s.dirs.nodes {
		if held {
			n.enter(key, s)
			continue
		}
		n.mu.Lock()
		b := n.dirs[key]
		n.mu.Unlock()
		if b != nil {
			n.leave(b, s)
		}
	}
	s.leaveGate()
}

// add puts e's path in n's batch (for -execdir, the one of e's
// directory), running the batch first if the path would not fit.
func (n *execNode) add(e *walker.Entry, s *State) {
	target, wd := string(e.Path), workDir{fd: -1}
	if n.inDir {
		target, wd = execdirTarget(e)
	}
	if len(target) >= maxArgStrlen {
		s.Out.Flush()
		s.Diag.FileError(e.Path, n.tooLong())
		return
	}
	need := len(target) + 1 + ptrSize
	var b *batch
	if n.inDir {
		b = s.dirBatch(n, e)
	}
	n.mu.Lock()
	if !n.inDir {
		if n.cur == nil {
			n.cur = &batch{n: n, sink: s.sink, diag: s.Diag, wd: workDir{fd: -1}}
		}
		b = n.cur
	}
	for len(b.files) > 0 && b.size+need > n.room {
		// Full: this worker runs what it holds, outside n.mu, while the
		// others go on filling the batch afresh.
		full := b.detach()
		n.mu.Unlock()
		full.run(s.Out)
		n.mu.Lock()
	}
	if len(b.files) == 0 && wd.fd >= 0 {
		// The walk closes its descriptor when it leaves the directory;
		// the batch may run later. Without a descriptor to spare, the
		// path will do.
		fd, err := unix.FcntlInt(uintptr(wd.fd), unix.F_DUPFD_CLOEXEC, 3)
		if err != nil {
			fd = -1
		}
		wd.fd = fd
	}
	if len(b.files) == 0 {
		b.wd = wd
	}
	b.files = append(b.files, target)
	b.size += need
	n.mu.Unlock()
}

// detach moves b's files (and working directory) to a new batch, to be
// run by the caller alone, and leaves b empty. n.mu is held.
func (b *batch) detach() *batch {
	full := &batch{n: b.n, sink: b.sink, diag: b.diag, files: b.files, size: b.size, key: b.key, wd: b.wd}
	b.files, b.size, b.wd = nil, 0, workDir{fd: -1}
	return full
}

// run runs the batch's command with its files, as many children as it
// takes, and empties it. A child that execve refuses for the size of
// its arguments (E2BIG: nothing ran) is retried with half as many
// files, so every file is passed exactly once. out, when not nil, is
// the running worker's Buffer, written first. The caller has the batch
// to itself: detached, out of n.dirs, or at Close.
func (b *batch) run(out *output.Buffer) {
	n := b.n
	files := b.files
	k := len(files)
	for len(files) > 0 {
		k = min(k, len(files))
		argv := append(slices.Clip(n.cmd), files[:k]...)
		switch launch(out, b.sink, b.diag, job{argv: argv, wd: b.wd, batch: true}) {
		case childTooBig:
			if k > 1 {
				k /= 2
				continue
			}
			b.diag.Errorf("%s: %s", b.diag.Quote(files[0]), output.Strerror(syscall.E2BIG))
		case childFailed:
			// -exec ... + stays true, but find's exit status is 1.
			b.diag.Fail()
		}
		files = files[k:]
	}
	clear(b.files)
	b.files, b.size = b.files[:0], 0
	if b.wd.fd >= 0 {
		unix.Close(b.wd.fd)
	}
	b.wd = workDir{fd: -1}
}

// close runs every batch still pending, once the walk is over and every
// worker's Buffer has been flushed: -exec's, then -execdir's by
// directory name.
func (n *execNode) close() error {
	n.mu.Lock()
	var pending []*batch
	if n.cur != nil && len(n.cur.files) > 0 {
		pending = append(pending, n.cur)
	}
	for _, k := range slices.Sorted(maps.Keys(n.dirs)) {
		if b := n.dirs[k]; len(b.files) > 0 {
			pending = append(pending, b)
		}
	}
	n.mu.Unlock()
	for _, b := range pending {
		b.run(nil)
	}
	return nil
}

// Stopping the running child when gfind is killed (cmd/gfind's signal
// handler calls Interrupt): a `kill -TERM` aimed at gfind alone must not
// leave its -exec child running, and no child may start after it.

// child is the running child, if any, and whether Interrupt was called.
var child struct {
	mu      sync.Mutex
	proc    *os.Process
	done    chan struct{} // closed once proc has been waited for
	stopped bool
}

var errInterrupted = errors.New("interrupted")

// startChild starts a child and records it for Interrupt, under the
// lock, so that Interrupt either sees it or stops it from starting.
func startChild(path string, argv []string, attr *os.ProcAttr) (*os.Process, error) {
	child.mu.Lock()
	defer child.mu.Unlock()
	if child.stopped {
		return nil, errInterrupted
	}
	proc, err := os.StartProcess(path, argv, attr)
	if err == nil {
		child.proc, child.done = proc, make(chan struct{})
	}
	return proc, err
}

// waitChild waits for the child startChild started, then forgets it.
func waitChild(proc *os.Process) (*os.ProcessState, error) {
	st, err := proc.Wait()
	child.mu.Lock()
	close(child.done)
	child.proc, child.done = nil, nil
	child.mu.Unlock()
	return st, err
}

func interrupted() bool {
	child.mu.Lock()
	defer child.mu.Unlock()
	return child.stopped
}

// Interrupt stops every child: none starts from now on, and the running
// one, if any, is sent sig, then SIGKILL if it has not ended after
// grace. It returns once the child has been waited for, or after a
// second grace period. (os.Process signals through a pidfd: a child
// already reaped cannot be confused with a new process of the same id.)
func Interrupt(sig os.Signal, grace time.Duration) {
	child.mu.Lock()
	child.stopped = true
	proc, done := child.proc, child.done
	child.mu.Unlock()
	if proc == nil {
		return
	}
	_ = proc.Signal(sig)
	select {
	case <-done:
		return
	case <-time.After(grace):
	}
	_ = proc.Kill()
	select {
	case <-done:
	case <-time.After(grace):
	}
}
