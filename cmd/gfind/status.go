package main

import (
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/gfind/gfind/output"
	"golang.org/x/sys/unix"
)

// -status and --progress: a live status line on standard error while
// the walk goes, when standard error is a terminal,
//
//	12345 entries, 678 directories, 9 matches, 41150/s, 0:03 src/a/b
//
// drawn ten times a second by a goroutine of its own from the
// samples the workers publish between two visits (stats.go), so that
// their counting stays plain. The Diag draws and erases it (output's
// status.go): before every diagnostic and -ok prompt, around what a
// terminal Sink writes, and at the end of the walk, before the -exec +
// batches run and anything else is reported. A walk shorter than a tenth
// of a second draws nothing.
//
// Whether standard error is a terminal is what TIOCGWINSZ says, which
// also gives the width: nothing decides on whether gfind is in the
// terminal's foreground process group (a job run in the background
// shows its line, as bfs's does). The width is asked again before every
// draw rather than on SIGWINCH, which the terminal sends only to its
// foreground process group: a -exec or -ok child with job control (an
// interactive shell) takes the terminal for a group of its own while it
// runs, and a resize then would leave gfind drawing for the old width,
// a line that wraps and that erasing leaves half behind. Ten ioctls a
// second cost nothing.
//
// A broken pipe on standard output (gfind -status | head) would kill
// gfind inside the runtime's write with the line left; under the status
// line the Sink writes through a duplicate of descriptor 1 instead, sees
// the EPIPE, erases the line and dies of SIGPIPE itself (no handler is
// installed). Not erased: the line of a gfind killed by a signal it
// does not catch (SIGKILL, SIGQUIT).

// statusInterval is the time between two draws.
const statusInterval = 100 * time.Millisecond

// statusLine draws the status line until stop.
type statusLine struct {
	st    *runStats
	diag  *output.Diag
	style output.Style
	quit  chan struct{}
	done  chan struct{}
}

// startStatus starts the status line when standard error is a
// terminal; it returns nil otherwise. The workers' samples must be on
// (st.matches set) before st.wrap.
func startStatus(st *runStats, diag *output.Diag) *statusLine {
	width, ok := termWidth(2)
	if !ok {
		return nil
	}
	s := &statusLine{st: st, diag: diag, style: diag.Style(), quit: make(chan struct{}), done: make(chan struct{})}
	diag.StartStatus()
	go func() {
		defer close(s.done)
		tick := time.NewTicker(statusInterval)
		defer tick.Stop()
		for {
			select {
			case <-s.quit:
				return
			case <-tick.C:
			}
			if w, ok := termWidth(2); ok {
				width = w
			}
			smp := st.sample()
			elapsed := time.Since(st.start)
			diag.DrawStatus(formatStatus(smp, elapsed, width, s.style))
		}
	}()
	return s
}

// stop ends the drawing and erases the line; a nil *statusLine is off.
func (s *statusLine) stop() {
	if s == nil {
		return
	}
	s.halt()
	s.diag.EraseStatus()
}

// stopNow is stop on the way to death by a signal: it does not wait for
// the Diag (output.Diag.EraseStatusNow).
func (s *statusLine) stopNow() {
	if s == nil {
		return
	}
	s.halt()
	s.diag.EraseStatusNow()
}

// halt stops the goroutine and waits for it: no draw follows. It may be
// called more than once, from more than one goroutine.
func (s *statusLine) halt() {
	select {
	case <-s.done:
		return
	default:
	}
	select {
	case s.quit <- struct{}{}:
	case <-s.done:
	}
	<-s.done
}

// termWidth returns the width of the terminal on descriptor fd (2,
// standard error), and whether it is one. A terminal that does not know
// its width (0 columns) is taken as 80 wide.
func termWidth(fd int) (int, bool) {
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	if err != nil {
		return 0, false
	}
	if ws.Col == 0 {
		return 80, true
	}
	return int(ws.Col), true
}

// formatStatus is the status line for s after elapsed, for a terminal
// width columns wide: at most width-1 columns, so that it never wraps
// (a terminal that wraps at the last column would leave a row behind).
// The directory is escaped as -print escapes names on a terminal, and
// what does not fit of it is cut from the left, keeping its last names;
// when not even the counts fit, they are cut at the right.
func formatStatus(s sample, elapsed time.Duration, width int, style output.Style) []byte {
	entries := s.dirs + s.files
	rate := int64(0)
	if secs := elapsed.Seconds(); secs > 0 {
		rate = int64(float64(entries) / secs)
	}
	line := fmt.Appendf(nil, "%d entries, %d directories, %d matches, %d/s, %s",
		entries, s.dirs, s.matches, rate, clock(elapsed))
	room := width - 1 - len(line) // the counts are ASCII: one column a byte
	if room < 0 {
		return line[:max(width-1, 0)]
	}
	if s.dir == nil || room < 2 {
		return line
	}
	dir := style.AppendTTY(nil, s.dir)
	room-- // the space before it
	if columns(dir) > room {
		ellipsis := "..."
		if style == output.StyleUTF8 {
			ellipsis = "…"
		}
		dir = cutLeft(dir, room-columns([]byte(ellipsis)))
		if dir == nil {
			return line
		}
		dir = append([]byte(ellipsis), dir...)
	}
	line = append(line, ' ')
	return append(line, dir...)
}

// clock is elapsed as m:ss, or h:mm:ss from an hour on.
func clock(elapsed time.Duration) string {
	t := int64(elapsed / time.Second)
	if t >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", t/3600, t/60%60, t%60)
	}
	return fmt.Sprintf("%d:%02d", t/60, t%60)
}

// runeColumns is how many columns r takes, counted high: every character
// from U+1100 on (where the wide scripts start) as two. Over-counting
// only cuts a name shorter; under-counting would wrap the line.
func runeColumns(r rune) int {
	if r < 0x1100 {
		return 1
	}
	return 2
}

// columns is how many columns p takes (runeColumns); p is escaped
// (output.Style.AppendTTY): whole characters, printable.
func columns(p []byte) int {
	n := 0
	for _, r := range string(p) {
		n += runeColumns(r)
	}
	return n
}

// cutLeft returns the longest tail of p, whole characters, that takes at
// most room columns; nil when that is nothing.
func cutLeft(p []byte, room int) []byte {
	i := len(p)
	for i > 0 {
		r, n := utf8.DecodeLastRune(p[:i])
		if c := runeColumns(r); c > room {
			break
		} else {
			room -= c
		}
		i -= n
	}
	if i == len(p) {
		return nil
	}
	return p[i:]
}
