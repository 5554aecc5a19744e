package output

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
	{StyleC, "plain", `'plain'`},
	{StyleC, "sp ace!$`\"?*[(~#", "'sp ace!$`\"?*[(~#'"},
	{StyleC, "a\nb", `'a\nb'`},
	{StyleC, "t\tab", `'t\tab'`},
	{StyleC, "\a\b\f\r\v", `'\a\b\f\r\v'`},
	{StyleC, "it's", `'it\'s'`},
	{StyleC, `back\slash`, `'back\\slash'`},
	{StyleC, "\x1b", `'\033'`},
	{StyleC, "\x01", `'\001'`},
	{StyleC, "\x7f", `'\177'`},
	{StyleC, "x\xffy", `'x\377y'`},
	{StyleC, "é", `'\303\251'`},
	{StyleC, "\xc3", `'\303'`},
	{StyleC, "\xc3x", `'\303x'`},
	{StyleC, "a\u2019b", `'a\342\200\231b'`},
	{StyleC, "a\u2018b", `'a\342\200\230b'`},
	{StyleC, "\u0085", `'\302\205'`},
	{StyleC, "\u00a0", `'\302\240'`},
	{StyleC, "\u200b", `'\342\200\213'`},
	{StyleC, "", `''`},
	// NUL cannot reach find; this is quotearg's rule for it.
	{StyleC, "a\x00b", `'a\0b'`},
	{StyleC, "a\x001", `'a\0001'`},

	// UTF-8: curly quotes; printable characters kept; only the right
	// quote (not the apostrophe) is escaped.
	{StyleUTF8, "plain", "‘plain’"},
	{StyleUTF8, "a\nb", "‘a\\nb’"},
	{StyleUTF8, "it's", "‘it's’"},
	{StyleUTF8, "a\u2019b", "‘a\\’b’"},
	{StyleUTF8, "a\u2018b", "‘a‘b’"},
	{StyleUTF8, `back\slash`, "‘back\\\\slash’"},
	{StyleUTF8, "é", "‘é’"},
	{StyleUTF8, "\xc3", "‘\\303’"},
	{StyleUTF8, "\xc3x", "‘\\303x’"},
	{StyleUTF8, "x\xffy", "‘x\\377y’"},
	{StyleUTF8, "\x1b", "‘\\033’"},
	{StyleUTF8, "\x7f", "‘\\177’"},
	{StyleUTF8, "a`b", "‘a`b’"},
	{StyleUTF8, "\u0085", "‘\\302\\205’"},      // C1 control: every byte
	{StyleUTF8, "\u00a0", "‘\u00a0’"},          // no-break space is printable
	{StyleUTF8, "\u200b", "‘\u200b’"},          // so is a format character
	{StyleUTF8, "\ufffe", "‘\\357\\277\\276’"}, // noncharacter
	{StyleUTF8, "9\U0001F600", "‘9\U0001F600’"},
	{StyleUTF8, "A\u0301", "‘A\u0301’"},                                  // combining mark
	{StyleUTF8, "1\xed\xa0\x80", "‘1\\355\\240\\200’"},                   // surrogate
	{StyleUTF8, "2\xc0\x80", "‘2\\300\\200’"},                            // overlong
	{StyleUTF8, "3\xf4\x90\x80\x80", "‘3\\364\\220\\200\\200’"},          // > U+10FFFF
	{StyleUTF8, "4\xe2\x80", "‘4\\342\\200’"},                            // incomplete
	{StyleUTF8, "5\xe2\x80x", "‘5\\342\\200x’"},                          // invalid
	{StyleUTF8, "6\xed\xa0", "‘6\\355\\240’"},                            // incomplete surrogate
	{StyleUTF8, "C\xf8\x88\x80\x80\x80", "‘C\\370\\210\\200\\200\\200’"}, // 5-byte form
	{StyleUTF8, "\xe2\x80\n", "‘\\342\\200\\n’"},
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
	{StyleC, "plain it's back\\sl sp ace", "plain it's back\\sl sp ace"},
	{StyleC, "t\tab", "t?ab"},
	{StyleC, "a\nb", "a?b"},
	{StyleC, "e\x1bx", "e?x"},
	{StyleC, "z\x7f", "z?"},
	{StyleC, "f\xffy", "f?y"},
	{StyleC, "é", "??"},
	{StyleC, "\u0085nel", "??nel"},
	{StyleC, "a\u2019q", "a???q"},
	{StyleC, "\xc3", "?"},

	{StyleUTF8, "plain it's back\\sl sp ace", "plain it's back\\sl sp ace"},
	{StyleUTF8, "t\tab", "t?ab"},
	{StyleUTF8, "a\nb", "a?b"},
	{StyleUTF8, "e\x1bx", "e?x"},
	{StyleUTF8, "z\x7f", "z?"},
	{StyleUTF8, "f\xffy", "f?y"},
	{StyleUTF8, "é", "é"},
	{StyleUTF8, "\u0085nel", "?nel"}, // one '?' per character
	{StyleUTF8, "a\u2019q", "a\u2019q"},
	{StyleUTF8, "\xc3", "?"},
	{StyleUTF8, "1\xed\xa0\x80", "1???"}, // invalid: one '?' per byte
	{StyleUTF8, "2\xc0\x80", "2??"},
	{StyleUTF8, "3\xf4\x90\x80\x80", "3?"}, // glibc decodes it, to U+110000
	{StyleUTF8, "4\xe2\x80", "4?"},         // incomplete at the end: one '?'
	{StyleUTF8, "5\xe2\x80x", "5??x"},
	{StyleUTF8, "6\xed\xa0", "6?"},
	{StyleUTF8, "7\xe0\x80", "7?"},
	{StyleUTF8, "8\xf4\x90", "8?"},
	{StyleUTF8, "9\U0001F600", "9\U0001F600"},
	{StyleUTF8, "A\u0301", "A\u0301"},
	{StyleUTF8, "B\ufffe", "B?"},
	{StyleUTF8, "C\xf8\x88\x80\x80\x80", "C?"},
	{StyleUTF8, "D\u200b", "D\u200b"},
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
		for _, s := range []Style{StyleC, StyleUTF8} {
			q := s.Quote(in)
			back, err := unquote(s, q)
			if err != nil || back != in {
				t.Fatalf("%v: Quote(%q) = %q, which unquotes to %q, %v", s, in, q, back, err)
			}
			checkPrintable(t, s, "Quote", in, q)
			m := string(appendQmark(nil, []byte(in), s))
			checkPrintable(t, s, "qmark", in, m)
			if len(m) > len(in) || (s == StyleC && len(m) != len(in)) {
				t.Fatalf("%v: qmark(%q) = %q changes length wrongly", s, in, m)
			}
		}
	})
}

func checkPrintable(t *testing.T, s Style, what, in, out string) {
	t.Helper()
	if s == StyleC {
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
		dst = StyleUTF8.AppendQuote(dst[:0], name)
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
