// Package mbchar decodes UTF-8 the way glibc's mbrtowc does in a UTF-8
// locale. Both the diagnostics quoting and terminal escaping (output)
// and fnmatch's UTF-8 mode (internal/fnmatch) must agree with glibc on
// what a character is, which unicode/utf8 does not: glibc takes the old
// 5- and 6-byte forms and values above U+10FFFF.
package mbchar

// Status is what Decode found at the start of its input.
type Status int

const (
	Valid      Status = iota // a whole character of n bytes
	Invalid                  // not a character (mbrtowc's -1)
	Incomplete               // a character cut short by the end (-2)
)

// Decode decodes the first character of p the way glibc's UTF-8
// mbrtowc does (glibc 2.36, whose answers decodeTests hold): it differs
// from unicode/utf8 in ways that change what a terminal shows.
//
//   - Lead bytes F5-F7 (4 bytes), F8-FB (5) and FC-FD (6) are accepted,
//     giving values above U+10FFFF, which are then unprintable: one '?'
//     for the whole sequence, not one per byte.
//   - A sequence cut short by the end of p is incomplete (mbrtowc's -2)
//     as long as every byte present is a continuation byte, even when
//     the prefix is already overlong or a surrogate (E0 80, ED A0).
//   - Overlong forms and surrogates are rejected only once complete.
//
// p must not be empty. n is the length of the character when st is
// Valid.
func Decode[T ~string | ~[]byte](p T) (r rune, n int, st Status) {
	c := p[0]
	var min rune
	switch {
	case c < 0x80:
		return rune(c), 1, Valid
	case c < 0xc2:
		return 0, 0, Invalid
	case c < 0xe0:
		n, r, min = 2, rune(c&0x1f), 0x80
	case c < 0xf0:
		n, r, min = 3, rune(c&0x0f), 0x800
	case c < 0xf8:
		n, r, min = 4, rune(c&0x07), 0x10000
	case c < 0xfc:
		n, r, min = 5, rune(c&0x03), 0x200000
	case c < 0xfe:
		n, r, min = 6, rune(c&0x01), 0x4000000
	default:
		return 0, 0, Invalid
	}
	for j := 1; j < n; j++ {
		if j >= len(p) {
			return 0, 0, Incomplete
		}
		b := p[j]
		if b&0xc0 != 0x80 {
			return 0, 0, Invalid
		}
		r = r<<6 | rune(b&0x3f)
	}
	if r < min || 0xd800 <= r && r <= 0xdfff {
		return 0, 0, Invalid
	}
	return r, n, Valid
}
