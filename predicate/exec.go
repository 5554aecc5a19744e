package predicate

// -exec, -execdir, -ok and -okdir.
//
// Children run without a shell, one at a time for the whole process
// (spawn.Run), as in GNU find, where evaluation is serial. What gfind
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
// Batch sizes: a batch is a command line as internal/spawn builds it,
// as large as the kernel takes; GNU find stops at 128 KiB, so it starts
// many more children for the same files (TestExecPlusEveryPathOnce
// logs the counts; a run's are in bench/NOTES.md, "-exec ... +
// batches").

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/gfind/gfind/internal/spawn"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
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
	// dirIdx is, for -execdir ... +, the node's index in
	// Command.execdirs and execdirState.lines.
	dirIdx int
	// lines builds the batches of "+": one every worker adds to, or for
	// -execdir one per directory (see enterDir).
	lines *spawn.Builder
	// sink and diag are the first State's to add a file: close, which
	// has no State, runs the batches left at the end through them.
	endOnce sync.Once
	sink    *output.Sink
	diag    *output.Diag
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
	room, ok := spawn.Room(os.Environ())
	if !ok {
		return p.errorf("The environment is too large for exec().")
	}
	if n.multi {
		n.lines = spawn.NewBuilder(n.cmd, room)
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
	target, dir := string(e.Path), spawn.Dir{}
	if n.inDir {
		target, dir = execdirTarget(e)
	}
	argv := make([]string, len(n.cmd))
	for i, w := range n.cmd {
		argv[i] = strings.ReplaceAll(w, "{}", target)
		if len(argv[i]) > spawn.MaxArgLen {
			s.Out.Flush()
			s.Diag.FileError(e.Path, n.tooLong())
			return false
		}
	}
	j := spawn.Job{Argv: argv, Dir: dir}
	if n.ask {
		j.Prompt = n.prompt(e.Path)
	}
	return launch(s.Out, s.sink, s.Diag, j) == spawn.OK
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
	return fmt.Errorf("cannot pass it to %s: one argument may hold at most %d bytes", n.program(), spawn.MaxArgLen)
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

// execdirTarget returns what -execdir passes for {} and where the child
// runs: "./name" in the directory that holds the file. For a starting
// point that is the directory part of its path (GNU's mdir_name) and
// "./" and the rest (base_name), or "/" alone for a name made only of
// slashes (no "./" before a name that starts with '/').
func execdirTarget(e *walker.Entry) (string, spawn.Dir) {
	if e.DirFD() != unix.AT_FDCWD {
		return "./" + string(e.AtName()), spawn.DirAt(e.DirFD(), string(e.Path[:e.NameOff]))
	}
	dir, base := splitRoot(string(e.Path))
	if base[0] == '/' {
		return base, spawn.Dir{Path: dir}
	}
	return "./" + base, spawn.Dir{Path: dir}
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

// launch runs j (spawn.Run). It writes what out (or, when out is nil,
// nothing: the caller flushed every Buffer) holds, then holds the
// standard output and the diagnostics while asking (-ok) and while the
// child runs, and reports a failure once they are free.
func launch(out *output.Buffer, sink *output.Sink, diag *output.Diag, j spawn.Job) spawn.Outcome {
	hold := func() (io.Writer, func()) {
		var release func()
		if out != nil {
			release = out.FlushHold()
		} else {
			release = sink.Hold()
		}
		stderr, releaseDiag := diag.Hold()
		return stderr, func() { releaseDiag(); release() }
	}
	res := spawn.Run(j, hold, func(err *spawn.Error) {
		if j.Line {
			// A batch's failure is the run's (the exit status says so),
			// and bfs's -noerror does not hide it either.
			diag.Notef("%s", childError(err, diag.Quote))
			return
		}
		// The child's complaint in GNU, which does not change find's
		// exit status by itself; -noerror hides it, as in bfs.
		diag.FileNotef("%s", childError(err, diag.Quote))
	})
	if res == spawn.Failed && j.Line {
		diag.Fail() // -exec ... + stays true, but find's exit status is 1
	}
	return res
}

// childError words err as GNU's child (or find) does.
func childError(err *spawn.Error, quote func(string) string) string {
	switch err.Op {
	case spawn.OpChdir:
		return "Failed to change directory: " + output.Strerror(err.Err)
	case spawn.OpWait:
		return "error waiting for " + quote(err.Prog) + ": " + output.Strerror(err.Err)
	case spawn.OpSignal:
		return fmt.Sprintf("%s terminated by signal %d", quote(err.Prog), int(err.Signal))
	}
	return quote(err.Prog) + ": " + output.Strerror(err.Err)
}

// -exec ... + and -execdir ... +: batches.
//
// Each -exec ... + has one batch (a command line, spawn.Line), shared by
// every worker, and each -execdir ... + one per directory, shared by the
// workers visiting that directory; spawn.Builder says when one runs.
//
// -execdir under a parallel walk: a worker is "in" the directory of the
// entry it last visited. It leaves it when it visits an entry of
// another directory (State.enterDir, before evaluating that entry, as
// GNU runs its pending -execdir batches when the walk moves on). A
// directory's batch runs when the last worker in it leaves, so memory
// stays bounded: at most one batch per worker and -execdir node, each
// at most the kernel's argument room, plus what -quit or a stop leaves
// for Close. A huge directory whose getdents chunks the walk hands out
// to other workers (walker.Options.PieceOut) counts, while a piece is out,
// as one more worker in it (State.PieceOut): the worker that took it may
// not have visited any of it yet, and the others may all have moved on.
// So a directory's batch is one child unless the argument room splits
// it, whatever the number of workers; GNU's gets one per stretch of the
// walk between subdirectories. With one worker (-j1) the batches run
// exactly where GNU runs them.

// execdirState is one worker's place among the -execdir ... + batches.
type execdirState struct {
	nodes   []*execNode   // the Command's -execdir ... + nodes
	lines   []*spawn.Line // per node, the batch of the directory this worker is in
	cur     string        // that directory, as dirKey names it
	entered bool          // cur is set
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
	if x.entered && string(key) == x.cur {
		return
	}
	k := string(key)
	for i, n := range x.nodes {
		if x.lines[i] != nil {
			n.leave(x.cur, s)
		}
		x.lines[i] = n.lines.Enter(k)
	}
	x.cur, x.entered = k, true
}

// dirLine returns n's batch for e's directory. Visit has entered it
// already, unless Eval is called alone or on a State made without n's
// Command (tests), which then tracks n too.
func (s *State) dirLine(n *execNode, e *walker.Entry) *spawn.Line {
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
			x.lines = append(x.lines, nil)
		}
	}
	s.enterDir(e)
	if x.lines[i] == nil {
		x.lines[i] = n.lines.Enter(x.cur)
	}
	return x.lines[i]
}

