package output

import "io"

// Holding the output streams while a -exec child runs.
//
// GNU find flushes its stdout before it starts a child and, being one
// thread, writes nothing while the child runs. gfind's workers keep
// writing, so the -exec family holds the streams instead: FlushHold and
// Hold take the Sink's lock (and Diag.Hold the Diag's), which every
// Buffer flush and every diagnostic needs, so that no record and no
// diagnostic of any worker lands between the records printed before the
// child and the child's own output, or in the middle of one of its
// lines. Workers that need the lock meanwhile wait; the ones that do not
// go on walking.
//
// Lock order: a Sink's lock before a Diag's (a write error is reported
// with the Sink's lock held). Nothing may report through the Diag while
// holding it: release first.

// FlushHold writes what b holds and keeps its Sink locked until release
// is called: what this worker printed so far is in the file, and no
// worker's record can follow it before release. Nothing is written when
// the Sink is stopped, but the lock is still taken.
func (b *Buffer) FlushHold() (release func()) {
	s := b.s
	s.mu.Lock()
	if len(b.buf) > 0 {
		s.writeLocked(b.buf)
		b.buf = b.buf[:0]
	}
	return s.mu.Unlock
}

// Hold locks the Sink until release is called, for a child started when
// no Buffer is at hand (pending -exec ... + batches run at exit). Every
// Buffer must have been flushed before, or its records will follow.
func (s *Sink) Hold() (release func()) {
	s.mu.Lock()
	return s.mu.Unlock
}

// Hold locks the Diag until release is called and returns its writer,
// for what must reach standard error undisturbed: the -ok prompt (which
// has no program name and no newline) and a child's own diagnostics.
// Calling any other method of d before release deadlocks. A status line
// is erased first, and not drawn again before release.
func (d *Diag) Hold() (w io.Writer, release func()) {
	d.mu.Lock()
	d.eraseLocked()
	d.held.Store(true)
	return d.w, func() {
		d.held.Store(false)
		d.mu.Unlock()
	}
}
