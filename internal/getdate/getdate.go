package getdate

import (
	"math"
	"strings"
	"time"
)

// This file is a Go rendering of gnulib's parse_datetime (the grammar of
// parse-datetime.y as GNU find 4.9 and coreutils 9.1 were built with it,
// which has no 'J' zone), for -newerXt. It accepts what `date -d`
// accepts: ISO 8601 dates and times ("2024-01-02 10:20:30.5",
// "2024-01-02T10:20:30+01:00"), "@EPOCH", US and textual dates
// ("1/2/2024", "Jan 2 2024", "2 Jan 2024"), meridians ("10am"), zones
// ("UTC", "Z", "+0530", "EST", the local zone's abbreviations), weekday
// names ("friday", "last friday"), relative items ("now", "today",
// "yesterday", "3 days ago", "-2 hours", "next month"), comments in
// parentheses and a leading TZ="Zone". The arithmetic follows the C code,
// including its use of mktime for calendar normalization and glibc's way
// with daylight saving time. Times come out as seconds and nanoseconds
// since the epoch.

// Timespec is a time as struct timespec holds one: seconds since the
// epoch, and nanoseconds in [0, 1e9) after them.
type Timespec struct{ Sec, Nsec int64 }

// Token kinds of the date grammar, after parse-datetime.y.
type dtKind uint8

const (
	dtEOF dtKind = iota
	dtChar
	dtError
	dtAgo
	dtDST
	dtYearUnit
	dtMonthUnit
	dtHourUnit
	dtMinuteUnit
	dtSecUnit
	dtDayUnit
	dtDayShift
	dtDay
	dtDayZone
	dtLocalZone
	dtMeridian
	dtMonth
	dtOrdinal
	dtZone
	dtT // 'T': the ISO 8601 separator, or military zone T
	dtSNumber
	dtUNumber
	dtSDecimal
	dtUDecimal
)

type dtToken struct {
	kind   dtKind
	c      byte  // dtChar
	val    int64 // table values, and number values
	neg    bool  // numbers: had a '-' sign
	digits int   // numbers: how many digits
	ns     int64 // decimals: the fraction
}

func (t dtToken) isUnit() bool {
	switch t.kind {
	case dtYearUnit, dtMonthUnit, dtHourUnit, dtMinuteUnit, dtSecUnit, dtDayUnit:
		return true
	}
	return false
}

// Meridians.
const (
	merAM = iota
	merPM
	mer24
)

type dtWord struct {
	name string
	kind dtKind
	val  int64
}

var dtMeridians = []dtWord{
	{"AM", dtMeridian, merAM}, {"A.M.", dtMeridian, merAM},
	{"PM", dtMeridian, merPM}, {"P.M.", dtMeridian, merPM},
}

var dtMonthsDays = []dtWord{
	{"JANUARY", dtMonth, 1}, {"FEBRUARY", dtMonth, 2}, {"MARCH", dtMonth, 3},
	{"APRIL", dtMonth, 4}, {"MAY", dtMonth, 5}, {"JUNE", dtMonth, 6},
	{"JULY", dtMonth, 7}, {"AUGUST", dtMonth, 8}, {"SEPTEMBER", dtMonth, 9},
	{"SEPT", dtMonth, 9}, {"OCTOBER", dtMonth, 10}, {"NOVEMBER", dtMonth, 11},
	{"DECEMBER", dtMonth, 12},
	{"SUNDAY", dtDay, 0}, {"MONDAY", dtDay, 1}, {"TUESDAY", dtDay, 2},
	{"TUES", dtDay, 2}, {"WEDNESDAY", dtDay, 3}, {"WEDNES", dtDay, 3},
	{"THURSDAY", dtDay, 4}, {"THUR", dtDay, 4}, {"THURS", dtDay, 4},
	{"FRIDAY", dtDay, 5}, {"SATURDAY", dtDay, 6},
}

var dtUnits = []dtWord{
	{"YEAR", dtYearUnit, 1}, {"MONTH", dtMonthUnit, 1},
	{"FORTNIGHT", dtDayUnit, 14}, {"WEEK", dtDayUnit, 7}, {"DAY", dtDayUnit, 1},
	{"HOUR", dtHourUnit, 1}, {"MINUTE", dtMinuteUnit, 1}, {"MIN", dtMinuteUnit, 1},
	{"SECOND", dtSecUnit, 1}, {"SEC", dtSecUnit, 1},
}

var dtRelatives = []dtWord{
	{"TOMORROW", dtDayShift, 1}, {"YESTERDAY", dtDayShift, -1},
	{"TODAY", dtDayShift, 0}, {"NOW", dtDayShift, 0},
	{"LAST", dtOrdinal, -1}, {"THIS", dtOrdinal, 0}, {"NEXT", dtOrdinal, 1},
	{"FIRST", dtOrdinal, 1}, {"THIRD", dtOrdinal, 3}, {"FOURTH", dtOrdinal, 4},
	{"FIFTH", dtOrdinal, 5}, {"SIXTH", dtOrdinal, 6}, {"SEVENTH", dtOrdinal, 7},
	{"EIGHTH", dtOrdinal, 8}, {"NINTH", dtOrdinal, 9}, {"TENTH", dtOrdinal, 10},
	{"ELEVENTH", dtOrdinal, 11}, {"TWELFTH", dtOrdinal, 12},
	{"AGO", dtAgo, -1}, {"HENCE", dtAgo, 1},
}

