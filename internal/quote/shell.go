package quote

import "github.com/gfind/gfind/internal/mbchar"

// AppendShell appends text as bfs 4.1 writes each piece of a colored
// path (print_wordesc with WESC_TTY, src/bfstd.c): as it is when every
// character is printable or whitespace (isprint or isspace, iswprint or
// iswspace in a UTF-8 locale), and otherwise quoted whole as $'…', in
// which
//
//   - a printable or whitespace character other than ' and \ stands for
//     itself: newline, tab, \v, \f and \r stay raw (they are
//     whitespace; bfs keeps them so);
//   - ESC, BEL and BS are \e, \a and \b, and ' and \ are \' and \\;
//   - every other byte, of an unprintable character or of an invalid
//     or incomplete sequence (every byte above 0x7F in the C locale),
//     is \xHH, in capitals.
//
// So no control character other than whitespace is written raw, and a
// shell that reads the quoted form back gets the name's bytes.
func (s Style) AppendShell(dst, text []byte) []byte {
	if s.shellSafe(text) {
		return append(dst, text...)
	}
	dst = append(dst, '$', '\'')
	for i := 0; i < len(text); {
		n, ok := s.shellChar(text[i:])
		if ok && text[i] != '\'' && text[i] != '\\' {
			dst = append(dst, text[i:i+n]...)
			i += n
			continue
		}
		for end := i + n; i < end; i++ {
			dst = appendDollarByte(dst, text[i])
		}
	}
	return append(dst, '\'')
}

// shellSafe reports whether AppendShell writes text as it is: bfs's
// printable_len covers it all. Printable ASCII is the common case and
// is settled without decoding.
func (s Style) shellSafe(text []byte) bool {
	for i := 0; i < len(text); {
		if c := text[i]; isPrintASCII(c) {
			i++
			continue
		}
		n, ok := s.shellChar(text[i:])
		if !ok {
			return false
		}
		i += n
	}
	return true
}

// shellChar returns the length of the character text starts with, as
// glibc's mbrtowc in the style's character set reads it (1 for a byte
// that starts no valid character), and whether it is printable or
// whitespace: what bfs's xiswprint accepts when not quoting for a
// shell. The C locale's characters are the 7-bit ones; NUL, which a
// file name cannot hold, is unprintable.
func (s Style) shellChar(text []byte) (int, bool) {
	c := text[0]
	if c < 0x80 {
		return 1, isPrintASCII(c) || isSpaceASCII(c)
	}
	if s != UTF8 {
		return 1, false
	}
	r, n, st := mbchar.Decode(text)
	if st != mbchar.Valid {
		return 1, false
	}
	return n, glibcPrintable(r) || r == 0x2028 || r == 0x2029
}

// isSpaceASCII is isspace in the C locale: ' ', \t, \n, \v, \f, \r.
// In a UTF-8 locale glibc's iswspace adds characters that are all
// printable as well but for U+2028 and U+2029 (see shellChar).
func isSpaceASCII(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }

// appendDollarByte appends one byte inside $'…' as bfs's dollar_esc
// does, or as \xHH.
func appendDollarByte(dst []byte, c byte) []byte {
	const hex = "0123456789ABCDEF"
	switch c {
	case 033:
		return append(dst, '\\', 'e')
	case '\'', '\\':
		return append(dst, '\\', c)
	}
	if esc := cEscape(c); esc != 0 {
		// \a and \b. (cEscape's \f \n \r \t \v never get here:
		// whitespace is written raw.)
		return append(dst, '\\', esc)
	}
	return append(dst, '\\', 'x', hex[c>>4], hex[c&15])
}
