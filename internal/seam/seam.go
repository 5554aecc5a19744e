package seam

import "sync/atomic"

// A Hook is a function called with a directory's path. It is an atomic
// pointer rather than a plain variable, so that a test setting it does
// not race with the walks of parallel tests (which see the hook too: a
// hook must act on its own tree only).
type Hook struct {
	p atomic.Pointer[func(path string)]
}

// Set installs f (nil: none) and returns a function that restores the
// hook it replaced.
func (h *Hook) Set(f func(path string)) (restore func()) {
	var p *func(string)
	if f != nil {
		p = &f
	}
	old := h.p.Swap(p)
	return func() { h.p.Store(old) }
}

// Load returns the hook, or nil when none is set.
func (h *Hook) Load() func(path string) {
	if f := h.p.Load(); f != nil {
		return *f
	}
	return nil
}

// The hooks.
var (
	// BeforeOpen is called with the path of each directory the walk is
	// about to open (a starting point, or a subdirectory after its
	// parent was read and, in pre-order, after its visit), from the
	// goroutine that opens it: the window in which a directory can be
	// swapped for a symbolic link or for another directory.
	BeforeOpen Hook
	// BeforeRead is called with the path of each directory before each
	// of its reads in the parallel walk, inside the time the walk
	// measures: a hook that blocks makes the reads look like those of a
	// cold cache or a remote file system.
	BeforeRead Hook
	// BeforePiece is called with the path of a directory before each
	// piece of it handed to another worker by the parallel walk is
	// visited: a hook that blocks holds the piece back while the walk
	// goes on elsewhere.
	BeforePiece Hook
	// Stopped is called with the path of the file whose visit returned
	// Stop, once the walk has recorded it: a test counting the visits
	// begun after the Stop counts from here, not from inside the visit,
	// which a busy machine may deschedule before it returns.
	Stopped Hook
)