const dtHour = 3600

var dtUniversalZones = []dtWord{
	{"GMT", dtZone, 0}, {"UT", dtZone, 0}, {"UTC", dtZone, 0},
}

var dtZones = []dtWord{
	{"WET", dtZone, 0}, {"WEST", dtDayZone, 0}, {"BST", dtDayZone, 0},
	{"ART", dtZone, -3 * dtHour}, {"BRT", dtZone, -3 * dtHour}, {"BRST", dtDayZone, -3 * dtHour},
	{"NST", dtZone, -(3*dtHour + 30*60)}, {"NDT", dtDayZone, -(3*dtHour + 30*60)},
	{"AST", dtZone, -4 * dtHour}, {"ADT", dtDayZone, -4 * dtHour},
	{"CLT", dtZone, -4 * dtHour}, {"CLST", dtDayZone, -4 * dtHour},
	{"EST", dtZone, -5 * dtHour}, {"EDT", dtDayZone, -5 * dtHour},
	{"CST", dtZone, -6 * dtHour}, {"CDT", dtDayZone, -6 * dtHour},
	{"MST", dtZone, -7 * dtHour}, {"MDT", dtDayZone, -7 * dtHour},
	{"PST", dtZone, -8 * dtHour}, {"PDT", dtDayZone, -8 * dtHour},
	{"AKST", dtZone, -9 * dtHour}, {"AKDT", dtDayZone, -9 * dtHour},
	{"HST", dtZone, -10 * dtHour}, {"HAST", dtZone, -10 * dtHour}, {"HADT", dtDayZone, -10 * dtHour},
	{"SST", dtZone, -12 * dtHour},
	{"WAT", dtZone, 1 * dtHour}, {"CET", dtZone, 1 * dtHour}, {"CEST", dtDayZone, 1 * dtHour},
	{"MET", dtZone, 1 * dtHour}, {"MEZ", dtZone, 1 * dtHour}, {"MEST", dtDayZone, 1 * dtHour},
	{"MESZ", dtDayZone, 1 * dtHour},
	{"EET", dtZone, 2 * dtHour}, {"EEST", dtDayZone, 2 * dtHour},
	{"CAT", dtZone, 2 * dtHour}, {"SAST", dtZone, 2 * dtHour},
	{"EAT", dtZone, 3 * dtHour}, {"MSK", dtZone, 3 * dtHour}, {"MSD", dtDayZone, 3 * dtHour},
	{"IST", dtZone, 5*dtHour + 30*60},
	{"SGT", dtZone, 8 * dtHour}, {"KST", dtZone, 9 * dtHour}, {"JST", dtZone, 9 * dtHour},
	{"GST", dtZone, 10 * dtHour}, {"NZST", dtZone, 12 * dtHour}, {"NZDT", dtDayZone, 12 * dtHour},
}

// dtMilitary maps the one-letter military zones A-Z (without J, which
// is local time in newer gnulib only) to their offsets; T is special.
func dtMilitary(c byte) (dtWord, bool) {
	switch {
	case c >= 'A' && c <= 'I':
		return dtWord{kind: dtZone, val: int64(c-'A'+1) * dtHour}, true
	case c >= 'K' && c <= 'M':
		return dtWord{kind: dtZone, val: int64(c-'K'+10) * dtHour}, true
	case c >= 'N' && c <= 'S':
		return dtWord{kind: dtZone, val: -int64(c-'N'+1) * dtHour}, true
	case c == 'T':
		return dtWord{kind: dtT}, true
	case c >= 'U' && c <= 'Y':
		return dtWord{kind: dtZone, val: -int64(c-'U'+8) * dtHour}, true
	case c == 'Z':
		return dtWord{kind: dtZone, val: 0}, true
	}
	return dtWord{}, false
}

// dtLexer splits a date string into tokens as parse-datetime.y's yylex.
type dtLexer struct {
	s          string
	i          int
	localZones []dtWord // the local zone's abbreviations (tLOCAL_ZONE)
}

func cIsSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
func cIsDigit(c byte) bool { return c >= '0' && c <= '9' }
func cIsAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func (l *dtLexer) at(i int) byte {
	if i < len(l.s) {
		return l.s[i]
	}
	return 0
}

