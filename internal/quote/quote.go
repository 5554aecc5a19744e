package quote

import (
	"github.com/gfind/gfind/internal/mbchar"
	"unicode"
)

// Style is how file names are shown to a person: how diagnostics quote
// them and how a terminal sees their unprintable bytes. Both follow the
// character set of the locale (LC_CTYPE), as in GNU find, which quotes
// with gnulib's quotearg in locale_quoting_style and, on a terminal,
// replaces what cannot be printed with '?' (qmark_chars, from ls).
//
// Only two character sets are modelled: UTF-8, and everything else as
// the C locale. A single-byte locale such as ISO-8859-1, where GNU
// treats bytes 0xA0-0xFF as printable, is shown as in the C locale.
type Style uint8

const (
	// C is the C (POSIX) locale, and any locale whose character
	// set is not UTF-8: names are quoted 'like this' and every byte
	// outside printable ASCII is escaped.
	C Style = iota
	// UTF8 is a UTF-8 locale: names are quoted ‘like this’ and
	// printable multibyte characters are kept.
	UTF8
)

// String names the style, for tests and debugging.
func (s Style) String() string {
	if s == UTF8 {
		return "UTF-8"
	}
	return "C"
}

// quotes returns the left and right quotation marks. gnulib's
// gettext_quote picks U+2018/U+2019 for a UTF-8 charset and the ASCII
// apostrophe for both sides otherwise (find has no message catalog for
// the C locales, so the translated quotes never apply).
func (s Style) quotes() (left, right string) {
	if s == UTF8 {
		return "\u2018", "\u2019"
	}
	return "'", "'"
}

// Quote returns str quoted for a diagnostic, byte for byte as GNU find
// 4.9 quotes a file name in the same locale:
//
//   - the right quotation mark (' in C, ’ in UTF-8) and the backslash
//     get a backslash before them;
//   - \a \b \f \n \r \t \v are written as those C escapes, NUL as \0
//     (\000 before a digit);
//   - every other byte that is not part of a printable character is
//     written as a three-digit octal escape, \ooo. In the C locale that
//     is every byte outside 0x20-0x7E; in a UTF-8 locale it is every
//     byte of an invalid, incomplete or unprintable sequence.
func (s Style) Quote(str string) string {
	return string(appendQuote(make([]byte, 0, len(str)+8), str, s))
}

// AppendQuote appends src, quoted as Quote does, to dst.
func (s Style) AppendQuote(dst, src []byte) []byte {
	return appendQuote(dst, src, s)
}

// appendQuote is quotearg_buffer_restyled for locale_quoting_style with
// no flags, which is what find's error messages use. It is generic so
// that both the string and the []byte forms avoid a conversion.
func appendQuote[T ~string | ~[]byte](dst []byte, src T, s Style) []byte {
	left, right := s.quotes()
	dst = append(dst, left...)
	for i := 0; i < len(src); {
		// quotearg tests for the right quote before anything else and
		// escapes it whatever its bytes are; in UTF-8 the ASCII
		// apostrophe is then an ordinary character.
		c := src[i]
		if c == right[0] && len(src)-i >= len(right) && string(src[i:i+len(right)]) == right {
			dst = append(dst, '\\')
			dst = append(dst, right...)
			i += len(right)
			continue
		}
		if esc := cEscape(c); esc != 0 {
			dst = append(dst, '\\', esc)
			i++
			continue
		}
		switch {
		case c == 0:
			// Only reachable from Go: a C string ends at NUL. quotearg
			// with an explicit length writes \0, or \000 when a digit
			// follows, so that the escape cannot swallow it.
			dst = append(dst, '\\', '0')
			if i+1 < len(src) && '0' <= src[i+1] && src[i+1] <= '9' {
				dst = append(dst, '0', '0')
			}
			i++
		case c < 0x80:
			if isPrintASCII(c) {
				dst = append(dst, c)
			} else {
				dst = appendOctal(dst, c)
			}
			i++
		case s != UTF8:
			dst = appendOctal(dst, c)
			i++
		default:
			r, n, st := mbchar.Decode(src[i:])
			if st == mbchar.Valid && glibcPrintable(r) {
				dst = append(dst, src[i:i+n]...)
				i += n
				continue
			}
			// An unprintable character has all its bytes escaped. An
			// invalid or incomplete sequence has its first byte escaped
			// and the rest looked at again: they are continuation bytes,
			// which are escaped in turn, so the result is the same.
			if st != mbchar.Valid {
				n = 1
			}
			for end := i + n; i < end; i++ {
				dst = appendOctal(dst, src[i])
			}
		}
	}
	return append(dst, right...)
}

