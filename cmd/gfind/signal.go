package main

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/gfind/gfind/internal/die"
	"github.com/gfind/gfind/internal/spawn"
	"github.com/gfind/gfind/output"
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

// Variables, not constants, only so that the test binary (which runs as
// gfind) can lengthen them: a test must not depend on how busy the
// machine is (main_test.go, graceEnv).
var (
	// childGrace is how long the running child has to exit after it was
	// sent the signal, before it is sent SIGKILL.
	childGrace = time.Second
	// writeGrace is how long a write in progress may take to finish
	// before gfind dies anyway (a reader that stopped reading, or a -ok
	// prompt waiting for its answer, holds the output).
	writeGrace = 500 * time.Millisecond
)

// signalWatch makes SIGINT, SIGTERM and SIGHUP end gfind in an orderly
// way once it is started: no new child starts, the running one is sent
// the signal (SIGKILL after childGrace), the sink is stopped between two
// writes (so that standard output ends with a whole record), and gfind
// dies of the signal.
//
// It is started before the walk when the expression runs commands, and
// otherwise just before standard output's first write that a signal
// could cut short (Sink.BeforeLargeWrite). Until then the signals keep
// the runtime's default action, death on the spot, which loses nothing:
// no child runs and no record is half written. Starting it costs
// os/signal's goroutine and thread, which a small walk would notice
// (bench/NOTES.md, "Signal handlers"), so a walk that needs no
// handlers does not start it.
//
// A signal that was ignored when gfind started stays ignored: a shell
// starts background jobs with SIGINT ignored, and nohup ignores SIGHUP.
//
// A signal that comes at any time before gfind exits kills it, as it
// kills GNU find: one that the runtime received just before the walk
// ended is not lost to the watch's goroutine being scheduled late
// (stop waits for that goroutine).
type signalWatch struct {
	sink *output.Sink
	// beforeDeath, when set, is called before gfind dies of a signal
	// (the status line is erased; it must not wait).
	beforeDeath func()

	mu            sync.Mutex
	started, done bool
	ch            chan os.Signal
	quit, exited  chan struct{}
}

// watchSignals returns the watch over sink, started now when the
// expression runs commands and otherwise at standard output's first
// large write; beforeDeath is called before gfind dies of a signal.
func watchSignals(sink *output.Sink, runsCommands bool, beforeDeath func()) *signalWatch {
	w := &signalWatch{sink: sink, beforeDeath: beforeDeath}
	if runsCommands {
		w.start()
	} else {
		sink.BeforeLargeWrite(w.start)
	}
	return w
}

// start installs the handlers; it may be called more than once.
func (w *signalWatch) start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.started || w.done {
		return
	}
	w.started = true
	var sigs []os.Signal
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	if len(sigs) == 0 {
		return
	}
	w.ch = make(chan os.Signal, 1)
	w.quit = make(chan struct{})
	w.exited = make(chan struct{})
	signal.Notify(w.ch, sigs...)
	go func() {
		var sig os.Signal
		select {
		case sig = <-w.ch:
		case <-w.quit:
			// signal.Stop has delivered whatever signal the runtime
			// had received: take it, or end.
			select {
			case sig = <-w.ch:
			default:
				close(w.exited)
				return
			}
		}
		dieOf(sig.(syscall.Signal), w.sink, w.beforeDeath)
	}()
}

// stop is called when the walk is over. It ends the watch; when a signal
// has come meanwhile, it waits for that signal to kill the process, so
// that gfind cannot exit with a status of its own.
func (w *signalWatch) stop() {
	w.mu.Lock()
	w.done = true
	ch := w.ch
	w.mu.Unlock()
	if ch == nil {
		return
	}
	// After Stop, a signal received before it is in ch; one that comes
	// later takes the default action, death.
	signal.Stop(ch)
	close(w.quit)
	<-w.exited // never closed when the goroutine is dying of a signal
}

// dieOf ends the children, stops the output and kills gfind with sig.
func dieOf(sig syscall.Signal, sink *output.Sink, beforeDeath func()) {
	// First stop the walk (the next entry is not visited: nothing more
	// is deleted or printed), then end the child it may be waiting for.
	sink.Abandon()
	spawn.Interrupt(sig, childGrace)
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
	if beforeDeath != nil {
		beforeDeath()
	}
	die.Of(sig)
}
