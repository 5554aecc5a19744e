package gnuregex

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp/syntax"
	"slices"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

// A matchTest is a row of matchTests or matchTests411: does the whole
// of path match pat under -regextype typ ("" is find's default) with
// -regex, or -iregex when icase?
type matchTest struct {
	typ   string
	icase bool
	pat   string
	path  string
	want  bool
}

// matchTests hold for GNU 4.9 and 4.11 alike (matchTests411 has the rows
// where they differ). TestAgainstGNU checks every row with GNU find
// (LC_ALL=C), with path as a starting point.
var matchTests = []matchTest{
	// The default (emacs): \( \) \| groups and alternation, + and ?
	// operators, \{ \} intervals and classes (matchTests411), '.' not
	// matching a newline.
	{"", false, `\./a.c`, "./abc", true},
	{"", false, `\./d.c`, "./d/c", true},
	{"", false, `a.c`, "./abc", false}, // the whole path must match
	{"", false, `.*c`, "./abc", true},
	{"", false, `\./ab`, "./abc", false}, // ... to its end
	{"", false, `\./ab+c`, "./abbc", true},
	{"", false, `\./ab?c`, "./ac", true},
	{"", false, `\./a\(b\|x\)c`, "./axc", true},
	{"", false, `\./a\(b\|x\)c`, "./ayc", false},
	{"", false, `\./\(ab\)*`, "./abab", true},
	{"", false, `\./a|b`, "./a|b", true},
	{"", false, `\./a(b)`, "./a(b)", true},
	{"", false, `\./a{2}`, "./a{2}", true}, // unescaped braces are literal
	{"", false, `\./[z-a]x`, "./x", false}, // an empty range
	{"", false, `*\./x`, "*./x", true},     // a leading * is literal
	{"", false, `\./a**`, "./aaa", true},
	{"", false, `.*new.line`, "./new\nline", false},
	{"", false, `.*new[^a]line`, "./new\nline", true},
	{"", false, `\./.`, "./\xff", true}, // one byte, in the C locale
	{"", false, `\./caf.`, "./caf\xc3\xa9", false},
	{"", false, `\./caf..`, "./caf\xc3\xa9", true},
	{"", false, "\\./caf\xc3\xa9", "./caf\xc3\xa9", true},
	{"", false, "\\./[\xc3][\xa9]", "./\xc3\xa9", true},
	{"", false, `\./\w+`, "./foo_bar", true},
	{"", false, `\./\w+`, "./foo-bar", false},
	{"", false, `\./\W`, "./-", true},
	{"", false, `\./\s\S`, "./ x", true},
	{"", false, `\./foo\b.bar`, "./foo-bar", true},
	{"", false, `\./foo\b.bar`, "./foo_bar", false},
	{"", false, `\./foo\B.bar`, "./foo_bar", true},
	{"", false, `\./\<foo.bar\>`, "./foo-bar", true},
	{"", false, `\./foo\>.bar`, "./foo-bar", true},
	{"", false, `\./foo\>.bar`, "./foo_bar", false},
	{"", false, `\./foo.\<bar`, "./foo-bar", true},
	{"", false, `\./foo\<.bar`, "./foo-bar", false},
	{"", false, `.*\<`, "./a", false},
	{"", false, `.*\>`, "./a", true},
	{"", false, `\(.*\>\)*`, "./a", true},
	{"", false, "\\`\\./a.c\\'", "./abc", true},
	{"", false, ".\\`\\./a", "./a", false},
	{"", false, `\./a^b`, "./a^b", true},  // ^ in the middle is literal
	{"", false, `\./a$b`, "./a$b", true},  // so is $
	{"", false, `\(^\./a\)`, "./a", true}, // ^ after \( anchors
	{"", false, `\./a\(b$\)`, "./ab", true},
	{"", false, `\./[]a]*`, "./]a]", true},
	{"", false, `\./[^]a]`, "./b", true},
	{"", false, `\./[a-]*`, "./a-a", true},
	{"", false, `\./\.`, "./.", true},
	{"", false, `\./\.`, "./x", false},
	{"", false, `\./\n`, "./n", true}, // an escaped letter is the letter
	{"", false, `\./a\|\./b`, "./b", true},
	{"", false, `\./\(\)x`, "./x", true},
	// findutils-default: emacs where '.' matches a newline.
	{"findutils-default", false, `.*new.line`, "./new\nline", true},
	// emacs.
	{"emacs", false, `.*new.line`, "./new\nline", false},
	{"emacs", false, `\./a+`, "./aaa", true},
	// posix-basic, ed, sed: \{ \} intervals, + ? literal, classes.
	{"posix-basic", false, `\./a\{2\}`, "./aa", true},
	{"posix-basic", false, `\./a\{2,\}`, "./aaa", true},
	{"posix-basic", false, `\./a\{,2\}`, "./", true},
	{"posix-basic", false, `\./a\{1,2\}`, "./aaa", false},
	{"posix-basic", false, `\./a+`, "./a+", true},
	{"posix-basic", false, `\./a+`, "./aa", false},
	{"posix-basic", false, `\./a\+`, "./aa", true},
	{"posix-basic", false, `\./a?`, "./a?", true},
	{"posix-basic", false, `\./a\?b`, "./b", true},
	{"posix-basic", false, `\./[[:upper:]][[:digit:]]*`, "./A12", true},
	{"posix-basic", false, `\./[[:upper:]][[:digit:]]*`, "./a12", false},
	{"posix-basic", false, `\./[[:punct:][:space:]]*`, "./ !-", true},
	{"posix-basic", false, `\./[[.a.]-c]`, "./b", true},
	{"posix-basic", false, `\./[[=a=]]`, "./a", true},
	{"posix-basic", false, `\./a\|b`, "b", true}, // \./a or b
	{"posix-basic", false, `\./a\|b`, "./b", false},
	{"posix-basic", false, `\./\(a\)*`, "./aa", true},
	{"posix-basic", false, `.*new.line`, "./new\nline", true},
	{"posix-basic", false, `*\./x`, "*./x", true},
	{"ed", false, `\./a\{3\}`, "./aaa", true},
	{"sed", false, `\./[a-c]\{2\}`, "./ca", true},
	// posix-minimal-basic: no \+ \? \|.
	{"posix-minimal-basic", false, `\./a\|b`, "./a|b", true},
	{"posix-minimal-basic", false, `\./a\+`, "./a+", true},
	{"posix-minimal-basic", false, `\./a\{2\}`, "./aa", true},
	// grep: like posix-basic, but a newline is an alternation.
	{"grep", false, "\\./a\n\\./b", "./b", true},
	{"grep", false, `\./a\{2\}`, "./aa", true},
	{"grep", false, `.*new[^a]line`, "./new\nline", true},
	// posix-extended: ( ) | { } + ? operators, anchors anywhere.
	{"posix-extended", false, `\./(ab|x)+`, "./abxab", true},
	{"posix-extended", false, `\./a{2}`, "./aa", true},
	{"posix-extended", false, `\./a{2,3}`, "./aaaa", false},
	{"posix-extended", false, `\./a{,2}`, "./aa", true},
	{"posix-extended", false, `\./a\{2\}`, "./a{2}", true},
	{"posix-extended", false, `\./\(x\)`, "./(x)", true},
	{"posix-extended", false, `\./a)`, "./a)", true}, // an unmatched ) is literal
	{"posix-extended", false, `.*new$.*`, "./new\nline", true},
	{"posix-extended", false, `.*^line`, "./new\nline", true},
	{"posix-extended", false, `.*new$`, "./new\nline", false},
	{"posix-extended", false, `\./a$b`, "./a$b", false}, // $ is an anchor here
	{"posix-extended", false, `\./[a-c]+`, "./cab", true},
	{"posix-extended", false, `\./[^[:alnum:]]`, "./-", true},
	{"posix-extended", false, `\./[\]`, `./\`, true}, // no escapes in lists
	{"posix-extended", false, `\./()x`, "./x", true},
	{"posix-extended", false, `\./(|a)x`, "./x", true},
	{"posix-extended", false, `\./(a||b)`, "./", true},
	{"posix-extended", false, `\./\w\b`, "./a", true},
	// egrep, posix-egrep: a leading * is ignored, newline alternates,
	// an invalid interval is literal.
	{"egrep", false, `*\./a.c`, "./abc", true},
	{"egrep", false, `\./a{x}`, "./a{x}", true},
	{"egrep", false, `\./a{2}`, "./aa", true},
	{"egrep", false, "\\./a\n\\./b", "./b", true},
	{"posix-egrep", false, `\./a{1`, "./a{1", true},
	// awk: escapes in lists, no GNU operators, no intervals, no
	// back-references.
	{"awk", false, `\./[\]]`, "./]", true},
	{"awk", false, `\./\w+`, "./ww", true},
	{"awk", false, `\./\w+`, "./ab", false},
	{"awk", false, `\./a{2}`, "./a{2}", true},
	{"awk", false, `\./(a|b)\1`, "./a1", true},
	{"awk", false, `\./\(a\)`, "./(a)", true},
	{"posix-awk", false, `\./a{2}`, "./aa", true},
	{"posix-awk", false, `\./a{x}`, "./a{x}", true},
	{"posix-awk", false, `\./[\n]`, "./n", true},
	{"posix-awk", false, `\./\<a`, "./<a", true},
	// gnu-awk: GNU operators, escapes in lists, a leading * literal.
	{"gnu-awk", false, `\./\<a\>`, "./a", true},
	{"gnu-awk", false, `\./[\]a]+`, "./]a", true},
	{"gnu-awk", false, `\./a{2}`, "./aa", true},
	{"gnu-awk", false, `\./(*a)`, "./*a", true},
	// -iregex: the C locale's case folding, on the pattern as read and
	// on the path; an escaped letter keeps its case and then never
	// matches.
	{"", true, `\./abc`, "./ABC", true},
	{"", true, `\./ABC`, "./abc", true},
	{"", true, `\./[a-c]*`, "./CaB", true},
	{"", true, `.*\a.*`, "./abc", false},
	{"", true, `.*\A.*`, "./xax", true},
	{"", true, "\\./caf\xc3\xa9", "./CAF\xc3\xa9", true},
	{"", true, "\\./\xc3\xa9", "./\xc3\x89", false}, // not in the C locale
	{"posix-basic", true, `\./[[:lower:]]*`, "./AbC", true},
	{"posix-basic", true, `\./[[:upper:]]*`, "./aBc", true},
	{"posix-basic", true, `\./[^a]`, "./A", false},
	{"posix-extended", true, `\./(foo|bar)+`, "./FooBAR", true},
	{"posix-extended", true, `\./\W`, "./_", false},
	{"awk", true, `\./[\a]`, "./A", true}, // escapes in lists are uppercased
}

// matchTests411 are rows of matchTests where GNU 4.9 gives the other
// answer: GNU 4.11's emacs syntax (the default, findutils-default and
// emacs) has classes and \{ \} intervals, which 4.9's had not (there
// "[[:alpha:]]" was the set "[:alph" then "]", and "\{" a literal).
var matchTests411 = []matchTest{
	{"", false, `\./a\{2\}`, "./aa", true},
	{"", false, `\./a\{2\}`, "./a{2}", false},
	{"", false, `\./a\{1,2\}b`, "./aab", true},
	{"", false, `\./a\{,2\}b`, "./b", true},
	{"", false, `\./b\{2,\}`, "./bbb", true},
	{"", false, `\./\(ab\)\{2\}`, "./abab", true},
	{"", false, `\./[[:alpha:]]`, "./a", true},
	{"", false, `\./[[:alpha:]]`, "./a]", false},
	{"", false, `\./12[[:digit:]]`, "./123", true},
	{"", false, `\./[^[:digit:]]x`, "./ax", true},
	{"", true, `\./[[:lower:]]X`, "./AX", true},
	{"findutils-default", false, `\./a\{2\}`, "./aa", true},
	{"findutils-default", false, `\./a\{2\}`, "./a{2}", false},
	{"findutils-default", false, `.*new[[:space:]]*.line`, "./new\nline", true},
	{"emacs", false, `\./[[:digit:]]\{3\}`, "./123", true},
	{"emacs", true, `\./[[:upper:]]\{2\}`, "./ab", true},
}

// hyphenTests are rows where GNU 4.9 (glibc 2.36) refuses the pattern:
// "---" in a list is one '-' in GNU 4.11 (gnulib, as V7 grep), not a
// range from '-' to '-' after an element.
var hyphenTests = []matchTest{
	{"posix-extended", false, `\./[a---]`, "./-", true},
	{"posix-extended", false, `\./[a---]`, "./a", true},
	{"posix-basic", false, `\./[+---]*`, "./+-+", true},
	{"posix-basic", false, `\./[+---]*`, "./,", false}, // not the range +--
	{"awk", true, `\./[a---z]*`, "./A-Z", true},
	{"sed", false, `\./[a---z]`, "./b", false},
}

// allMatchTests returns matchTests, matchTests411 and hyphenTests.
func allMatchTests() []matchTest {
	return slices.Concat(matchTests, matchTests411, hyphenTests)
}

// syntaxOf returns the syntax for a test row's type and case folding.
func syntaxOf(t *testing.T, typ string, icase bool) Syntax {
	t.Helper()
	syn := syntaxEmacs
	if typ != "" {
		var ok bool
		if syn, ok = Lookup(typ); !ok {
			t.Fatalf("unknown type %q", typ)
		}
	}
	if icase {
		syn |= ICase
	}
	return syn
}

func TestMatch(t *testing.T) {
	for _, tt := range allMatchTests() {
		g, err := Compile(tt.pat, syntaxOf(t, tt.typ, tt.icase))
		if err != nil {
			t.Errorf("%s icase=%v %q: %v", tt.typ, tt.icase, tt.pat, err)
			continue
		}
		if got := g.Match([]byte(tt.path)); got != tt.want {
			t.Errorf("%s icase=%v %q on %q: got %v, want %v", tt.typ, tt.icase, tt.pat, tt.path, got, tt.want)
		}
		// The NFA simulation must agree with Go's regexp.
		if vm := compileNFA(t, tt.pat, syntaxOf(t, tt.typ, tt.icase)); vm.match([]byte(tt.path)) != tt.want {
			t.Errorf("%s icase=%v %q on %q: nfa disagrees", tt.typ, tt.icase, tt.pat, tt.path)
		}
	}
}

// compileNFA compiles pat for nfa even without \< or \>.
func compileNFA(t testing.TB, pat string, syn Syntax) *nfa {
	tree, _, err := parse(pat, syn)
	if err != nil {
		t.Fatalf("%q: %v", pat, err)
	}
	whole := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{
		{Op: syntax.OpBeginText}, tree.toSyntax(syn&ICase != 0), {Op: syntax.OpEndText},
	}}
	prog, err := syntax.Compile(whole.Simplify())
	if err != nil {
		t.Fatalf("%q: %v", pat, err)
	}
	return newNFA(prog)
}

// raceEnabled is set under the race detector (race_test.go).
var raceEnabled bool

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop its buffers")
	}
	for _, pat := range []string{`.*\.go`, `.*\<x\>.*`} {
		g, err := Compile(pat, syntaxEmacs)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"./a/b/x.go", "./caf\xc3\xa9/x.go", "./\xff"} {
			b := []byte(path)
			if n := testing.AllocsPerRun(100, func() { g.Match(b) }); n != 0 {
				t.Errorf("%q on %q: %v allocations", pat, path, n)
			}
		}
	}
}

// FuzzCompile: any pattern in any syntax either compiles or gives
// one of glibc's errors (or the back-reference refusal); a compiled one
// gives the same answer through Go's regexp and through nfa.
func FuzzCompile(f *testing.F) {
	for _, tt := range allMatchTests() {
		f.Add(tt.typ, tt.icase, tt.pat, tt.path)
	}
	f.Add("", false, "0\x000", "0") // a C string ends at the NUL
	f.Fuzz(func(t *testing.T, typ string, icase bool, pat, path string) {
		syn, ok := Lookup(typ)
		if !ok {
			syn = Syntax(len(typ)) * 0x1234567 // arbitrary syntax bits
		}
		if icase {
			syn |= ICase
		}
		if tree, _, err := parse(pat, syn); err == nil && tree.size() > 1000 {
			return // big patterns compile slowly; keep the fuzzer fast
		}
		g, err := Compile(pat, syn)
		if err != nil {
			var e errCode
			if !errors.As(err, &e) || e == errNone {
				t.Fatalf("%q: error %v is not a glibc error", pat, err)
			}
			return
		}
		got := g.Match([]byte(path))
		if vm := compileNFA(t, pat, syn); vm.match([]byte(path)) != got {
			t.Fatalf("%q on %q: regexp says %v, nfa disagrees", pat, path, got)
		}
	})
}

// TestAgainstGNU runs every row of matchTests, matchTests411 and (with
// GNU 4.11) hyphenTests through GNU find: the paths are made as files
// and given as starting points with -maxdepth 0, one find per pattern.
// With GNU 4.9 as the reference, a row of matchTests411 must get the
// other answer.
func TestAgainstGNU(t *testing.T) {
	find := testtool.GNUFind(t)
	dir := t.TempDir()
	type key struct {
		typ   string
		icase bool
		pat   string
	}
	want := map[key]map[string]bool{}
	var order []key
	rows := slices.Concat(matchTests, matchTests411)
	if testtool.GNURef() {
		rows = append(rows, hyphenTests...)
	}
	for i, tt := range rows {
		k := key{tt.typ, tt.icase, tt.pat}
		if want[k] == nil {
			want[k] = map[string]bool{}
			order = append(order, k)
		}
		want[k][tt.path] = tt.want
		if i >= len(matchTests) && !testtool.GNURef() {
			want[k][tt.path] = !tt.want
		}
		p := filepath.Join(dir, tt.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(p); err != nil {
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, k := range order {
		var args []string
		for path := range want[k] {
			args = append(args, path)
		}
		args = append(args, "-maxdepth", "0")
		if k.typ != "" {
			args = append(args, "-regextype", k.typ)
		}
		op := "-regex"
		if k.icase {
			op = "-iregex"
		}
		args = append(args, op, k.pat, "-print0")
		cmd := exec.Command(find, args...)
		cmd.Dir, cmd.Env = dir, []string{"LC_ALL=C"}
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("find %q: %v", args, err)
			continue
		}
		got := map[string]bool{}
		for _, p := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
			got[string(p)] = true
		}
		for path, w := range want[k] {
			if got[path] != w {
				t.Errorf("%s %s %q on %q: GNU find %s says %v, the table %v", k.typ, op, k.pat, path, testtool.GNUVersion(), got[path], w)
			}
		}
	}
}

// TestConcurrent matches from several goroutines at once, as the
// walker's workers do (run it with -race).
func TestConcurrent(t *testing.T) {
	for _, pat := range []string{`.*\.go`, `.*\<x\>.*`} {
		g, err := Compile(pat, syntaxEmacs)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan bool)
		for w := range 4 {
			go func() {
				ok := true
				for i := range 200 {
					path := []byte("./caf\xc3\xa9/x.go")
					if (i+w)%2 == 0 {
						path = []byte("./a/x.go")
					}
					ok = ok && g.Match(path)
				}
				done <- ok
			}()
		}
		for range 4 {
			if !<-done {
				t.Errorf("%q: a match failed", pat)
			}
		}
	}
}