func (l *dtLexer) next() dtToken {
	for {
		for cIsSpace(l.at(l.i)) {
			l.i++
		}
		c := l.at(l.i)
		if cIsDigit(c) || c == '-' || c == '+' {
			p := l.i
			sign := 0
			if c == '-' || c == '+' {
				sign = 1
				if c == '-' {
					sign = -1
				}
				p++
				for cIsSpace(l.at(p)) {
					p++
				}
				l.i = p
				if !cIsDigit(l.at(p)) {
					continue // a sign not before a number is skipped
				}
			}
			var value int64
			for cIsDigit(l.at(p)) {
				d := int64(l.at(p) - '0')
				if sign < 0 {
					d = -d
				}
				if value > math.MaxInt64/10 || value < math.MinInt64/10 {
					return dtToken{kind: dtError}
				}
				value *= 10
				if (d > 0 && value > math.MaxInt64-d) || (d < 0 && value < math.MinInt64-d) {
					return dtToken{kind: dtError}
				}
				value += d
				p++
			}
			if c := l.at(p); (c == '.' || c == ',') && cIsDigit(l.at(p+1)) {
				s := value
				p++
				ns := int64(l.at(p) - '0')
				p++
				for digits := 2; digits <= 9; digits++ {
					ns *= 10
					if cIsDigit(l.at(p)) {
						ns += int64(l.at(p) - '0')
						p++
					}
				}
				// Excess digits truncate toward -Infinity.
				if sign < 0 {
					for ; cIsDigit(l.at(p)); p++ {
						if l.at(p) != '0' {
							ns++
							break
						}
					}
				}
				for cIsDigit(l.at(p)) {
					p++
				}
				if sign < 0 && ns != 0 {
					if s == math.MinInt64 {
						return dtToken{kind: dtError}
					}
					s--
					ns = 1e9 - ns
				}
				l.i = p
				k := dtUDecimal
				if sign != 0 {
					k = dtSDecimal
				}
				return dtToken{kind: k, val: s, ns: ns}
			}
			t := dtToken{kind: dtUNumber, val: value, neg: sign < 0, digits: p - l.i}
			if sign != 0 {
				t.kind = dtSNumber
			}
			l.i = p
			return t
		}
		if cIsAlpha(c) {
			var buf [19]byte
			n := 0
			for cIsAlpha(l.at(l.i)) || l.at(l.i) == '.' {
				if n < len(buf) {
					buf[n] = l.at(l.i)
					n++
				}
				l.i++
			}
			w, ok := l.lookup(buf[:n])
			if !ok {
				return dtToken{kind: dtError}
			}
			return dtToken{kind: w.kind, val: w.val}
		}
		if c != '(' {
			if l.i >= len(l.s) {
				return dtToken{kind: dtEOF}
			}
			l.i++
			if c == 0 {
				// An embedded NUL ends the C string.
				return dtToken{kind: dtEOF}
			}
			return dtToken{kind: dtChar, c: c}
		}
		// A comment: skip balanced parentheses.
		count := 0
		for {
			if l.i >= len(l.s) || l.s[l.i] == 0 {
				return dtToken{kind: dtEOF}
			}
			c := l.s[l.i]
			l.i++
			if c == '(' {
				count++
			} else if c == ')' {
				count--
			}
			if count == 0 {
				break
			}
		}
	}
}

// lookup is parse-datetime.y's lookup_word; word is modified.
func (l *dtLexer) lookup(word []byte) (dtWord, bool) {
	for i, c := range word {
		if c >= 'a' && c <= 'z' {
			word[i] = c - 'a' + 'A'
		}
	}
	w := string(word)
	for _, t := range dtMeridians {
		if w == t.name {
			return t, true
		}
	}
	abbrev := len(w) == 3 || (len(w) == 4 && w[3] == '.')
	for _, t := range dtMonthsDays {
		if (abbrev && strings.HasPrefix(t.name, w[:3])) || (!abbrev && w == t.name) {
			return t, true
		}
	}
	if t, ok := l.lookupZone(w); ok {
		return t, true
	}
	if w == "DST" {
		return dtWord{kind: dtDST}, true
	}
	for _, t := range dtUnits {
		if w == t.name {
			return t, true
		}
	}
	if strings.HasSuffix(w, "S") {
		for _, t := range dtUnits {
			if w[:len(w)-1] == t.name {
				return t, true
			}
		}
	}
	for _, t := range dtRelatives {
		if w == t.name {
			return t, true
		}
	}
	if len(w) == 1 {
		if t, ok := dtMilitary(w[0]); ok {
			return t, true
		}
	}
	if strings.Contains(w, ".") {
		if t, ok := l.lookupZone(strings.ReplaceAll(w, ".", "")); ok {
			return t, true
		}
	}
	return dtWord{}, false
}

func (l *dtLexer) lookupZone(w string) (dtWord, bool) {
	for _, tab := range [][]dtWord{dtUniversalZones, l.localZones, dtZones} {
		for _, t := range tab {
			if w == t.name {
				return t, true
			}
		}
	}
	return dtWord{}, false
}

// dtTextint is a number as written: its value and how many digits it had.
type dtTextint struct {
	neg    bool
	value  int64
	digits int
}

// dtRel is a relative time: years ... nanoseconds to add.
type dtRel struct {
	year, month, day, hour, minutes, seconds, ns int64
}

// dtParser holds what parse_datetime's parser_control holds.
type dtParser struct {
	toks []dtToken
	pos  int

	dayOrdinal int64
	dayNumber  int64
	localIsDST int64
	timeZone   int64 // seconds east of UTC
	meridian   int64
	year       dtTextint
	month, day int64
	hour, mins int64
	secs       Timespec
	rel        dtRel

	timespecSeen, relsSeen, yearSeen                                    bool
	datesSeen, daysSeen, localZonesSeen, dstsSeen, timesSeen, zonesSeen int
}

