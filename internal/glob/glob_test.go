package glob

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// matchCases are the matches of predicate's -glob (fold false) and
// -iglob (fold true) tests, on the path relative to the starting point.
var matchCases = []struct {
	pat, name  string
	fold, want bool
}{
	// Paths are relative to the starting point (predicate finds them).
	{"*.go", "a.go", false, true},
	{"a.go", "a.go", false, true},
	{"src/a.go", "a.go", false, false},
	{"x/*.go", "x/a.go", false, true},
	{"x/*.go", "src/x/a.go", false, false},
	{"etc/passwd", "etc/passwd", false, true},
	{"/etc/passwd", "etc/passwd", false, false},
	// '*' and '?' do not cross '/'; '**' does.
	{"*.go", "x/a.go", false, false},
	{"*", "x/a.go", false, false},
	{"x?a.go", "x/a.go", false, false},
	{"**/*.go", "x/y/a.go", false, true},
	{"**/*.go", "a.go", false, true},
	{"**/*.go", "a.goo", false, false},
	{"x/**/a.go", "x/a.go", false, true},
	{"x/**/a.go", "x/y/z/a.go", false, true},
	{"x/**", "x", false, true}, // the directory itself
	{"x/**", "x/y/z", false, true},
	{"x/**", "xy", false, false},
	{"**", "x/y/z", false, true},
	// A starting point is matched as "".
	{"**", "", false, true},
	{"*", "", false, true},
	{"", "", false, true},
	{"", "a", false, false},
	{"?", "", false, false},
	{"src", "", false, false},
	{".", "", false, false},
	{".*", "", false, false},
	{"**/.*", "", false, false},
	{"**/.*", ".git", false, true},
	{"**/.*", "a/.git", false, true},
	// Brackets.
	{"[a-c].txt", "b.txt", false, true},
	{"[a-c].txt", "d.txt", false, false},
	{"[!a-c].txt", "d.txt", false, true},
	// No class matches '/' (doublestar's Match lets "[!x]" take it).
	{"a[!x]b", "a/b", false, false},
	{"a[!x]b", "acb", false, true},
	{"a[!x]b", "axb", false, false},
	{"a[^x]b", "a/b", false, false},
	{"a[+-0]b", "a/b", false, false},
	{"a[+-0]b", "a.b", false, true},
	{"a[+-0]b", "a0b", false, true},
	{"a[+-0]b", "a1b", false, false},
	{"a[/]b", "a/b", false, false},
	{"a[/-/]b", "a/b", false, false},
	{"a[!/]b", "a/b", false, false},
	{"a[!/]b", "a-b", false, true},
	{"A[!X]B", "a/b", true, false},
	{"A[!X]B", "acb", true, true},
	{"[^a-c].txt", "b.txt", false, false},
	{"[a-]", "-", false, true},
	// A reversed range matches its low end only, as doublestar reads it:
	// with its case variants under fold, and never '/'.
	{"[a-0]", "a", false, true},
	{"[a-0]", "0", false, false},
	{"[a-0]", "5", false, false},
	{"[a-0]", "A", true, true},
	{"[A-0]", "a", true, true},
	{"x[/-.]y", "x/y", false, false},
	{"x[/-.]y", "x.y", false, false},
	{"[\\]]", "]", false, true},
	{"[é-ê]", "ê", false, true},
	// Escapes.
	{"\\*", "*", false, true},
	{"\\*", "a", false, false},
	{"\\[a]", "[a]", false, true},
	{"\\{a,b\\}", "{a,b}", false, true},
	{"\\{a,b\\}", "a", false, false},
	// Braces, expanded at parse time.
	{"*.{c,h}", "a.h", false, true},
	{"*.{c,h}", "a.o", false, false},
	{"{a,b/**}", "b/c/d", false, true},
	{"{a,{b,c}d}", "cd", false, true},
	{"{a,{b,c}d}", "c", false, false},
	{"{[,]x,y}", ",x", false, true},
	{"a*{,}", "a", false, true}, // doublestar itself says false
	{"{,x}", "", false, true},
	// Bytes that are not UTF-8.
	{"\xff*", "\xffa", false, true},
	{"?", "\xff", false, true},
	// -iglob.
	{"*.GO", "a.go", false, false},
	{"*.GO", "a.go", true, true},
	{"**/README", "x/readme", true, true},
	{"ÉTÉ", "été", true, true},
	{"été", "ÉTÉ", true, true},
	{"k", "\u212a", true, true}, // KELVIN SIGN
	{"S", "ſ", true, true},      // LATIN SMALL LETTER LONG S
	{"ß", "SS", true, false},    // simple folding only
	{"ß", "ẞ", true, true},
	{"\\K", "k", true, true},
	{"[a-c]", "B", true, true},
	{"[A-C]", "b", true, true},
	{"[!a-c]", "B", true, false},
	{"[!a-c]", "D", true, true},
	{"[É-Ë]", "é", true, true},
	{"[a-]", "-", true, true},
	{"[a-]", "A", true, true},
	{"[a-]", "b", true, false},
	{"[\\]x]", "X", true, true},
	{"*.{C,h}", "x.c", true, true},
	{"*.{C,h}", "x.H", true, true},
	{"*.{C,h}", "x.o", true, false},
	{"\xffA", "\xffa", true, true},
	{"1?", "1É", true, true},
	{"x/*", "X/y", true, true},
	{"x/*", "Xy", true, false},
}