// leave counts a worker out of directory key and runs its batch if it
// was the last one. After -quit (or a stop) the batch is left for Close.
func (n *execNode) leave(key string, s *State) {
	keep := !s.act() || s.Stopped() // running the batch is an action; the gate comes before the Builder's lock
	if l := n.lines.Leave(key, keep); l != nil {
		n.run(l, s.Out, s.sink, s.Diag)
	}
}

// TracksPieces reports whether the expression keeps something per
// directory that must know of the pieces of a directory the walk hands
// out (State.PieceOut): -execdir ... + batches.
func (c *Command) TracksPieces() bool { return len(c.execdirs) > 0 }

// PieceOut is told, for the -execdir ... + batches, when the walk hands
// a piece of directory dir (as dirKey names it) to another worker (out)
// and when that piece's last visit is done (walker.Options.PieceOut): the
// directory's batch waits for the piece, as for a worker in it.
func (s *State) PieceOut(dir []byte, out bool) {
	if s.dirs == nil {
		return
	}
	key := string(dir)
	for _, n := range s.dirs.nodes {
		if out {
			n.lines.Enter(key)
		} else {
			n.leave(key, s)
		}
	}
	s.leaveGate()
}

// add puts e's path in n's batch (for -execdir, the one of e's
// directory), running the batch first if the path would not fit.
func (n *execNode) add(e *walker.Entry, s *State) {
	n.endOnce.Do(func() { n.sink, n.diag = s.sink, s.Diag })
	target, dir := string(e.Path), spawn.Dir{}
	if n.inDir {
		target, dir = execdirTarget(e)
	}
	if len(target) > spawn.MaxArgLen {
		s.Out.Flush()
		s.Diag.FileError(e.Path, n.tooLong())
		return
	}
	var l *spawn.Line
	if n.inDir {
		l = s.dirLine(n, e)
	}
	// Full: this worker runs what it holds, while the others go on
	// filling the batch afresh.
	n.lines.Add(l, target, dir, func(full *spawn.Line) { n.run(full, s.Out, s.sink, s.Diag) })
}

// run runs batch l: out, when not nil, is the running worker's Buffer,
// written first.
func (n *execNode) run(l *spawn.Line, out *output.Buffer, sink *output.Sink, diag *output.Diag) {
	n.lines.Run(l, func(j spawn.Job) spawn.Outcome {
		return launch(out, sink, diag, j)
	}, func(file string) {
		diag.Errorf("%s: %s", diag.Quote(file), output.Strerror(syscall.E2BIG))
	})
}

// close runs every batch still pending, once the walk is over and every
// worker's Buffer has been flushed: -exec's, then -execdir's by
// directory name.
func (n *execNode) close() error {
	for _, l := range n.lines.Pending() {
		n.run(l, nil, n.sink, n.diag)
	}
	return nil
}
