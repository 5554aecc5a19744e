package output

import "time"

// The live status line of -status and --progress, on standard error
// when it is a terminal. The Diag draws it, being the writer of standard
// error, and keeps it off every other line written to the terminal:
//
//   - a diagnostic, and Hold (the -ok prompt, a -exec child's run),
//     erase it first; a child's whole run holds the Diag, so the line is
//     not drawn over what the child writes;
//   - a Sink writing to a terminal (standard output on the same screen)
//     erases it before its write and keeps it from being drawn until the
//     write is done (ttyWrites), so that names never follow it on its
//     row.
//
// The line never ends in a newline: it is drawn as "\r", the text, and
// "\033[K" (erase to the end of the row), and erased as "\r\033[K". The
// caller keeps it shorter than the terminal is wide, so that it never
// wraps to a second row that the erasing would leave behind.

// StartStatus tells d that a status line may be drawn (DrawStatus):
// from now on a Sink on a terminal erases it around its writes.
func (d *Diag) StartStatus() { d.statusOn.Store(true) }

// DrawStatus draws line, which holds no newline, in place of the status
// line shown. It never waits: while a diagnostic is being written, the
// Diag is held or a terminal Sink is writing, it draws nothing and
// returns false (the next tick draws again).
func (d *Diag) DrawStatus(line []byte) bool {
	if !d.mu.TryLock() {
		return false
	}
	defer d.mu.Unlock()
	// Checked under mu, where the Sink erases after counting its write
	// in: a draw either comes before that erase or sees the count.
	if d.ttyWrites.Load() > 0 || d.statusEnded.Load() {
		return false
	}
	buf := make([]byte, 0, len(line)+5)
	buf = append(buf, '\r')
	buf = append(buf, line...)
	buf = append(buf, "\033[K"...)
	_, _ = d.w.Write(buf)
	d.shown = true
	return true
}

// EraseStatus erases the status line, if one is shown.
func (d *Diag) EraseStatus() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.eraseLocked()
}

// EraseStatusNow is EraseStatus on the way to death by a signal, which
// must not wait long: no line is drawn after it, and when the Diag is
// held (Hold: a -ok prompt waiting for its answer, a child running) the
// holder has erased the line already. Any other holder (a draw, a
// diagnostic) lets go within a write to the terminal.
func (d *Diag) EraseStatusNow() {
	d.statusEnded.Store(true)
	for range 1000 {
		if d.mu.TryLock() {
			d.eraseLocked()
			d.mu.Unlock()
			return
		}
		if d.held.Load() {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// eraseLocked erases the status line if one is shown; mu is held.
func (d *Diag) eraseLocked() {
	if d.shown {
		_, _ = d.w.Write([]byte("\r\033[K"))
		d.shown = false
	}
}

// beginTTYWrite is called by a Sink on a terminal before a write: it
// erases the status line and keeps it from being drawn until
// endTTYWrite. Without a status line it costs one atomic load.
func (d *Diag) beginTTYWrite() bool {
	if !d.statusOn.Load() {
		return false
	}
	d.ttyWrites.Add(1)
	d.EraseStatus()
	return true
}

func (d *Diag) endTTYWrite() { d.ttyWrites.Add(-1) }