// badPatterns are patterns doublestar refuses.
var badPatterns = []string{"[a", "[]a]", "[!]", "[", "a{b", "a}", "a{b,c", "\\", "a\\", "{[}]"}

func TestMatch(t *testing.T) {
	for _, c := range matchCases {
		g, err := Compile(c.pat, c.fold)
		if err != nil {
			t.Errorf("Compile(%q, %v): %v", c.pat, c.fold, err)
			continue
		}
		if got := g.Match(c.name); got != c.want {
			t.Errorf("%q (fold %v) on %q = %v, want %v", c.pat, c.fold, c.name, got, c.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	const want = "unterminated '[' or '{', empty '[]', unmatched '}' or trailing '\\'"
	for _, fold := range []bool{false, true} {
		for _, pat := range badPatterns {
			g, err := Compile(pat, fold)
			if err == nil || err.Error() != want {
				t.Errorf("Compile(%q, %v): error %v, want %q", pat, fold, err, want)
			}
			if !errors.As(err, new(errBad)) {
				t.Errorf("Compile(%q, %v): error %T, want errBad", pat, fold, err)
			}
			if g.Match("") || g.Match(pat) {
				t.Errorf("Compile(%q, %v): the refused pattern matches", pat, fold)
			}
		}
	}
	if (Pattern{}).Match("") {
		t.Error("the zero Pattern matches")
	}
}

func TestExpandBraces(t *testing.T) {
	for _, c := range []struct {
		pat  string
		want []string
	}{
		{"abc", []string{"abc"}},
		{"{a,b}", []string{"a", "b"}},
		{"x{a,b}y{1,2}", []string{"xay1", "xay2", "xby1", "xby2"}},
		{"{a,{b,c}d}", []string{"a", "bd", "cd"}},
		{"{,a}", []string{"", "a"}},
		{"\\{a,b\\}", []string{"\\{a,b\\}"}},
		{"[{]{a,b}", []string{"[{]a", "[{]b"}},
		{"{[,}]x,y}", []string{"[,}]x", "y"}},
		{"{a\\,b,c}", []string{"a\\,b", "c"}},
	} {
		got, ok := expandBraces(c.pat, nil)
		if !ok || !slices.Equal(got, c.want) {
			t.Errorf("expandBraces(%q) = %q, %v; want %q", c.pat, got, ok, c.want)
		}
	}
	// 2^7 alternatives are too many: the pattern is kept whole, and
	// doublestar expands it while matching.
	big := strings.Repeat("{a,b}", 7)
	if _, ok := expandBraces(big, nil); ok {
		t.Errorf("expandBraces(%q) expanded past %d", big, maxAlts)
	}
	pats, err := compile(big, false)
	if err != nil || !slices.Equal(pats, []string{big}) {
		t.Errorf("compile(%q) = %q, %v", big, pats, err)
	}
	if g, err := Compile(big, true); err != nil || !g.Match("abaBabA") {
		t.Errorf("%q (fold) does not match abaBabA: %v", big, err)
	}
}

// TestMaxCased checks maxCased against the unicode package: it has
// case variants and no rune above it has.
func TestMaxCased(t *testing.T) {
	if unicode.SimpleFold(maxCased) == maxCased {
		t.Errorf("maxCased %U has no case variants", maxCased)
	}
	for r := rune(maxCased + 1); r <= unicode.MaxRune; r++ {
		if unicode.SimpleFold(r) != r {
			t.Fatalf("%U above maxCased has case variants", r)
		}
	}
}

// TestAllocs checks that matching allocates nothing, with braces and
// case folding.
func TestAllocs(t *testing.T) {
	name := "x/y/zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz.H"
	for _, c := range []struct {
		pat  string
		fold bool
	}{{"**/*.{c,h}", false}, {"**/*.{c,h}", true}, {"[a-z]/**/Z*", true}} {
		g, err := Compile(c.pat, c.fold)
		if err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(100, func() { g.Match(name) }); a != 0 {
			t.Errorf("%q (fold %v): %v allocations per match, want 0", c.pat, c.fold, a)
		}
	}
}

// FuzzCompile checks, on any pattern and relative path, that compiling and
// matching do not panic, that invalid patterns are exactly doublestar's,
// that -glob agrees with doublestar.Match where it has no braces, and
// that -iglob is -glob up to case: it takes every -glob match (with no
// class), does not
// change when a character of the name is replaced by a case variant, and
// for ASCII without classes is -glob on lowercased pattern and name.
func FuzzCompile(f *testing.F) {
	for _, c := range matchCases {
		f.Add(c.pat, c.name)
	}
	for _, pat := range badPatterns {
		f.Add(pat, "a")
	}
	f.Fuzz(func(t *testing.T, pat, name string) {
		if len(pat) > 64 {
			return // keep the folded classes of wide ranges cheap
		}
		plain, err := compile(pat, false)
		if (err != nil) != !doublestar.ValidatePattern(pat) {
			t.Fatalf("compile %q: %v, ValidatePattern %v", pat, err, doublestar.ValidatePattern(pat))
		}
		if err != nil {
			return
		}
		folded, err := compile(pat, true)
		if err != nil {
			t.Fatalf("compile -iglob %q: %v", pat, err)
		}
		match := func(pats []string, name string) bool { return Pattern{pats}.Match(name) }
		got := match(plain, name)
		if !strings.Contains(pat, "{") && (!strings.Contains(pat, "[") || !strings.Contains(name, "/")) {
			// Where a class could meet a '/', gfind refuses what
			// doublestar takes (classesSkipSlash).
			if want, _ := doublestar.Match(pat, name); got != want {
				t.Fatalf("-glob %q on %q = %v, doublestar says %v", pat, name, got, want)
			}
		}
		if got && strings.Contains(pat, "[") && strings.Contains(name, "/") {
			if want, _ := doublestar.Match(pat, name); !want {
				t.Fatalf("-glob %q matches %q, which doublestar refuses", pat, name)
			}
		}
		igot := match(folded, name)
		if got && !igot && !strings.Contains(pat, "[") { // "[!a]" takes "A"; case-insensitively not
			t.Fatalf("-glob %q matches %q but -iglob does not", pat, name)
		}
		var varied strings.Builder
		for _, r := range name {
			varied.WriteRune(unicode.SimpleFold(r))
		}
		if utf8.ValidString(name) && match(folded, varied.String()) != igot {
			t.Fatalf("-iglob %q: %q gives %v, its case variant %q not", pat, name, igot, varied.String())
		}
		if isASCII(pat+name) && !strings.Contains(pat, "[") {
			lower, _ := compile(strings.ToLower(pat), false)
			if want := match(lower, strings.ToLower(name)); igot != want {
				t.Fatalf("-iglob %q on %q = %v, lowercased -glob %v", pat, name, igot, want)
			}
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
