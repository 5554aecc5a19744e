package gnuregex

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

// oracleSrc is a C program that compiles patterns with glibc's
// re_compile_pattern, as GNU find does, and matches subjects with
// re_match. Each input line is tab-separated: the syntax bits in hex,
// 1 for RE_ICASE, the pattern and the subjects in hex. Each output line
// is "E" and glibc's message, or one 0 or 1 per subject. The syntax bits
// are gfind's (types), so the emacs syntax is GNU find 4.11's, not the
// RE_SYNTAX_EMACS of glibc's header (TestSyntaxBits). Built with
// gnulibRenames in front and linked with gnulib's library, the same
// program is the oracle of gnulib's copy of the code (gnulibArchive).
const oracleSrc = `#define _GNU_SOURCE
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>
static int unhex(const char *h, char *out) {
	int n = 0;
	while (h[0] && h[1]) { unsigned v; sscanf(h, "%2x", &v); out[n++] = v; h += 2; }
	out[n] = 0;
	return n;
}
int main(void) {
	static char pat[1 << 16], subj[1 << 16];
	char *line = NULL; size_t cap = 0;
	setlocale(LC_ALL, "C");
	while (getline(&line, &cap, stdin) > 0) {
		char *f[64]; int nf = 0;
		line[strcspn(line, "\n")] = 0;
		for (char *s = strtok(line, "\t"); s && nf < 64; s = strtok(NULL, "\t")) f[nf++] = s;
		reg_syntax_t syn = strtoul(f[0], NULL, 16) | (atoi(f[1]) ? RE_ICASE : 0);
		int plen = strcmp(f[2], "-") ? unhex(f[2], pat) : 0;
		struct re_pattern_buffer re;
		memset(&re, 0, sizeof re);
		re_set_syntax(syn);
		re.syntax = syn;
		const char *err = re_compile_pattern(pat, plen, &re);
		if (err) { printf("E%s\n", err); fflush(stdout); continue; }
		for (int i = 3; i < nf; i++) {
			int sl = strcmp(f[i], "-") ? unhex(f[i], subj) : 0;
			putchar(re_match(&re, subj, sl, 0, NULL) == sl ? '1' : '0');
		}
		putchar('\n');
		fflush(stdout);
		regfree(&re);
	}
	return 0;
}
`

// syntaxSrc is a C program that prints the syntax bits of each
// -regextype as findutils 4.11's regextype.c names them, in hex, one a
// line in the order of types, from glibc's <regex.h>; the emacs syntax
// is gnulib's RE_SYNTAX_EMACS, which findutils 4.11 is built with,
// spelled out because glibc's header still says 0.
const syntaxSrc = `#define _GNU_SOURCE
#include <regex.h>
#include <stdio.h>
#define GNULIB_RE_SYNTAX_EMACS (RE_CHAR_CLASSES | RE_INTERVALS)
int main(void) {
	unsigned long v[] = {
		GNULIB_RE_SYNTAX_EMACS | RE_DOT_NEWLINE, RE_SYNTAX_AWK, RE_SYNTAX_ED,
		RE_SYNTAX_EGREP, GNULIB_RE_SYNTAX_EMACS, RE_SYNTAX_GNU_AWK, RE_SYNTAX_GREP,
		RE_SYNTAX_POSIX_AWK, RE_SYNTAX_POSIX_BASIC, RE_SYNTAX_POSIX_EGREP,
		RE_SYNTAX_POSIX_EXTENDED, RE_SYNTAX_POSIX_MINIMAL_BASIC, RE_SYNTAX_SED,
	};
	for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) printf("%lx\n", v[i]);
	printf("%lx\n", (unsigned long)RE_ICASE);
	return 0;
}
`

