package quote

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/ctype"
	"github.com/gfind/gfind/internal/testtool"
)

// shellTests are what bfs 4.1 writes for a piece of a colored path
// (Debian's bfs 2.6.1 writes every name raw, so it cannot be the
// oracle): derived from its print_wordesc with WESC_TTY, wordnesc and
// dollar_quote (src/bfstd.c), whose character classes are glibc's
// (TestShellClassesMatchGlibc).
var shellTests = []struct {
	style Style
	in    string
	want  string
}{
	{C, "plain", "plain"},
	{C, "", ""},
	{C, "sp ace!$`\"?*[(~#'\\", "sp ace!$`\"?*[(~#'\\"}, // printable: raw, quotes and all
	{C, "a\nb\tc\vd\fe\rf", "a\nb\tc\vd\fe\rf"},         // whitespace: raw
	{C, "rainbow/\x1b[1m", `$'rainbow/\e[1m'`},
	{C, "\a\b", `$'\a\b'`},
	{C, "\x1b'\\", `$'\e\'\\'`},
	{C, "\x1bnl\ntab\t", "$'\\enl\ntab\t'"}, // whitespace raw inside $'…' too
	{C, "\x01\x1f\x7f", `$'\x01\x1F\x7F'`},
	{C, "é", `$'\xC3\xA9'`}, // the C locale: no byte above 0x7F is a character
	{C, "x\xffy", `$'x\xFFy'`},
	{C, "\x00", `$'\x00'`},

	{UTF8, "é\u00a0\u200b", "é\u00a0\u200b"},           // printable characters: raw
	{UTF8, "\u2028\u2029\u3000", "\u2028\u2029\u3000"}, // iswspace: raw
	{UTF8, "é\x1b", "$'é\\e'"},
	{UTF8, "\u0085", `$'\xC2\x85'`},          // C1 control: each byte
	{UTF8, "\u009b1m", `$'\xC2\x9B1m'`},      // CSI, the 8-bit ESC [
	{UTF8, "x\xffy", `$'x\xFFy'`},            // invalid
	{UTF8, "4\xe2\x80", `$'4\xE2\x80'`},      // incomplete
	{UTF8, "5\xe2\x80x'", `$'5\xE2\x80x\''`}, // invalid, then ' escaped
	{UTF8, "\ufffe", `$'\xEF\xBF\xBE'`},      // noncharacter
	{UTF8, "1\xed\xa0\x80", `$'1\xED\xA0\x80'`},
	{UTF8, "ok 😀", "ok 😀"},
}

func TestAppendShell(t *testing.T) {
	for _, tt := range shellTests {
		if got := string(tt.style.AppendShell(nil, []byte(tt.in))); got != tt.want {
			t.Errorf("%v: AppendShell(%q) = %q, want %q", tt.style, tt.in, got, tt.want)
		}
	}
}

// unshell reads a $'…' word of AppendShell's back as bash reads it.
// (A raw piece may look like one: the reader must know which it has.)
func unshell(q string) (string, error) {
	body, ok := strings.CutPrefix(q, "$'")
	if !ok {
		return "", fmt.Errorf("not $'…': %q", q)
	}
	body, ok = strings.CutSuffix(body, "'")
	if !ok {
		return "", fmt.Errorf("unterminated %q", q)
	}
	var b []byte
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\'' {
			return "", fmt.Errorf("bare ' in %q", q)
		}
		if c != '\\' {
			b = append(b, c)
			continue
		}
		if i++; i >= len(body) {
			return "", fmt.Errorf("trailing backslash in %q", q)
		}
		switch c := body[i]; c {
		case 'e':
			b = append(b, 033)
		case '\'', '\\':
			b = append(b, c)
		case 'x':
			if i+3 > len(body) {
				return "", fmt.Errorf("short \\x in %q", q)
			}
			v, err := strconv.ParseUint(body[i+1:i+3], 16, 8)
			if err != nil || strings.ToUpper(body[i+1:i+3]) != body[i+1:i+3] {
				return "", fmt.Errorf("bad \\x in %q", q)
			}
			b = append(b, byte(v))
			i += 2
		default:
			r := ctype.Unescape(c)
			if r == 0 || r == '\\' {
				return "", fmt.Errorf("unknown escape \\%c in %q", c, q)
			}
			b = append(b, r)
		}
	}
	return string(b), nil
}