func (pc *dtParser) peek(i int) dtToken {
	if pc.pos+i < len(pc.toks) {
		return pc.toks[pc.pos+i]
	}
	return dtToken{kind: dtEOF}
}

func (pc *dtParser) isChar(i int, c byte) bool {
	t := pc.peek(i)
	return t.kind == dtChar && t.c == c
}

// addRel is apply_relative_time: pc.rel += factor * r, failing on
// overflow.
func (pc *dtParser) addRel(r dtRel, factor int64) bool {
	add := func(a *int64, b int64) bool {
		if factor < 0 {
			if b == math.MinInt64 {
				return false
			}
			b = -b
		}
		s := *a + b
		if (b > 0 && s < *a) || (b < 0 && s > *a) {
			return false
		}
		*a = s
		return true
	}
	ok := add(&pc.rel.ns, r.ns) && add(&pc.rel.seconds, r.seconds) && add(&pc.rel.minutes, r.minutes) &&
		add(&pc.rel.hour, r.hour) && add(&pc.rel.day, r.day) && add(&pc.rel.month, r.month) && add(&pc.rel.year, r.year)
	pc.relsSeen = true
	return ok
}

// digitsToDateTime interprets a bare number as parse-datetime.y does:
// a year after a date, YYYYMMDD, HHMM or HH.
func (pc *dtParser) digitsToDateTime(t dtTextint) {
	if pc.datesSeen > 0 && pc.year.digits == 0 && !pc.relsSeen && (pc.timesSeen > 0 || t.digits > 2) {
		pc.yearSeen = true
		pc.year = t
		return
	}
	if t.digits > 4 {
		pc.datesSeen++
		pc.day = t.value % 100
		pc.month = (t.value / 100) % 100
		pc.year.value = t.value / 10000
		pc.year.digits = t.digits - 4
		return
	}
	pc.timesSeen++
	if t.digits <= 2 {
		pc.hour, pc.mins = t.value, 0
	} else {
		pc.hour, pc.mins = t.value/100, t.value%100
	}
	pc.secs = Timespec{}
	pc.meridian = mer24
}

// timeZoneHHMM is time_zone_hhmm: s is +HH, +HHMM, or +HH with mm
// minutes (mm < 0: none).
func (pc *dtParser) timeZoneHHMM(s dtTextint, mm int64) bool {
	if s.digits <= 2 && mm < 0 {
		s.value *= 100
	}
	var n int64
	if mm < 0 {
		n = (s.value/100)*60 + s.value%100
	} else {
		if s.value > math.MaxInt64/60 || s.value < math.MinInt64/60 {
			return false
		}
		n = s.value * 60
		if s.neg {
			n -= mm
		} else {
			n += mm
		}
	}
	if n < -24*60 || n > 24*60 {
		return false
	}
	pc.timeZone = n * 60
	return true
}

func dtTokInt(t dtToken) dtTextint { return dtTextint{neg: t.neg, value: t.val, digits: t.digits} }

// dtUnitRel makes the relative time "n units" for a unit token.
func dtUnitRel(n int64, unit dtToken) (dtRel, bool) {
	var r dtRel
	switch unit.kind {
	case dtYearUnit:
		r.year = n
	case dtMonthUnit:
		r.month = n
	case dtDayUnit:
		if n != 0 && (n*unit.val)/unit.val != n {
			return r, false
		}
		r.day = n * unit.val
	case dtHourUnit:
		r.hour = n
	case dtMinuteUnit:
		r.minutes = n
	case dtSecUnit:
		r.seconds = n
	}
	return r, true
}

// optZoneOffset parses o_zone_offset after an ISO 8601 time: a signed
// number with optional ":MM".
func (pc *dtParser) optZoneOffset() bool {
	if pc.peek(0).kind != dtSNumber {
		return true
	}
	return pc.zoneOffset()
}

func (pc *dtParser) zoneOffset() bool {
	s := dtTokInt(pc.peek(0))
	pc.pos++
	mm := int64(-1)
	if pc.isChar(0, ':') {
		if pc.peek(1).kind != dtUNumber {
			return false
		}
		mm = pc.peek(1).val
		pc.pos += 2
	}
	pc.zonesSeen++
	return pc.timeZoneHHMM(s, mm)
}

// isoTime parses iso_8601_time after its hour (already consumed).
func (pc *dtParser) isoTime(h int64) bool {
	switch {
	case pc.peek(0).kind == dtSNumber:
		pc.setHMS(h, 0, Timespec{})
		pc.meridian = mer24
		return pc.zoneOffset()
	case pc.isChar(0, ':') && pc.peek(1).kind == dtUNumber:
		m := pc.peek(1).val
		pc.pos += 2
		sec := Timespec{}
		if pc.isChar(0, ':') {
			t := pc.peek(1)
			if t.kind != dtUNumber && t.kind != dtUDecimal {
				return false
			}
			sec = Timespec{t.val, t.ns}
			pc.pos += 2
		}
		pc.setHMS(h, m, sec)
		pc.meridian = mer24
		return pc.optZoneOffset()
	}
	return false
}

