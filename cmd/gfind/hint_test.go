package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gfind/gfind/predicate"
)

var editDistanceCases = []struct {
	a, b string
	want int
}{
	{"", "", 0},
	{"name", "name", 0},
	{"", "name", 4},
	{"name", "", 4},
	{"nmae", "name", 1}, // a transposition costs 1
	{"anme", "name", 1},
	{"naem", "name", 1},
	{"nam", "name", 1},
	{"namee", "name", 1},
	{"nbme", "name", 1},
	{"kitten", "sitting", 3},
	{"ca", "abc", 3}, // optimal string alignment: the transposed pair is not edited again (Damerau-Levenshtein: 2)
	{"abcd", "badc", 2},
	{"ab", "ba", 1},
	{"é", "e", 1}, // by runes, not bytes
	{"naïve", "naive", 1},
	{"\xff", "a", 1},
	{"-prnit", "-print", 1},
	{"maxdpeth", "maxdepth", 1},
}

func TestEditDistance(t *testing.T) {
	for _, c := range editDistanceCases {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := editDistance(c.b, c.a); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d (symmetry)", c.b, c.a, got, c.want)
		}
	}
}

// FuzzEditDistance checks what holds of any two strings: no panic,
// symmetry, zero exactly for the same runes, and the bounds of the
// difference in length and the longer length.
func FuzzEditDistance(f *testing.F) {
	for _, c := range editDistanceCases {
		f.Add(c.a, c.b)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		d := editDistance(a, b)
		if e := editDistance(b, a); e != d {
			t.Fatalf("editDistance(%q, %q) = %d but %d the other way", a, b, d, e)
		}
		ra, rb := []rune(a), []rune(b)
		if (d == 0) != slices.Equal(ra, rb) {
			t.Fatalf("editDistance(%q, %q) = %d", a, b, d)
		}
		if lo, hi := abs(len(ra)-len(rb)), max(len(ra), len(rb)); d < lo || d > hi {
			t.Fatalf("editDistance(%q, %q) = %d, outside [%d, %d]", a, b, d, lo, hi)
		}
	})
}

var keyDistanceCases = []struct {
	a, b string
	want int
}{
	{"", "", 0},
	{"name", "name", 0},
	{"", "name", 4 * keyIndel},
	{"nsme", "name", 3},                // s is next to a
	{"nsmr", "name", 6},                // and r to e
	{"nbme", "name", 13 + 3},           // b is 13 columns right of a and a row down
	{"nmae", "name", keyTransposition}, // a transposition is one slip
	{"nam", "name", keyIndel},          // a missing letter
	{"namee", "name", keyIndel},        // an extra one
	{"qm", "mq", keyTransposition},     // whatever the keys
	{"q", "m", keyIndel * 2},           // 20 columns and 2 rows apart: cheaper to delete and insert
	{"-", "_", 1},                      // shift
	{"1", "!", 1},                      // shift
	{"é", "e", keyIndel},               // off the keyboard, by runes
	{"\xff", "a", keyIndel},
	{"é", "ü", keyIndel},
	{"delte", "delete", keyIndel},
	{"delte", "depth", 5 + 13}, // l-p and e-h: bfs takes -delete too
	{"tpye", "true", 18 + 3},   // p-r and y-u
	{"tpye", "type", keyTransposition},
}

func TestKeyDistance(t *testing.T) {
	for _, c := range keyDistanceCases {
		if got := keyDistance(c.a, c.b); got != c.want {
			t.Errorf("keyDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := keyDistance(c.b, c.a); got != c.want {
			t.Errorf("keyDistance(%q, %q) = %d, want %d (symmetry)", c.b, c.a, got, c.want)
		}
	}
}

// FuzzKeyDistance checks what holds of any two strings: no panic,
// symmetry, zero exactly for the same runes, the bounds of keyIndel per
// rune of difference in length and per rune of the longer string.
func FuzzKeyDistance(f *testing.F) {
	for _, c := range keyDistanceCases {
		f.Add(c.a, c.b)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		d := keyDistance(a, b)
		if e := keyDistance(b, a); e != d {
			t.Fatalf("keyDistance(%q, %q) = %d but %d the other way", a, b, d, e)
		}
		ra, rb := []rune(a), []rune(b)
		if (d == 0) != slices.Equal(ra, rb) {
			t.Fatalf("keyDistance(%q, %q) = %d", a, b, d)
		}
		if hi := keyIndel * (len(ra) + len(rb)); d > hi {
			t.Fatalf("keyDistance(%q, %q) = %d, above %d", a, b, d, hi)
		}
	})
}

