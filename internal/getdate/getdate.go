package getdate

import (
	"math"
	"strings"
	"time"

	"github.com/gfind/gfind/internal/ctype"
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
type tokenKind uint8

const (
	tEOF tokenKind = iota
	tChar
	tError
	tAgo
	tDST
	tYearUnit
	tMonthUnit
	tHourUnit
	tMinuteUnit
	tSecUnit
	tDayUnit
	tDayShift
	tDay
	tDayZone
	tLocalZone
	tMeridian
	tMonth
	tOrdinal
	tZone
	tT // 'T': the ISO 8601 separator, or military zone T
	tSNumber
	tUNumber
	tSDecimal
	tUDecimal
)

type token struct {
	kind   tokenKind
	c      byte  // tChar
	val    int64 // table values, and number values
	neg    bool  // numbers: had a '-' sign
	digits int   // numbers: how many digits
	ns     int64 // decimals: the fraction
}

func (t token) isUnit() bool {
	switch t.kind {
	case tYearUnit, tMonthUnit, tHourUnit, tMinuteUnit, tSecUnit, tDayUnit:
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

type entry struct {
	name string
	kind tokenKind
	val  int64
}

var meridians = []entry{
	{"AM", tMeridian, merAM}, {"A.M.", tMeridian, merAM},
	{"PM", tMeridian, merPM}, {"P.M.", tMeridian, merPM},
}

var monthsAndDays = []entry{
	{"JANUARY", tMonth, 1}, {"FEBRUARY", tMonth, 2}, {"MARCH", tMonth, 3},
	{"APRIL", tMonth, 4}, {"MAY", tMonth, 5}, {"JUNE", tMonth, 6},
	{"JULY", tMonth, 7}, {"AUGUST", tMonth, 8}, {"SEPTEMBER", tMonth, 9},
	{"SEPT", tMonth, 9}, {"OCTOBER", tMonth, 10}, {"NOVEMBER", tMonth, 11},
	{"DECEMBER", tMonth, 12},
	{"SUNDAY", tDay, 0}, {"MONDAY", tDay, 1}, {"TUESDAY", tDay, 2},
	{"TUES", tDay, 2}, {"WEDNESDAY", tDay, 3}, {"WEDNES", tDay, 3},
	{"THURSDAY", tDay, 4}, {"THUR", tDay, 4}, {"THURS", tDay, 4},
	{"FRIDAY", tDay, 5}, {"SATURDAY", tDay, 6},
}

var units = []entry{
	{"YEAR", tYearUnit, 1}, {"MONTH", tMonthUnit, 1},
	{"FORTNIGHT", tDayUnit, 14}, {"WEEK", tDayUnit, 7}, {"DAY", tDayUnit, 1},
	{"HOUR", tHourUnit, 1}, {"MINUTE", tMinuteUnit, 1}, {"MIN", tMinuteUnit, 1},
	{"SECOND", tSecUnit, 1}, {"SEC", tSecUnit, 1},
}

var relatives = []entry{
	{"TOMORROW", tDayShift, 1}, {"YESTERDAY", tDayShift, -1},
	{"TODAY", tDayShift, 0}, {"NOW", tDayShift, 0},
	{"LAST", tOrdinal, -1}, {"THIS", tOrdinal, 0}, {"NEXT", tOrdinal, 1},
	{"FIRST", tOrdinal, 1}, {"THIRD", tOrdinal, 3}, {"FOURTH", tOrdinal, 4},
	{"FIFTH", tOrdinal, 5}, {"SIXTH", tOrdinal, 6}, {"SEVENTH", tOrdinal, 7},
	{"EIGHTH", tOrdinal, 8}, {"NINTH", tOrdinal, 9}, {"TENTH", tOrdinal, 10},
	{"ELEVENTH", tOrdinal, 11}, {"TWELFTH", tOrdinal, 12},
	{"AGO", tAgo, -1}, {"HENCE", tAgo, 1},
}

const hour = 3600

var universalZones = []entry{
	{"GMT", tZone, 0}, {"UT", tZone, 0}, {"UTC", tZone, 0},
}

var zones = []entry{
	{"WET", tZone, 0}, {"WEST", tDayZone, 0}, {"BST", tDayZone, 0},
	{"ART", tZone, -3 * hour}, {"BRT", tZone, -3 * hour}, {"BRST", tDayZone, -3 * hour},
	{"NST", tZone, -(3*hour + 30*60)}, {"NDT", tDayZone, -(3*hour + 30*60)},
	{"AST", tZone, -4 * hour}, {"ADT", tDayZone, -4 * hour},
	{"CLT", tZone, -4 * hour}, {"CLST", tDayZone, -4 * hour},
	{"EST", tZone, -5 * hour}, {"EDT", tDayZone, -5 * hour},
	{"CST", tZone, -6 * hour}, {"CDT", tDayZone, -6 * hour},
	{"MST", tZone, -7 * hour}, {"MDT", tDayZone, -7 * hour},
	{"PST", tZone, -8 * hour}, {"PDT", tDayZone, -8 * hour},
	{"AKST", tZone, -9 * hour}, {"AKDT", tDayZone, -9 * hour},
	{"HST", tZone, -10 * hour}, {"HAST", tZone, -10 * hour}, {"HADT", tDayZone, -10 * hour},
	{"SST", tZone, -12 * hour},
	{"WAT", tZone, 1 * hour}, {"CET", tZone, 1 * hour}, {"CEST", tDayZone, 1 * hour},
	{"MET", tZone, 1 * hour}, {"MEZ", tZone, 1 * hour}, {"MEST", tDayZone, 1 * hour},
	{"MESZ", tDayZone, 1 * hour},
	{"EET", tZone, 2 * hour}, {"EEST", tDayZone, 2 * hour},
	{"CAT", tZone, 2 * hour}, {"SAST", tZone, 2 * hour},
	{"EAT", tZone, 3 * hour}, {"MSK", tZone, 3 * hour}, {"MSD", tDayZone, 3 * hour},
	{"IST", tZone, 5*hour + 30*60},
	{"SGT", tZone, 8 * hour}, {"KST", tZone, 9 * hour}, {"JST", tZone, 9 * hour},
	{"GST", tZone, 10 * hour}, {"NZST", tZone, 12 * hour}, {"NZDT", tDayZone, 12 * hour},
}

// military maps the one-letter military zones A-Z (without J, which
// is local time in newer gnulib only) to their offsets; T is special.
func military(c byte) (entry, bool) {
	switch {
	case c >= 'A' && c <= 'I':
		return entry{kind: tZone, val: int64(c-'A'+1) * hour}, true
	case c >= 'K' && c <= 'M':
		return entry{kind: tZone, val: int64(c-'K'+10) * hour}, true
	case c >= 'N' && c <= 'S':
		return entry{kind: tZone, val: -int64(c-'N'+1) * hour}, true
	case c == 'T':
		return entry{kind: tT}, true
	case c >= 'U' && c <= 'Y':
		return entry{kind: tZone, val: -int64(c-'U'+8) * hour}, true
	case c == 'Z':
		return entry{kind: tZone, val: 0}, true
	}
	return entry{}, false
}

// lexer splits a date string into tokens as parse-datetime.y's yylex.
type lexer struct {
	s          string
	i          int
	localZones []entry // the local zone's abbreviations (tLOCAL_ZONE)
}

func (l *lexer) at(i int) byte {
	if i < len(l.s) {
		return l.s[i]
	}
	return 0
}

func (l *lexer) next() token {
	for {
		for ctype.IsSpace(l.at(l.i)) {
			l.i++
		}
		c := l.at(l.i)
		if ctype.IsDigit(c) || c == '-' || c == '+' {
			p := l.i
			sign := 0
			if c == '-' || c == '+' {
				sign = 1
				if c == '-' {
					sign = -1
				}
				p++
				for ctype.IsSpace(l.at(p)) {
					p++
				}
				l.i = p
				if !ctype.IsDigit(l.at(p)) {
					continue // a sign not before a number is skipped
				}
			}
			var value int64
			for ctype.IsDigit(l.at(p)) {
				d := int64(l.at(p) - '0')
				if sign < 0 {
					d = -d
				}
				if value > math.MaxInt64/10 || value < math.MinInt64/10 {
					return token{kind: tError}
				}
				value *= 10
				if (d > 0 && value > math.MaxInt64-d) || (d < 0 && value < math.MinInt64-d) {
					return token{kind: tError}
				}
				value += d
				p++
			}
			if c := l.at(p); (c == '.' || c == ',') && ctype.IsDigit(l.at(p+1)) {
				s := value
				p++
				ns := int64(l.at(p) - '0')
				p++
				for digits := 2; digits <= 9; digits++ {
					ns *= 10
					if ctype.IsDigit(l.at(p)) {
						ns += int64(l.at(p) - '0')
						p++
					}
				}
				// Excess digits truncate toward -Infinity.
				if sign < 0 {
					for ; ctype.IsDigit(l.at(p)); p++ {
						if l.at(p) != '0' {
							ns++
							break
						}
					}
				}
				for ctype.IsDigit(l.at(p)) {
					p++
				}
				if sign < 0 && ns != 0 {
					if s == math.MinInt64 {
						return token{kind: tError}
					}
					s--
					ns = 1e9 - ns
				}
				l.i = p
				k := tUDecimal
				if sign != 0 {
					k = tSDecimal
				}
				return token{kind: k, val: s, ns: ns}
			}
			t := token{kind: tUNumber, val: value, neg: sign < 0, digits: p - l.i}
			if sign != 0 {
				t.kind = tSNumber
			}
			l.i = p
			return t
		}
		if ctype.IsAlpha(c) {
			var buf [19]byte
			n := 0
			for ctype.IsAlpha(l.at(l.i)) || l.at(l.i) == '.' {
				if n < len(buf) {
					buf[n] = l.at(l.i)
					n++
				}
				l.i++
			}
			w, ok := l.lookup(buf[:n])
			if !ok {
				return token{kind: tError}
			}
			return token{kind: w.kind, val: w.val}
		}
		if c != '(' {
			if l.i >= len(l.s) {
				return token{kind: tEOF}
			}
			l.i++
			if c == 0 {
				// An embedded NUL ends the C string.
				return token{kind: tEOF}
			}
			return token{kind: tChar, c: c}
		}
		// A comment: skip balanced parentheses.
		count := 0
		for {
			if l.i >= len(l.s) || l.s[l.i] == 0 {
				return token{kind: tEOF}
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
func (l *lexer) lookup(word []byte) (entry, bool) {
	for i, c := range word {
		if c >= 'a' && c <= 'z' {
			word[i] = c - 'a' + 'A'
		}
	}
	w := string(word)
	for _, t := range meridians {
		if w == t.name {
			return t, true
		}
	}
	abbrev := len(w) == 3 || (len(w) == 4 && w[3] == '.')
	for _, t := range monthsAndDays {
		if (abbrev && strings.HasPrefix(t.name, w[:3])) || (!abbrev && w == t.name) {
			return t, true
		}
	}
	if t, ok := l.lookupZone(w); ok {
		return t, true
	}
	if w == "DST" {
		return entry{kind: tDST}, true
	}
	for _, t := range units {
		if w == t.name {
			return t, true
		}
	}
	if strings.HasSuffix(w, "S") {
		for _, t := range units {
			if w[:len(w)-1] == t.name {
				return t, true
			}
		}
	}
	for _, t := range relatives {
		if w == t.name {
			return t, true
		}
	}
	if len(w) == 1 {
		if t, ok := military(w[0]); ok {
			return t, true
		}
	}
	if strings.Contains(w, ".") {
		if t, ok := l.lookupZone(strings.ReplaceAll(w, ".", "")); ok {
			return t, true
		}
	}
	return entry{}, false
}

func (l *lexer) lookupZone(w string) (entry, bool) {
	for _, tab := range [][]entry{universalZones, l.localZones, zones} {
		for _, t := range tab {
			if w == t.name {
				return t, true
			}
		}
	}
	return entry{}, false
}

// textint is a number as written: its value and how many digits it had.
type textint struct {
	neg    bool
	value  int64
	digits int
}

// relTime is a relative time: years ... nanoseconds to add.
type relTime struct {
	year, month, day, hour, minutes, seconds, ns int64
}

// parser holds what parse_datetime's parser_control holds.
type parser struct {
	toks []token
	pos  int

	dayOrdinal int64
	dayNumber  int64
	localIsDST int64
	timeZone   int64 // seconds east of UTC
	meridian   int64
	year       textint
	month, day int64
	hour, mins int64
	secs       Timespec
	rel        relTime

	timespecSeen, relsSeen, yearSeen                                    bool
	datesSeen, daysSeen, localZonesSeen, dstsSeen, timesSeen, zonesSeen int
}

func (pc *parser) peek(i int) token {
	if pc.pos+i < len(pc.toks) {
		return pc.toks[pc.pos+i]
	}
	return token{kind: tEOF}
}

func (pc *parser) isChar(i int, c byte) bool {
	t := pc.peek(i)
	return t.kind == tChar && t.c == c
}

// addRel is apply_relative_time: pc.rel += factor * r, failing on
// overflow.
func (pc *parser) addRel(r relTime, factor int64) bool {
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
func (pc *parser) digitsToDateTime(t textint) {
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
func (pc *parser) timeZoneHHMM(s textint, mm int64) bool {
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

func tokInt(t token) textint { return textint{neg: t.neg, value: t.val, digits: t.digits} }

// unitRel makes the relative time "n units" for a unit token.
func unitRel(n int64, unit token) (relTime, bool) {
	var r relTime
	switch unit.kind {
	case tYearUnit:
		r.year = n
	case tMonthUnit:
		r.month = n
	case tDayUnit:
		if n != 0 && (n*unit.val)/unit.val != n {
			return r, false
		}
		r.day = n * unit.val
	case tHourUnit:
		r.hour = n
	case tMinuteUnit:
		r.minutes = n
	case tSecUnit:
		r.seconds = n
	}
	return r, true
}

// optZoneOffset parses o_zone_offset after an ISO 8601 time: a signed
// number with optional ":MM".
func (pc *parser) optZoneOffset() bool {
	if pc.peek(0).kind != tSNumber {
		return true
	}
	return pc.zoneOffset()
}

func (pc *parser) zoneOffset() bool {
	s := tokInt(pc.peek(0))
	pc.pos++
	mm := int64(-1)
	if pc.isChar(0, ':') {
		if pc.peek(1).kind != tUNumber {
			return false
		}
		mm = pc.peek(1).val
		pc.pos += 2
	}
	pc.zonesSeen++
	return pc.timeZoneHHMM(s, mm)
}

// isoTime parses iso_8601_time after its hour (already consumed).
func (pc *parser) isoTime(h int64) bool {
	switch {
	case pc.peek(0).kind == tSNumber:
		pc.setHMS(h, 0, Timespec{})
		pc.meridian = mer24
		return pc.zoneOffset()
	case pc.isChar(0, ':') && pc.peek(1).kind == tUNumber:
		m := pc.peek(1).val
		pc.pos += 2
		sec := Timespec{}
		if pc.isChar(0, ':') {
			t := pc.peek(1)
			if t.kind != tUNumber && t.kind != tUDecimal {
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

func (pc *parser) setHMS(h, m int64, s Timespec) { pc.hour, pc.mins, pc.secs = h, m, s }

// relAgo finishes a relative item: an optional "ago" or "hence".
func (pc *parser) relAgo(r relTime) bool {
	factor := int64(1)
	if pc.peek(0).kind == tAgo {
		factor = pc.peek(0).val
		pc.pos++
	}
	return pc.addRel(r, factor)
}

// item parses one item of the grammar, choosing as bison's LALR(1)
// parser with its shift preference does. It reports false on a syntax
// error or an overflow (YYABORT).
func (pc *parser) item() bool {
	t := pc.peek(0)
	t1 := pc.peek(1)
	switch t.kind {
	case tUNumber:
		switch {
		case t1.kind == tMeridian:
			pc.pos += 2
			pc.setHMS(t.val, 0, Timespec{})
			pc.meridian = t1.val
			pc.timesSeen++
			return true
		case t1.kind == tChar && t1.c == ':':
			if pc.peek(2).kind != tUNumber {
				return false
			}
			m := pc.peek(2).val
			if pc.peek(3).kind == tMeridian {
				pc.setHMS(t.val, m, Timespec{})
				pc.meridian = pc.peek(3).val
				pc.pos += 4
				pc.timesSeen++
				return true
			}
			if pc.isChar(3, ':') {
				s := pc.peek(4)
				if s.kind != tUNumber && s.kind != tUDecimal {
					return false
				}
				if pc.peek(5).kind == tMeridian {
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
		case t1.kind == tSNumber:
			t2 := pc.peek(2)
			switch {
			case t2.kind == tSNumber:
				// ISO 8601 date, perhaps with a time after 'T'.
				pc.pos += 3
				if t1.val == math.MinInt64 || t2.val == math.MinInt64 {
					return false
				}
				pc.year = tokInt(t)
				pc.month, pc.day = -t1.val, -t2.val
				if pc.peek(0).kind == tT {
					pc.pos++
					if pc.peek(0).kind != tUNumber {
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
				pc.digitsToDateTime(tokInt(t))
				r, ok := unitRel(t1.val, t2)
				return ok && pc.addRel(r, 1)
			}
			pc.pos++
			pc.timesSeen++
			return pc.isoTime(t.val)
		case t1.kind == tMonth:
			pc.pos += 2
			pc.day, pc.month = t.val, t1.val
			switch t2 := pc.peek(0); t2.kind {
			case tSNumber:
				if t2.val == math.MinInt64 {
					return false
				}
				pc.year = textint{value: -t2.val, digits: t2.digits}
				pc.pos++
			case tUNumber:
				pc.year = tokInt(t2)
				pc.pos++
			}
			pc.datesSeen++
			return true
		case t1.kind == tDay:
			pc.pos += 2
			pc.dayOrdinal, pc.dayNumber = t.val, t1.val
			pc.daysSeen++
			return true
		case t1.kind == tChar && t1.c == '/':
			if pc.peek(2).kind != tUNumber {
				return false
			}
			a, b := tokInt(t), pc.peek(2).val
			pc.pos += 3
			if pc.isChar(0, '/') {
				if pc.peek(1).kind != tUNumber {
					return false
				}
				c := tokInt(pc.peek(1))
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
			r, ok := unitRel(t.val, t1)
			return ok && pc.relAgo(r)
		}
		pc.pos++
		pc.digitsToDateTime(tokInt(t))
		return true
	case tSNumber:
		if !t1.isUnit() {
			return false
		}
		pc.pos += 2
		r, ok := unitRel(t.val, t1)
		return ok && pc.relAgo(r)
	case tUDecimal, tSDecimal:
		if t1.kind != tSecUnit {
			return false
		}
		pc.pos += 2
		return pc.relAgo(relTime{seconds: t.val, ns: t.ns})
	case tOrdinal:
		switch {
		case t1.kind == tDay:
			pc.pos += 2
			pc.dayOrdinal, pc.dayNumber = t.val, t1.val
			pc.daysSeen++
			return true
		case t1.isUnit():
			pc.pos += 2
			r, ok := unitRel(t.val, t1)
			return ok && pc.relAgo(r)
		}
		return false
	case tYearUnit, tMonthUnit, tHourUnit, tMinuteUnit, tSecUnit, tDayUnit:
		pc.pos++
		r, _ := unitRel(1, t)
		return pc.relAgo(r)
	case tDayShift:
		pc.pos++
		return pc.addRel(relTime{day: t.val}, 1)
	case tDay:
		pc.pos++
		if pc.isChar(0, ',') {
			pc.pos++
		}
		pc.dayOrdinal, pc.dayNumber = 0, t.val
		pc.daysSeen++
		return true
	case tMonth:
		switch {
		case t1.kind == tSNumber && pc.peek(2).kind == tSNumber:
			t2 := pc.peek(2)
			pc.pos += 3
			if t1.val == math.MinInt64 || t2.val == math.MinInt64 {
				return false
			}
			pc.month, pc.day = t.val, -t1.val
			pc.year = textint{value: -t2.val, digits: t2.digits}
		case t1.kind == tUNumber:
			pc.pos += 2
			pc.month, pc.day = t.val, t1.val
			if pc.isChar(0, ',') {
				if pc.peek(1).kind != tUNumber {
					return false
				}
				pc.year = tokInt(pc.peek(1))
				pc.pos += 2
			}
		default:
			return false
		}
		pc.datesSeen++
		return true
	case tZone, tT:
		zone := t.val
		if t.kind == tT {
			zone = -7 * hour
		}
		t2 := pc.peek(2)
		pc.pos++
		pc.zonesSeen++
		switch {
		case t1.kind == tSNumber && t2.isUnit():
			pc.timeZone = zone
			r, ok := unitRel(t1.val, t2)
			pc.pos += 2
			return ok && pc.addRel(r, 1)
		case t1.kind == tSNumber && t.kind == tZone:
			pc.pos++
			mm := int64(-1)
			if pc.isChar(0, ':') {
				if pc.peek(1).kind != tUNumber {
					return false
				}
				mm = pc.peek(1).val
				pc.pos += 2
			}
			if !pc.timeZoneHHMM(tokInt(t1), mm) {
				return false
			}
			s := pc.timeZone + zone
			if (zone > 0 && s < pc.timeZone) || (zone < 0 && s > pc.timeZone) {
				return false
			}
			pc.timeZone = s
			return true
		case t1.kind == tDST && t.kind == tZone:
			pc.pos++
			pc.timeZone = zone + hour
			return true
		}
		pc.timeZone = zone
		return true
	case tDayZone:
		pc.pos++
		pc.zonesSeen++
		pc.timeZone = t.val + hour
		return true
	case tLocalZone:
		pc.pos++
		pc.localZonesSeen++
		pc.localIsDST = t.val
		if t1.kind == tDST {
			pc.pos++
			pc.localIsDST = 1
			pc.dstsSeen++
		}
		return true
	}
	return false
}

// tm is C's struct tm, with the int fields that matter here.
type tm struct {
	year, mon, mday, hour, min, sec int32 // year - 1900, month 0-11
	isdst                           int32
	wday, yday                      int32
	gmtoff                          int64
}

func fitsInt32(v int64) bool { return v >= math.MinInt32 && v <= math.MaxInt32 }

// mktime is mktime(3) on loc as glibc computes it: fields out of range
// are normalized; a local time that a DST change skips is read with the
// offset in force before the change; one that happens twice is the
// earlier; and a tm_isdst of 0 or 1 that disagrees with the zone at that
// time makes glibc use the UTC offset of the nearest time that agrees
// (within 17 years). Dates outside the range
// of the time zone data (before 1900, after 2037) may come out an hour
// off glibc's, whose extrapolation differs from Go's.
// It updates t as mktime does and reports false where mktime fails.
func mktime(loc *time.Location, t *tm) (int64, bool) {
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
	if !fitsInt32(int64(r.Year()) - 1900) {
		return 0, false
	}
	_, o := r.Zone()
	isdst := int32(0)
	if r.IsDST() {
		isdst = 1
	}
	*t = tm{year: int32(r.Year() - 1900), mon: int32(r.Month() - 1), mday: int32(r.Day()),
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
				loc = loadTZ(name.String())
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

	pc := parser{meridian: mer24}
	pc.year = textint{value: int64(nowL.Year())}
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
	local := []entry{{name, tLocalZone, int64(nowDST)}}
	for q := int64(1); q <= 3; q++ {
		pt := time.Unix(start.Sec+q*90*86400, 0).In(loc)
		if pt.IsDST() != nowL.IsDST() {
			n, _ := pt.Zone()
			v := int64(0)
			if pt.IsDST() {
				v = 1
			}
			local = append(local, entry{n, tLocalZone, v})
			break
		}
	}
	if len(local) == 2 && local[0].name == local[1].name {
		local[0].val = -1
		local = local[:1]
	}

	lex := lexer{s: p, localZones: local}
	for {
		t := lex.next()
		pc.toks = append(pc.toks, t)
		if t.kind == tEOF || t.kind == tError {
			break
		}
	}

	if pc.peek(0).kind == tChar && pc.peek(0).c == '@' {
		t := pc.peek(1)
		switch t.kind {
		case tSNumber, tUNumber, tSDecimal, tUDecimal:
		default:
			return Timespec{}, false
		}
		if pc.peek(2).kind != tEOF {
			return Timespec{}, false
		}
		return Timespec{t.val, t.ns}, true
	}
	for pc.peek(0).kind != tEOF {
		if !pc.item() {
			return Timespec{}, false
		}
	}
	return pc.compute(loc, nowDST)
}

// loadTZ is tzalloc for a TZ="..." prefix. glibc takes a name it cannot
// find as UTC.
func loadTZ(name string) *time.Location {
	if l, err := time.LoadLocation(name); err == nil {
		return l
	}
	return time.UTC
}

// compute turns the parsed items into a time, as parse_datetime_body.
func (pc *parser) compute(loc *time.Location, nowDST int32) (Timespec, bool) {
	if pc.timesSeen > 1 || pc.datesSeen > 1 || pc.daysSeen > 1 || pc.dstsSeen > 1 ||
		pc.localZonesSeen+pc.zonesSeen > 1 {
		return Timespec{}, false
	}
	var t tm
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
	if year == math.MinInt64 || !fitsInt32(tmYear) {
		return Timespec{}, false
	}
	t.year = int32(tmYear)
	if !fitsInt32(pc.month-1) || !fitsInt32(pc.day) {
		return Timespec{}, false
	}
	t.mon, t.mday = int32(pc.month-1), int32(pc.day)
	if pc.timesSeen > 0 || (pc.relsSeen && pc.datesSeen == 0 && pc.daysSeen == 0) {
		h := toHour(pc.hour, pc.meridian)
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
	if !ok || !sameFields(t0, t) {
		if pc.zonesSeen == 0 {
			return Timespec{}, false
		}
		// Retry in a zone of the parsed offset (gnulib's "XXX" zone),
		// where no time is skipped.
		t = t0
		start, ok = mktime(time.FixedZone("XXX", int(-pc.timeZone)), &t)
		if !ok || !sameFields(t0, t) {
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
		if !fitsInt32(mday) {
			return Timespec{}, false
		}
		t.mday = int32(mday)
		t.isdst = -1
		if start, ok = mktime(loc, &t); !ok {
			return Timespec{}, false
		}
	}
	if pc.rel.year != 0 || pc.rel.month != 0 || pc.rel.day != 0 {
		y, ok1 := addChecked(int64(t.year), pc.rel.year, 1)
		m, ok2 := addChecked(int64(t.mon), pc.rel.month, 1)
		d, ok3 := addChecked(int64(t.mday), pc.rel.day, 1)
		if !ok1 || !ok2 || !ok3 || !fitsInt32(y) || !fitsInt32(m) || !fitsInt32(d) {
			return Timespec{}, false
		}
		t = tm{year: int32(y), mon: int32(m), mday: int32(d), hour: t0.hour, min: t0.min, sec: t0.sec, isdst: t0.isdst}
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
	sec, ok := addChecked(start, pc.rel.hour, 3600)
	if ok {
		sec, ok = addChecked(sec, pc.rel.minutes, 60)
	}
	if ok {
		sec, ok = addChecked(sec, pc.rel.seconds, 1)
	}
	if ok {
		sec, ok = addChecked(sec, d4, 1)
	}
	if !ok {
		return Timespec{}, false
	}
	return Timespec{sec, norm}, true
}

// addChecked returns a + n*unit, or false on overflow.
func addChecked(a, n, unit int64) (int64, bool) {
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

// sameFields is mktime_ok's comparison: mktime changed none of the
// fields the caller gave.
func sameFields(a, b tm) bool {
	return a.sec == b.sec && a.min == b.min && a.hour == b.hour && a.mday == b.mday && a.mon == b.mon && a.year == b.year
}

// toHour applies a meridian to an hour, or returns -1 for an impossible
// one ("13pm", "0am", "24:00").
func toHour(h, meridian int64) int64 {
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
