package predicate

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gfind/gfind/internal/cnum"
	"github.com/gfind/gfind/internal/getdate"
	"github.com/gfind/gfind/internal/meta"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// The time tests: -atime -ctime -mtime N (days), -amin -cmin -mmin N
// (minutes), -used N, -newer -anewer -cnewer FILE, -newerXY REF, and the
// positional option -daystart.
//
// GNU find turns each argument into a reference timestamp at parse time
// (parser.c get_relative_timestamp) and compares the file's timestamp
// with it, nanoseconds included (pred.c pred_timewindow, compare_ts):
//
//	-mtime +N   mtime < origin - N days            ("more than N+1 days ago")
//	-mtime -N   mtime > origin + 86399 s - N days  ("less than N days ago", +1 s)
//	-mtime N    origin - N days < mtime <= origin - N days + 1 day
//
// where origin is the start time less a day, or with -daystart the start
// of today (local time); so -mtime 0 is the last 24 hours, or today. The
// minute tests measure from the start time (with -daystart: the end of
// today) with a window of 60 s and no extra second. Arguments are read
// with strtod (internal/cnum): "1.5", "1e1", "0x10", " 1", "inf" all count.

// parseDaystart is -daystart, which acts through the parser: the time
// tests after it look for it in the token list (see curDayStart). GNU
// never undoes it.
func parseDaystart(p *parser, op string, _ variant) error { return nil }

const daySecs = 86400

// localTZ, when set, is the zone -daystart and -newerXt use instead of
// time.Local. Tests set it. time.Local is read when the expression is
// parsed, not when the package is initialized, so that it is the zone
// cmd/gfind's tz.SetLocal made of TZ.
var localTZ *time.Location

func localZone() *time.Location {
	if localTZ != nil {
		return localTZ
	}
	return time.Local
}

// birthTimeSupported: GNU find 4.9 on Linux (as Debian builds it) knows
// no birth time and rejects -newerXY with B. gfind reads it with
// statx(2), which Linux has had since 4.11; set this to false to get
// GNU's refusal instead.
var birthTimeSupported = true

// tspec is a timestamp as struct timespec holds one. GNU's arithmetic can
// leave nsec outside [0, 1e9) (see relativeTimestamp); the comparisons
// cope with that as GNU's do.
type tspec struct{ sec, nsec int64 }

// A timeField names a file timestamp: 'a', 'c', 'm' or 'B' (birth).
type timeField = byte

func statTime(st *unix.Stat_t, f timeField) tspec {
	switch f {
	case 'a':
		return tspec{int64(st.Atim.Sec), int64(st.Atim.Nsec)}
	case 'c':
		return tspec{int64(st.Ctim.Sec), int64(st.Ctim.Nsec)}
	}
	return tspec{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)}
}

// difftime is C's difftime for 64-bit time_t: the exact difference,
// rounded once.
func difftime(a, b int64) float64 {
	d := a - b
	if (b > 0 && d > a) || (b < 0 && d < a) {
		return float64(a) - float64(b) // overflowed int64
	}
	return float64(d)
}

// tsDiff is GNU's ts_difference: a - b in seconds, as a double.
func tsDiff(a, b tspec) float64 { return difftime(a.sec, b.sec) + 1e-9*float64(a.nsec-b.nsec) }

// compareTS is GNU's compare_ts: -1, 0 or +1.
func compareTS(a, b tspec) int {
	if a == b {
		return 0
	}
	if tsDiff(a, b) < 0 {
		return -1
	}
	return 1
}

// timeWindow is GNU's pred_timewindow. kind is the comparison after
// GNU's inversion: cmpGT is "after ref", cmpLT "before ref", and cmpEQ
// "after ref by at most window seconds".
func timeWindow(t, ref tspec, kind cmpKind, window float64) bool {
	switch kind {
	case cmpGT:
		return compareTS(t, ref) > 0
	case cmpLT:
		return compareTS(t, ref) < 0
	}
	d := tsDiff(t, ref)
	return d > 0 && d <= window
}

