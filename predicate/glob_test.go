package predicate

import (
	"errors"
	"strings"
	"testing"

	"github.com/gfind/gfind/walker"
)

// globCases are -glob and -iglob matches: path is the file's path as the
// walker builds it, depth its depth below the starting point.
var globCases = []struct {
	op, pat, path string
	depth         int
	want          bool
}{
	// The relative path: components below the starting point.
	{"-glob", "*.go", "src/a.go", 1, true},
	{"-glob", "a.go", "src/a.go", 1, true},
	{"-glob", "src/a.go", "src/a.go", 1, false},
	{"-glob", "x/*.go", "src/x/a.go", 2, true},
	{"-glob", "x/*.go", "./src/x/a.go", 2, true},
	{"-glob", "x/*.go", "src//x/a.go", 2, true}, // start "src//"
	{"-glob", "x/*.go", "src/x/a.go", 3, false}, // relative "src/x/a.go"
	{"-glob", "etc/passwd", "/etc/passwd", 2, true},
	{"-glob", "/etc/passwd", "/etc/passwd", 2, false},
	// '*' and '?' do not cross '/'; '**' does.
	{"-glob", "*.go", "src/x/a.go", 2, false},
	{"-glob", "*", "src/x/a.go", 2, false},
	{"-glob", "x?a.go", "src/x/a.go", 2, false},
	{"-glob", "**/*.go", "src/x/y/a.go", 3, true},
	{"-glob", "**/*.go", "src/a.go", 1, true},
	{"-glob", "**/*.go", "src/a.goo", 1, false},
	{"-glob", "x/**/a.go", "src/x/a.go", 2, true},
	{"-glob", "x/**/a.go", "src/x/y/z/a.go", 4, true},
	{"-glob", "x/**", "src/x", 1, true}, // the directory itself
	{"-glob", "x/**", "src/x/y/z", 3, true},
	{"-glob", "x/**", "src/xy", 1, false},
	{"-glob", "**", "src/x/y/z", 3, true},
	// A starting point is matched as "".
	{"-glob", "**", "src", 0, true},
	{"-glob", "*", "src", 0, true},
	{"-glob", "", "src", 0, true},
	{"-glob", "", "src/a", 1, false},
	{"-glob", "?", "s", 0, false},
	{"-glob", "src", "src", 0, false},
	{"-glob", ".", ".", 0, false},
	{"-glob", ".*", ".", 0, false},
	{"-glob", "**/.*", ".", 0, false},
	{"-glob", "**/.*", "./.git", 1, true},
	{"-glob", "**/.*", "./a/.git", 2, true},
	// Brackets.
	{"-glob", "[a-c].txt", "r/b.txt", 1, true},
	{"-glob", "[a-c].txt", "r/d.txt", 1, false},
	{"-glob", "[!a-c].txt", "r/d.txt", 1, true},
	// No class matches '/' (doublestar's Match lets "[!x]" take it).
	{"-glob", "a[!x]b", "r/a/b", 2, false},
	{"-glob", "a[!x]b", "r/acb", 1, true},
	{"-glob", "a[!x]b", "r/axb", 1, false},
	{"-glob", "a[^x]b", "r/a/b", 2, false},
	{"-glob", "a[+-0]b", "r/a/b", 2, false},
	{"-glob", "a[+-0]b", "r/a.b", 1, true},
	{"-glob", "a[+-0]b", "r/a0b", 1, true},
	{"-glob", "a[+-0]b", "r/a1b", 1, false},
	{"-glob", "a[/]b", "r/a/b", 2, false},
	{"-glob", "a[/-/]b", "r/a/b", 2, false},
	{"-glob", "a[!/]b", "r/a/b", 2, false},
	{"-glob", "a[!/]b", "r/a-b", 1, true},
	{"-iglob", "A[!X]B", "r/a/b", 2, false},
	{"-iglob", "A[!X]B", "r/acb", 1, true},
	{"-glob", "[^a-c].txt", "r/b.txt", 1, false},
	{"-glob", "[a-]", "r/-", 1, true},
	{"-glob", "[\\]]", "r/]", 1, true},
	{"-glob", "[é-ê]", "r/ê", 1, true},
	// Escapes.
	{"-glob", "\\*", "r/*", 1, true},
	{"-glob", "\\*", "r/a", 1, false},
	{"-glob", "\\[a]", "r/[a]", 1, true},
	{"-glob", "\\{a,b\\}", "r/{a,b}", 1, true},
	{"-glob", "\\{a,b\\}", "r/a", 1, false},
	// Braces, expanded at parse time.
	{"-glob", "*.{c,h}", "r/a.h", 1, true},
	{"-glob", "*.{c,h}", "r/a.o", 1, false},
	{"-glob", "{a,b/**}", "r/b/c/d", 3, true},
	{"-glob", "{a,{b,c}d}", "r/cd", 1, true},
	{"-glob", "{a,{b,c}d}", "r/c", 1, false},
	{"-glob", "{[,]x,y}", "r/,x", 1, true},
	{"-glob", "a*{,}", "r/a", 1, true}, // doublestar itself says false
	{"-glob", "{,x}", "r", 0, true},
	// Bytes that are not UTF-8.
	{"-glob", "\xff*", "r/\xffa", 1, true},
	{"-glob", "?", "r/\xff", 1, true},
	// -iglob.
	{"-glob", "*.GO", "r/a.go", 1, false},
	{"-iglob", "*.GO", "r/a.go", 1, true},
	{"-iglob", "**/README", "r/x/readme", 2, true},
	{"-iglob", "ÉTÉ", "r/été", 1, true},
	{"-iglob", "été", "r/ÉTÉ", 1, true},
	{"-iglob", "k", "r/\u212a", 1, true}, // KELVIN SIGN
	{"-iglob", "S", "r/ſ", 1, true},      // LATIN SMALL LETTER LONG S
	{"-iglob", "ß", "r/SS", 1, false},    // simple folding only
	{"-iglob", "ß", "r/ẞ", 1, true},
	{"-iglob", "\\K", "r/k", 1, true},
	{"-iglob", "[a-c]", "r/B", 1, true},
	{"-iglob", "[A-C]", "r/b", 1, true},
	{"-iglob", "[!a-c]", "r/B", 1, false},
	{"-iglob", "[!a-c]", "r/D", 1, true},
	{"-iglob", "[É-Ë]", "r/é", 1, true},
	{"-iglob", "[a-]", "r/-", 1, true},
	{"-iglob", "[a-]", "r/A", 1, true},
	{"-iglob", "[a-]", "r/b", 1, false},
	{"-iglob", "[\\]x]", "r/X", 1, true},
	{"-iglob", "*.{C,h}", "r/x.c", 1, true},
	{"-iglob", "*.{C,h}", "r/x.H", 1, true},
	{"-iglob", "*.{C,h}", "r/x.o", 1, false},
	{"-iglob", "\xffA", "r/\xffa", 1, true},
	{"-iglob", "1?", "r/1É", 1, true},
	{"-iglob", "x/*", "r/X/y", 2, true},
	{"-iglob", "x/*", "r/Xy", 1, false},
}