// FuzzAppendShell: for any bytes, AppendShell writes no control
// character but whitespace (in C, nothing above 0x7F either; in UTF-8,
// only valid characters that glibc prints or counts as space), and
// what it writes reads back, as a shell reads it, to the input.
func FuzzAppendShell(f *testing.F) {
	for _, tt := range shellTests {
		f.Add(tt.in)
	}
	for _, in := range utf8Edges {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, s := range []Style{C, UTF8} {
			out := string(s.AppendShell(nil, []byte(in)))
			for i := 0; i < len(out); {
				n, ok := s.shellChar([]byte(out[i:]))
				if !ok {
					t.Fatalf("%v: AppendShell(%q) = %q writes %q raw", s, in, out, out[i:i+n])
				}
				if c := out[i]; c < 0x20 && !isSpaceASCII(c) || c == 0x7f {
					t.Fatalf("%v: AppendShell(%q) = %q writes control byte %#x", s, in, out, c)
				}
				i += n
			}
			if s.shellSafe([]byte(in)) {
				if out != in {
					t.Fatalf("%v: AppendShell(%q) = %q, want it as it is", s, in, out)
				}
				continue
			}
			back, err := unshell(out)
			if err != nil || back != in {
				t.Fatalf("%v: AppendShell(%q) = %q, which reads back as %q, %v", s, in, out, back, err)
			}
		}
	})
}

// TestAppendShellBash: bash reads what AppendShell quotes back to the
// name's bytes, in the C locale and in C.UTF-8 (bash's $'…' does not
// depend on the locale for these escapes).
func TestAppendShellBash(t *testing.T) {
	bash := testtool.Need(t, "bash", "bash")
	ins := []string{"\x1b[31mred", "\x00", "'\\'", "a\nb\tc", "\x80\xff\x7f", "é\u0085"}
	for _, tt := range shellTests {
		ins = append(ins, tt.in)
	}
	for _, in := range utf8Edges {
		ins = append(ins, in)
	}
	for _, s := range []Style{C, UTF8} {
		var script strings.Builder
		script.WriteString("printf '%s\\0'")
		var want []string
		for _, in := range ins {
			if s.shellSafe([]byte(in)) || strings.IndexByte(in, 0) >= 0 {
				continue // raw pieces are not shell words; bash drops a NUL
			}
			script.WriteString(" ")
			script.Write(s.AppendShell(nil, []byte(in)))
			want = append(want, in)
		}
		cmd := exec.Command(bash, "-c", script.String())
		cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: bash: %v", s, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if len(got) != len(want) {
			t.Fatalf("%v: bash printed %d words, want %d", s, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%v: bash reads %q back as %q", s, s.AppendShell(nil, []byte(want[i])), got[i])
			}
		}
	}
}

// shellClassSrc prints, in the locale of LC_ALL, each character the
// $'…' quoting must know about as glibc classifies it: every byte in
// the C locale (whether mbrtowc takes it alone, isprint, isspace), and
// in a UTF-8 locale every code point that iswspace accepts and
// iswprint does not: the whitespace that is written raw although it is
// not printable.
const shellClassSrc = `#include <ctype.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>
int main(int argc, char **argv) {
	setlocale(LC_ALL, "");
	if (strcmp(argv[1], "bytes") == 0) {
		for (int c = 1; c < 256; c++) {
			char s[1] = {c};
			wchar_t w;
			mbstate_t mb = {0};
			size_t n = mbrtowc(&w, s, 1, &mb);
			printf("%d %d\n", c, n == 1 && (isprint(c) || isspace(c)));
		}
	} else {
		for (unsigned r = 1; r < 0x110000; r++)
			if (iswspace(r) && !iswprint(r))
				printf("%u\n", r);
	}
	return 0;
}
`

// TestShellClassesMatchGlibc checks shellChar's classes against glibc:
// in the C locale byte by byte; in C.UTF-8 the unprintable whitespace
// (printability itself is glibcPrintable's, tested with Quote).
func TestShellClassesMatchGlibc(t *testing.T) {
	cc := testtool.CC(t)
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "class.c"), filepath.Join(dir, "class")
	if err := os.WriteFile(src, []byte(shellClassSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("building the glibc class oracle: %v\n%s", err, out)
	}
	run := func(locale, what string) []string {
		cmd := exec.Command(bin, what)
		cmd.Env = []string{"LC_ALL=" + locale}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("class oracle %s %s: %v", locale, what, err)
		}
		return strings.Fields(string(out))
	}
	f := run("C", "bytes")
	for i := 0; i+1 < len(f); i += 2 {
		c, _ := strconv.Atoi(f[i])
		_, got := C.shellChar([]byte{byte(c)})
		if want := f[i+1] == "1"; got != want {
			t.Errorf("C: byte %#x: raw %v, glibc says %v", c, got, want)
		}
	}
	if len(f) != 2*255 {
		t.Errorf("oracle gave %d fields", len(f))
	}
	want := run("C.UTF-8", "spaces")
	var got []string
	for r := rune(1); r < 0x110000; r++ {
		if r >= 0xd800 && r < 0xe000 {
			continue // surrogates: no UTF-8 form
		}
		n, ok := UTF8.shellChar([]byte(string(r)))
		if n == len(string(r)) && ok && !glibcPrintable(r) {
			got = append(got, strconv.Itoa(int(r)))
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("UTF-8: unprintable whitespace %v, glibc's %v", got, want)
	}
}