func (pc *dtParser) setHMS(h, m int64, s Timespec) { pc.hour, pc.mins, pc.secs = h, m, s }

// relAgo finishes a relative item: an optional "ago" or "hence".
func (pc *dtParser) relAgo(r dtRel) bool {
	factor := int64(1)
	if pc.peek(0).kind == dtAgo {
		factor = pc.peek(0).val
		pc.pos++
	}
	return pc.addRel(r, factor)
}

// item parses one item of the grammar, choosing as bison's LALR(1)
// parser with its shift preference does. It reports false on a syntax
// error or an overflow (YYABORT).
func (pc *dtParser) item() bool {
	t := pc.peek(0)
	t1 := pc.peek(1)
	switch t.kind {
	case dtUNumber:
		switch {
		case t1.kind == dtMeridian:
			pc.pos += 2
			pc.setHMS(t.val, 0, Timespec{})
			pc.meridian = t1.val
			pc.timesSeen++
			return true
		case t1.kind == dtChar && t1.c == ':':
			if pc.peek(2).kind != dtUNumber {
				return false
			}
			m := pc.peek(2).val
			if pc.peek(3).kind == dtMeridian {
				pc.setHMS(t.val, m, Timespec{})
				pc.meridian = pc.peek(3).val
				pc.pos += 4
				pc.timesSeen++
				return true
			}
			if pc.isChar(3, ':') {
				s := pc.peek(4)
				if s.kind != dtUNumber && s.kind != dtUDecimal {
					return false
				}
				if pc.peek(5).kind == dtMeridian {
					pc.setHMS(t.val, m, Timespec{s.val, s.ns})
					pc.meridian = pc.peek(5).val
					pc.pos += 6
					pc.timesSeen++
					return true
				}
			}
			pc.pos++
			pc.timesSeen++
			return pc.isoTime(t.val)
		case t1.kind == dtSNumber:
			t2 := pc.peek(2)
			switch {
			case t2.kind == dtSNumber:
				// ISO 8601 date, perhaps with a time after 'T'.
				pc.pos += 3
				if t1.val == math.MinInt64 || t2.val == math.MinInt64 {
					return false
				}
				pc.year = dtTokInt(t)
				pc.month, pc.day = -t1.val, -t2.val
				if pc.peek(0).kind == dtT {
					pc.pos++
					if pc.peek(0).kind != dtUNumber {
						return false
					}
					h := pc.peek(0).val
					pc.pos++
					if !pc.isoTime(h) {
						return false
					}
					pc.timesSeen++
				}
				pc.datesSeen++
				return true
			case t2.isUnit():
				pc.pos += 3
				pc.digitsToDateTime(dtTokInt(t))
				r, ok := dtUnitRel(t1.val, t2)
				return ok && pc.addRel(r, 1)
			}
			pc.pos++
			pc.timesSeen++
			return pc.isoTime(t.val)
		case t1.kind == dtMonth:
			pc.pos += 2
			pc.day, pc.month = t.val, t1.val
			switch t2 := pc.peek(0); t2.kind {
			case dtSNumber:
				if t2.val == math.MinInt64 {
					return false
				}
				pc.year = dtTextint{value: -t2.val, digits: t2.digits}
				pc.pos++
			case dtUNumber:
				pc.year = dtTokInt(t2)
				pc.pos++
			}
			pc.datesSeen++
			return true
		case t1.kind == dtDay:
			pc.pos += 2
			pc.dayOrdinal, pc.dayNumber = t.val, t1.val
			pc.daysSeen++
			return true
		case t1.kind == dtChar && t1.c == '/':
			if pc.peek(2).kind != dtUNumber {
				return false
			}
			a, b := dtTokInt(t), pc.peek(2).val
			pc.pos += 3
			if pc.isChar(0, '/') {
				if pc.peek(1).kind != dtUNumber {
					return false
				}
				c := dtTokInt(pc.peek(1))
				pc.pos += 2
				if a.digits >= 4 {
					pc.year, pc.month, pc.day = a, b, c.value
				} else {
					pc.month, pc.day, pc.year = a.value, b, c
				}
			} else {
				pc.month, pc.day = a.value, b
			}
			pc.datesSeen++
			return true
		case t1.isUnit():
			pc.pos += 2
			r, ok := dtUnitRel(t.val, t1)
			return ok && pc.relAgo(r)
		}
		pc.pos++
		pc.digitsToDateTime(dtTokInt(t))
		return true
	case dtSNumber:
		if !t1.isUnit() {
			return false
		}
		pc.pos += 2
		r, ok := dtUnitRel(t.val, t1)
		return ok && pc.relAgo(r)
	case dtUDecimal, dtSDecimal:
		if t1.kind != dtSecUnit {
			return false
		}
		pc.pos += 2
		return pc.relAgo(dtRel{seconds: t.val, ns: t.ns})
	case dtOrdinal:
		switch {
		case t1.kind == dtDay:
			pc.pos += 2
			pc.dayOrdinal, pc.dayNumber = t.val, t1.val
			pc.daysSeen++
			return true
		case t1.isUnit():
			pc.pos += 2
			r, ok := dtUnitRel(t.val, t1)
			return ok && pc.relAgo(r)
		}
		return false
	case dtYearUnit, dtMonthUnit, dtHourUnit, dtMinuteUnit, dtSecUnit, dtDayUnit:
		pc.pos++
		r, _ := dtUnitRel(1, t)
		return pc.relAgo(r)
	case dtDayShift:
		pc.pos++
		return pc.addRel(dtRel{day: t.val}, 1)
	case dtDay:
		pc.pos++
		if pc.isChar(0, ',') {
			pc.pos++
		}
		pc.dayOrdinal, pc.dayNumber = 0, t.val
		pc.daysSeen++
		return true
	case dtMonth:
		switch {
		case t1.kind == dtSNumber && pc.peek(2).kind == dtSNumber:
			t2 := pc.peek(2)
			pc.pos += 3
			if t1.val == math.MinInt64 || t2.val == math.MinInt64 {
				return false
			}
			pc.month, pc.day = t.val, -t1.val
			pc.year = dtTextint{value: -t2.val, digits: t2.digits}
		case t1.kind == dtUNumber:
			pc.pos += 2
			pc.month, pc.day = t.val, t1.val
			if pc.isChar(0, ',') {
				if pc.peek(1).kind != dtUNumber {
					return false
				}
				pc.year = dtTokInt(pc.peek(1))
				pc.pos += 2
			}
		default:
			return false
		}
		pc.datesSeen++
		return true
	case dtZone, dtT:
		zone := t.val
		if t.kind == dtT {
			zone = -7 * dtHour
		}
		t2 := pc.peek(2)
		pc.pos++
		pc.zonesSeen++
		switch {
		case t1.kind == dtSNumber && t2.isUnit():
			pc.timeZone = zone
			r, ok := dtUnitRel(t1.val, t2)
			pc.pos += 2
			return ok && pc.addRel(r, 1)
		case t1.kind == dtSNumber && t.kind == dtZone:
			pc.pos++
			mm := int64(-1)
			if pc.isChar(0, ':') {
				if pc.peek(1).kind != dtUNumber {
					return false
				}
				mm = pc.peek(1).val
				pc.pos += 2
			}
			if !pc.timeZoneHHMM(dtTokInt(t1), mm) {
				return false
			}
			s := pc.timeZone + zone
			if (zone > 0 && s < pc.timeZone) || (zone < 0 && s > pc.timeZone) {
				return false
			}
			pc.timeZone = s
			return true
		case t1.kind == dtDST && t.kind == dtZone:
			pc.pos++
			pc.timeZone = zone + dtHour
			return true
		}
		pc.timeZone = zone
		return true
	case dtDayZone:
		pc.pos++
		pc.zonesSeen++
		pc.timeZone = t.val + dtHour
		return true
	case dtLocalZone:
		pc.pos++
		pc.localZonesSeen++
		pc.localIsDST = t.val
		if t1.kind == dtDST {
			pc.pos++
			pc.localIsDST = 1
			pc.dstsSeen++
		}
		return true
	}
	return false
}

