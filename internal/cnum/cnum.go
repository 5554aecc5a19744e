package cnum

import (
	"math"
	"strconv"
	"strings"

	"github.com/gfind/gfind/internal/ctype"
)

// Strtod is strtod(3) in the C locale as gnulib's xstrtod uses it: the
// whole string must be a number, leading white space and a sign
// allowed, decimal or hexadecimal, or inf, infinity, nan, nan(chars).
// Overflow is an error; underflow, to a subnormal value or to zero, is
// not (gnulib's xstrtod since GNU find 4.10; 4.9 refused a subnormal
// result it could not hold exactly, for which glibc sets ERANGE).
func Strtod(s string) (float64, bool) {
	i := 0
	for i < len(s) && ctype.IsSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	r := s[i:]
	var v float64
	switch {
	case hasPrefixFold(r, "inf"):
		if !strings.EqualFold(r, "inf") && !strings.EqualFold(r, "infinity") {
			return 0, false
		}
		v = math.Inf(1)
	case hasPrefixFold(r, "nan"):
		if len(r) > 3 {
			body, ok := strings.CutPrefix(r[3:], "(")
			if !ok || !strings.HasSuffix(body, ")") ||
				strings.TrimFunc(body[:len(body)-1], func(c rune) bool { return c < 128 && (ctype.IsAlpha(byte(c)) || ctype.IsDigit(byte(c)) || c == '_') }) != "" {
				return 0, false
			}
		}
		v = math.NaN()
	default:
		num, hex, ok := scanNumber(r)
		if !ok || len(num) != len(r) {
			return 0, false
		}
		goNum := num
		if hex && !strings.ContainsAny(num, "pP") {
			goNum += "p0" // Go wants the binary exponent
		}
		f, err := strconv.ParseFloat(goNum, 64)
		if err != nil {
			return 0, false // overflow (ERANGE), or a syntax Go refuses
		}
		v = f
	}
	if neg {
		v = -v
	}
	return v, true
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// scanNumber returns the longest prefix of s that strtod reads as an
// unsigned decimal or hexadecimal floating-point number, whether it is
// hexadecimal, and whether there is one.
func scanNumber(s string) (string, bool, bool) {
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	digits := func(i int, ok func(byte) bool) int {
		for ok(at(i)) {
			i++
		}
		return i
	}
	if at(0) == '0' && (at(1)|0x20) == 'x' && (ctype.IsXDigit(at(2)) || (at(2) == '.' && ctype.IsXDigit(at(3)))) {
		i := digits(2, ctype.IsXDigit)
		if at(i) == '.' {
			i = digits(i+1, ctype.IsXDigit)
		}
		if (at(i) | 0x20) == 'p' {
			j := i + 1
			if at(j) == '+' || at(j) == '-' {
				j++
			}
			if ctype.IsDigit(at(j)) {
				i = digits(j, ctype.IsDigit)
			}
		}
		return s[:i], true, true
	}
	i := digits(0, ctype.IsDigit)
	n := i
	if at(i) == '.' {
		j := digits(i+1, ctype.IsDigit)
		n += j - i - 1
		i = j
	}
	if n == 0 {
		return "", false, false
	}
	if (at(i) | 0x20) == 'e' {
		j := i + 1
		if at(j) == '+' || at(j) == '-' {
			j++
		}
		if ctype.IsDigit(at(j)) {
			i = digits(j, ctype.IsDigit)
		}
	}
	return s[:i], false, true
}

// Strtoumax is gnulib's xstrtoumax in base 10 with no suffixes allowed,
// as find calls it: strtoumax, which skips leading white space and takes
// one '+', but no '-' (which strtoumax would negate), no overflow and
// nothing after the digits. A refused string gives 0.
func Strtoumax(s string) (uint64, bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	s = strings.TrimPrefix(s, "+")
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}