const beforeRoots = " (before the starting points)"

// typoHintCases: word is the unknown predicate, leading that it came
// first after gfind's options.
var typoHintCases = []struct {
	word    string
	leading bool
	want    string
}{
	// Typos of primaries, wherever they are.
	{"-nmae", false, "did you mean `-name'?"},
	{"-nmae", true, "did you mean `-name'?"},
	{"--nmae", false, "did you mean `-name'?"},
	{"--name", false, "did you mean `-name'?"},
	{"-NAME", false, "did you mean `-name'?"},
	{"-name=x", false, "did you mean `-name'?"},
	{"-nam", false, "did you mean `-name'?"},
	{"-tpye", false, "did you mean `-type'?"},
	{"-typ", false, "did you mean `-type'?"},
	{"-prnit", false, "did you mean `-print'?"},
	{"-printff", false, "did you mean `-printf'?"},
	{"-exce", false, "did you mean `-exec'?"},
	{"-delte", false, "did you mean `-delete'?"},
	{"-maxdpeth", false, "did you mean `-maxdepth'?"},
	{"-newermtt", false, "did you mean `-newermt'?"}, // every -newerXY is a name
	{"-newrmt", false, "did you mean `-newermt'?"},
	{"-nto", false, "did you mean `-not'?"},
	{"-colr", false, "did you mean `-color'?"}, // the primary: one dash
	{"--versoin", false, "did you mean `--version'?"},
	{"-bmin", false, "did you mean `-cmin' or `-mmin'?"}, // b is two keys from c and from m, further from a
	// Keys next to the right ones (bfs's keyboard distance): every
	// key one to the side is still the name.
	{"-nsmr", false, "did you mean `-name'?"},
	{"-rupe", false, "did you mean `-type'?"},
	{"-ttpr", false, "did you mean `-type'?"},
	{"-delere", false, "did you mean `-delete'?"},
	{"-mzxdepth", false, "did you mean `-maxdepth'?"},
	{"-delte", false, "did you mean `-delete'?"}, // one missing letter, not -depth's two wrong keys
	{"-tpye", false, "did you mean `-type'?"},    // a transposition, not -true's two wrong keys (bfs: -true)
	{"-prnit", false, "did you mean `-print'?"},  // likewise (bfs: -limit)
	{"-ld", false, ""},                           // too short to guess from (bfs: -ls)
	// Nonsense, and words too short to guess from (bfs suggests its
	// nearest name for any word).
	{"-foo", false, ""},
	{"-foobar", false, ""},
	{"-hello", false, ""},
	{"-xyzzy", false, ""},
	{"-x", false, ""},
	{"-1", false, ""},
	{"-ab", false, ""},
	{"-jx", false, ""},
	{"--", false, ""},
	{"-", false, ""},
	{"", false, ""},
	{"-=", false, ""},
	{"-nmae" + strings.Repeat("x", 1000), false, ""},
	// gfind's own options after the starting points.
	{"-j4", false, "`-j4' is a gfind option: it goes before the starting points"},
	{"-j", false, "`-j' is a gfind option: it goes before the starting points"},
	{"--threads=2", false, "`--threads=2' is a gfind option: it goes before the starting points"},
	{"--color", false, "`--color' is a gfind option: it goes before the starting points"},
	{"--color=always", false, "`--color=always' is a gfind option: it goes before the starting points"},
	{"--sort", false, "`--sort' is a gfind option: it goes before the starting points"},
	{"-j4", true, ""}, // leading, so after "--"
	// Typos of gfind's own options: before the starting points, or after.
	{"--colr=always", true, "did you mean `--color=always'?"},
	{"--colr=always", false, "did you mean `--color=always'" + beforeRoots + "?"},
	{"--colr", true, "did you mean `--color'?"},
	{"--colr=a\x1bb", true, "did you mean `--color'?"}, // a control character is not echoed
	{"--thread=4", true, "did you mean `--threads=4'?"},
	{"-threads=2", false, "did you mean `--threads=2'" + beforeRoots + "?"},
	{"-sort", true, "did you mean `--sort'?"},
	{"-sort", false, "did you mean `--sort'" + beforeRoots + "?"},
	{"--sort=yes", true, "did you mean `--sort'?"}, // a flag without a value
	{"--dryrun", true, "did you mean `--dry-run'?"},
	{"--quiet-error", true, "did you mean `--quiet-errors'?"},
}