// timeNode is -atime, -ctime, -mtime (window 86400) and -amin, -cmin,
// -mmin (window 60).
type timeNode struct {
	op, arg string
	field   timeField
	kind    cmpKind
	ref     tspec
	window  float64
	prob    float64
}

func (n *timeNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	return timeWindow(statTime(st, n.field), n.ref, n.kind, n.window)
}

func (n *timeNode) Facts() Facts {
	return Facts{Cost: costStat, Prob: n.prob}
}

func (n *timeNode) Args() []string { return []string{n.op, n.arg} }

// usedNode is -used N: the file was last accessed N days after its
// status last changed. GNU 4.8 fixed it into this shape (pred.c
// pred_used): never true when the access is older than the change;
// otherwise the window test on ctime - atime against -N days, which
// makes -used N true for N-1 <= days < N, -used -N for days < N and
// -used +N for days > N (checked with GNU find 4.9 on files whose atime
// was set to ctime plus 0, 1 day, 1 day ± 1 ns, 2 days, -1 ns).
type usedNode struct {
	arg  string
	kind cmpKind
	ref  tspec
	prob float64
}

func (n *usedNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	at, ct := statTime(st, 'a'), statTime(st, 'c')
	if compareTS(at, ct) < 0 {
		return false
	}
	d := tspec{ct.sec - at.sec, ct.nsec - at.nsec}
	if d.nsec < 0 {
		d.nsec += 1e9
		d.sec--
	}
	return timeWindow(d, n.ref, n.kind, daySecs)
}

func (n *usedNode) Facts() Facts {
	return Facts{Cost: costStat, Prob: n.prob}
}

func (n *usedNode) Args() []string { return []string{"-used", n.arg} }

// newerNode is -newer, -anewer, -cnewer and -newerXY: true when the
// file's timestamp x is later than ref (the reference file's
// timestamp, or a date).
type newerNode struct {
	op, arg string
	x       timeField
	ref     tspec
	prob    float64
}

func (n *newerNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	t := statTime(st, n.x)
	if n.x == 'B' {
		if t, ok = birthTimeOf(e, s, st); !ok {
			return false
		}
	}
	return compareTS(t, n.ref) > 0
}

func (n *newerNode) Facts() Facts {
	f := Facts{Cost: costStat, Prob: n.prob}
	if n.x == 'B' {
		f.Cost += costStat
	}
	return f
}

func (n *newerNode) Args() []string { return []string{n.op, n.arg} }

// birthTimeOf returns e's birth time, following a final symbolic link
// when the status the tests see did. A file system that keeps none gets
// GNU's warning (pred.c pred_newerXY) and the test is false.
func birthTimeOf(e *walker.Entry, s *State, st *unix.Stat_t) (tspec, bool) {
	follow := s.follows(e) && st.Mode&unix.S_IFMT != unix.S_IFLNK
	bt, has, err := meta.Birth(metaFile(e), follow, st)
	if err != nil {
		s.reportStat(e, err)
		return tspec{}, false
	}
	if !has {
		s.Diag.Notef("WARNING: cannot determine birth time of file %s", s.Diag.Quote(string(e.Path)))
		return tspec{}, false
	}
	return tspec{bt.Sec, bt.Nsec}, true
}

// Probabilities, from GNU's parser.c estimate_file_age_success_rate.
func fileAgeProb(days float32) float64 {
	switch {
	case days < 0.1:
		return 0.01 // "1% of files have timestamps in the future"
	case days < 1:
		return 0.3 // "30% of files have timestamps today"
	case days > 100:
		return 0.3 // "30% of files are very old"
	}
	return 0.39 // "39% of files are between 1 and 100 days old"
}

// timestampProb is GNU's estimate_timestamp_success_rate: by whole days
// between the start of "today" and when (C integer arithmetic).
func (p *parser) timestampProb(when int64) float64 {
	return fileAgeProb(float32(int32((p.curDayStart().sec - when) / daySecs)))
}

// daystart reports whether -daystart came earlier on the command line.
func (p *parser) daystart() bool {
	return slices.Contains(p.positionals(), "-daystart")
}

