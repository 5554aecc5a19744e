package spawn

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// runJob runs j with nothing to quiet and the prompt going to prompt;
// it returns the outcome and the error reported, if any.
func runJob(t *testing.T, j Job, prompt io.Writer) (Outcome, *Error) {
	t.Helper()
	var got *Error
	hold := func() (io.Writer, func()) { return prompt, func() {} }
	res := Run(j, hold, func(err *Error) {
		if got != nil {
			t.Errorf("reported twice: %v, then %v", got, err)
		}
		got = err
	})
	return res, got
}

// TestRun: how a child ends, and what of it is a failure to report.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "script") // no #! line: run by /bin/sh
	if err := os.WriteFile(script, []byte("exit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// 80 words of 100 KiB: each fits, together they pass any system's
	// limit (Linux takes 6 MiB at most).
	big := []string{"true"}
	for range 80 {
		big = append(big, strings.Repeat("w", 100<<10))
	}
	tests := []struct {
		name string
		job  Job
		want Outcome
		err  *Error // Op, Prog, Err and Signal compared
	}{
		{"exit 0", Job{Argv: []string{"true"}}, OK, nil},
		{"exit 1", Job{Argv: []string{"false"}}, Failed, nil},
		{"no #! line", Job{Argv: []string{script}}, Failed, nil},
		{"missing", Job{Argv: []string{"nosuch-gfind-test"}}, Failed, &Error{Op: OpExec, Prog: "nosuch-gfind-test", Err: syscall.ENOENT}},
		{"missing by path", Job{Argv: []string{dir + "/nosuch"}}, Failed, &Error{Op: OpExec, Prog: dir + "/nosuch", Err: syscall.ENOENT}},
		{"a directory", Job{Argv: []string{"/"}}, Failed, &Error{Op: OpExec, Prog: "/", Err: syscall.EACCES}},
		{"killed", Job{Argv: []string{"sh", "-c", "kill -9 $$"}}, Failed, &Error{Op: OpSignal, Prog: "sh", Signal: syscall.SIGKILL}},
		{"terminated", Job{Argv: []string{"sh", "-c", "kill $$"}}, Failed, &Error{Op: OpSignal, Prog: "sh", Signal: syscall.SIGTERM}},
		{"no such dir", Job{Argv: []string{"true"}, Dir: Dir{Path: dir + "/nosuch"}}, Failed, &Error{Op: OpChdir, Err: syscall.ENOENT}},
		{"too big", Job{Argv: big}, Failed, &Error{Op: OpExec, Prog: "true", Err: syscall.E2BIG}},
		{"too big line", Job{Argv: big, Line: true}, TooBig, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := runJob(t, tt.job, io.Discard)
			if res != tt.want {
				t.Errorf("outcome %d, want %d", res, tt.want)
			}
			switch {
			case tt.err == nil && err != nil:
				t.Errorf("reported %v, want nothing", err)
			case tt.err != nil && err == nil:
				t.Errorf("reported nothing, want %v", tt.err)
			case tt.err != nil && (err.Op != tt.err.Op || err.Prog != tt.err.Prog || err.Signal != tt.err.Signal || !errors.Is(err.Err, tt.err.Err)):
				t.Errorf("reported %#v, want %#v", err, tt.err)
			}
		})
	}
}

