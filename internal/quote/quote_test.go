package quote

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gfind/gfind/internal/ctype"
)

// quoteTests were observed from GNU find 4.9.0 (Debian 12, glibc 2.36):
//
//	LC_ALL=C find NAME... 2>&1 | od -c
//	LC_ALL=C.UTF-8 find NAME... 2>&1 | od -c
//
// giving "find: QUOTED: No such file or directory". TestQuoteMatchesGNU
// repeats the comparison on many more names wherever GNU find is present.
var quoteTests = []struct {
	style Style
	in    string
	want  string
}{
	// C locale: ASCII quotes, C escapes, \' and \\, octal for the rest.
	{C, "plain", `'plain'`},
	{C, "sp ace!$`\"?*[(~#", "'sp ace!$`\"?*[(~#'"},
	{C, "a\nb", `'a\nb'`},
	{C, "t\tab", `'t\tab'`},
	{C, "\a\b\f\r\v", `'\a\b\f\r\v'`},
	{C, "it's", `'it\'s'`},
	{C, `back\slash`, `'back\\slash'`},
	{C, "\x1b", `'\033'`},
	{C, "\x01", `'\001'`},
	{C, "\x7f", `'\177'`},
	{C, "x\xffy", `'x\377y'`},
	{C, "é", `'\303\251'`},
	{C, "\xc3", `'\303'`},
	{C, "\xc3x", `'\303x'`},
	{C, "a\u2019b", `'a\342\200\231b'`},
	{C, "a\u2018b", `'a\342\200\230b'`},
	{C, "\u0085", `'\302\205'`},
	{C, "\u00a0", `'\302\240'`},
	{C, "\u200b", `'\342\200\213'`},
	{C, "", `''`},
	// NUL cannot reach find; this is quotearg's rule for it.
	{C, "a\x00b", `'a\0b'`},
	{C, "a\x001", `'a\0001'`},

	// UTF-8: curly quotes; printable characters kept; only the right
	// quote (not the apostrophe) is escaped.
	{UTF8, "plain", "‘plain’"},
	{UTF8, "a\nb", "‘a\\nb’"},
	{UTF8, "it's", "‘it's’"},
	{UTF8, "a\u2019b", "‘a\\’b’"},
	{UTF8, "a\u2018b", "‘a‘b’"},
	{UTF8, `back\slash`, "‘back\\\\slash’"},
	{UTF8, "é", "‘é’"},
	{UTF8, "\xc3", "‘\\303’"},
	{UTF8, "\xc3x", "‘\\303x’"},
	{UTF8, "x\xffy", "‘x\\377y’"},
	{UTF8, "\x1b", "‘\\033’"},
	{UTF8, "\x7f", "‘\\177’"},
	{UTF8, "a`b", "‘a`b’"},
	{UTF8, "\u0085", "‘\\302\\205’"},      // C1 control: every byte
	{UTF8, "\u00a0", "‘\u00a0’"},          // no-break space is printable
	{UTF8, "\u200b", "‘\u200b’"},          // so is a format character
	{UTF8, "\ufffe", "‘\\357\\277\\276’"}, // noncharacter
	{UTF8, "9\U0001F600", "‘9\U0001F600’"},
	{UTF8, "A\u0301", "‘A\u0301’"},                                  // combining mark
	{UTF8, "1\xed\xa0\x80", "‘1\\355\\240\\200’"},                   // surrogate
	{UTF8, "2\xc0\x80", "‘2\\300\\200’"},                            // overlong
	{UTF8, "3\xf4\x90\x80\x80", "‘3\\364\\220\\200\\200’"},          // > U+10FFFF
	{UTF8, "4\xe2\x80", "‘4\\342\\200’"},                            // incomplete
	{UTF8, "5\xe2\x80x", "‘5\\342\\200x’"},                          // invalid
	{UTF8, "6\xed\xa0", "‘6\\355\\240’"},                            // incomplete surrogate
	{UTF8, "C\xf8\x88\x80\x80\x80", "‘C\\370\\210\\200\\200\\200’"}, // 5-byte form
	{UTF8, "\xe2\x80\n", "‘\\342\\200\\n’"},
}

