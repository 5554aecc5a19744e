package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
)

// Issue 6 item 11: SIGINT and SIGTERM while a -exec child runs or while
// -delete deletes. gfind must die promptly of the signal (a shell shows
// 130 or 143), leave no child running, start no new child, and leave
// standard output ending with a whole record (signal.go).
//
// Deterministic: the -exec child writes its pid to a file and sleeps;
// the test waits for the file, signals gfind alone (as `kill` in a
// script does: the child is not signalled by the test), and checks.
// Every wait is for a condition, under a deadline (waitFor) far beyond
// what a busy machine takes; the grace that a case does not measure is
// made as long (graceEnv), so that only gfind's own choice can make it
// wait that long.

// sigCase is one row of TestSignals.
type sigCase struct {
	name string
	sig  syscall.Signal
	// args, after "-j1 tree"; $PID is the pid file's path and $SECOND
	// the path a second child would write if it started.
	args string
	// ignoresSig: the child ignores the signal, so gfind must SIGKILL it.
	ignoresSig bool
	// deletes: the expression deletes; check that the deletion stopped.
	deletes bool
}

// sleeper is a child that writes its pid and sleeps as that pid (exec),
// so that the pid in the file is the process gfind must end.
const sleeper = `sh -c 'echo $$ > $PID; exec sleep 3600' sh {}`

var sigCases = []sigCase{
	{name: "term/exec-plus-pending", sig: syscall.SIGTERM,
		// The first batch's child sleeps; the second batch is pending
		// and must never start.
		args: `-print -exec ` + sleeper + ` + -exec sh -c 'echo $$ > $SECOND' sh {} +`},
	{name: "int/exec-plus-pending", sig: syscall.SIGINT,
		args: `-print -exec ` + sleeper + ` + -exec sh -c 'echo $$ > $SECOND' sh {} +`},
	{name: "term/exec-semicolon", sig: syscall.SIGTERM,
		// The walk is stopped inside its first child; a later child
		// (any child once the pid file exists) would write $SECOND.
		args: `-print -exec sh -c '[ -e $PID ] && exec touch $SECOND; echo $$ > $PID; exec sleep 3600' sh {} ;`},
	{name: "term/child-ignores-term", sig: syscall.SIGTERM, ignoresSig: true,
		args: `-print -exec sh -c 'trap "" TERM; echo $$ > $PID; exec sleep 3600' sh {} +`},
	{name: "term/delete", sig: syscall.SIGTERM, deletes: true,
		args: `-depth -delete -name f0500 -exec ` + sleeper + ` ;`},
	{name: "int/delete", sig: syscall.SIGINT, deletes: true,
		args: `-depth -delete -name f0500 -exec ` + sleeper + ` ;`},
}

func TestSignals(t *testing.T) {
	if gnuMode() {
		// GNU find leaves its child running: this is gfind's own behaviour.
		t.Skip("gfind's own behaviour")
	}
	gfind := gfindBin(t)
	for _, c := range sigCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tree := filepath.Join(dir, "tree")
			const files = 1000
			if err := os.Mkdir(tree, 0o755); err != nil {
				t.Fatal(err)
			}
			for i := range files {
				if err := os.WriteFile(filepath.Join(tree, fmt.Sprintf("f%04d", i)), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			pidFile, second := filepath.Join(dir, "pid"), filepath.Join(dir, "second")
			args := []string{"-j1", tree}
			for _, w := range shellWords(c.args) {
				w = strings.ReplaceAll(w, "$PID", pidFile)
				args = append(args, strings.ReplaceAll(w, "$SECOND", second))
			}
			// A child that obeys the signal must not make gfind wait for
			// the grace: make it a deadline. A child that ignores it
			// gets the real one, and then SIGKILL.
			grace := waitLimit
			if c.ignoresSig {
				grace = childGrace
			}
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(gfind, args...)
			cmd.Env = append(testEnv(), fmt.Sprintf("%s=%v %v", graceEnv, grace, waitLimit))
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			child := waitPidFile(t, pidFile)
			// The walk is blocked in the child: what is left now is what
			// must be left after the signal.
			left := countEntries(t, tree)
			if c.ignoresSig {
				// Wait until the trap has been set (exec sleep follows it).
				waitComm(t, child, "sleep")
			}
			start := time.Now()
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			took := time.Since(start)

			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != c.sig {
				t.Errorf("gfind ended with %v (%v), want killed by %v; stderr %q", cmd.ProcessState, err, c.sig, stderr.String())
			}
			if c.ignoresSig && took < grace {
				t.Errorf("gfind died %v after the signal, before its child's grace of %v was over", took, grace)
			}
			if limit := grace + waitLimit; c.ignoresSig && took > limit {
				t.Errorf("gfind took %v to die, more than %v: its child was not killed after the grace", took, limit)
			}
			if !c.ignoresSig && took >= grace {
				t.Errorf("gfind took %v to die of a signal its child obeys: it waited for the grace", took)
			}
			if alive(child) {
				t.Errorf("the -exec child %d is still running", child)
				syscall.Kill(child, syscall.SIGKILL)
			}
			if _, err := os.Stat(second); err == nil {
				t.Errorf("a child started after the signal")
			}
			if stderr.Len() > 0 {
				t.Errorf("stderr %q, want nothing (the signal is the report)", stderr.String())
			}
			out := stdout.String()
			if out != "" && !strings.HasSuffix(out, "\n") {
				t.Errorf("stdout ends with a partial record: %q", out[max(0, len(out)-40):])
			}
			for _, l := range splitRecords(out, "\n") {
				if l != tree && !strings.HasPrefix(l, tree+"/f") {
					t.Errorf("stdout has a record that is not a path: %q", l)
					break
				}
			}
			if c.deletes {
				after := countEntries(t, tree)
				if after != left {
					t.Errorf("%d entries left when the child ran, %d after the signal: the walk went on", left, after)
				}
				if left == 0 || left == files {
					t.Errorf("%d of %d entries left: the test did not stop -delete in the middle", left, files)
				}
			}
		})
	}
}

