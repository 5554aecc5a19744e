package fnmatch

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gfind/gfind/internal/testtool"
)

// The oracle for these tests is glibc's fnmatch(3) itself: a small C
// program, built at test time, answers batches of queries. The expected
// values written in the tables are checked against it too, so they cannot
// drift from what GNU find (which calls glibc's fnmatch) really does.

// oracleSrc reads "FOLD<TAB>HEXPATTERN<TAB>HEXNAME" lines and prints
// 1 (match), 0 (FNM_NOMATCH) or E (other return) per line. Hex keeps any
// byte intact. With the argument "libc" it prints the libc version.
const oracleSrc = `
#define _GNU_SOURCE
#include <fnmatch.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

static int hexval(int c) {
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

/* decode the hex string s in place */
static int unhex(char *s) {
	char *o = s;
	while (s[0] && s[1]) {
		int h = hexval(s[0]), l = hexval(s[1]);
		if (h < 0 || l < 0) return -1;
		*o++ = (char)(h * 16 + l);
		s += 2;
	}
	*o = 0;
	return 0;
}

int main(int argc, char **argv) {
	if (argc > 1 && strcmp(argv[1], "libc") == 0) {
#ifdef __GLIBC__
		printf("glibc %s\n", gnu_get_libc_version());
#else
		printf("not-glibc\n");
#endif
		return 0;
	}
	if (!setlocale(LC_ALL, "")) {
		fprintf(stderr, "setlocale failed\n");
		return 2;
	}
	static char line[1 << 20];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = 0;
		char *p = strchr(line, '\t');
		if (!p) return 3;
		*p++ = 0;
		char *n = strchr(p, '\t');
		if (!n) return 3;
		*n++ = 0;
		if (unhex(p) || unhex(n)) return 4;
		int r = fnmatch(p, n, atoi(line) ? FNM_CASEFOLD : 0);
		fputs(r == 0 ? "1\n" : r == FNM_NOMATCH ? "0\n" : "E\n", stdout);
	}
	return 0;
}
`

type query struct {
	pat, name string
	fold      bool
}

type oracle struct{ bin string }

// newOracle builds the C helper. A missing compiler ends the test
// through testtool.CC (a skip off CI, a failure under CI); a non-glibc
// libc fails it: without the oracle these tests prove nothing.
func newOracle(t testing.TB) *oracle {
	t.Helper()
	cc := testtool.CC(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "fnmatch_oracle.c")
	bin := filepath.Join(dir, "fnmatch_oracle")
	if err := os.WriteFile(src, []byte(oracleSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("building the glibc fnmatch oracle with %s: %v\n%s", cc, err, out)
	}
	out, err := exec.Command(bin, "libc").Output()
	if err != nil {
		t.Fatalf("fnmatch oracle: %v", err)
	}
	if !strings.HasPrefix(string(out), "glibc ") {
		t.Fatalf("fnmatch oracle: the C library is not glibc (%q); gfind reproduces glibc's fnmatch", strings.TrimSpace(string(out)))
	}
	return &oracle{bin: bin}
}

// localeEnv is the environment with only the wanted locale: LANG or LC_* from
// the user would change glibc's answers, and POSIXLY_CORRECT changes '^'.
func localeEnv(locale string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "LANG" || k == "LANGUAGE" || strings.HasPrefix(k, "LC_") || k == "POSIXLY_CORRECT" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL="+locale)
}

// query answers qs in one run of the helper.
func (o *oracle) query(t testing.TB, locale string, qs []query) []bool {
	t.Helper()
	var in bytes.Buffer
	for _, q := range qs {
		fold := 0
		if q.fold {
			fold = 1
		}
		fmt.Fprintf(&in, "%d\t%s\t%s\n", fold, hex.EncodeToString([]byte(q.pat)), hex.EncodeToString([]byte(q.name)))
	}
	cmd := exec.Command(o.bin)
	cmd.Env = localeEnv(locale)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fnmatch oracle (LC_ALL=%s): %v: %s", locale, err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(qs) == 0 {
		return nil
	}
	if len(lines) != len(qs) {
		t.Fatalf("fnmatch oracle: %d answers for %d queries", len(lines), len(qs))
	}
	res := make([]bool, len(qs))
	for i, l := range lines {
		switch l {
		case "1":
			res[i] = true
		case "0":
		default:
			// fnmatch only errors on allocation failure; find would treat
			// it as no match, but it should never happen here.
			t.Fatalf("fnmatch oracle: %q for pattern %q name %q", l, qs[i].pat, qs[i].name)
		}
	}
	return res
}