func TestQuote(t *testing.T) {
	for _, tt := range quoteTests {
		t.Run(fmt.Sprintf("%v/%q", tt.style, tt.in), func(t *testing.T) {
			if got := tt.style.Quote(tt.in); got != tt.want {
				t.Errorf("Quote(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := tt.style.AppendQuote([]byte("x"), []byte(tt.in)); string(got) != "x"+tt.want {
				t.Errorf("AppendQuote(%q) = %q, want %q", tt.in, got, "x"+tt.want)
			}
		})
	}
}

// qmarkTests were observed from GNU find 4.9.0 printing to a terminal:
//
//	LC_ALL=C script -qc "find tree" /dev/null | od -c
//
// (-print, -printf %p and %f, and -fprint /dev/tty all behave alike).
var qmarkTests = []struct {
	style Style
	in    string
	want  string
}{
	{C, "plain it's back\\sl sp ace", "plain it's back\\sl sp ace"},
	{C, "t\tab", "t?ab"},
	{C, "a\nb", "a?b"},
	{C, "e\x1bx", "e?x"},
	{C, "z\x7f", "z?"},
	{C, "f\xffy", "f?y"},
	{C, "é", "??"},
	{C, "\u0085nel", "??nel"},
	{C, "a\u2019q", "a???q"},
	{C, "\xc3", "?"},

	{UTF8, "plain it's back\\sl sp ace", "plain it's back\\sl sp ace"},
	{UTF8, "t\tab", "t?ab"},
	{UTF8, "a\nb", "a?b"},
	{UTF8, "e\x1bx", "e?x"},
	{UTF8, "z\x7f", "z?"},
	{UTF8, "f\xffy", "f?y"},
	{UTF8, "é", "é"},
	{UTF8, "\u0085nel", "?nel"}, // one '?' per character
	{UTF8, "a\u2019q", "a\u2019q"},
	{UTF8, "\xc3", "?"},
	{UTF8, "1\xed\xa0\x80", "1???"}, // invalid: one '?' per byte
	{UTF8, "2\xc0\x80", "2??"},
	{UTF8, "3\xf4\x90\x80\x80", "3?"}, // glibc decodes it, to U+110000
	{UTF8, "4\xe2\x80", "4?"},         // incomplete at the end: one '?'
	{UTF8, "5\xe2\x80x", "5??x"},
	{UTF8, "6\xed\xa0", "6?"},
	{UTF8, "7\xe0\x80", "7?"},
	{UTF8, "8\xf4\x90", "8?"},
	{UTF8, "9\U0001F600", "9\U0001F600"},
	{UTF8, "A\u0301", "A\u0301"},
	{UTF8, "B\ufffe", "B?"},
	{UTF8, "C\xf8\x88\x80\x80\x80", "C?"},
	{UTF8, "D\u200b", "D\u200b"},
}

func TestQmark(t *testing.T) {
	for _, tt := range qmarkTests {
		t.Run(fmt.Sprintf("%v/%q", tt.style, tt.in), func(t *testing.T) {
			if got := appendQmark(nil, []byte(tt.in), tt.style); string(got) != tt.want {
				t.Errorf("appendQmark(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestGlibcPrintable spot-checks the classes where glibc's iswprint and
// Go's unicode.IsPrint disagree (measured over all code points).
func TestGlibcPrintable(t *testing.T) {
	for _, tt := range []struct {
		r    rune
		want bool
	}{
		{' ', true}, {'~', true}, {0x7f, false}, {0x85, false}, {0xa0, true},
		{0xad, true}, {0x200b, true}, {0x2028, false}, {0x2029, false},
		{0x3000, true}, {0xe000, true}, {0xfeff, true}, {0xfffe, false},
		{0x10fffd, true}, {0x110000, false}, {0xe9, true}, {0x301, true},
	} {
		if got := glibcPrintable(tt.r); got != tt.want {
			t.Errorf("glibcPrintable(%U) = %v, want %v", tt.r, got, tt.want)
		}
	}
}

// unquote reverses Quote, for the fuzz test: it proves that Quote loses
// nothing, so that two different names never look the same.
func unquote(s Style, q string) (string, error) {
	left, right := s.quotes()
	if !strings.HasPrefix(q, left) || !strings.HasSuffix(q, right) || len(q) < len(left)+len(right) {
		return "", fmt.Errorf("not quoted: %q", q)
	}
	q = q[len(left) : len(q)-len(right)]
	var b []byte
	for i := 0; i < len(q); {
		if strings.HasPrefix(q[i:], right) {
			return "", fmt.Errorf("bare right quote at %d", i)
		}
		if q[i] != '\\' {
			b = append(b, q[i])
			i++
			continue
		}
		i++
		if i >= len(q) {
			return "", fmt.Errorf("trailing backslash")
		}
		if strings.HasPrefix(q[i:], right) {
			b = append(b, right...)
			i += len(right)
			continue
		}
		switch c := q[i]; {
		case strings.IndexByte("abfnrtv", c) >= 0:
			b = append(b, "\a\b\f\n\r\t\v"[strings.IndexByte("abfnrtv", c)])
			i++
		case c == '\\':
			b = append(b, '\\')
			i++
		case i+2 < len(q) && '0' <= c && c <= '3' && isOctal(q[i+1]) && isOctal(q[i+2]):
			b = append(b, (c-'0')<<6|(q[i+1]-'0')<<3|(q[i+2]-'0'))
			i += 3
		case c == '0':
			b = append(b, 0)
			i++
		default:
			return "", fmt.Errorf("unknown escape \\%c", c)
		}
	}
	return string(b), nil
}

func isOctal(c byte) bool { return '0' <= c && c <= '7' }

// utf8Edges are the byte strings of internal/mbchar's decode table: the
// edges of glibc's UTF-8 decoding, as quoting inputs.
var utf8Edges = []string{
	"\xed\xa0\x80x", "\xed\xa0", "\xc0\x80x", "\xc1\xbfx", "\xe0\x80\x80x", "\xe0\x80", "\xf0\x80\x80\x80x", "\xf4\x90\x80\x80x", "\xf4\x90", "\xf5\x80\x80\x80x", "\xf7\xbf\xbf\xbfx", "\xf8\x88\x80\x80\x80x", "\xfc\x84\x80\x80\x80\x80x", "\xfe", "\xff", "\xef\xbf\xbex", "\x80x", "\xe2\x80x", "\xe2x", "\xf8\x88x", "\xf8\x88", "\xe0\x9f\xbfx", "\xed\x9f\xbfx", "é", "a",
}

// FuzzQuote checks, for any bytes, that quoting never panics, that the
// result is printable (ASCII in C; valid, printable UTF-8 otherwise) and
// decodes back to the input; and that the terminal form is printable.
func FuzzQuote(f *testing.F) {
	for _, tt := range quoteTests {
		f.Add(tt.in)
	}
	for _, tt := range qmarkTests {
		f.Add(tt.in)
	}
	for _, in := range utf8Edges {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, s := range []Style{C, UTF8} {
			q := s.Quote(in)
			back, err := unquote(s, q)
			if err != nil || back != in {
				t.Fatalf("%v: Quote(%q) = %q, which unquotes to %q, %v", s, in, q, back, err)
			}
			checkPrintable(t, s, "Quote", in, q)
			m := string(appendQmark(nil, []byte(in), s))
			checkPrintable(t, s, "qmark", in, m)
			if len(m) > len(in) || (s == C && len(m) != len(in)) {
				t.Fatalf("%v: qmark(%q) = %q changes length wrongly", s, in, m)
			}
		}
	})
}

func checkPrintable(t *testing.T, s Style, what, in, out string) {
	t.Helper()
	if s == C {
		for i := 0; i < len(out); i++ {
			if !isPrintASCII(out[i]) {
				t.Fatalf("C: %s(%q) = %q has byte %#x", what, in, out, out[i])
			}
		}
		return
	}
	if !utf8.ValidString(out) {
		t.Fatalf("UTF-8: %s(%q) = %q is not valid UTF-8", what, in, out)
	}
	for _, r := range out {
		if !glibcPrintable(r) {
			t.Fatalf("UTF-8: %s(%q) = %q has unprintable %U", what, in, out, r)
		}
	}
}

func BenchmarkQuote(b *testing.B) {
	name := []byte("./usr/share/doc/libfoo-dev/changelog\n.Debian.gz")
	var dst []byte
	b.ReportAllocs()
	for b.Loop() {
		dst = UTF8.AppendQuote(dst[:0], name)
	}
	_ = bytes.Clone(dst)
}

// TestUnescape: Unescape undoes cEscape, the escapes quoting writes,
// and knows no other letter.
func TestUnescape(t *testing.T) {
	n := 0
	for c := 0; c < 256; c++ {
		if l := cEscape(byte(c)); l != 0 {
			n++
			if got := ctype.Unescape(l); got != byte(c) {
				t.Errorf("ctype.Unescape(%q) = %q, want %q", l, got, byte(c))
			}
		}
	}
	for c := 0; c < 256; c++ {
		if r := ctype.Unescape(byte(c)); r != 0 && cEscape(r) != byte(c) {
			t.Errorf("ctype.Unescape(%q) = %q, which quoting writes as %q", byte(c), r, cEscape(r))
		}
	}
	if n != 8 {
		t.Errorf("%d C escapes, want the 8 of \\a \\b \\f \\n \\r \\t \\v \\\\", n)
	}
}
