package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
	"golang.org/x/sys/unix"
)

// TestTermWidth checks what decides whether the status line is drawn:
// TIOCGWINSZ on the descriptor. A pseudo-terminal is one, with its
// width; a file and a pipe are not.
func TestTermWidth(t *testing.T) {
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	defer ptmx.Close()
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer pts.Close()
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

// TestStatusTmux runs gfind -status in a real terminal, tmux's, 100
// columns wide: the line appears, is redrawn with new counts, fits the
// width, and is gone at the end.
//
// The walk is held up without a clock: standard output is a FIFO that
// the test reads only when it wants the walk to go on, so the workers
// wait in write(2) with the counts standing (a -exec handshake would
// not do: the line is not drawn while a child runs).
func TestStatusTmux(t *testing.T) {
	tmux := testtool.Need(t, "tmux", "tmux")
	bin := gfindBin(t)
	root := testtree.Make(t, testtree.Wide(5000))
	fifo := filepath.Join(root, "out")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Open before gfind's shell does, so that its open for writing does
	// not wait; reads wait for data in Go's poller.
	out, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()

	sock := fmt.Sprintf("gfind-status-%d-%d", os.Getpid(), time.Now().UnixNano())
	tm := func(args ...string) (string, error) {
		cmd := exec.Command(tmux, append([]string{"-L", sock, "-f", "/dev/null"}, args...)...)
		cmd.Env = append(os.Environ(), "TMUX=") // not nested in the test's own tmux
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	// -j2 and 201 bytes a file: a megabyte of output, many times what
	// the workers' buffers and the pipe hold.
	line := fmt.Sprintf("cd %s && env LC_ALL=C %s=%s %s -j2 wide -status -printf '%%-200p\\n' >out; echo DONE; sleep 600",
		root, binEnv, bin, bin)
	if o, err := tm("new-session", "-d", "-x", "100", "-y", "20", line); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, o)
	}
	t.Cleanup(func() { tm("kill-server") })
	pane := func() string {
		o, err := tm("capture-pane", "-p")
		if err != nil {
			t.Fatalf("tmux capture-pane: %v\n%s", err, o)
		}
		return o
	}
	// entries returns the count the status line shows, or -1.
	entries := func(p string) int {
		m := statusRe.FindStringSubmatch(p)
		if m == nil {
			return -1
		}
		for _, l := range strings.Split(p, "\n") {
			if statusRe.MatchString(l) && len([]rune(l)) > 99 {
				t.Errorf("status line of %d columns in a 100-column terminal: %q", len([]rune(l)), l)
			}
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	poll := func(what string, cond func(string) bool) string {
		t.Helper()
		var last string
		if !testtool.Poll(func() bool {
			time.Sleep(10 * time.Millisecond) // tmux's own pace, not a wait for gfind
			last = pane()
			return cond(last)
		}) {
			t.Fatalf("no %s in the terminal within %v; it shows:\n%s", what, testtool.WaitLimit, last)
		}
		return last
	}

	first := entries(poll("status line", func(p string) bool { return entries(p) > 0 }))
	// Let the walk go on a little at a time until the line shows more.
	buf := make([]byte, 32<<10)
	var got int
	for got = first; got <= first; got = entries(pane()) {
		if _, err := io.ReadFull(out, buf); err != nil {
			t.Fatalf("output ended (%v) before the status line showed more than %d entries", err, first)
		}
		// The worker publishes its counts at its next visit and the line
		// is redrawn at the next tick: wait for either a new count or the
		// walk to be held up again.
		poll("redrawn line", func(p string) bool {
			return entries(p) != first || pipeFull(out) || strings.Contains(p, "DONE")
		})
	}
	t.Logf("status line went from %d to %d entries", first, got)

	if _, err := io.Copy(io.Discard, out); err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	end := poll("DONE", func(p string) bool { return strings.Contains(p, "DONE") })
	if strings.Contains(end, "entries,") {
		t.Errorf("the status line is still there at the end:\n%s", end)
	}
	if strings.TrimSpace(end) != "DONE" {
		t.Errorf("the terminal shows more than DONE at the end:\n%s", end)
	}
}

// pipeFull reports whether the FIFO read by r is full, to a page (of
// the 64 KiB a pipe holds): its writer waits again.
func pipeFull(r *os.File) bool {
	n, err := unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ) // FIONREAD
	return err == nil && n >= 60<<10
}