// dtTm is C's struct tm, with the int fields that matter here.
type dtTm struct {
	year, mon, mday, hour, min, sec int32 // year - 1900, month 0-11
	isdst                           int32
	wday, yday                      int32
	gmtoff                          int64
}

func dtFitsInt32(v int64) bool { return v >= math.MinInt32 && v <= math.MaxInt32 }

// mktime is mktime(3) on loc as glibc computes it: fields out of range
// are normalized; a local time that a DST change skips is read with the
// offset in force before the change; one that happens twice is the
// earlier; and a tm_isdst of 0 or 1 that disagrees with the zone at that
// time makes glibc use the UTC offset of the nearest time that agrees
// (within 17 years). Dates outside the range
// of the time zone data (before 1900, after 2037) may come out an hour
// off glibc's, whose extrapolation differs from Go's.
// It updates t as mktime does and reports false where mktime fails.
func mktime(loc *time.Location, t *dtTm) (int64, bool) {
	local := time.Date(int(t.year)+1900, time.Month(int(t.mon)+1), int(t.mday), int(t.hour), int(t.min), int(t.sec), 0, time.UTC).Unix()
	off := func(u int64) int64 { _, o := time.Unix(u, 0).In(loc).Zone(); return int64(o) }
	cands := []int64{off(local - 2*86400), off(local + 2*86400), off(local)}
	chosen, found := int64(0), false
	for _, c := range cands {
		if off(local-c) == c && (!found || c > chosen) {
			chosen, found = c, true // the earlier instant wins
		}
	}
	if !found {
		chosen = off(local - 2*86400)
	}
	u := local - chosen
	if t.isdst >= 0 {
		want := t.isdst != 0
		if time.Unix(u, 0).In(loc).IsDST() != want {
			const stride, bound = 601200, 536454000
		search:
			for d := int64(stride); d < bound; d += stride {
				for _, probe := range []int64{u - d, u + d} {
					if time.Unix(probe, 0).In(loc).IsDST() == want {
						u = local - off(probe)
						found = true
						break search
					}
				}
			}
		}
	}
	r := time.Unix(u, 0).In(loc)
	if !dtFitsInt32(int64(r.Year()) - 1900) {
		return 0, false
	}
	_, o := r.Zone()
	isdst := int32(0)
	if r.IsDST() {
		isdst = 1
	}
	*t = dtTm{year: int32(r.Year() - 1900), mon: int32(r.Month() - 1), mday: int32(r.Day()),
		hour: int32(r.Hour()), min: int32(r.Minute()), sec: int32(r.Second()), isdst: isdst,
		wday: int32(r.Weekday()), yday: int32(r.YearDay() - 1), gmtoff: int64(o)}
	return u, true
}