func TestTypoHint(t *testing.T) {
	flags := ownFlags()
	cands := hintCandidates(predicate.Primaries(), flags)
	for _, c := range typoHintCases {
		if got := typoHint(c.word, c.leading, flags, cands); got != c.want {
			t.Errorf("typoHint(%q, leading %v) = %q, want %q", c.word, c.leading, got, c.want)
		}
	}
}

// FuzzTypoHint: any word gets no hint or one of the two forms, and the
// names suggested are candidates within the distance allowed.
func FuzzTypoHint(f *testing.F) {
	for _, c := range typoHintCases {
		f.Add(c.word, c.leading)
	}
	flags := ownFlags()
	cands := hintCandidates(predicate.Primaries(), flags)
	f.Fuzz(func(t *testing.T, word string, leading bool) {
		h := typoHint(word, leading, flags, cands)
		switch {
		case h == "":
		case strings.HasPrefix(h, "did you mean `") && strings.HasSuffix(h, "?"):
		case h == "`"+word+"' is a gfind option: it goes before the starting points":
			if f, _ := ownOption(flags, word); f == nil || leading {
				t.Fatalf("typoHint(%q, leading %v) = %q", word, leading, h)
			}
		default:
			t.Fatalf("typoHint(%q) = %q", word, h)
		}
		name, _, _ := strings.Cut(word, "=")
		core := strings.ToLower(strings.TrimLeft(name, "-"))
		for _, c := range nearest(word, cands) {
			if !slices.Contains(cands, c) {
				t.Fatalf("nearest(%q) has %+v", word, c)
			}
			n := max(utf8.RuneCountInString(core), utf8.RuneCountInString(c.core))
			if d, k := editDistance(core, c.core), keyDistance(core, c.core); d > n/3 && k > n/3*keyIndel {
				t.Fatalf("nearest(%q) has %s, at %d edits and %d on the keyboard, of %d runes", word, c.name, d, k, n)
			}
		}
	})
}

// TestCandidates: the candidates are every primary typed with a dash,
// the twenty -newerXY, and every own option, each once.
func TestCandidates(t *testing.T) {
	flags := ownFlags()
	cands := hintCandidates(predicate.Primaries(), flags)
	seen := map[string]bool{}
	for _, c := range cands {
		if seen[c.name] {
			t.Errorf("%s twice", c.name)
		}
		seen[c.name] = true
	}
	var want []string
	for _, p := range predicate.Primaries() {
		if strings.HasPrefix(p.Name, "-") && p.Name != "-newerXY" {
			want = append(want, p.Name)
		}
	}
	for _, f := range flags {
		want = append(want, "--"+f.Name)
		if f.Short != 0 {
			want = append(want, "-"+string(f.Short))
		}
	}
	for _, xy := range []string{"aa", "aB", "ac", "am", "at", "Ba", "BB", "Bc", "Bm", "Bt", "ca", "cB", "cc", "cm", "ct", "ma", "mB", "mc", "mm", "mt"} {
		want = append(want, "-newer"+xy)
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("%s is no candidate", w)
		}
	}
	for n := range seen {
		if !slices.Contains(want, n) {
			t.Errorf("%s is a candidate", n)
		}
	}
	for _, n := range []string{"(", "!", ",", ")", "-newerXY"} {
		if slices.ContainsFunc(cands, func(c candidate) bool { return c.name == n }) {
			t.Errorf("%s is a candidate", n)
		}
	}
}

// TestUnknownWord ties parseHint to the parser's message: the word it
// calls an unknown predicate, and no other error.
func TestUnknownWord(t *testing.T) {
	cfg := predicate.Config{Quote: strconv.Quote, Warn: func(string) {}}
	for _, c := range []struct {
		args []string
		want string // "": not an unknown predicate
	}{
		{[]string{".", "-nmae", "x"}, "-nmae"},
		{[]string{"-nmae"}, "-nmae"},
		{[]string{".", "-name", "x", "-o", "--colr=always"}, "--colr=always"},
		{[]string{".", "-name", "x", "-nmae", "-typ"}, "-nmae"},
		{[]string{".", "it's`odd'"}, ""}, // paths must precede expression
		{[]string{".", "-it's`odd'"}, "-it's`odd'"},
		{[]string{".", "-name"}, ""},
		{[]string{".", "-newerxx", "y"}, ""}, // GNU: invalid predicate
		{[]string{".", "("}, ""},
	} {
		_, err := predicate.Parse(c.args, cfg)
		got, ok := unknownWord(err)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("%q: error %v: unknownWord = %q, %v; want %q", c.args, err, got, ok, c.want)
		}
	}
}
