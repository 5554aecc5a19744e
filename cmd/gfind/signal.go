package main

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/predicate"
)

// Dying of SIGINT, SIGTERM and SIGHUP.
//
// GNU find has no handlers: the signal kills it, and its -exec child
// dies too only when the signal came from the terminal (which signals
// the whole process group). A `kill -TERM` aimed at find alone leaves
// the child running. gfind catches the three signals so that it can
// end its child first and never leave half a record on standard
// output, and then dies of the same signal, so that its parent sees
// what it would see of GNU find (status 130, 143 or 129 in a shell).

const (
	// childGrace is how long the running child has to exit after it was
	// sent the signal, before it is sent SIGKILL.
	childGrace = time.Second
	// writeGrace is how long a write in progress may take to finish
	// before gfind dies anyway (a reader that stopped reading, or a -ok
	// prompt waiting for its answer, holds the output).
	writeGrace = 500 * time.Millisecond
)

// watchSignals makes SIGINT, SIGTERM and SIGHUP end gfind in an orderly
// way once the walk has started: no new child starts, the running one
// is sent the signal (SIGKILL after childGrace), the sink is stopped
// between two writes (so that standard output ends with a whole record),
// and gfind dies of the signal.
//
// A signal that was ignored when gfind started stays ignored: a shell
// starts background jobs with SIGINT ignored, and nohup ignores SIGHUP.
//
// It returns stop, to call when the walk is over: it ends the watch,
// or, when a signal is already being handled, waits for it to kill the
// process, so that gfind cannot exit with a status of its own meanwhile.
func watchSignals(sink *output.Sink) (stop func()) {
	var sigs []os.Signal
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	if len(sigs) == 0 {
		return func() {}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	var (
		mu          sync.Mutex
		dying, done bool
	)
	quit := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			mu.Lock()
			if done {
				// The walk ended as the signal came: gfind exits with
				// its own status.
				mu.Unlock()
				return
			}
			dying = true
			mu.Unlock()
			die(sig.(syscall.Signal), sink)
		case <-quit:
		}
	}()
	return func() {
		signal.Stop(ch)
		mu.Lock()
		if dying {
			mu.Unlock()
			select {} // die kills the process
		}
		done = true
		mu.Unlock()
		close(quit)
	}
}

// die ends the children, stops the output and kills gfind with sig.
func die(sig syscall.Signal, sink *output.Sink) {
	// First stop the walk (the next entry is not visited: nothing more
	// is deleted or printed), then end the child it may be waiting for.
	sink.Abandon()
	predicate.Interrupt(sig, childGrace)
	stopped := make(chan struct{})
	go func() {
		// Stop waits for the write in progress, so what is on standard
		// output ends with a whole record; the records the workers
		// still buffer are dropped, as GNU's stdio buffer is.
		sink.Stop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(writeGrace):
	}
	raise(sig)
}