// TestRunDir: the child runs in the directory open as its Dir, whatever
// Dir.Path says where /proc/self/fd is there, and one it may not search
// is refused before it starts.
func TestRunDir(t *testing.T) {
	dir := t.TempDir()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if res, err := runJob(t, Job{Argv: []string{"sh", "-c", "echo > here"}, Dir: DirAt(fd, dir)}, io.Discard); res != OK || err != nil {
		t.Fatalf("got %d, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "here")); err != nil {
		t.Errorf("the child did not run in its Dir: %v", err)
	}
	file, err := unix.Open(filepath.Join(dir, "here"), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(file)
	if res, err := runJob(t, Job{Argv: []string{"true"}, Dir: DirAt(file, dir)}, io.Discard); res != Failed || err == nil || err.Op != OpChdir {
		t.Errorf("a Dir that is not a directory: got %d, %v", res, err)
	}
}

// TestRunPrompt: the prompt is written before the answer is read from
// the standard input: a line starting with y or Y is yes, anything else
// and the end of input no; the child gets /dev/null as its input.
func TestRunPrompt(t *testing.T) {
	in, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, err := in.WriteString("y\nno\nYes\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	saved := os.Stdin
	os.Stdin = in
	defer func() { os.Stdin = saved }()
	// The child fails if it reads anything.
	job := Job{Argv: []string{"sh", "-c", "! read x"}, Prompt: []byte("< sh ... f > ? ")}
	var prompts strings.Builder
	for i, want := range []Outcome{OK, Declined, OK, Declined} {
		if res, err := runJob(t, job, &prompts); res != want || err != nil {
			t.Errorf("answer %d: got %d, %v, want %d", i+1, res, err, want)
		}
	}
	if got := prompts.String(); got != strings.Repeat("< sh ... f > ? ", 4) {
		t.Errorf("prompts %q", got)
	}
}

// TestInterrupt: the running child is sent the signal (SIGKILL when it
// ignores it), Run reports nothing of it, and no child starts after.
func TestInterrupt(t *testing.T) {
	defer func() {
		child.mu.Lock()
		child.stopped = false
		child.mu.Unlock()
	}()
	for _, tt := range []struct {
		name, script string
		grace        time.Duration
	}{
		{"TERM", "exec sleep 1000", time.Hour}, // Interrupt returns once it is dead
		{"ignored", "trap '' TERM; while :; do sleep 1; done", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			child.mu.Lock()
			child.stopped = false
			child.mu.Unlock()
			fifo := filepath.Join(t.TempDir(), "fifo")
			if err := unix.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			type result struct {
				res Outcome
				err *Error
			}
			done := make(chan result)
			go func() {
				res, err := runJob(t, Job{Argv: []string{"sh", "-c", "echo > " + fifo + "; " + tt.script}}, io.Discard)
				done <- result{res, err}
			}()
			// The child has started once it opens the fifo.
			if _, err := os.ReadFile(fifo); err != nil {
				t.Fatal(err)
			}
			Interrupt(syscall.SIGTERM, tt.grace)
			if r := <-done; r.res != Failed || r.err != nil {
				t.Errorf("interrupted: got %d, %v; want %d and nothing reported", r.res, r.err, Failed)
			}
			if res, err := runJob(t, Job{Argv: []string{"true"}}, io.Discard); res != Failed || err != nil {
				t.Errorf("after Interrupt: got %d, %v; want %d and nothing reported", res, err, Failed)
			}
		})
	}
}

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "noexec"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prog"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", "/nonexistent:"+dir)
	tests := []struct {
		name, want string
		err        error
	}{
		{"prog", dir + "/prog", nil},
		{"nosuch", "", syscall.ENOENT},
		{"noexec", "", syscall.EACCES}, // found but not executable
		{"adir", "", syscall.EACCES},
		{"", "", syscall.ENOENT},
		{"./x", "./x", nil}, // a slash: not looked up
		{"/bin/nosuch", "/bin/nosuch", nil},
	}
	for _, tt := range tests {
		got, err := lookPath(tt.name)
		if got != tt.want || err != tt.err {
			t.Errorf("lookPath(%q) = %q, %v, want %q, %v", tt.name, got, err, tt.want, tt.err)
		}
	}
	t.Setenv("PATH", "")
	os.Unsetenv("PATH")
	if got, err := lookPath("sh"); err != nil || (got != "/bin/sh" && got != "/usr/bin/sh") {
		t.Errorf("with PATH unset, lookPath(sh) = %q, %v, want the default path's", got, err)
	}
}
