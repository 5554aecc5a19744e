package main

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/kong"
	"github.com/gfind/gfind/predicate"
)

// Typo hints: on a terminal, GNU's "unknown predicate `-nmae'" is
// followed by a second line, "did you mean `-name'?", or, for one of
// gfind's own options written after the starting points ("gfind . -j4"),
// by where it goes. Off a terminal nothing is added, so that stderr
// stays GNU's byte for byte; the caller decides (run, main.go).

// unknownWord returns the word that err, a parse error, calls an unknown
// predicate: GNU's message is the only place the parser names it.
func unknownWord(err error) (string, bool) {
	var pe *predicate.ParseError
	if !errors.As(err, &pe) || pe.Hint != "" {
		return "", false
	}
	w, ok := strings.CutPrefix(pe.Msg, "unknown predicate `")
	if !ok {
		return "", false
	}
	return strings.CutSuffix(w, "'")
}

// A candidate is a name a hint may suggest.
type candidate struct {
	name   string // as typed: "-name", "--color", "-j"
	core   string // name without its leading dashes, in lower case
	dashes int    // how many leading dashes name has
	own    bool   // one of gfind's own options, which come before the starting points
	valued bool   // an own long option whose value follows '=' (--color=WHEN)
}

// hintCandidates are the names a hint may suggest: the primaries (not
// the operators "(", "!", ",", ")", which are not typed as words with a
// dash), every -newerXY that parses, and gfind's own options, long and
// short. A name that is both (--help) is the primary.
func hintCandidates(prims []predicate.Primary, flags []*kong.Flag) []candidate {
	var out []candidate
	seen := map[string]bool{}
	add := func(name string, own, valued bool) {
		if seen[name] {
			return
		}
		seen[name] = true
		core := strings.TrimLeft(name, "-")
		out = append(out, candidate{name: name, core: strings.ToLower(core), dashes: len(name) - len(core), own: own, valued: valued})
	}
	for _, p := range prims {
		switch {
		case !strings.HasPrefix(p.Name, "-"):
		case p.Name == "-newerXY":
			// X is a, B, c or m; Y one of them or t (GNU's parse_newerXY).
			for _, x := range "aBcm" {
				for _, y := range "aBcmt" {
					add("-newer"+string(x)+string(y), false, false)
				}
			}
		default:
			add(p.Name, false, false)
		}
	}
	for _, f := range flags {
		add("--"+f.Name, true, !f.IsBool())
		if f.Short != 0 {
			add("-"+string(f.Short), true, false)
		}
	}
	return out
}

// maxSuggestions is how many equally near names a hint lists; more
// than that is no suggestion at all.
const maxSuggestions = 3

// typoHint is the second line for an unknown predicate word, without
// the program name, or "" when there is none. leading says that word
// came first after gfind's options, where one of them would have been
// read as such; flags are those options (kong's model).
//
// A word that is exactly one of gfind's own options is one written after
// the starting points. Otherwise the nearest candidates are suggested,
// a value after '=' kept for an own long option that takes one
// (--colr=always: --color=always).
func typoHint(word string, leading bool, flags []*kong.Flag, cands []candidate) string {
	if f, _ := ownOption(flags, word); f != nil {
		if leading {
			return "" // after "--", which ends gfind's options
		}
		return fmt.Sprintf("`%s' is a gfind option: it goes before the starting points", word)
	}
	best := nearest(word, cands)
	if len(best) == 0 || len(best) > maxSuggestions {
		return ""
	}
	_, value, hasValue := strings.Cut(word, "=")
	names := make([]string, len(best))
	for i, c := range best {
		s := c.name
		if hasValue && c.valued && printable(value) {
			s += "=" + value
		}
		names[i] = "`" + s + "'"
		if c.own && !leading {
			names[i] += " (before the starting points)"
		}
	}
	list := names[len(names)-1]
	if len(names) > 1 {
		list = strings.Join(names[:len(names)-1], ", ") + " or " + list
	}
	return "did you mean " + list + "?"
}

// nearest returns the candidates nearest to word (up to a '='), in
// their order: by keyDistance of the names without their dashes and
// case, as bfs weighs a typo by where the keys are, ties broken by the
// same number of dashes ("--colr" is nearer --color than -color). Only
// close candidates count, so that nonsense gets none: within a third of
// the longer name's length in edits (editDistance), or within as many
// missing letters' worth of keyboard distance ("-nsmr", every key one to
// the side, is still -name). A word of one or two letters only gets a
// name differing in dashes or case.
func nearest(word string, cands []candidate) []candidate {
	name, _, _ := strings.Cut(word, "=")
	core := strings.TrimLeft(name, "-")
	dashes := len(name) - len(core)
	if core == "" {
		return nil
	}
	core = strings.ToLower(core)
	n := utf8.RuneCountInString(core)
	var best []candidate
	bestD, bestMismatch := 0, false
	for _, c := range cands {
		d, ok := typoDistance(core, n, c.core)
		if !ok {
			continue
		}
		mismatch := c.dashes != dashes
		if len(best) > 0 {
			if d > bestD || d == bestD && mismatch && !bestMismatch {
				continue
			}
			if d < bestD || !mismatch && bestMismatch {
				best = best[:0]
			}
		}
		best = append(best, c)
		bestD, bestMismatch = d, mismatch
	}
	return best
}