// Parse is gnulib's parse_datetime: it interprets s relative to now in
// the zone loc (the caller's TZ, for find time.Local), and reports false
// for a string it cannot make sense of. A leading TZ="Zone" in s
// overrides loc.
func Parse(s string, now time.Time, loc *time.Location) (Timespec, bool) {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i] // the C string ends at a NUL
	}
	p := strings.TrimLeft(s, " \t\n\v\f\r")
	if rest, ok := strings.CutPrefix(p, `TZ="`); ok {
		var name strings.Builder
		for i := 0; i < len(rest); i++ {
			c := rest[i]
			if c == '\\' {
				i++
				if i >= len(rest) || (rest[i] != '\\' && rest[i] != '"') {
					break
				}
				name.WriteByte(rest[i])
			} else if c == '"' {
				loc = dtLoadTZ(name.String())
				p = strings.TrimLeft(rest[i+1:], " \t\n\v\f\r")
				break
			} else {
				name.WriteByte(c)
			}
		}
	}
	nowL := now.In(loc)
	start := Timespec{now.Unix(), int64(now.Nanosecond())}
	if p == "" {
		p = "0"
	}

	pc := dtParser{meridian: mer24}
	pc.year = dtTextint{value: int64(nowL.Year())}
	pc.month, pc.day = int64(nowL.Month()), int64(nowL.Day())
	pc.hour, pc.mins = int64(nowL.Hour()), int64(nowL.Minute())
	pc.secs = Timespec{int64(nowL.Second()), start.Nsec}
	nowDST := int32(0)
	if nowL.IsDST() {
		nowDST = 1
	}

	// The local zone's abbreviations: now's, and one with the other DST
	// setting if the next three quarters have one.
	name, _ := nowL.Zone()
	local := []dtWord{{name, dtLocalZone, int64(nowDST)}}
	for q := int64(1); q <= 3; q++ {
		pt := time.Unix(start.Sec+q*90*86400, 0).In(loc)
		if pt.IsDST() != nowL.IsDST() {
			n, _ := pt.Zone()
			v := int64(0)
			if pt.IsDST() {
				v = 1
			}
			local = append(local, dtWord{n, dtLocalZone, v})
			break
		}
	}
	if len(local) == 2 && local[0].name == local[1].name {
		local[0].val = -1
		local = local[:1]
	}

	lex := dtLexer{s: p, localZones: local}
	for {
		t := lex.next()
		pc.toks = append(pc.toks, t)
		if t.kind == dtEOF || t.kind == dtError {
			break
		}
	}

	if pc.peek(0).kind == dtChar && pc.peek(0).c == '@' {
		t := pc.peek(1)
		switch t.kind {
		case dtSNumber, dtUNumber, dtSDecimal, dtUDecimal:
		default:
			return Timespec{}, false
		}
		if pc.peek(2).kind != dtEOF {
			return Timespec{}, false
		}
		return Timespec{t.val, t.ns}, true
	}
	for pc.peek(0).kind != dtEOF {
		if !pc.item() {
			return Timespec{}, false
		}
	}
	return pc.compute(loc, nowDST)
}

// dtLoadTZ is tzalloc for a TZ="..." prefix. glibc takes a name it cannot
// find as UTC.
func dtLoadTZ(name string) *time.Location {
	if l, err := time.LoadLocation(name); err == nil {
		return l
	}
	return time.UTC
}

