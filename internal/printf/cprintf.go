package printf

import (
	"math"
	"strconv"
)

// spec is the part of a printf conversion between the '%' and the
// conversion letter, as -printf passes it on to the C library's printf:
// flags, a field width and a precision. GNU find builds a C format such
// as "%-10s" or "%#o" from each directive and hands it to fprintf, so
// these helpers reproduce glibc's printf for the four conversions it
// uses: %s, %d, %o and %g.
type spec struct {
	minus, plus, space, hash, zero bool
	width                          int
	prec                           int // < 0: no precision
	// overflow is set when the width or precision is above INT_MAX:
	// glibc's printf then fails with EOVERFLOW after writing the text
	// before the conversion.
	overflow bool
}

// parseSpec parses flags, width and precision. The -printf compiler has
// already checked the syntax: flags from "-+ #", then digits, then
// optionally '.' and digits. printf reads leading zeros of the width as
// the '0' flag.
func parseSpec(b []byte) spec {
	sp := spec{prec: -1}
	i := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '-':
			sp.minus = true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '#':
			sp.hash = true
		default:
			goto digits
		}
	}
digits:
	for i < len(b) && b[i] == '0' {
		sp.zero = true
		i++
	}
	var over bool
	sp.width, i, over = atoiSpec(b, i)
	sp.overflow = sp.overflow || over
	if i < len(b) && b[i] == '.' {
		sp.prec, _, over = atoiSpec(b, i+1)
		sp.overflow = sp.overflow || over
	}
	return sp
}

// atoiSpec reads the decimal digits of b from i, as printf reads a width
// or precision: a value above INT_MAX is an overflow.
func atoiSpec(b []byte, i int) (n, next int, overflow bool) {
	for ; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		if n > (math.MaxInt32-int(b[i]-'0'))/10 {
			overflow = true
			n = math.MaxInt32
			continue
		}
		n = n*10 + int(b[i]-'0')
	}
	return n, i, overflow
}

// padString applies sp to the string just appended to dst at start, as
// printf's %s does: the precision cuts it to that many bytes, and the
// width pads it with spaces (on the right with '-'). '0', '+', ' ' and
// '#' do nothing to a string in glibc.
func padString(dst []byte, start int, sp spec) []byte {
	n := len(dst) - start
	if sp.prec >= 0 && n > sp.prec {
		dst = dst[:start+sp.prec]
		n = sp.prec
	}
	return padField(dst, start, n, sp.width, sp.minus, ' ', 0)
}

// padField pads the n bytes at dst[start:] to width: on the right when
// left is set, else on the left with fill; with fill '0' the padding
// goes after the first skip bytes (a sign or an "0x" prefix).
func padField(dst []byte, start, n, width int, left bool, fill byte, skip int) []byte {
	if width <= n {
		return dst
	}
	pad := width - n
	if left {
		for ; pad > 0; pad-- {
			dst = append(dst, ' ')
		}
		return dst
	}
	dst = append(dst, make([]byte, pad)...)
	at := start + skip
	copy(dst[at+pad:], dst[at:start+n])
	for i := at; i < at+pad; i++ {
		dst[i] = fill
	}
	return dst
}

// appendCString appends s formatted as printf's %s.
func appendCString[T ~string | ~[]byte](dst []byte, s T, sp spec) []byte {
	start := len(dst)
	if sp.prec >= 0 && len(s) > sp.prec {
		s = s[:sp.prec]
	}
	dst = append(dst, s...)
	return padField(dst, start, len(dst)-start, sp.width, sp.minus, ' ', 0)
}

// appendCUint appends v in decimal formatted as %s would format its
// digits: GNU prints sizes, inode numbers and ids with human_readable and
// a %s conversion, so "%05s" pads them with spaces, not zeros.
func appendCUint(dst []byte, v uint64, sp spec) []byte {
	if sp.width == 0 && sp.prec < 0 {
		return strconv.AppendUint(dst, v, 10) // the common case
	}
	start := len(dst)
	dst = strconv.AppendUint(dst, v, 10)
	return padString(dst, start, sp)
}

// appendCInt appends v formatted as printf's %d.
func appendCInt(dst []byte, v int64, sp spec) []byte {
	start := len(dst)
	var u uint64
	switch {
	case v < 0:
		dst = append(dst, '-')
		u = uint64(-v)
	case sp.plus:
		dst = append(dst, '+')
		u = uint64(v)
	case sp.space:
		dst = append(dst, ' ')
		u = uint64(v)
	default:
		u = uint64(v)
	}
	sign := len(dst) - start
	dst = appendDigits(dst, u, 10, sp.prec)
	fill := byte(' ')
	if sp.zero && !sp.minus && sp.prec < 0 {
		fill = '0'
	} else {
		sign = 0
	}
	return padField(dst, start, len(dst)-start, sp.width, sp.minus, fill, sign)
}