// globBad are patterns doublestar refuses.
var globBad = []string{"[a", "[]a]", "[!]", "[", "a{b", "a}", "a{b,c", "\\", "a\\", "{[}]"}

func TestGlobMatch(t *testing.T) {
	s := newTestState()
	for _, c := range globCases {
		n := parseOne(t, c.op, c.pat)
		e := walker.Synthetic(c.path, c.depth, walker.TypeRegular, nil, nil)
		if got := n.Eval(e, s); got != c.want {
			t.Errorf("%s %q on %q (depth %d) = %v, want %v", c.op, c.pat, c.path, c.depth, got, c.want)
		}
	}
}

func TestGlobRelPath(t *testing.T) {
	for _, c := range []struct {
		path  string
		depth int
		want  string
	}{
		{"src", 0, ""},
		{"src/", 0, ""},
		{"/", 0, ""},
		{"src/a", 1, "a"},
		{"src//a", 1, "a"},
		{"/a", 1, "a"},
		{"/a/b/c", 3, "a/b/c"},
		{"//a/b", 2, "a/b"},
		{"./a/b/c", 2, "b/c"},
		{"a/b/c/d", 3, "b/c/d"},
	} {
		e := walker.Synthetic(c.path, c.depth, walker.TypeRegular, nil, nil)
		if got := string(relPath(e)); got != c.want {
			t.Errorf("relPath(%q, depth %d) = %q, want %q", c.path, c.depth, got, c.want)
		}
	}
}

func TestGlobParseErrors(t *testing.T) {
	for _, op := range []string{"-glob", "-iglob"} {
		for _, pat := range globBad {
			_, err := Parse([]string{".", op, pat}, Config{})
			var pe *ParseError
			want := "invalid argument `" + pat + "' to `" + op + "'"
			if !errors.As(err, &pe) || !strings.HasPrefix(pe.Msg, want) {
				t.Errorf("%s %q: error %v, want %q", op, pat, err, want)
			}
		}
		_, err := Parse([]string{".", op}, Config{})
		if err == nil || err.Error() != "missing argument to `"+op+"'" {
			t.Errorf("%s without a pattern: %v", op, err)
		}
	}
}

func TestGlobFacts(t *testing.T) {
	n := parseOne(t, "-glob", "**/*.go")
	if f := n.Facts(); !f.Pure() || f.Cost != costName {
		t.Errorf("Facts = %+v, want pure, the cost of -path", f)
	}
}

// TestGlobBraceLimit checks a pattern with more alternatives than
// internal/glob expands: doublestar expands it while matching.
func TestGlobBraceLimit(t *testing.T) {
	big := strings.Repeat("{a,b}", 7)
	n := parseOne(t, "-iglob", big)
	if !n.Eval(walker.Synthetic("r/abaBabA", 1, walker.TypeRegular, nil, nil), newTestState()) {
		t.Errorf("-iglob %q does not match abaBabA", big)
	}
}

// TestGlobAllocs checks that matching allocates nothing, with braces
// and case folding.
func TestGlobAllocs(t *testing.T) {
	s := newTestState()
	e := walker.Synthetic("src/x/y/zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz.H", 3, walker.TypeRegular, nil, nil)
	for _, args := range [][]string{{"-glob", "**/*.{c,h}"}, {"-iglob", "**/*.{c,h}"}, {"-iglob", "[a-z]/**/Z*"}} {
		n := parseOne(t, args...)
		if a := testing.AllocsPerRun(100, func() { n.Eval(e, s) }); a != 0 {
			t.Errorf("%q: %v allocations per match, want 0", args, a)
		}
	}
}

func BenchmarkDoublestarGlob(b *testing.B) {
	s := newTestState()
	e := walker.Synthetic("src/x/y/main_test.go", 3, walker.TypeRegular, nil, nil)
	for _, args := range [][]string{{"-glob", "**/*.go"}, {"-glob", "**/*.{c,h}"}, {"-iglob", "**/*.{C,H}"}} {
		cmd, err := Parse(append([]string{"."}, args...), Config{})
		if err != nil {
			b.Fatal(err)
		}
		n := cmd.Expr.(*andNode).kids[0]
		b.Run(strings.Join(args, " "), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n.Eval(e, s)
			}
		})
	}
}
