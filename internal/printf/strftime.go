package printf

import (
	"strconv"
	"time"
)

// The time directives of -printf (%a, %Ak, %t, ...) and -ls's date are
// made by GNU find with localtime(3) and strftime(3). gfind models the C
// (POSIX) locale's LC_TIME only: English names, "%m/%d/%y" for %x, and
// so on. The time zone is Go's time.Local, which, like glibc, follows
// $TZ (a zone name or a file) and otherwise /etc/localtime.

var (
	weekdayNames = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	monthNames   = [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// brokenTime is a struct tm: a time broken down in the local time zone.
type brokenTime struct {
	t                      time.Time
	sec                    int64 // seconds since the epoch
	year                   int
	mon                    int // 0-11
	mday, hour, min, secs  int
	wday, yday             int // 0-6 (Sunday = 0), 0-365
	zone                   string
	zoneOff                int // seconds east of UTC
	isoYear, isoWeek       int
	valid                  bool // false: localtime would fail (the year does not fit a C int)
	isoComputed, zoneFound bool
}

// maxLocalSec bounds the times localtime can break down: glibc fails
// (EOVERFLOW) once tm_year, the year minus 1900, does not fit in an int,
// about 6.7e16 seconds from the epoch either way. Well inside that, Go's
// time package is exact.
const maxLocalSec = 67767976233532799 // 2147485547-12-31 23:59:59 UTC

func localTime(sec int64) brokenTime { return localTimeIn(sec, time.Local) }

func localTimeIn(sec int64, loc *time.Location) brokenTime {
	if sec > maxLocalSec || sec < -maxLocalSec {
		// Close to the limit the local offset could matter by a few
		// hours; no file system stores such times.
		return brokenTime{sec: sec}
	}
	t := time.Unix(sec, 0).In(loc)
	y, m, d := t.Date()
	hh, mm, ss := t.Clock()
	return brokenTime{
		t: t, sec: sec, year: y, mon: int(m) - 1, mday: d, hour: hh, min: mm, secs: ss,
		wday: int(t.Weekday()), yday: t.YearDay() - 1, valid: true,
	}
}

func (b *brokenTime) iso() (int, int) {
	if !b.isoComputed {
		b.isoYear, b.isoWeek = b.t.ISOWeek()
		b.isoComputed = true
	}
	return b.isoYear, b.isoWeek
}

func (b *brokenTime) zoneInfo() (string, int) {
	if !b.zoneFound {
		b.zone, b.zoneOff = b.t.Zone()
		b.zoneFound = true
	}
	return b.zone, b.zoneOff
}

// appendNum appends v in decimal, padded with pad ('0' or ' ') to width
// bytes, sign included, as printf's %0*d and %*d do.
func appendNum(dst []byte, v int, width int, pad byte) []byte {
	var buf [24]byte
	d := strconv.AppendInt(buf[:0], int64(v), 10)
	if pad == '0' && v < 0 {
		dst = append(dst, '-')
		d = d[1:]
		width--
	}
	for n := len(d); n < width; n++ {
		dst = append(dst, pad)
	}
	return append(dst, d...)
}

// appendStrftime appends what glibc's strftime makes of the two-byte
// format "%c" for b in the C locale. A letter strftime does not know, a
// lone modifier (E, O) or flag, is copied as "%c", as glibc does.
func appendStrftime(dst []byte, c byte, b *brokenTime) []byte {
	switch c {
	case 'a':
		return append(dst, weekdayNames[b.wday][:3]...)
	case 'A':
		return append(dst, weekdayNames[b.wday]...)
	case 'b', 'h':
		return append(dst, monthNames[b.mon][:3]...)
	case 'B':
		return append(dst, monthNames[b.mon]...)
	case 'c':
		// "%a %b %e %H:%M:%S %Y"
		dst = appendStrftime(dst, 'a', b)
		dst = append(dst, ' ')
		dst = appendStrftime(dst, 'b', b)
		dst = append(dst, ' ')
		dst = appendStrftime(dst, 'e', b)
		dst = append(dst, ' ')
		dst = appendStrftime(dst, 'T', b)
		dst = append(dst, ' ')
		return appendStrftime(dst, 'Y', b)
	case 'C':
		century := b.year / 100
		if b.year < 0 && b.year%100 != 0 {
			century-- // floor division
		}
		return appendNum(dst, century, 1, '0')
	case 'd':
		return appendNum(dst, b.mday, 2, '0')
	case 'D', 'x':
		dst = appendNum(dst, b.mon+1, 2, '0')
		dst = append(dst, '/')
		dst = appendNum(dst, b.mday, 2, '0')
		dst = append(dst, '/')
		return appendStrftime(dst, 'y', b)
	case 'e':
		return appendNum(dst, b.mday, 2, ' ')
	case 'F':
		dst = appendNum(dst, b.year, 1, '0')
		dst = append(dst, '-')
		dst = appendNum(dst, b.mon+1, 2, '0')
		dst = append(dst, '-')
		return appendNum(dst, b.mday, 2, '0')
	case 'g':
		y, _ := b.iso()
		return appendNum(dst, mod100(y), 2, '0')
	case 'G':
		y, _ := b.iso()
		return appendNum(dst, y, 1, '0')
	case 'H':
		return appendNum(dst, b.hour, 2, '0')
	case 'I':
		return appendNum(dst, hour12(b.hour), 2, '0')
	case 'j':
		return appendNum(dst, b.yday+1, 3, '0')
	case 'k':
		return appendNum(dst, b.hour, 2, ' ')
	case 'l':
		return appendNum(dst, hour12(b.hour), 2, ' ')
	case 'm':
		return appendNum(dst, b.mon+1, 2, '0')
	case 'M':
		return appendNum(dst, b.min, 2, '0')
	case 'n':
		return append(dst, '\n')
	case 'p':
		if b.hour >= 12 {
			return append(dst, "PM"...)
		}
		return append(dst, "AM"...)
	case 'P':
		if b.hour >= 12 {
			return append(dst, "pm"...)
		}
		return append(dst, "am"...)
	case 'r':
		dst = appendStrftime(dst, 'I', b)
		dst = append(dst, ':')
		dst = appendStrftime(dst, 'M', b)
		dst = append(dst, ':')
		dst = appendStrftime(dst, 'S', b)
		dst = append(dst, ' ')
		return appendStrftime(dst, 'p', b)
	case 'R':
		dst = appendStrftime(dst, 'H', b)
		dst = append(dst, ':')
		return appendStrftime(dst, 'M', b)
	case 's':
		return strconv.AppendInt(dst, b.sec, 10)
	case 'S':
		return appendNum(dst, b.secs, 2, '0')
	case 't':
		return append(dst, '\t')
	case 'T', 'X':
		dst = appendStrftime(dst, 'H', b)
		dst = append(dst, ':')
		dst = appendStrftime(dst, 'M', b)
		dst = append(dst, ':')
		return appendStrftime(dst, 'S', b)
	case 'u':
		return appendNum(dst, (b.wday+6)%7+1, 1, '0')
	case 'U':
		return appendNum(dst, (b.yday+7-b.wday)/7, 2, '0')
	case 'V':
		_, w := b.iso()
		return appendNum(dst, w, 2, '0')
	case 'w':
		return appendNum(dst, b.wday, 1, '0')
	case 'W':
		return appendNum(dst, (b.yday+7-(b.wday+6)%7)/7, 2, '0')
	case 'y':
		return appendNum(dst, mod100(b.year), 2, '0')
	case 'Y':
		return appendNum(dst, b.year, 1, '0')
	case 'z':
		_, off := b.zoneInfo()
		sign := byte('+')
		if off < 0 {
			sign, off = '-', -off
		}
		dst = append(dst, sign)
		off /= 60
		return appendNum(dst, off/60*100+off%60, 4, '0')
	case 'Z':
		z, _ := b.zoneInfo()
		return append(dst, z...)
	case '%':
		return append(dst, '%')
	}
	if '3' <= c && c <= '9' {
		// A width with no conversion: glibc copies the "%N" it could not
		// use, padded to that width.
		for n := 2; n < int(c-'0'); n++ {
			dst = append(dst, ' ')
		}
	}
	return append(dst, '%', c)
}

func mod100(y int) int {
	m := y % 100
	if m < 0 {
		m += 100
	}
	return m
}

func hour12(h int) int {
	h %= 12
	if h == 0 {
		h = 12
	}
	return h
}

// AppendTime appends the time sec (seconds since the epoch) formatted
// by the strftime format layout, in the C locale and the local time
// zone. It reports false, appending nothing, when localtime(3) would
// fail for sec.
func AppendTime(dst []byte, layout string, sec int64) ([]byte, bool) {
	b := localTime(sec)
	if !b.valid {
		return dst, false
	}
	for i := 0; i < len(layout); i++ {
		if layout[i] != '%' || i+1 == len(layout) {
			dst = append(dst, layout[i])
			continue
		}
		i++
		dst = appendStrftime(dst, layout[i], &b)
	}
	return dst, true
}
