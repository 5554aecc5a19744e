package main

import (
	"strings"
	"testing"

	"github.com/gfind/gfind/predicate"
)

// ownWordCases are leading words, with whether they are gfind's own
// options (ownOption, through kong's model).
var ownWordCases = []struct {
	word string
	own  bool
}{
	{"-j", true}, {"-j2", true}, {"-j2x", true}, {"-jx", false}, {"-s", true},
	{"-size", false}, {"-name", false}, {"-sort", false}, {"--sort", true},
	{"--threads=3", true}, {"--color", true}, {"--color=auto", true}, {"--version", true},
	{"--nosuch", false}, {"-", false}, {"", false}, {"-0", false}, {"-print0", false},
}

// TestMayBeOwn: the gate that spares kong for the expression's words
// lets through every word ownOption takes (each spelling of each flag of
// the model, and the cases), and stops every primary of the language.
func TestMayBeOwn(t *testing.T) {
	flags := ownFlags()
	for _, c := range ownWordCases {
		if f, _ := ownOption(flags, c.word); (f != nil) != c.own {
			t.Errorf("ownOption(%q) = %v, the case says own %v", c.word, f, c.own)
		}
		checkMayBeOwn(t, c.word)
	}
	for _, f := range flags {
		words := []string{"--" + f.Name, "--" + f.Name + "=1"}
		if f.Short != 0 {
			words = append(words, "-"+string(f.Short), "-"+string(f.Short)+"7")
		}
		for _, w := range words {
			checkMayBeOwn(t, w)
		}
	}
	for _, p := range predicate.Primaries() {
		// --help and --version are both.
		if mayBeOwn(p.Name) && !strings.HasPrefix(p.Name, "--") {
			t.Errorf("mayBeOwn(%q): kong is built for a primary", p.Name)
		}
	}
}

// checkMayBeOwn fails when ownOption takes word and mayBeOwn does not.
func checkMayBeOwn(t *testing.T, word string) {
	t.Helper()
	if f, _ := ownOption(ownFlags(), word); f != nil && !mayBeOwn(word) {
		t.Errorf("mayBeOwn(%q) is false, and ownOption takes it as --%s", word, f.Name)
	}
}

func FuzzMayBeOwn(f *testing.F) {
	for _, c := range ownWordCases {
		f.Add(c.word)
	}
	f.Fuzz(func(t *testing.T, word string) { checkMayBeOwn(t, word) })
}
