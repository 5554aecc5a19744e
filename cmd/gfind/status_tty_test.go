package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
	"golang.org/x/sys/unix"
)

// TestTermWidth checks what decides whether the status line is drawn:
// TIOCGWINSZ on the descriptor. A pseudo-terminal is one, with its
// width; a file and a pipe are not.
func TestTermWidth(t *testing.T) {
	ptmx, pts := ptyPair(t)
	for _, cols := range []uint16{0, 37, 100} {
		if err := unix.IoctlSetWinsize(int(ptmx.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 20, Col: cols}); err != nil {
			t.Fatal(err)
		}
		want := int(cols)
		if cols == 0 {
			want = 80
		}
		if w, ok := termWidth(int(pts.Fd())); !ok || w != want {
			t.Errorf("pty of %d columns: termWidth = %d, %v; want %d, true", cols, w, ok, want)
		}
	}

	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, fd := range map[string]uintptr{"file": f.Fd(), "pipe": w.Fd()} {
		if _, ok := termWidth(int(fd)); ok {
			t.Errorf("termWidth of a %s: a terminal", name)
		}
	}
}

// statusRe matches the status line (formatStatus).
var statusRe = regexp.MustCompile(`([0-9]+) entries, [0-9]+ directories, [0-9]+ matches, [0-9]+/s, [0-9]+:[0-9]{2}`)

// tmuxTerm is a tmux server of the test's own, with one window running
// a shell command line: a real terminal to watch gfind's stderr in.
type tmuxTerm struct {
	t          *testing.T
	tmux, sock string
	width      int
}

// newTmux starts line in a detached tmux window width columns wide.
func newTmux(t *testing.T, width int, line string) *tmuxTerm {
	t.Helper()
	// The server's socket is in a directory of the test's own (short:
	// a socket's path is limited to 107 bytes), so that nothing is left
	// in /tmp/tmux-UID once the test is over.
	dir, err := os.MkdirTemp("", "gfind-tmux")
	if err != nil {
		t.Fatal(err)
	}
	tm := &tmuxTerm{t: t, tmux: testtool.Need(t, "tmux", "tmux"), width: width,
		sock: filepath.Join(dir, "sock")}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if o, err := tm.run("new-session", "-d", "-x", strconv.Itoa(width), "-y", "20", line); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, o)
	}
	t.Cleanup(func() { tm.run("kill-server") })
	return tm
}

func (tm *tmuxTerm) run(args ...string) (string, error) {
	cmd := exec.Command(tm.tmux, append([]string{"-S", tm.sock, "-f", "/dev/null"}, args...)...)
	cmd.Env = append(os.Environ(), "TMUX=") // not nested in the test's own tmux
	b, err := cmd.CombinedOutput()
	return string(b), err
}

// pane returns what the window shows, and checks that every status line
// in it fits its width less one column.
func (tm *tmuxTerm) pane() string {
	tm.t.Helper()
	o, err := tm.run("capture-pane", "-p")
	if err != nil {
		tm.t.Fatalf("tmux capture-pane: %v\n%s", err, o)
	}
	for _, l := range strings.Split(o, "\n") {
		if statusRe.MatchString(l) && len([]rune(l)) > tm.width-1 {
			tm.t.Errorf("status line of %d columns in a %d-column terminal: %q", len([]rune(l)), tm.width, l)
		}
	}
	return o
}

// resize makes the window width columns wide.
func (tm *tmuxTerm) resize(width int) {
	tm.t.Helper()
	if o, err := tm.run("resize-window", "-x", strconv.Itoa(width)); err != nil {
		tm.t.Fatalf("tmux resize-window: %v\n%s", err, o)
	}
	tm.width = width
}

// poll waits until cond holds of the window's contents, and returns them.
func (tm *tmuxTerm) poll(what string, cond func(string) bool) string {
	tm.t.Helper()
	var last string
	if !testtool.Poll(func() bool {
		last = tm.pane()
		return cond(last)
	}) {
		tm.t.Fatalf("no %s in the terminal within %v; it shows:\n%s", what, testtool.WaitLimit, last)
	}
	return last
}

// rows returns the rows of a pane that are not empty.
func rows(p string) []string {
	var r []string
	for _, l := range strings.Split(p, "\n") {
		if l = strings.TrimRight(l, " "); l != "" {
			r = append(r, l)
		}
	}
	return r
}

