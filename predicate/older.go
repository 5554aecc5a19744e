package predicate

import (
	"strconv"

	"github.com/gfind/gfind/walker"
)

// -older DURATION and -newer-than DURATION: the file was last modified
// more (less) than DURATION before the command started.
//
// DURATION is one or more of Nw Nd Nh Nm Ns (weeks, days, hours,
// minutes, seconds), N decimal digits, units from largest to smallest,
// each at most once: "7d", "36h", "1d12h", "2w3d", "90m", "0s". There is
// no fraction, sign, space or default unit ("7" is refused: -mtime's
// unit is days, -mmin's minutes, so a bare number would be a trap).
//
// The reference is the command's start time (the one -mmin uses) less
// DURATION, exactly, to the nanosecond, with no rounding to days or
// minutes, and -daystart does not move it. Both tests are strict:
//
//	-older D        mtime <  start - D
//	-newer-than D   mtime >  start - D
//
// so a file modified exactly at start - D is neither, and -older 0s is
// every file modified before the command started. The status is the
// one the tests see (under -L the target's), as for -mtime.

// maxDurationSecs bounds a DURATION so that start - DURATION cannot
// overflow: about 146 billion years.
const maxDurationSecs = 1 << 62

// durationUnits are the units of a DURATION, largest first.
var durationUnits = []struct {
	c    byte
	secs int64
}{{'w', 7 * daySecs}, {'d', daySecs}, {'h', 3600}, {'m', 60}, {'s', 1}}

// durResult says how parseDuration went.
type durResult int

const (
	durOK durResult = iota
	durInvalid
	durOverflow
)

// parseDuration reads a DURATION as whole seconds.
func parseDuration(s string) (int64, durResult) {
	if s == "" {
		return 0, durInvalid
	}
	var total int64
	next := 0 // index in durationUnits of the largest unit still allowed
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		if j == i || j == len(s) {
			return 0, durInvalid // no digits, or digits with no unit
		}
		u := next
		for u < len(durationUnits) && durationUnits[u].c != s[j] {
			u++
		}
		if u == len(durationUnits) {
			return 0, durInvalid // unknown, repeated or out of order
		}
		next = u + 1
		n, err := strconv.ParseInt(s[i:j], 10, 64)
		if err != nil || n > (maxDurationSecs-total)/durationUnits[u].secs {
			return 0, durOverflow
		}
		total += n * durationUnits[u].secs
		i = j + 1
	}
	return total, durOK
}

// formatDuration writes secs in the canonical form parseDuration reads
// (the largest units first; "0s" for zero).
func formatDuration(secs int64) string {
	if secs == 0 {
		return "0s"
	}
	var b []byte
	for _, u := range durationUnits {
		if n := secs / u.secs; n > 0 {
			b = strconv.AppendInt(b, n, 10)
			b = append(b, u.c)
			secs -= n * u.secs
		}
	}
	return string(b)
}

func parseOlder(p *parser, op string, v variant) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	secs, res := parseDuration(arg)
	switch res {
	case durInvalid:
		return p.errorf("invalid argument `%s' to `%s'", arg, op)
	case durOverflow:
		return p.errorf("arithmetic overflow while converting %s to a number of seconds", arg)
	}
	now := p.cfg.Now
	ref := tspec{now.Unix() - secs, int64(now.Nanosecond())}
	p.push(&olderNode{op: op, arg: arg, ref: ref, older: v&olderThan != 0})
	return nil
}

// olderNode is -older (older) and -newer-than (!older).
type olderNode struct {
	op, arg string
	ref     tspec // start - DURATION
	older   bool
}

func (n *olderNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	t := statTime(st, 'm')
	if n.older {
		return t.sec < n.ref.sec || t.sec == n.ref.sec && t.nsec < n.ref.nsec
	}
	return t.sec > n.ref.sec || t.sec == n.ref.sec && t.nsec > n.ref.nsec
}

func (n *olderNode) Facts() Facts {
	// GNU's file age estimates are for windows of days, not for a cut;
	// with no better knowledge a cut is even odds.
	return Facts{Cost: costStat, Prob: 0.5}
}

func (n *olderNode) Args() []string { return []string{n.op, n.arg} }
