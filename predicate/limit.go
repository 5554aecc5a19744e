package predicate

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// gfind's extras that act on the whole run: -limit N, -noerror,
// -status and -unique (unique.go).
//
// A match is an entry for which the whole expression was true, whatever
// it printed: in "gfind . -name '*.go'" (implicit -print) every match is
// one printed line, and in "gfind . -print -false" nothing is a match.
// -limit N ends the walk after the Nth match. Unlike -quit, after which
// the files other workers are evaluating do nothing more (quit.go),
// every match's output is written: exactly N records for an expression
// that prints once per match, with any number of workers. Pending
// -exec ... + batches run at the end, as after -quit.

// parseNoerror is -noerror, like -warn an option that is always true; it
// acts on the whole run wherever it stands. It means what it means in
// bfs: every error met on a file during the walk (a permission, a link
// loop, a file system loop, a missing or vanished file, a -delete or
// -exec ; that failed) is neither reported nor counted in the exit status
// (output.Diag.SetNoError). --ignore-errors and --quiet-errors are the
// narrower options for permission errors only.
func parseNoerror(p *parser, op string, _ variant) error {
	p.ext.NoError = true
	return nil
}

// parseStatus is -status, bfs's name for gfind's --progress: an option
// that is always true and acts on the whole run wherever it stands.
func parseStatus(p *parser, op string, _ variant) error {
	p.ext.Status = true
	return nil
}

// Extras are the settings of gfind's own primaries that cmd/gfind acts
// on, together with their counterparts among the leading options.
type Extras struct {
	// Limit is -limit N: the walk ends after N matches. 0 means none.
	Limit int64
	// QuietErrors is --quiet-errors (Config.QuietErrors): permission
	// errors are not reported (output.Diag.SetQuietErrors).
	QuietErrors bool
	// NoError is -noerror: no error about a file is reported or counted
	// in the exit status (output.Diag.SetNoError).
	NoError bool
	// Warnings is whether GNU's warnings are on at the end of the
	// expression (Config.Warnings, then the last -warn or -nowarn): bfs
	// then says how many errors -noerror hid.
	Warnings bool
	// Unique is -unique: a file met again is skipped (unique.go).
	Unique bool
	// Status is -status: a live status line on standard error while the
	// walk goes, when it is a terminal (cmd/gfind's status.go, which
	// --progress also turns on).
	Status bool

	lim  *limiter // shared by the States when Limit > 0
	seen *seenSet // shared by the States under -unique
}

// extras completes the parser's Extras at the end of Parse.
func (p *parser) extras() Extras {
	x := p.ext
	x.QuietErrors = x.QuietErrors || p.cfg.QuietErrors
	x.Warnings = p.warnings
	if x.Limit > 0 {
		x.lim = newLimiter(x.Limit)
	}
	if x.Unique {
		x.seen = new(seenSet)
	}
	return x
}

// parseLimit reads -limit N: N a positive decimal integer, with GNU's
// wording for a bad one (as -maxdepth). The last -limit wins.
func parseLimit(p *parser, op string, _ variant) error {
	s, err := p.arg(op)
	if err != nil {
		return err
	}
	if s == "" || strings.TrimLeft(s, "0123456789") != "" || strings.TrimLeft(s, "0") == "" {
		return p.errorf("Expected a positive decimal integer argument to %s, but got %s", op, p.quote(s))
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return p.errorf("%s: Numerical result out of range", s)
	}
	p.ext.Limit = n
	return nil
}

// limiter counts matches across workers so that there are never more
// than N, without a lock per entry.
//
// Counting after the fact would not do: two workers may each evaluate
// an entry, print it, and only then learn that they are the Nth and the
// N+1th match; the extra record may already be written. So each
// evaluation first takes a slot: slots is N less the matches so far
// less the evaluations in progress. An evaluation that matches keeps
// its slot for good; one that does not gives it back. With no slot left
// a worker waits until one is given back or the limit is reached. Far
// from the limit taking a slot is one compare-and-swap; within Workers
// matches of it, evaluations may wait for each other.
type limiter struct {
	n       int64
	slots   atomic.Int64
	matched atomic.Int64
	done    atomic.Bool // N matches reached
	waiters atomic.Int32
	mu      sync.Mutex
	cond    sync.Cond
}

func newLimiter(n int64) *limiter {
	l := &limiter{n: n}
	l.slots.Store(n)
	l.cond.L = &l.mu
	return l
}

// acquire takes a slot for one evaluation. It returns false once the
// limit has been reached: the entry must not be evaluated.
func (l *limiter) acquire() bool {
	for {
		if l.done.Load() {
			return false
		}
		if v := l.slots.Load(); v > 0 {
			if l.slots.CompareAndSwap(v, v-1) {
				return true
			}
			continue
		}
		l.wait()
	}
}

// wait blocks until a slot may be free or the limit is reached. The
// waiter registers under mu before looking at slots, and release looks
// at waiters after adding its slot, so a wake-up is never lost.
func (l *limiter) wait() {
	l.mu.Lock()
	l.waiters.Add(1)
	for l.slots.Load() <= 0 && !l.done.Load() {
		l.cond.Wait()
	}
	l.waiters.Add(-1)
	l.mu.Unlock()
}

func (l *limiter) wake() {
	if l.waiters.Load() > 0 {
		l.mu.Lock()
		l.cond.Broadcast()
		l.mu.Unlock()
	}
}

// release ends the evaluation that took a slot. It reports whether this
// was the Nth match, which ends the walk.
func (l *limiter) release(matched bool) bool {
	if !matched {
		l.slots.Add(1)
		l.wake()
		return false
	}
	if l.matched.Add(1) < l.n {
		return false
	}
	l.done.Store(true)
	l.wake()
	return true
}

// Matches returns the number of entries for which this worker's
// evaluation of the whole expression was true (for --stats).
func (s *State) Matches() int64 { return s.matches }