// entries returns the count the status line in p shows, or -1.
func entries(p string) int {
	m := statusRe.FindStringSubmatch(p)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// outFIFO makes the FIFO dir/name, for gfind's standard output, and
// opens it for reading: the test holds the walk up by not reading it
// (the workers wait in write(2) with the counts standing). It is opened
// before gfind's shell opens it, so that the shell's open does not wait;
// reads wait for data in Go's poller.
func outFIFO(t *testing.T, dir, name string) *os.File {
	t.Helper()
	fifo := filepath.Join(dir, name)
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	return out
}

// gfindLine is the shell's words for running the test's gfind.
func gfindLine(t *testing.T) string {
	bin := gfindBin(t)
	return fmt.Sprintf("env LC_ALL=C %s=%s %s", binEnv, bin, bin)
}

// TestStatusTmux runs gfind -status in a real terminal, tmux's, 100
// columns wide: the line appears, is redrawn with new counts, fits the
// width, and is gone at the end. (A -exec handshake would not hold the
// walk up with the line shown: it is not drawn while a child runs.)
func TestStatusTmux(t *testing.T) {
	root := testtree.Make(t, testtree.Wide(5000))
	out := outFIFO(t, root, "out")
	// -j2 and 201 bytes a file: a megabyte of output, many times what
	// the workers' buffers and the pipe hold.
	tm := newTmux(t, 100, fmt.Sprintf("cd %s && %s -j2 wide -status -printf '%%-200p\\n' >out; echo DONE; sleep 600",
		root, gfindLine(t)))

	first := entries(tm.poll("status line", func(p string) bool { return entries(p) > 0 }))
	// Let the walk go on a little at a time until the line shows more.
	buf := make([]byte, 32<<10)
	var got int
	for got = first; got <= first; got = entries(tm.pane()) {
		if _, err := io.ReadFull(out, buf); err != nil {
			t.Fatalf("output ended (%v) before the status line showed more than %d entries", err, first)
		}
		// A worker publishes its counts every 64 visits, and the line is
		// redrawn at the next tick: wait for a new count, or for the walk
		// to be held up again.
		tm.poll("redrawn line", func(p string) bool {
			return entries(p) != first || pipeFull(out) || strings.Contains(p, "DONE")
		})
	}
	t.Logf("status line went from %d to %d entries", first, got)

	if _, err := io.Copy(io.Discard, out); err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	end := tm.poll("DONE", func(p string) bool { return strings.Contains(p, "DONE") })
	if r := rows(end); !slices.Equal(r, []string{"DONE"}) {
		t.Errorf("the terminal shows %q at the end, want only DONE", r)
	}
}

// TestStatusTmuxErase checks, in tmux, that the line follows the
// terminal's width (SIGWINCH) and is erased for a -ok prompt and a
// diagnostic: -j1 walks the starting points in turn, a long-named
// directory (the walk held up there), then one with the file -ok asks
// about, then one that does not exist.
func TestStatusTmuxErase(t *testing.T) {
	root := t.TempDir()
	long := filepath.Join(root, "a-directory-whose-name-is-too-long-for-the-status-line")
	for _, d := range []string{long, filepath.Join(root, "ok")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3000 {
		if err := os.WriteFile(filepath.Join(long, fmt.Sprintf("f%04d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "ok", "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := outFIFO(t, root, "out")
	tm := newTmux(t, 100, fmt.Sprintf(
		"cd %s && %s -j1 %s ok nosuch -status -name x -ok true {} ';' -o -printf '%%-200p\\n' >out; echo DONE $?; sleep 600",
		root, gfindLine(t), long))

	// At 100 columns the directory is cut from the left ("..." in the C
	// locale); at 160 it is whole.
	tm.poll("cut status line", func(p string) bool {
		l := statusRe.FindString(p)
		_, tail, cut := strings.Cut(p[strings.Index(p, l)+len(l):], " ...")
		tail, _, _ = strings.Cut(tail, "\n")
		return l != "" && cut && tail != "" && strings.HasSuffix(long, tail)
	})
	tm.resize(160)
	tm.poll("status line for 160 columns", func(p string) bool {
		return entries(p) > 0 && strings.Contains(p, " "+long)
	})

	go io.Copy(io.Discard, out)     // the walk goes on to ok/x and the prompt
	prompt := "< true ... ok/x > ?" // capture-pane drops the space after it
	p := tm.poll("-ok prompt", func(p string) bool { return strings.Contains(p, prompt) })
	if r := rows(p); len(r) == 0 || r[len(r)-1] != strings.TrimSpace(prompt) {
		t.Errorf("the prompt is not alone on the last row: %q", r)
	}
	if entries(p) >= 0 {
		t.Errorf("the status line is shown with the -ok prompt:\n%s", p)
	}
	if o, err := tm.run("send-keys", "y", "Enter"); err != nil {
		t.Fatalf("tmux send-keys: %v\n%s", err, o)
	}
	end := tm.poll("DONE", func(p string) bool { return strings.Contains(p, "DONE") })
	want := []string{strings.TrimSpace(prompt) + " y", "gfind: 'nosuch': No such file or directory", "DONE 1"}
	if r := rows(end); !slices.Equal(r, want) {
		t.Errorf("the terminal shows %q at the end, want %q", r, want)
	}
}

// TestStatusTmuxSignal checks, in tmux, that a gfind in a session of its
// own (setsid: the terminal is not its controlling terminal, so it is in
// no foreground process group) shows the line, and erases it when it
// dies of SIGTERM.
func TestStatusTmuxSignal(t *testing.T) {
	root := testtree.Make(t, testtree.Wide(3000))
	outFIFO(t, root, "out") // never read: the walk is held up until the signal
	tm := newTmux(t, 100, fmt.Sprintf(
		"cd %s; setsid %s -j1 wide -status -printf '%%-200p\\n' >out & echo $! >pid; wait $!; echo DONE $?; sleep 600",
		root, gfindLine(t)))
	tm.poll("status line", func(p string) bool { return entries(p) > 0 })
	b, err := os.ReadFile(filepath.Join(root, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// gfind waits up to writeGrace for its write to the full FIFO, then
	// dies of the signal.
	end := tm.poll("DONE", func(p string) bool { return strings.Contains(p, "DONE") })
	if r := rows(end); !slices.Equal(r, []string{"DONE 143"}) {
		t.Errorf("the terminal shows %q at the end, want only DONE 143", r)
	}
}

// TestStatusTmuxPipe checks, in tmux, that gfind -status | head erases
// the line when the reader goes: gfind sees the EPIPE on its own
// duplicate of standard output and dies of SIGPIPE after erasing it.
// The reader takes one byte and then waits on a FIFO, gate, that the
// test opens once the line is shown.
func TestStatusTmuxPipe(t *testing.T) {
	bash := testtool.Need(t, "bash", "bash")
	root := testtree.Make(t, testtree.Wide(3000))
	gate := filepath.Join(root, "gate")
	if err := unix.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "run.sh")
	body := fmt.Sprintf("cd %s\n%s -j1 wide -status -printf '%%-200p\\n' | { head -c 1 >/dev/null; cat gate; }\necho DONE ${PIPESTATUS[0]}\nsleep 600\n",
		root, gfindLine(t))
	if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := newTmux(t, 100, bash+" "+script)
	tm.poll("status line", func(p string) bool { return entries(p) > 0 })
	g, err := os.OpenFile(gate, os.O_WRONLY, 0) // the reader waits in its open
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	end := tm.poll("DONE", func(p string) bool { return strings.Contains(p, "DONE") })
	if r := rows(end); !slices.Equal(r, []string{"DONE 141"}) {
		t.Errorf("the terminal shows %q at the end, want only DONE 141", r)
	}
}

// TestStatusNotTerminal checks that -status writes nothing when
// standard error is not a terminal, over a walk long enough to draw:
// held up for a second by its output, while a twin in tmux, the
// positive control and the clock, shows its line for as long.
func TestStatusNotTerminal(t *testing.T) {
	root := testtree.Make(t, testtree.Wide(3000))
	out := outFIFO(t, root, "out") // the twin's, in tmux
	out2 := outFIFO(t, root, "out2")
	w, err := os.OpenFile(out2.Name(), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	errFile := filepath.Join(root, "err")
	stderr, err := os.Create(errFile)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-j1", "wide", "-status", "-printf", "%-200p\n"}
	cmd := exec.Command(gfindBin(t), args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = root, testEnv(), w, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	stderr.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	tm := newTmux(t, 100, fmt.Sprintf("cd %s && %s -j1 wide -status -printf '%%-200p\\n' >out; echo DONE; sleep 600",
		root, gfindLine(t)))
	tm.poll("status line at 0:01", func(p string) bool { return strings.Contains(p, ", 0:01 ") })
	select {
	case err := <-done:
		t.Fatalf("gfind ended (%v) before the twin had shown its line for a second", err)
	default:
	}
	if b, err := os.ReadFile(errFile); err != nil || len(b) > 0 {
		t.Errorf("-status wrote %q (%v) to a stderr that is a file", b, err)
	}
	for _, r := range []*os.File{out, out2} {
		go io.Copy(io.Discard, r)
	}
	if err := <-done; err != nil {
		t.Errorf("gfind: %v", err)
	}
	if b, err := os.ReadFile(errFile); err != nil || len(b) > 0 {
		t.Errorf("-status wrote %q (%v) to a stderr that is a file", b, err)
	}
}

// TestStatusTmuxExecResize checks, in tmux, that the line follows a
// width that changed while a -exec child ran: the child itself makes the
// window narrower (tmux resize-window, as a user's command may; stty
// cols; or tmux from an interactive shell, which has the terminal for a
// process group of its own, so that gfind gets no SIGWINCH), and once it
// is done the line is redrawn within the new width, on a row of its own,
// and erased at the end. -j1 walks the starting points in turn: a
// long-named directory, held up with the line shown at 100 columns; the
// file the child runs for; another long-named directory, held up again
// until the line is seen at the new width.
func TestStatusTmuxExecResize(t *testing.T) {
	for _, how := range []string{"tmux", "stty", "job control"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			testStatusExecResize(t, how)
		})
	}
}

func testStatusExecResize(t *testing.T, how string) {
	root := t.TempDir()
	dirs := []string{
		filepath.Join(root, "a-first-directory-whose-name-is-long-enough-to-be-cut"),
		filepath.Join(root, "then-a-second-one-whose-name-is-long-enough-to-be-cut"),
	}
	for _, d := range dirs {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range 3000 {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%04d", i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(root, "resize-here"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	const narrow = 60
	out := outFIFO(t, root, "out")
	resized := filepath.Join(root, "resized")
	var resize string
	switch how {
	case "tmux":
		// The server of the window, which tmux finds in $TMUX.
		resize = fmt.Sprintf("%s resize-window -x %d", testtool.Need(t, "tmux", "tmux"), narrow)
	case "stty":
		resize = fmt.Sprintf("stty cols %d <&2", narrow) // the terminal is stderr: stdin is gfind's
	case "job control":
		// An interactive shell takes the terminal for a process group
		// of its own (and its commands for theirs): the terminal's
		// SIGWINCH goes there, not to gfind.
		resize = fmt.Sprintf(`%s -ic "%s resize-window -x %d"`, testtool.Need(t, "bash", "bash"), testtool.Need(t, "tmux", "tmux"), narrow)
	}
	tm := newTmux(t, 100, fmt.Sprintf(
		"cd %s && %s -j1 %s resize-here %s -status -name resize-here -exec sh -c '%s && touch resized' ';' -o -printf '%%-200p\\n' >out; echo DONE $?; sleep 600",
		root, gfindLine(t), dirs[0], dirs[1], resize))

	tm.poll("status line at 100 columns", func(p string) bool {
		l := statusRe.FindString(p)
		return l != "" && strings.Contains(p, l+" ...") && len(rows(p)) == 1
	})
	// Read the output until the child has run; then stop, so that the
	// walk is held up in the second directory with the line shown.
	readDone := make(chan error, 1)
	go func() {
		buf := make([]byte, 4<<10)
		for {
			if _, err := os.Stat(resized); err == nil {
				readDone <- nil
				return
			}
			if _, err := out.Read(buf); err != nil {
				readDone <- err
				return
			}
		}
	}()
	if err := <-readDone; err != nil {
		t.Fatalf("output ended (%v) before the child resized the terminal", err)
	}
	tm.width = narrow // pane checks every status line against it
	p := tm.poll(fmt.Sprintf("status line in the second directory at %d columns", narrow), func(p string) bool {
		return entries(p) > 3000 // a count of the second directory
	})
	if r := rows(p); len(r) != 1 || !statusRe.MatchString(r[0]) || len([]rune(r[0])) > narrow-1 {
		t.Errorf("after the resize the terminal shows %q, want one status line of at most %d columns", r, narrow-1)
	}
	go io.Copy(io.Discard, out)
	end := tm.poll("DONE", func(p string) bool { return strings.Contains(p, "DONE") })
	if r := rows(end); !slices.Equal(r, []string{"DONE 0"}) {
		t.Errorf("the terminal shows %q at the end, want only DONE 0", r)
	}
}