// curDayStart is GNU's options.cur_day_start where the parser stands:
// the start time less a day, or after -daystart the start of today in
// local time (parse_daystart: the start time less the local time of day,
// nanoseconds dropped).
func (p *parser) curDayStart() tspec {
	now := p.cfg.Now
	if !p.daystart() {
		return tspec{now.Unix() - daySecs, int64(now.Nanosecond())}
	}
	sec := now.Unix()
	lt := time.Unix(sec, 0).In(localZone())
	return tspec{sec - int64(lt.Hour()*3600+lt.Minute()*60+lt.Second()), 0}
}

// relResult says how relativeTimestamp went.
type relResult int

const (
	relOK relResult = iota
	relInvalid
	relNaN // strtod read a NaN ("nan", "-NAN", "nan(1)")
	relOverflow
)

// relativeTimestamp is GNU's get_relative_timestamp: arg is [+-]NUMBER
// in units of perUnit seconds before origin. It returns the comparison
// (inverted: "+N units ago" means "before the reference"), the
// reference time, and the number's text for the overflow message. Its
// double arithmetic is C's, down to the x86 conversion of a huge double
// to time_t.
func relativeTimestamp(arg string, origin tspec, perUnit float64) (cmpKind, tspec, string, relResult) {
	kind, num := cmpEQ, arg
	switch {
	case strings.HasPrefix(arg, "+"):
		kind, num = cmpLT, arg[1:]
	case strings.HasPrefix(arg, "-"):
		kind, num = cmpGT, arg[1:]
	}
	offset, ok := cnum.Strtod(num)
	switch {
	case !ok:
		return kind, tspec{}, num, relInvalid
	case math.IsNaN(offset):
		// GNU 4.9 died on an assertion here; 4.10 reports it (bug
		// 64717), quoting the number without its sign.
		return kind, tspec{}, num, relNaN
	}
	// float64(...) rounds each product on its own, as C does: Go may
	// otherwise fuse a product with the next sum into one FMA (arm64,
	// s390x, ppc64), which rounds once and gives other results than GNU
	// find's.
	product := float64(offset * perUnit)
	var whole, frac float64
	if math.IsInf(product, 0) {
		whole, frac = product, math.Copysign(0, product) // C's modf
	} else {
		whole, frac = math.Modf(product)
	}
	nanosec := float64(frac * 1e9)
	ref := tspec{sec: cvtTimeT(float64(origin.sec) - whole)}
	if (origin.sec < ref.sec) != (whole < 0) {
		return kind, tspec{}, num, relOverflow
	}
	ref.nsec = int64(float64(origin.nsec) - nanosec)
	if float64(origin.nsec) < nanosec {
		ref.nsec += 1e9
		ref.sec--
	}
	return kind, ref, num, relOK
}

// cvtTimeT converts a double to time_t as x86-64's cvttsd2si does: NaN
// and out-of-range values become the minimum.
func cvtTimeT(f float64) int64 {
	if f != f || f >= 0x1p63 || f < -0x1p63 {
		return math.MinInt64
	}
	return int64(f)
}

// parseTime parses -atime, -ctime, -mtime N (GNU's parse_time).
func parseTime(p *parser, op string, v variant) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	origin := p.curDayStart()
	if strings.HasPrefix(arg, "-") {
		// "-N" counts from the end of the day, less a second.
		origin.sec += daySecs - 1
	}
	return p.pushTime(op, byte(v), arg, origin, daySecs, "days")
}

// parseMin parses -amin, -cmin, -mmin N (GNU's do_parse_xmin).
func parseMin(p *parser, op string, v variant) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	origin := p.curDayStart()
	origin.sec += daySecs
	return p.pushTime(op, byte(v), arg, origin, 60, "minutes")
}

func (p *parser) pushTime(op string, field timeField, arg string, origin tspec, perUnit float64, units string) error {
	kind, ref, num, res := relativeTimestamp(arg, origin, perUnit)
	switch res {
	case relInvalid:
		return p.errorf("invalid argument `%s' to `%s'", arg, op)
	case relNaN:
		return p.errorf("invalid not-a-number argument: `%s'", num)
	case relOverflow:
		return p.errorf("arithmetic overflow while converting %s %s to a number of seconds", num, units)
	}
	p.push(&timeNode{op: op, arg: arg, field: field, kind: kind, ref: ref, window: perUnit,
		prob: p.timestampProb(ref.sec)})
	return nil
}