// hasLocale reports whether glibc has the locale: the helper exits with
// status 2 when setlocale fails. Debian's libc-bin has C.UTF-8, so under
// CI a missing locale fails t; off CI it is logged.
func (o *oracle) hasLocale(t testing.TB, locale string) bool {
	t.Helper()
	cmd := exec.Command(o.bin)
	cmd.Env = localeEnv(locale)
	err := cmd.Run()
	switch {
	case err == nil:
		return true
	case testtool.CI():
		t.Errorf("glibc locale %s is missing under CI (Debian package libc-bin): %v", locale, err)
	default:
		t.Logf("glibc locale %s is missing (Debian package libc-bin): %v; its cases are left out", locale, err)
	}
	return false
}

type testCase struct {
	pat, name string
	fold      bool
	want      bool
}

const (
	noFold   = false
	caseFold = true
)

// table covers every feature and every quirk found in glibc 2.36. The
// want column is checked against glibc as well as against the Go matcher.
var table = []testCase{
	// Plain characters.
	{"", "", noFold, true},
	{"", "a", noFold, false},
	{"a", "a", noFold, true},
	{"a", "A", noFold, false},
	{"abc", "abc", noFold, true},
	{"abc", "abd", noFold, false},
	{"abc", "abcd", noFold, false},
	{"{a,b}", "a", noFold, false}, // no brace expansion
	{"{a,b}", "{a,b}", noFold, true},

	// Star: crosses '/', matches leading dots.
	{"*", "", noFold, true},
	{"*", "abc", noFold, true},
	{"*", ".hidden", noFold, true},
	{".*", ".hidden", noFold, true},
	{"*", "a/b", noFold, true},
	{"*/foo", "./a/b/foo", noFold, true},
	{"./a*foo", "./a/b/foo", noFold, true},
	{"a*", "a", noFold, true},
	{"a*", "ba", noFold, false},
	{"*a", "ba", noFold, true},
	{"*.log", "x.log", noFold, true},
	{"*.log", "x.log.1", noFold, false},
	{"*.log", ".log", noFold, true},
	{"*foo*", "xfooy", noFold, true},
	{"*foo*", "xfoy", noFold, false},
	{"**", "x", noFold, true},
	{"*?", "", noFold, false},
	{"*?", "a", noFold, true},
	{"?*?", "a", noFold, false},
	{"?*?", "ab", noFold, true},
	{"a*b*c", "abcbc", noFold, true},
	{"*a*b*c", "xaxbxc", noFold, true},
	{"*a*a*a*a*a*a*a*b", strings.Repeat("a", 60), noFold, false},
	{"*ab", "aab", noFold, true},

	// Question mark: any single byte, '/' and '.' included.
	{"?", "a", noFold, true},
	{"?", "", noFold, false},
	{"?", "/", noFold, true},
	{"?", ".", noFold, true},
	{"??", "a", noFold, false},

	// Backslash.
	{`\*`, "*", noFold, true},
	{`\*`, "a", noFold, false},
	{`\?`, "?", noFold, true},
	{`\?`, "a", noFold, false},
	{`\a`, "a", noFold, true},
	{`\\`, `\`, noFold, true},
	{`\[a]`, "[a]", noFold, true},
	{`a\`, `a\`, noFold, false}, // trailing backslash never matches
	{`a\`, "a", noFold, false},
	{`\`, `\`, noFold, false},
	{`*\`, `a\`, noFold, false},

	// Bracket basics.
	{"[abc]", "b", noFold, true},
	{"[abc]", "d", noFold, false},
	{"[abc]", "", noFold, false},
	{"[a-z]", "m", noFold, true},
	{"[a-z]", "M", noFold, false},
	{"[!a-z]", "M", noFold, true},
	{"[^a-z]", "M", noFold, true},
	{"[!a]", "a", noFold, false},
	{"[]]", "]", noFold, true},
	{"[]a]", "a", noFold, true},
	{"[!]]", "]", noFold, false},
	{"[!]]", "a", noFold, true},
	{"[]-a]", "^", noFold, true},
	{"[a-]", "-", noFold, true},
	{"[-a]", "-", noFold, true},
	{"[z-a]", "m", noFold, false},
	{"[[]", "[", noFold, true},
	{"a[/]b", "a/b", noFold, true},
	{"[.]*", ".x", noFold, true},
	{"[*]", "*", noFold, true},
	{"[*]", "a", noFold, false},
	{"[a]]", "a]", noFold, true},

	// Classes.
	{"[[:alpha:]]", "a", noFold, true},
	{"[[:alpha:]]", "1", noFold, false},
	{"[[:digit:]]", "7", noFold, true},
	{"[[:alnum:]_]", "_", noFold, true},
	{"[[:space:]]", "\v", noFold, true},
	{"[[:upper:]]", "A", noFold, true},
	{"[[:upper:]]", "a", noFold, false},
	{"[[:lower:]]", "a", noFold, true},
	{"[[:punct:]]", "!", noFold, true},
	{"[[:xdigit:]]", "f", noFold, true},
	{"[[:xdigit:]]", "g", noFold, false},
	{"[[:cntrl:]]", "\x01", noFold, true},
	{"[[:print:]]", " ", noFold, true},
	{"[[:graph:]]", " ", noFold, false},
	{"[[:blank:]]", "\t", noFold, true},
	{"[![:digit:]]", "a", noFold, true},
	{"[[:alpha:][:digit:]]", "5", noFold, true},
	{"[[:alpha:]]", "\xe9", noFold, false},    // C locale: no letters above 0x7f
	{"[[:foo:]]", "f", noFold, false},         // unknown class: fails...
	{"[[:foo:]]", "[[:foo:]]", noFold, false}, // ...and is not literal
	{"[a[:foo:]]", "a", noFold, true},         // unless matched before it
	{"[[:alpha:]", "[:", noFold, true},        // unclosed: '[' then "[:alpha:]"
	{"[[:alpha:]", "a", noFold, false},
	{"[[:alpha]]", "a]", noFold, true}, // not a class: a set of "[:alph"
	{"[[:ALPHA:]]", "A]", noFold, true},
	{"[b[:" + strings.Repeat("a", 2046) + "]", "b", noFold, true},
	{"[b[:" + strings.Repeat("a", 2047) + "]", "b", noFold, false}, // CHARCLASS_NAME_MAX

	// Equivalence classes and collating symbols (C locale: one char).
	{"[[=a=]]", "a", noFold, true},
	{"[[=a=]]", "b", noFold, false},
	{"[[=a=]b]", "b", noFold, true},
	{"[[=a]", "=", noFold, true}, // not an equivalence class
	{"[[.a.]]", "a", noFold, true},
	{"[[.-.]]", "-", noFold, true},
	{"[[.hyphen.]]", "-", noFold, false},
	{"[[.a.]-c]", "b", noFold, true},
	{"[a-[.c.]]", "b", noFold, true},
	{"[[.a.]-]", "a", noFold, false}, // after [.a.], a "-" before "]" still counts as a range
	{"[[.a.]-]", "-", noFold, true},

	// Backslash inside brackets.
	{`[\]]`, "]", noFold, true},
	{`[\]]`, `\`, noFold, false},
	{`[a\-z]`, "-", noFold, true},
	{`[a\-z]`, "m", noFold, false},
	{`[\!a]`, "!", noFold, true},
	{`[a-\z]`, "m", noFold, true},
	{`[\`, `[\`, noFold, false},

	// Unclosed brackets: literal '[' unless the scan matched or failed.
	{"[a-", "[a-", noFold, false},
	{"[a-", "a", noFold, false},
	{"[", "[", noFold, true},
	{"[ab", "[ab", noFold, true},
	{"[ab", "a", noFold, false},
	{"[[", "[[", noFold, true},
	{"[!", "[!", noFold, true},
	{"[]", "[]", noFold, true},
	{"[]", "]", noFold, false},
	{"a[", "a[", noFold, true},
	{"*[", "x[", noFold, true},
	{"[*", "[xyz", noFold, true},
	{"[*", "*", noFold, false},

	// FNM_CASEFOLD.
	{"abc", "ABC", caseFold, true},
	{"ABC", "abc", caseFold, true},
	{"*.LOG", "x.log", caseFold, true},
	{"Foo*", "fOOBAR", caseFold, true},
	{"*OO*", "xfoo", caseFold, true},
	{`\A`, "a", caseFold, true},
	{"[A-Z]", "a", caseFold, true},
	{"[a-z]", "Q", caseFold, true},
	{"[!a]", "A", caseFold, false},
	{"[[:upper:]]", "a", caseFold, false}, // classes see the name unfolded
	{"[[:lower:]]", "A", caseFold, false},
	{"[[:upper:]]", "A", caseFold, true},
	{"[[=A=]]", "a", caseFold, false}, // so do [=x=] and [.x.]
	{"[[.A.]]", "a", caseFold, false},
	{"[Z-a]", "_", noFold, true},
	{"[Z-a]", "_", caseFold, false}, // folded to [z-a]: empty
	{"\xc3\xa9", "\xc3\x89", caseFold, false},

	// Bytes above 0x7f are plain bytes in the C locale.
	{"\xff", "\xff", noFold, true},
	{"?", "\xc3\xa9", noFold, false},
	{"??", "\xc3\xa9", noFold, true},
	{"[\x80-\xff]", "\xe9", noFold, true},
	{"[!\x80-\xff]", "\xe9", noFold, false},
	{"*\xa9", "\xc3\xa9", noFold, true},
}

func TestTable(t *testing.T) {
	qs := make([]query, len(table))
	for i, c := range table {
		qs[i] = query{c.pat, c.name, c.fold}
	}
	glibc := newOracle(t).query(t, "C", qs)
	for i, c := range table {
		if glibc[i] != c.want {
			t.Errorf("table is wrong: glibc fnmatch(%q, %q, fold=%v) = %v, table says %v", c.pat, c.name, c.fold, glibc[i], c.want)
		}
		for _, fast := range []bool{true, false} {
			if got := compile(c.pat, c.fold, false, fast).Match([]byte(c.name)); got != c.want {
				t.Errorf("compile(%q, fold=%v, fast=%v).Match(%q) = %v, want %v", c.pat, c.fold, fast, c.name, got, c.want)
			}
		}
	}
}

// TestFastPaths checks that the shortcuts are taken where expected.
func TestFastPaths(t *testing.T) {
	for _, c := range []struct {
		pat  string
		want shortcut
	}{
		{"foo", fastLiteral},
		{"", fastLiteral},
		{`\*x`, fastLiteral},
		{"*.log", fastSuffix},
		{"**.log", fastSuffix},
		{"foo*", fastPrefix},
		{"*foo*", fastContains},
		{"*", fastAll},
		{"***", fastAll},
		{"a*b", fastNone},
		{"*.[ch]", fastNone},
		{"?.c", fastNone},
		{`a\`, fastNone},
	} {
		for _, fold := range []bool{false, true} {
			if got := Compile(c.pat, fold).fast; got != c.want {
				t.Errorf("Compile(%q, %v).fast = %v, want %v", c.pat, fold, got, c.want)
			}
		}
	}
}

// syntaxAtoms are the pieces random patterns are made of: every character
// with a meaning to fnmatch, class and collation syntax, and a few plain
// and high bytes.
var syntaxAtoms = []string{
	"a", "b", "A", "B", "x", "*", "*", "?", "[", "[", "]", "]", "!", "^", "-", "-",
	`\`, "/", ".", ":", "=", "[:alpha:]", "[:upper:]", "[:lower:]", "[:digit:]",
	"[:punct:]", "[:foo:]", "[:", ":]", "[=a=]", "[=", "=]", "[.a.]", "[.-.]",
	"[.ab.]", "[.", ".]", "\xff", "\xe9", " ", "z", "Z", "_",
}

const nameBytes = "abABxz_[]!^-\\/.:= \xff\xe9"

func randPattern(r *rand.Rand, atoms []string) string {
	var b strings.Builder
	for n := 1 + r.Intn(8); n > 0; n-- {
		b.WriteString(atoms[r.Intn(len(atoms))])
	}
	return b.String()
}

func randName(r *rand.Rand, alphabet []string, max int) string {
	var b strings.Builder
	for n := r.Intn(max + 1); n > 0; n-- {
		b.WriteString(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}

// derivedName builds a name that has a fair chance of matching pat, so
// the differential tests see matches as well as mismatches: stars become
// random text, '?' a random character, a bracket one character from its
// inside, and sometimes one character is then replaced.
func derivedName(r *rand.Rand, pat string, alphabet []string) string {
	var b strings.Builder
	for i := 0; i < len(pat); {
		_, size := utf8.DecodeRuneInString(pat[i:])
		switch c := pat[i]; c {
		case '*':
			b.WriteString(randName(r, alphabet, 2))
		case '?':
			b.WriteString(alphabet[r.Intn(len(alphabet))])
		case '\\':
			if i+1 < len(pat) {
				i++
				_, size = utf8.DecodeRuneInString(pat[i:])
				b.WriteString(pat[i : i+size])
			}
		case '[':
			inner := pat[i+1:]
			inner = strings.TrimPrefix(strings.TrimPrefix(inner, "!"), "^")
			end := strings.IndexByte(inner, ']')
			if end == 0 {
				end = 1 + strings.IndexByte(inner[1:], ']')
			}
			if end <= 0 || r.Intn(4) == 0 {
				b.WriteByte(c)
				break
			}
			set := []rune(inner[:end])
			b.WriteRune(set[r.Intn(len(set))])
			size = len(pat[i:]) - len(inner) + end + 1
		default:
			b.WriteString(pat[i : i+size])
		}
		i += size
	}
	s := b.String()
	if s != "" && r.Intn(4) == 0 {
		i := r.Intn(len(s))
		s = s[:i] + alphabet[r.Intn(len(alphabet))] + s[i+1:]
	}
	return s
}

func splitBytes(s string) []string {
	out := make([]string, len(s))
	for i := range s {
		out[i] = s[i : i+1]
	}
	return out
}

// diff compares the matcher built by mk with glibc on qs.
func diff(t *testing.T, o *oracle, locale string, qs []query, mk func(pat string, fold, fast bool) *Pattern) {
	t.Helper()
	glibc := o.query(t, locale, qs)
	bad := 0
	for i, q := range qs {
		for _, fast := range []bool{true, false} {
			got := mk(q.pat, q.fold, fast).Match([]byte(q.name))
			if got != glibc[i] {
				bad++
				if bad <= 30 {
					t.Errorf("LC_ALL=%s fnmatch(%q, %q, fold=%v): glibc %v, gfind %v (fast paths %v)", locale, q.pat, q.name, q.fold, glibc[i], got, fast)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d comparisons differ", bad, 2*len(qs))
	}
}

// TestAgainstGlibc is the deterministic randomized differential test:
// 20,000 random patterns, each against a random name and two names built
// from the pattern, with and without FNM_CASEFOLD, in one run of the oracle.
func TestAgainstGlibc(t *testing.T) {
	o := newOracle(t)
	n := 20000
	if testing.Short() {
		n = 2000
	}
	r := rand.New(rand.NewSource(1))
	alphabet := splitBytes(nameBytes)
	var qs []query
	for i := 0; i < n; i++ {
		pat := randPattern(r, syntaxAtoms)
		names := []string{randName(r, alphabet, 6), derivedName(r, pat, alphabet), derivedName(r, pat, alphabet)}
		for _, name := range names {
			for _, fold := range []bool{false, true} {
				qs = append(qs, query{pat, name, fold})
			}
		}
	}
	diff(t, o, "C", qs, func(pat string, fold, fast bool) *Pattern { return compile(pat, fold, false, fast) })
}

// TestBytesAgainstGlibc checks every byte against every class and a
// grid of ranges, folded and not.
func TestBytesAgainstGlibc(t *testing.T) {
	o := newOracle(t)
	var qs []query
	ends := []byte{0x01, '0', 'A', 'Z', '[', ']', '_', 'a', 'z', 0x7f, 0x80, 0xff}
	for b := 1; b < 256; b++ {
		name := string([]byte{byte(b)})
		for _, fold := range []bool{false, true} {
			for _, cl := range classNames {
				qs = append(qs, query{"[[:" + cl + ":]]", name, fold})
			}
			for _, lo := range ends {
				for _, hi := range ends {
					qs = append(qs, query{"[" + string([]byte{lo, '-', hi}) + "]", name, fold})
				}
			}
			qs = append(qs, query{name, name, fold}, query{"[" + name + "]", name, fold},
				query{"[!" + name + "]", name, fold}, query{"[" + name + "]", "a", fold})
		}
	}
	diff(t, o, "C", qs, func(pat string, fold, fast bool) *Pattern { return compile(pat, fold, false, fast) })
	// Single bytes above 0x7f are invalid UTF-8, so a UTF-8 locale
	// matches them as bytes too, with its own byte classes.
	if o.hasLocale(t, "C.UTF-8") {
		diff(t, o, "C.UTF-8", qs, func(pat string, fold, fast bool) *Pattern { return compile(pat, fold, true, fast) })
	}
}

// utf8Names are characters that exercise UTF-8 mode: multibyte letters
// with and without case mappings (including ones folding to ASCII),
// digits, spaces and marks, a character above U+FFFF, and invalid bytes.
var utf8Names = []string{
	"a", "b", "A", "k", "i", "x", "-", "[", "]", "/", ".",
	"é", "É", "à", "ß", "Σ", "σ", "日", "\u212a" /* KELVIN SIGN */, "İ",
	"\u00a0", "\u0301", "٣", "𐐀", "𐐨", "\u00ff", "\u0100",
	"\xc3", "\xff", "\xed\xa0\x80" /* surrogate */, "\xf4\x90\x80\x80", /* > U+10FFFF */
}

// TestUTF8AgainstGlibc compares CompileUTF8 with glibc under
// LC_ALL=C.UTF-8.
func TestUTF8AgainstGlibc(t *testing.T) {
	o := newOracle(t)
	if !o.hasLocale(t, "C.UTF-8") {
		t.SkipNow()
	}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	r := rand.New(rand.NewSource(2))
	// Half the atoms are the syntax soup of the C-locale test, half are
	// wildcards that can match a whole multibyte character.
	wild := []string{"?", "?", "*", "[!a]", "[!é]", "[à-é]", "[Σ-σ]", "[é-à]", "[\\é]", "[[.é.]]", "[[=é=]]",
		"[a-b", "[!a-\\]", "-", "[!a-b]"}
	for _, s := range utf8Names {
		wild = append(wild, s, "["+s+"]", "[a-"+s+"]", "["+s+"-"+s+"]", "[!"+s+"]")
	}
	for _, cl := range classNames {
		wild = append(wild, "[[:"+cl+":]]", "[![:"+cl+":]]")
	}
	var qs []query
	for i := 0; i < n; i++ {
		atoms := syntaxAtoms
		if r.Intn(4) != 0 {
			atoms = wild
		}
		pat := randPattern(r, atoms)
		for _, name := range []string{randName(r, utf8Names, 4), derivedName(r, pat, utf8Names)} {
			for _, fold := range []bool{false, true} {
				qs = append(qs, query{pat, name, fold})
			}
		}
	}
	// Every class against every sample character.
	for _, name := range utf8Names {
		for _, cl := range classNames {
			for _, fold := range []bool{false, true} {
				qs = append(qs, query{"[[:" + cl + ":]]", name, fold})
			}
		}
	}
	// glibc's range_not_matched shortcut for characters above U+00FF.
	for _, c := range []struct{ pat, name string }{
		{"[!a-\\]x]", "İx]"}, {"[!a-\\]x]", "İ"}, {"[a-bİ]", "İ"}, {"[a-İ]", "İ"},
		{"[^a-[.ab.]", "日"}, {"[a-é]", "à"}, {"[a-é]", "ê"}, {"[à-日]", "à"},
		{"[à-日]", "á"}, {"[日-日]", "日"},
	} {
		qs = append(qs, query{c.pat, c.name, false}, query{c.pat, c.name, true})
	}
	// The table, whose C-locale answers must not change for ASCII.
	for _, c := range table {
		qs = append(qs, query{c.pat, c.name, c.fold})
	}
	// Drop the queries where glibc's answer is undefined behaviour.
	kept := qs[:0]
	for _, q := range qs {
		if !utf8Undefined(q.pat, q.name) {
			kept = append(kept, q)
		}
	}
	diff(t, o, "C.UTF-8", kept, func(pat string, fold, fast bool) *Pattern { return compile(pat, fold, true, fast) })
}

// utf8Undefined is a conservative test for the one case where glibc's
// wide matcher reads past the end of the pattern: a set left open by a
// trailing "x-" ("[!a-"), matched against a character beyond U+00FF
// (range_not_matched skips the NUL). Its answer then depends on stale
// memory; gfind says no match.
func utf8Undefined(pat, name string) bool {
	if !strings.HasSuffix(pat, "-") || !strings.Contains(pat, "[") {
		return false
	}
	for _, r := range name {
		if r > 0xff {
			return true
		}
	}
	return false
}

// TestGNUFind runs GNU find itself on real files for the cases
// DESIGN.md 3.6 calls out and a few more.
func TestGNUFind(t *testing.T) {
	find := testtool.GNUFind(t)
	dir := t.TempDir()
	files := []string{"{a,b}", "a", "b", "[a-", ".hidden", `a\b`, "A.LOG", "x.log", "[ab", "[[", "é", "日", "d/b/foo", "d/b/bar", "Foo"}
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var all []string // paths as find prints them
	if err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err == nil && p != dir {
			all = append(all, p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	type findCase struct{ op, pat string }
	check := func(locale string, mk func(string, bool) *Pattern, cases []findCase) {
		for _, c := range cases {
			cmd := exec.Command(find, dir, "-mindepth", "1", c.op, c.pat)
			cmd.Env = localeEnv(locale)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("find %s %q: %v", c.op, c.pat, err)
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if len(out) == 0 {
				got = nil
			}
			sort.Strings(got)
			g := mk(c.pat, c.op == "-iname" || c.op == "-ipath")
			var want []string
			for _, p := range all {
				subject := p
				if c.op == "-name" || c.op == "-iname" {
					subject = filepath.Base(p)
				}
				if g.Match([]byte(subject)) {
					want = append(want, p)
				}
			}
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("LC_ALL=%s find %s %q:\n GNU find: %q\n gfind:    %q", locale, c.op, c.pat, got, want)
			}
		}
	}
	check("C", Compile, []findCase{
		{"-name", "{a,b}"}, {"-name", "[a-"}, {"-name", "*"}, {"-name", `a\b`}, {"-name", `a\\b`},
		{"-name", "*.log"}, {"-iname", "*.log"}, {"-name", "[[:upper:]]*"}, {"-iname", "[[:upper:]]*"},
		{"-name", "[ab"}, {"-name", "[["}, {"-name", "?"}, {"-name", "??"}, {"-name", ".*"},
		{"-path", "*/foo"}, {"-path", dir + "/d*foo"}, {"-ipath", "*/D/B/*"}, {"-iname", "foo"},
		{"-name", "[!a]"}, {"-iname", "É"},
	})
	if newOracle(t).hasLocale(t, "C.UTF-8") {
		check("C.UTF-8", CompileUTF8, []findCase{
			{"-name", "?"}, {"-name", "[!a]"}, {"-iname", "É"}, {"-name", "[[:alpha:]]"},
			{"-name", "??"}, {"-name", "*"}, {"-name", "[a-"},
		})
	}
}

// TestNoAlloc: match runs for every file and must not allocate.
func TestNoAlloc(t *testing.T) {
	for _, c := range []struct {
		pat  string
		utf8 bool
		name string
	}{
		{"foo", false, "foo"}, {"*.log", true, "x.log"}, {"*[0-9]?[[:alpha:]]*", false, "abc12x.txt"},
		{"*[é]*", true, "aéb"}, {"?", true, "é"}, {"*ß*", true, "SS"},
	} {
		for _, fold := range []bool{false, true} {
			g := compile(c.pat, fold, c.utf8, true)
			name := []byte(c.name)
			if n := testing.AllocsPerRun(100, func() { g.Match(name) }); n != 0 {
				t.Errorf("compile(%q, fold=%v, utf8=%v).Match allocates %v times", c.pat, fold, c.utf8, n)
			}
		}
	}
}

// TestLongPattern: pathological patterns, thousands
// of bytes long, give glibc fnmatch's answers (found with a C program
// calling fnmatch(3), in the C and C.UTF-8 locales alike) on names as
// long; a matcher that backtracks exponentially on the "*a*a...b" case
// would not finish. A '[' that no ']' closes is an ordinary character,
// so "[[:alpha:]" is a literal '[' followed by the set [:alpha:] of the
// characters ":alph".
func TestLongPattern(t *testing.T) {
	rep := strings.Repeat
	type match struct {
		name           string
		want, wantFold bool // without and with case folding (-name, -iname)
	}
	for _, c := range []struct {
		pat   string
		names []match
	}{
		{rep("[", 2000), []match{
			{rep("[", 2000), true, true},
			{rep("[", 1999), false, false},
			{rep("a", 4000), false, false},
		}},
		{rep("[a-b", 1000), []match{
			{rep("[a-b", 1000), true, true},
			{rep("a", 4000), false, false},
		}},
		{rep("*a", 2000) + "b", []match{
			{rep("a", 2000) + "b", true, true},
			{rep("a", 4000) + "b", true, true},
			{rep("a", 1999) + "b", false, false},
			{rep("a", 4000), false, false},
			{rep("A", 2000) + "B", false, true},
		}},
		{rep("[[:alpha:]", 400), []match{
			{rep("[a", 400), true, true},
			{rep("[:", 400), true, true},
			{rep("[b", 400), false, false},
			{rep("a", 4000), false, false},
		}},
	} {
		for _, utf8 := range []bool{false, true} {
			for _, fold := range []bool{false, true} {
				// The general matcher and, in Compile, the fast paths.
				for _, g := range []*Pattern{compile(c.pat, fold, utf8, true), compile(c.pat, fold, utf8, false)} {
					for _, m := range c.names {
						want := m.want
						if fold {
							want = m.wantFold
						}
						if got := g.Match([]byte(m.name)); got != want {
							t.Errorf("fnmatch(%.20q... (%d bytes), fold %v, UTF-8 %v) on %.20q... (%d bytes) = %v, want %v",
								c.pat, len(c.pat), fold, utf8, m.name, len(m.name), got, want)
						}
					}
				}
			}
		}
	}
}

func FuzzMatch(f *testing.F) {
	for _, c := range table {
		f.Add(c.pat, []byte(c.name), c.fold)
	}
	f.Fuzz(func(t *testing.T, pat string, name []byte, fold bool) {
		g := Compile(pat, fold)
		got := g.Match(name)
		if slow := compile(pat, fold, false, false).Match(name); slow != got {
			t.Fatalf("fnmatch(%q, %q, fold=%v): fast path %v, general matcher %v", pat, name, fold, got, slow)
		}
		// UTF-8 mode matches characters or else bytes, like glibc.
		if u := CompileUTF8(pat, fold); got && !u.Match(name) {
			t.Fatalf("fnmatch(%q, %q, fold=%v): UTF-8 mode rejects a byte match", pat, name, fold)
		}
		if strings.IndexByte(pat, 0) < 0 && !strings.ContainsAny(pat, `*?[\`) {
			want := string(name) == pat
			if fold {
				want = bytes.Equal(lowerBytes(name), lowerBytes([]byte(pat)))
			}
			if got != want {
				t.Fatalf("literal fnmatch(%q, %q, fold=%v) = %v", pat, name, fold, got)
			}
		}
	})
}

// lowerBytes is tolower in the C locale, byte by byte.
func lowerBytes(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

var benchSink bool

func BenchmarkMatch(b *testing.B) {
	name := []byte("some_fairly_long_file_name-2024.log")
	for _, c := range []struct {
		label, pat string
		fold, utf8 bool
		name       []byte
	}{
		{"literal", "some_fairly_long_file_name-2024.log", false, false, name},
		{"literal-fold", "SOME_fairly_long_file_name-2024.LOG", true, false, name},
		{"suffix", "*.log", false, false, name},
		{"suffix-fold", "*.LOG", true, false, name},
		{"prefix", "some_*", false, false, name},
		{"contains", "*name*", false, false, name},
		{"contains-fold", "*NAME*", true, false, name},
		{"contains-miss", "*zzz*", false, false, name},
		{"all", "*", false, false, name},
		{"general", "*[0-9][0-9].lo?", false, false, name},
		{"general-fold", "*[0-9][0-9].LO?", true, false, name},
		{"stars", "*a*i*e*2*g", false, false, name},
		{"stars-miss", "*a*a*a*a*a*a*b", false, false, []byte(strings.Repeat("a", 40))},
		{"utf8-ascii", "*[0-9].lo?", false, true, name},
		{"utf8-wide", "*[é]?.log", false, true, []byte("fichier_é日.log")},
	} {
		g := compile(c.pat, c.fold, c.utf8, true)
		b.Run(c.label, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				benchSink = g.Match(c.name)
			}
		})
	}
}