// compute turns the parsed items into a time, as parse_datetime_body.
func (pc *dtParser) compute(loc *time.Location, nowDST int32) (Timespec, bool) {
	if pc.timesSeen > 1 || pc.datesSeen > 1 || pc.daysSeen > 1 || pc.dstsSeen > 1 ||
		pc.localZonesSeen+pc.zonesSeen > 1 {
		return Timespec{}, false
	}
	var t dtTm
	year := pc.year.value
	if year >= 0 && pc.year.digits == 2 {
		if year < 69 {
			year += 2000
		} else {
			year += 1900
		}
	}
	// A negative year (from "17-JUN+1992") counts as its absolute value.
	tmYear := year - 1900
	if year < 0 {
		tmYear = -1900 - year
	}
	if year == math.MinInt64 || !dtFitsInt32(tmYear) {
		return Timespec{}, false
	}
	t.year = int32(tmYear)
	if !dtFitsInt32(pc.month-1) || !dtFitsInt32(pc.day) {
		return Timespec{}, false
	}
	t.mon, t.mday = int32(pc.month-1), int32(pc.day)
	if pc.timesSeen > 0 || (pc.relsSeen && pc.datesSeen == 0 && pc.daysSeen == 0) {
		h := dtToHour(pc.hour, pc.meridian)
		if h < 0 {
			return Timespec{}, false
		}
		// C assigns the wider values to int fields without a check.
		t.hour, t.min, t.sec = int32(h), int32(pc.mins), int32(pc.secs.Sec)
	} else {
		pc.secs.Nsec = 0
	}
	t.isdst = nowDST
	if pc.datesSeen+pc.daysSeen+pc.timesSeen > 0 {
		t.isdst = -1
	}
	if pc.localZonesSeen > 0 {
		t.isdst = int32(pc.localIsDST)
	}
	t0 := t
	start, ok := mktime(loc, &t)
	if !ok || !dtSameFields(t0, t) {
		if pc.zonesSeen == 0 {
			return Timespec{}, false
		}
		// Retry in a zone of the parsed offset (gnulib's "XXX" zone),
		// where no time is skipped.
		t = t0
		start, ok = mktime(time.FixedZone("XXX", int(-pc.timeZone)), &t)
		if !ok || !dtSameFields(t0, t) {
			return Timespec{}, false
		}
	}
	if pc.daysSeen > 0 && pc.datesSeen == 0 {
		ord := pc.dayOrdinal
		if ord > 0 && int64(t.wday) != pc.dayNumber {
			ord--
		}
		// (day_number - wday + 7) % 7 + 7 * ordinal, with overflow checks.
		incr := ((pc.dayNumber-int64(t.wday)+7)%7 + 7) % 7
		if ord > math.MaxInt64/7 || ord < math.MinInt64/7 {
			return Timespec{}, false
		}
		incr += ord * 7
		mday := int64(t.mday) + incr
		if !dtFitsInt32(mday) {
			return Timespec{}, false
		}
		t.mday = int32(mday)
		t.isdst = -1
		if start, ok = mktime(loc, &t); !ok {
			return Timespec{}, false
		}
	}
	if pc.rel.year != 0 || pc.rel.month != 0 || pc.rel.day != 0 {
		y, ok1 := dtAddChecked(int64(t.year), pc.rel.year, 1)
		m, ok2 := dtAddChecked(int64(t.mon), pc.rel.month, 1)
		d, ok3 := dtAddChecked(int64(t.mday), pc.rel.day, 1)
		if !ok1 || !ok2 || !ok3 || !dtFitsInt32(y) || !dtFitsInt32(m) || !dtFitsInt32(d) {
			return Timespec{}, false
		}
		t = dtTm{year: int32(y), mon: int32(m), mday: int32(d), hour: t0.hour, min: t0.min, sec: t0.sec, isdst: t0.isdst}
		if start, ok = mktime(loc, &t); !ok {
			return Timespec{}, false
		}
	}
	if pc.zonesSeen > 0 {
		delta := pc.timeZone - t.gmtoff
		s := start - delta
		if (delta > 0 && s > start) || (delta < 0 && s < start) {
			return Timespec{}, false
		}
		start = s
	}
	sumNS := pc.secs.Nsec + pc.rel.ns
	norm := (sumNS%1e9 + 1e9) % 1e9
	d4 := (sumNS - norm) / 1e9
	sec, ok := dtAddChecked(start, pc.rel.hour, 3600)
	if ok {
		sec, ok = dtAddChecked(sec, pc.rel.minutes, 60)
	}
	if ok {
		sec, ok = dtAddChecked(sec, pc.rel.seconds, 1)
	}
	if ok {
		sec, ok = dtAddChecked(sec, d4, 1)
	}
	if !ok {
		return Timespec{}, false
	}
	return Timespec{sec, norm}, true
}

// dtAddChecked returns a + n*unit, or false on overflow.
func dtAddChecked(a, n, unit int64) (int64, bool) {
	if n != 0 && (n > math.MaxInt64/unit || n < math.MinInt64/unit) {
		return 0, false
	}
	d := n * unit
	s := a + d
	if (d > 0 && s < a) || (d < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// dtSameFields is mktime_ok's comparison: mktime changed none of the
// fields the caller gave.
func dtSameFields(a, b dtTm) bool {
	return a.sec == b.sec && a.min == b.min && a.hour == b.hour && a.mday == b.mday && a.mon == b.mon && a.year == b.year
}

// dtToHour applies a meridian to an hour, or returns -1 for an impossible
// one ("13pm", "0am", "24:00").
func dtToHour(h, meridian int64) int64 {
	switch meridian {
	case merAM:
		switch {
		case h > 0 && h < 12:
			return h
		case h == 12:
			return 0
		}
		return -1
	case merPM:
		switch {
		case h > 0 && h < 12:
			return h + 12
		case h == 12:
			return 12
		}
		return -1
	}
	if h >= 0 && h < 24 {
		return h
	}
	return -1
}