// TestSyntaxBits checks the syntax bits of every -regextype (and
// RE_ICASE) with glibc's <regex.h>, the emacs syntax with gnulib's value
// (syntaxSrc).
func TestSyntaxBits(t *testing.T) {
	cc := testtool.CC(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "syntax.c")
	if err := os.WriteFile(src, []byte(syntaxSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "syntax")
	if out, err := exec.Command(cc, "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("cannot build the syntax printer: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(types)+1 {
		t.Fatalf("%d values for %d types and RE_ICASE", len(lines), len(types))
	}
	for i, ty := range types {
		if got := fmt.Sprintf("%x", uint32(ty.syn)); got != lines[i] {
			t.Errorf("-regextype %s: syntax %s, <regex.h> %s", ty.name, got, lines[i])
		}
	}
	if got := fmt.Sprintf("%x", uint32(ICase)); got != lines[len(types)] {
		t.Errorf("ICase %s, RE_ICASE %s", got, lines[len(types)])
	}
}

// gnulibRenames make oracleSrc call gnulib's regex functions, which
// gnulib renames so that they do not clash with the C library's. Their
// types are the same: gnulib's regex.h is glibc's.
const gnulibRenames = `#define re_set_syntax rpl_re_set_syntax
#define re_compile_pattern rpl_re_compile_pattern
#define re_match rpl_re_match
#define regfree rpl_regfree
`

// gnulibArchive returns gnulib's library in the GNU find 4.11 build
// tree that testtool.GNUFindEnv points at (.ci/gnufind keeps the tree),
// or "" when there is none. GNU find 4.11 uses gnulib's regex code, not
// glibc's: its configure turns glibc 2.36's down (back-reference bugs),
// and it differs from glibc 2.36 in one way gfind follows, "---" in a
// list (peekBracket).
func gnulibArchive() string {
	find := os.Getenv(testtool.GNUFindEnv)
	if find == "" {
		return ""
	}
	a := filepath.Join(filepath.Dir(filepath.Dir(find)), "gl", "lib", "libgnulib.a")
	if _, err := os.Stat(a); err != nil {
		return ""
	}
	return a
}

// patternTokens are the pieces random patterns are made of.
var patternTokens = []string{"a", "b", "A", "_", "-", ".", "*", "+", "?", `\`, "(", ")", "{", "}", "[", "]",
	"^", "$", "|", ",", "0", "1", "2", ":", "=", "\n", "\xff", "\xc3\xa9",
	`\(`, `\)`, `\{`, `\}`, `\|`, `\+`, `\?`, `\1`, `\w`, `\W`, `\s`, `\S`, `\b`, `\B`, `\<`, `\>`,
	"\\`", `\'`, `\a`, `\.`, `\]`, `\n`, "[:alpha:]", "[:upper:]", "[:lower:]", "[:foo:]", "[.a.]",
	"[=a=]", "[.-.]", "[^", "a-z", "z-a", "{1,2}", "{2}", "{,1}", "{1,}", `\{1,2\}`, `\{2\}`,
	"[a-c]", "[^a]", "[]a]", "[a-]", "(a|b)", `\(a\|b\)`, "[[:alpha:]_]", "[[", "[[:", "[\x80-\xff]",
	"[[:alpha:]-z]", "[[.ab.]-z]", `[\]]`, `[\-a]`, "[--a]", "{1", "{,}", `\,`, "(*a)", "(|a)", "()",
	"[a---]", "[---]", "[+---]", "---", "^*", "\n$", "{1}{2}", "[[:space:][:punct:]]", "[[.].]]", "\\`\\'", `x\<y`}

// TestAgainstGlibc compares Compile with glibc's regex code on random
// patterns in every syntax, with subjects that are random or generated
// from the pattern (so that many match): gnulib's copy of it, which GNU
// find 4.11 uses, when its build is at hand (gnulibArchive), else
// glibc's own, on the patterns without "---" (where glibc 2.36 is not
// GNU find 4.11). It needs a C compiler and glibc (testtool.CC).
func TestAgainstGlibc(t *testing.T) {
	cc := testtool.CC(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "oracle.c")
	code, link, lib := oracleSrc, []string{}, "glibc"
	if a := gnulibArchive(); a != "" {
		code, link, lib = gnulibRenames+oracleSrc, []string{a}, "gnulib"
	}
	t.Logf("the oracle is %s's regex code", lib)
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "oracle")
	if out, err := exec.Command(cc, append([]string{"-O", "-o", bin, src}, link...)...).CombinedOutput(); err != nil {
		t.Fatalf("cannot build the %s oracle: %v\n%s", lib, err, out)
	}
	cmd := exec.Command(bin)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	w, rd := bufio.NewWriter(stdin), bufio.NewReader(stdout)
	hexOr := func(s string) string {
		if s == "" {
			return "-"
		}
		return hex.EncodeToString([]byte(s))
	}
	r := rand.New(rand.NewSource(1))
	n := 3000
	if testing.Short() {
		n = 300
	}
	fails := 0
	for i := 0; i < n && fails < 20; i++ {
		ty := types[r.Intn(len(types))]
		icase := r.Intn(4) == 0
		var pb strings.Builder
		for range 1 + r.Intn(10) {
			pb.WriteString(patternTokens[r.Intn(len(patternTokens))])
		}
		pat := pb.String()
		if lib == "glibc" && strings.Contains(pat, "---") {
			continue
		}
		syn := ty.syn
		if icase {
			syn |= ICase
		}
		g, gerr := Compile(pat, syn)
		var subjects []string
		if gerr != errBackRef { // glibc can crash matching those
			chars := "aAbB_-.\n\xff{},*:=0129 z" + pat
			for range 5 {
				b := make([]byte, r.Intn(7))
				for j := range b {
					b[j] = chars[r.Intn(len(chars))]
				}
				subjects = append(subjects, string(b))
			}
			if tree, _, err := parse(pat, syn); err == nil {
				re := tree.toSyntax(icase)
				for range 5 {
					var b []byte
					genMatching(r, re, &b)
					subjects = append(subjects, string(b))
				}
			}
		}
		fmt.Fprintf(w, "%x\t%d\t%s", uint32(ty.syn), map[bool]int{false: 0, true: 1}[icase], hexOr(pat))
		for _, s := range subjects {
			fmt.Fprintf(w, "\t%s", hexOr(s))
		}
		fmt.Fprintln(w)
		w.Flush()
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("%s oracle on %s %q: %v", lib, ty.name, pat, err)
		}
		line = strings.TrimSuffix(line, "\n")
		name := fmt.Sprintf("-regextype %s, icase %v, %q", ty.name, icase, pat)
		switch {
		case strings.HasPrefix(line, "E"):
			if gerr == nil || gerr.Error() != line[1:] {
				t.Errorf("%s: %s says %q, gfind %v", name, lib, line[1:], gerr)
				fails++
			}
		case gerr == errBackRef:
		case gerr != nil:
			t.Errorf("%s: %s compiles it, gfind says %v", name, lib, gerr)
			fails++
		default:
			for j, s := range subjects {
				if got, want := g.Match([]byte(s)), line[j] == '1'; got != want {
					t.Errorf("%s on %q: gfind %v, %s %v", name, s, got, lib, want)
					fails++
				}
			}
		}
	}
}

// genMatching appends to b a string that re (a translated pattern)
// probably matches; assertions are ignored.
func genMatching(r *rand.Rand, re *syntax.Regexp, b *[]byte) {
	if len(*b) > 12 {
		return
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if c < 256 {
				*b = append(*b, byte(c))
			}
		}
	case syntax.OpCharClass:
		i := r.Intn(len(re.Rune)/2) * 2
		if lo, hi := re.Rune[i], min(re.Rune[i+1], 255); lo <= hi {
			*b = append(*b, byte(lo+rune(r.Intn(int(hi-lo)+1))))
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			genMatching(r, s, b)
		}
	case syntax.OpAlternate:
		genMatching(r, re.Sub[r.Intn(len(re.Sub))], b)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + 2
			}
		}
		for range lo + r.Intn(hi-lo+1) {
			genMatching(r, re.Sub[0], b)
		}
	}
}