// parseUsed parses -used N, relative to 0 as GNU's parse_used does.
func parseUsed(p *parser, op string, _ variant) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	kind, ref, num, res := relativeTimestamp(arg, tspec{}, daySecs)
	switch res {
	case relInvalid:
		return p.errorf("Invalid argument %s to -used", arg)
	case relNaN:
		return p.errorf("invalid not-a-number argument: `%s'", num)
	case relOverflow:
		return p.errorf("arithmetic overflow while converting %s days to a number of seconds", num)
	}
	p.push(&usedNode{arg: arg, kind: kind, ref: ref, prob: fileAgeProb(float32(ref.sec / daySecs))})
	return nil
}

// parseNewer parses -newer, -anewer and -cnewer FILE: the file's
// modification time is the reference for the entry's mtime, atime or
// ctime.
func parseNewer(p *parser, op string, v variant) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	st, err := p.statRef(arg)
	if err != nil {
		return err
	}
	ref := statTime(st, 'm')
	p.push(&newerNode{op: op, arg: arg, x: byte(v), ref: ref, prob: p.timestampProb(ref.sec)})
	return nil
}

// parseNewerXY parses -newerXY REF (GNU's parse_newerXY): X is the
// entry's timestamp, Y the reference's, or t for a date.
func parseNewerXY(p *parser, op string, _ variant) error {
	x, y := op[6], op[7]
	if !birthTimeSupported && (x == 'B' || y == 'B') {
		return &ParseError{Msg: "This system does not provide a way to find the birth time of a file.",
			Hint: fmt.Sprintf("invalid predicate `%s'", op)}
	}
	const valid = "aBcmt"
	if x == 't' || strings.IndexByte(valid, x) < 0 || strings.IndexByte(valid, y) < 0 {
		return p.errorf("invalid predicate `%s'", op)
	}
	if p.i >= len(p.args) {
		return p.errorf("The %s test needs to be followed by an argument", p.quote(op))
	}
	arg := p.args[p.i]
	p.i++
	var ref tspec
	switch y {
	case 't':
		ts, ok := getdate.Parse(arg, p.cfg.Now, localZone())
		if !ok {
			return p.errorf("I cannot figure out how to interpret %s as a date or time", p.quote(arg))
		}
		ref = tspec{ts.Sec, ts.Nsec}
	case 'B':
		st, err := p.statRef(arg)
		if err != nil {
			return err
		}
		follow := p.walk.Follow != walker.FollowNever && st.Mode&unix.S_IFMT != unix.S_IFLNK
		bt, has, err := meta.BirthPath(arg, follow)
		if err != nil {
			return p.errorf("%s: %s", p.quote(arg), output.Strerror(err))
		}
		if !has {
			return p.errorf("Cannot obtain birth time of file %s", p.quote(arg))
		}
		ref = tspec{bt.Sec, bt.Nsec}
	default:
		st, err := p.statRef(arg)
		if err != nil {
			return err
		}
		ref = statTime(st, y)
	}
	p.push(&newerNode{op: op, arg: arg, x: x, ref: ref, prob: p.timestampProb(ref.sec)})
	return nil
}

// statRef stats a reference file at parse time as GNU's options.xstat
// does with the symbolic link mode in force at this point of the command
// line: the link itself under -P; what it points to under -H (GNU counts
// a reference file as a command line argument) and -L or after -follow,
// falling back to the link itself when it dangles. A failure is GNU's
// fatal "'FILE': No such file or directory".
func (p *parser) statRef(name string) (*unix.Stat_t, error) {
	var st unix.Stat_t
	var err error
	if p.walk.Follow == walker.FollowNever {
		err = unix.Lstat(name, &st)
	} else if err = unix.Stat(name, &st); err == unix.ENOENT || err == unix.ENOTDIR {
		err = unix.Lstat(name, &st)
	}
	if err != nil {
		return nil, p.errorf("%s: %s", p.quote(name), output.Strerror(err))
	}
	return &st, nil
}