// appendCOctal appends v formatted as printf's %o: '#' makes sure the
// result starts with a 0.
func appendCOctal(dst []byte, v uint64, sp spec) []byte {
	start := len(dst)
	dst = appendDigits(dst, v, 8, sp.prec)
	if sp.hash && (len(dst) == start || dst[start] != '0') {
		dst = append(dst, 0)
		copy(dst[start+1:], dst[start:])
		dst[start] = '0'
	}
	fill := byte(' ')
	if sp.zero && !sp.minus && sp.prec < 0 {
		fill = '0'
	}
	return padField(dst, start, len(dst)-start, sp.width, sp.minus, fill, 0)
}

// appendDigits appends u in base with at least prec digits; a zero
// precision and a zero value give no digits at all, as in C.
func appendDigits(dst []byte, u uint64, base int, prec int) []byte {
	if prec == 0 && u == 0 {
		return dst
	}
	var buf [24]byte
	d := strconv.AppendUint(buf[:0], u, base)
	for n := len(d); n < prec; n++ {
		dst = append(dst, '0')
	}
	return append(dst, d...)
}

// appendCFloatG appends v formatted as printf's %g (GNU find's %S).
func appendCFloatG(dst []byte, v float64, sp spec) []byte {
	start := len(dst)
	neg := math.Signbit(v) && !math.IsNaN(v)
	switch {
	case neg:
		dst = append(dst, '-')
		v = -v
	case sp.plus:
		dst = append(dst, '+')
	case sp.space:
		dst = append(dst, ' ')
	}
	sign := len(dst) - start
	if math.IsInf(v, 0) || math.IsNaN(v) {
		if math.IsNaN(v) {
			dst = append(dst, "nan"...)
		} else {
			dst = append(dst, "inf"...)
		}
		// glibc pads inf and nan with spaces even with the '0' flag.
		return padField(dst, start, len(dst)-start, sp.width, sp.minus, ' ', 0)
	}
	p := sp.prec
	if p < 0 {
		p = 6
	} else if p == 0 {
		p = 1
	}
	// The exponent X that %e with P-1 digits would show decides between
	// the %f and %e styles (C11 7.21.6.1).
	var ebuf [32]byte
	e := strconv.AppendFloat(ebuf[:0], v, 'e', p-1, 64)
	x := 0
	if i := indexByte(e, 'e'); i >= 0 {
		x, _ = strconv.Atoi(string(e[i+1:]))
	}
	num := len(dst)
	switch {
	case x < p && x >= -4:
		dst = strconv.AppendFloat(dst, v, 'f', p-1-x, 64)
	case sp.hash && x == p && exp10(v) == p-1:
		// glibc picks the style before rounding: a value with p digits
		// before the point that rounds up to 10^p keeps the style's zero
		// fraction digits, so %#g of 999999.5 is "1.e+06", where C11
		// would say "1.00000e+06".
		dst = append(dst, '1', '.')
		dst = append(dst, e[indexByte(e, 'e'):]...)
	default:
		dst = append(dst, e...)
	}
	dst = trimG(dst, num, sp.hash)
	fill := byte(' ')
	if sp.zero && !sp.minus {
		fill = '0'
	} else {
		sign = 0
	}
	return padField(dst, start, len(dst)-start, sp.width, sp.minus, fill, sign)
}

// exp10 is the decimal exponent of v > 0 before any rounding.
func exp10(v float64) int {
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], v, 'e', -1, 64)
	x, _ := strconv.Atoi(string(e[indexByte(e, 'e')+1:]))
	return x
}

// trimG finishes a %g number at dst[num:]: without '#' the trailing
// zeros of the fraction and a bare decimal point go; with '#' the point
// is always there.
func trimG(dst []byte, num int, hash bool) []byte {
	s := dst[num:]
	mant := len(s)
	if i := indexByte(s, 'e'); i >= 0 {
		mant = i
	}
	exp := append([]byte(nil), s[mant:]...) // at most 5 bytes, rare
	m := s[:mant]
	dot := indexByte(m, '.')
	if hash {
		if dot < 0 {
			m = append(m, '.')
		}
	} else if dot >= 0 {
		for len(m) > dot+1 && m[len(m)-1] == '0' {
			m = m[:len(m)-1]
		}
		if len(m) == dot+1 {
			m = m[:dot]
		}
	}
	dst = append(dst[:num], m...)
	return append(dst, exp...)
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
