package spawn

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// A Dir is where a child runs: the directory open as a descriptor (the
// walk's during a visit, or one a Line owns: DirAt), else the one named
// by Path, relative to gfind's working directory; with a descriptor,
// Path is the fallback where the system has no /proc/self/fd. The zero
// Dir is gfind's own working directory.
type Dir struct {
	Path string
	fd   int
	open bool // fd is set
}

// DirAt is the directory open as fd, whose path is path.
func DirAt(fd int, path string) Dir { return Dir{Path: path, fd: fd, open: true} }

// A Job is one child to run.
type Job struct {
	Argv   []string
	Dir    Dir
	Prompt []byte // -ok, -okdir: ask this first
	// Line: the job is a command line of -exec ... +, for which an
	// E2BIG from execve is TooBig, to retry with fewer files, rather than
	// a failure to report.
	Line bool
}

// An Outcome is how a Job ended.
type Outcome int

const (
	OK       Outcome = iota // ran and exited 0
	Failed                  // exited non-zero, was killed, or could not be run
	Declined                // -ok was answered no
	TooBig                  // execve said E2BIG to a Line: nothing ran
)

// An Op is the step of a Job that failed.
type Op int

const (
	OpChdir  Op = iota // changing to the Job's Dir
	OpExec             // finding or starting the program
	OpWait             // waiting for the child
	OpSignal           // the child was killed by Signal
)

// An Error is why a Job failed, for Run's caller to report in its own
// words (GNU find's child reports most of these itself).
type Error struct {
	Op     Op
	Prog   string // the program, as Argv[0] names it
	Err    error  // the system's error, but for OpSignal
	Signal syscall.Signal
}

func (e *Error) Error() string {
	switch e.Op {
	case OpChdir:
		return "Failed to change directory: " + e.Err.Error()
	case OpWait:
		return "error waiting for " + e.Prog + ": " + e.Err.Error()
	case OpSignal:
		return fmt.Sprintf("%s terminated by signal %d", e.Prog, int(e.Signal))
	}
	return e.Prog + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// runMu lets one child (or -ok question) happen at a time.
var runMu sync.Mutex

// Run runs j to completion, one Job at a time for the whole process.
// With the runner to itself, it calls hold, which quiets the caller's
// own output and returns where the -ok prompt goes and the function
// that ends the quiet; Run calls that once the child has ended, then
// report with the failure to report, if any (not for TooBig, nor for a
// child that merely exited non-zero), still before any other Job
// starts, so that the message comes right after the child's output.
func Run(j Job, hold func() (prompt io.Writer, release func()), report func(*Error)) Outcome {
	runMu.Lock()
	defer runMu.Unlock()
	prompt, release := hold()
	res, err := run(j, prompt)
	release()
	if err != nil {
		report(err)
	}
	return res
}

// run asks (for -ok), then starts the child and waits for it.
func run(j Job, prompt io.Writer) (Outcome, *Error) {
	stdin := os.Stdin
	if j.Prompt != nil {
		_, _ = prompt.Write(j.Prompt)
		if !answerYes() {
			return Declined, nil
		}
		// GNU gives the child /dev/null so that it cannot eat the
		// answers meant for find.
		stdin = devNull()
	}
	attr := &os.ProcAttr{Files: []*os.File{stdin, os.Stdout, os.Stderr}}
	switch {
	case j.Dir.open:
		// Checked here because the child's chdir failing would be
		// reported as a failure of execve.
		if err := unix.Faccessat(j.Dir.fd, ".", unix.X_OK, 0); err != nil {
			return Failed, &Error{Op: OpChdir, Err: err}
		}
		attr.Dir = dirName(j.Dir)
	case j.Dir.Path != "":
		attr.Dir = j.Dir.Path
	}
	name := j.Argv[0]
	path, err := lookPath(name)
	if err != nil {
		return Failed, &Error{Op: OpExec, Prog: name, Err: err}
	}
	proc, err := startChild(path, j.Argv, attr)
	if errors.Is(err, syscall.ENOEXEC) {
		// execvp runs a file without a #! line with the shell.
		proc, err = startChild("/bin/sh", append([]string{"/bin/sh", path}, j.Argv[1:]...), attr)
	}
	if errors.Is(err, errInterrupted) {
		return Failed, nil // gfind is dying of a signal
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && pe.Op == "chdir" {
			return Failed, &Error{Op: OpChdir, Err: pe.Err}
		}
		if errors.Is(err, syscall.E2BIG) && j.Line {
			return TooBig, nil
		}
		return Failed, &Error{Op: OpExec, Prog: name, Err: err}
	}
	st, err := waitChild(proc)
	if interrupted() {
		return Failed, nil // we killed it; gfind is dying of the signal
	}
	if err != nil {
		return Failed, &Error{Op: OpWait, Prog: name, Err: err}
	}
	ws, _ := st.Sys().(syscall.WaitStatus)
	switch {
	case ws.Signaled():
		return Failed, &Error{Op: OpSignal, Prog: name, Signal: ws.Signal()}
	case ws.ExitStatus() != 0:
		return Failed, nil
	}
	return OK, nil
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

// stdinLines reads the answers to -ok's questions from stdinFile, the
// os.Stdin it was made for on first use (made again if os.Stdin is
// replaced, as tests do). It is buffered, like GNU's stdin, and used only
// with runMu held.
var (
	stdinLines *bufio.Reader
	stdinFile  *os.File
)

// answerYes reads one line from the standard input and reports whether
// it is a yes: GNU's yesno uses rpmatch, whose answer in the C locale is
// yes for a line starting with 'y' or 'Y'. End of input is no.
func answerYes() bool {
	if stdinLines == nil || stdinFile != os.Stdin {
		stdinLines, stdinFile = bufio.NewReader(os.Stdin), os.Stdin
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