// waitLimit is how long a test waits for a condition that a prompt
// program meets in milliseconds: far beyond what a busy machine takes,
// and still short of the children's sleep 3600.
const waitLimit = testtool.WaitLimit

// waitFor polls cond until it holds, and fails t when it still does not
// after waitLimit; what says what was waited for.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !testtool.Poll(cond) {
		t.Fatalf("waited %v for %s", waitLimit, what)
	}
}

// waitPidFile waits for the child to write its pid into path.
func waitPidFile(t *testing.T, path string) int {
	t.Helper()
	var b []byte
	waitFor(t, "the -exec child to write "+path, func() bool {
		var err error
		b, err = os.ReadFile(path)
		return err == nil && bytes.HasSuffix(b, []byte("\n"))
	})
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	return pid
}

// waitComm waits until process pid runs the program comm.
func waitComm(t *testing.T, pid int, comm string) {
	t.Helper()
	waitFor(t, fmt.Sprintf("process %d to become %s", pid, comm), func() bool {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		return strings.TrimSpace(string(b)) == comm
	})
}

// waitBlockedWrite waits until a thread of process pid sleeps in a
// write(2) to its standard output: the pipe is full. /proc/PID/task/TID
// shows it as the syscall file's "nr 0x1" (fd 1) with the thread
// sleeping, or as a wchan of pipe_write (anon_pipe_write since 6.x).
func waitBlockedWrite(t *testing.T, pid int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("gfind (%d) to block in a write to the full pipe", pid), func() bool {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
		for _, task := range tasks {
			if wchan, _ := os.ReadFile(task + "/wchan"); bytes.HasSuffix(wchan, []byte("pipe_write")) {
				return true
			}
			sc, _ := os.ReadFile(task + "/syscall")
			f := strings.Fields(string(sc))
			if len(f) > 1 && f[0] == strconv.Itoa(syscall.SYS_WRITE) && f[1] == "0x1" && procState(task) == 'S' {
				return true
			}
		}
		return false
	})
}

// procState returns the state letter of /proc/PID or /proc/PID/task/TID
// (dir), 0 if it is gone.
func procState(dir string) byte {
	b, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return 0
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2]
	}
	return 0
}

// alive reports whether pid is a process that has not exited; a zombie
// (exited, not yet reaped by init) counts as ended. It gives a killed
// process until waitLimit to die (the children sleep far longer).
func alive(pid int) bool {
	dir := fmt.Sprintf("/proc/%d", pid)
	return !testtool.Poll(func() bool {
		s := procState(dir)
		return s == 0 || s == 'Z'
	})
}

// countEntries counts what is under dir.
func countEntries(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(string, os.DirEntry, error) error { n++; return nil })
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return n
}

// TestSignalPrintOnly: a walk that runs no command starts its signal
// handlers only before its first write that a signal could cut short
// (signal.go). A SIGTERM that comes while such a write is blocked on a
// full pipe must still leave standard output ending with a whole record:
// without the handler, the kernel kills gfind in the middle of the write
// and the reader gets part of a record.
func TestSignalPrintOnly(t *testing.T) {
	if gnuMode() {
		t.Skip("gfind's own behaviour")
	}
	gfind := gfindBin(t)
	tree := bigTree(t, 4000) // about 300 KiB of output: several 64 KiB blocks
	names := map[string]bool{}
	err := filepath.WalkDir(tree, func(p string, _ os.DirEntry, err error) error {
		names[p] = true
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			cmd := exec.Command(gfind, "-j1", tree, "-print")
			// The write in progress when the signal comes must finish
			// (the test drains the pipe), however late the drain starts.
			cmd.Env = append(testEnv(), fmt.Sprintf("%s=%v %v", graceEnv, childGrace, waitLimit))
			cmd.Stdout = w
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			defer cmd.Process.Kill()
			// Read a little, so that gfind's next write blocks part way
			// through a block; once it is blocked there, signal it and
			// drain the pipe.
			head := make([]byte, 1000)
			if _, err := io.ReadFull(r, head); err != nil {
				t.Fatal(err)
			}
			waitBlockedWrite(t, cmd.Process.Pid)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			rest, _ := io.ReadAll(r)
			cmd.Wait()
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("gfind ended with %v, want killed by %v", cmd.ProcessState, sig)
			}
			out := string(head) + string(rest)
			if !strings.HasSuffix(out, "\n") {
				t.Fatalf("output (%d bytes) ends with a partial record: %q", len(out), out[max(0, len(out)-80):])
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			for _, l := range lines {
				if !names[l] {
					t.Fatalf("output has %q, not a path of the tree", l)
				}
			}
			// The signal came while a write was blocked (the handshake),
			// which is what the test is about; how much gfind writes
			// after that write depends on when its handler goroutine
			// runs, which a busy machine delays.
			if len(lines) >= len(names) {
				t.Logf("gfind printed all %d paths: its handler ran after the walk ended", len(lines))
			}
		})
	}
}
