package spawn

import (
	"errors"
	"os"
	"sync"
	"time"
)

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