// typoDistance returns keyDistance(core, cand), core's length in runes
// being n, and whether cand is close enough to be suggested (see
// nearest).
func typoDistance(core string, n int, cand string) (int, bool) {
	m := utf8.RuneCountInString(cand)
	allowed := max(n, m) / 3
	if abs(n-m) > allowed {
		return 0, false // both distances are at least the difference in length
	}
	d := keyDistance(core, cand)
	return d, d <= allowed*keyIndel || editDistance(core, cand) <= allowed
}

// keyPos is where a key is on a US QWERTY keyboard: column x (keys are 3
// apart, each row shifted right as on the keyboard), row y (3 apart) and
// shift (1 for the character typed with shift).
type keyPos struct {
	x, y, shift int8
	ok          bool
}

// keys maps the ASCII characters typed on the keyboard to their keys.
var keys = func() (k [128]keyPos) {
	for _, r := range []struct {
		x0, y          int8
		plain, shifted string
	}{
		{0, 0, "`1234567890-=", "~!@#$%^&*()_+"},
		{4, 3, "qwertyuiop[]\\", "QWERTYUIOP{}|"},
		{5, 6, "asdfghjkl;'", `ASDFGHJKL:"`},
		{6, 9, "zxcvbnm,./", "ZXCVBNM<>?"},
	} {
		for i := range len(r.plain) {
			x := r.x0 + 3*int8(i)
			k[r.plain[i]] = keyPos{x: x, y: r.y, ok: true}
			k[r.shifted[i]] = keyPos{x: x, y: r.y, shift: 1, ok: true}
		}
	}
	k[' '] = keyPos{x: 18, y: 12, ok: true}
	return k
}()

const (
	// keyIndel is what a missing or extra character costs, as in bfs 4:
	// a key four to the side of the right one, so that a neighbouring
	// key (3) is a smaller slip than a missing letter and one further
	// off a bigger one.
	keyIndel = 12
	// keyTransposition is what two adjacent characters typed in the
	// wrong order cost: one slip, cheaper than a missing letter. bfs
	// counts it as two keys typed wrong, and so takes "-tpye" for -true
	// (-t_u_e) and "-prnit" for -limit.
	keyTransposition = keyIndel / 2
)

// keyCost is what typing a for b costs: the distance between their keys
// (columns, rows and shift), or keyIndel for a character not on the
// keyboard.
func keyCost(a, b rune) int {
	if a == b {
		return 0
	}
	if a >= 128 || b >= 128 || !keys[a].ok || !keys[b].ok {
		return keyIndel
	}
	ka, kb := keys[a], keys[b]
	return abs(int(ka.x-kb.x)) + abs(int(ka.y-kb.y)) + abs(int(ka.shift-kb.shift))
}

// keyDistance is editDistance weighted by the keyboard, by runes: a
// substitution costs keyCost, an insertion or deletion keyIndel, a
// transposition of two adjacent runes keyTransposition. It is what bfs
// measures typos with (typo.c), with the transposition added.
func keyDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j * keyIndel
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i * keyIndel
		for j := 1; j <= len(t); j++ {
			cur[j] = min(prev[j]+keyIndel, cur[j-1]+keyIndel, prev[j-1]+keyCost(s[i-1], t[j-1]))
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+keyTransposition)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}

// printable reports whether s may be echoed in a hint: a value with
// control characters is left out rather than written to a terminal.
func printable(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) })
}

// editDistance is the optimal string alignment distance between a and b,
// by runes: the fewest insertions, deletions, substitutions and
// transpositions of two adjacent runes, each costing 1, that make a into
// b, no substring being edited twice. A transposition is the commonest
// typo ("-nmae"), which Levenshtein's distance counts as two; the full
// Damerau-Levenshtein distance differs from this one only in words that
// need a transposed pair edited again, which no typo hint depends on.
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// Three rows of the table: i-2, i-1 and i.
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			sub := prev[j-1]
			if s[i-1] != t[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// parseHint is typoHint for the parse error err of the expression rest
// (the arguments after gfind's options), or "".
func parseHint(err error, rest []string) string {
	word, ok := unknownWord(err)
	if !ok {
		return ""
	}
	flags := ownFlags()
	// The first unknown word is the one reported: it leads when it is
	// the first argument after the options.
	leading := len(rest) > 0 && rest[0] == word
	return typoHint(word, leading, flags, hintCandidates(predicate.Primaries(), flags))
}