// cEscape returns the letter of the C escape quotearg uses for c, or 0.
func cEscape(c byte) byte {
	switch c {
	case '\a':
		return 'a'
	case '\b':
		return 'b'
	case '\f':
		return 'f'
	case '\n':
		return 'n'
	case '\r':
		return 'r'
	case '\t':
		return 't'
	case '\v':
		return 'v'
	case '\\':
		return '\\'
	}
	return 0
}

func appendOctal(dst []byte, c byte) []byte {
	return append(dst, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
}

// isPrintASCII is isprint in the C locale.
func isPrintASCII(c byte) bool { return 0x20 <= c && c < 0x7f }

// appendQmark appends name as GNU find prints it on a terminal (-print,
// -fprint and -printf's %p and friends, when the stream is a tty):
// every character that cannot be printed becomes '?'. This is
// qmark_chars from find/print.c (and ls):
//
//   - C locale: each byte outside 0x20-0x7E becomes one '?';
//   - UTF-8: an invalid byte becomes one '?', an incomplete sequence at
//     the end becomes a single '?', and a whole character that is not
//     printable (wcwidth < 0) becomes a single '?'.
func appendQmark(dst, name []byte, s Style) []byte {
	if s != UTF8 {
		for _, c := range name {
			if !isPrintASCII(c) {
				c = '?'
			}
			dst = append(dst, c)
		}
		return dst
	}
	for i := 0; i < len(name); {
		c := name[i]
		if isPrintASCII(c) {
			dst = append(dst, c)
			i++
			continue
		}
		r, n, st := mbchar.Decode(name[i:])
		switch {
		case st == mbchar.Invalid:
			dst = append(dst, '?')
			i++
		case st == mbchar.Incomplete:
			dst = append(dst, '?')
			i = len(name)
		case glibcPrintable(r):
			// (qmark_chars would keep a NUL, whose wcwidth is 0, but a
			// C string never holds one; we show it as '?'.)
			dst = append(dst, name[i:i+n]...)
			i += n
		default:
			dst = append(dst, '?')
			i += n
		}
	}
	return dst
}

// AppendTTY appends name as GNU find shows it on a terminal in the
// style s: every character that cannot be printed becomes '?' (see
// appendQmark). A name of printable ASCII is copied as it is.
func (s Style) AppendTTY(dst, name []byte) []byte {
	if needsQmark(name) {
		return appendQmark(dst, name, s)
	}
	return append(dst, name...)
}

// needsQmark reports whether appendQmark would change name; the
// terminal path of -print uses it to copy the common case unchanged.
func needsQmark(name []byte) bool {
	for _, c := range name {
		if !isPrintASCII(c) {
			return true
		}
	}
	return false
}

// glibcPrintable is iswprint(r) in glibc's C.UTF-8 locale. Go's
// unicode.IsPrint leaves out what glibc counts as printable: spaces
// other than U+0020 (Zs), format characters (Cf, such as U+200B and
// U+FEFF) and private use (Co). With those added it agrees with glibc
// 2.36 (Unicode 14) on every code point except the characters new in
// Unicode 15, which Go knows and that glibc does not yet.
func glibcPrintable(r rune) bool {
	if r < 0x80 {
		return 0x20 <= r && r < 0x7f
	}
	if r > unicode.MaxRune {
		return false
	}
	return unicode.IsPrint(r) || unicode.In(r, unicode.Zs, unicode.Cf, unicode.Co)
}
