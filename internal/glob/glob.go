package glob

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// Pattern is a compiled pattern. Its zero value matches nothing.
type Pattern struct {
	pats []string // what is matched: any of these, with MatchUnvalidated
}

// Compile validates pat as doublestar does and compiles it; fold makes
// matching case-insensitive (Unicode simple case folding). The error
// says why an invalid pattern is refused.
func Compile(pat string, fold bool) (Pattern, error) {
	pats, err := compile(pat, fold)
	return Pattern{pats}, err
}

// Match reports whether name, a '/'-separated relative path, matches.
// It allocates nothing and keeps nothing of name, which may therefore
// alias bytes that change after the call.
func (p Pattern) Match(name string) bool {
	for _, q := range p.pats {
		if doublestar.MatchUnvalidated(q, name) {
			return true
		}
	}
	return false
}

// errBad is why compile refuses a pattern.
type errBad struct{}

func (errBad) Error() string {
	return "unterminated '[' or '{', empty '[]', unmatched '}' or trailing '\\'"
}

// maxAlts bounds the brace expansion: past it the pattern is kept
// whole and doublestar expands it at each match (allocating).
const maxAlts = 64

// compile validates pat and returns the patterns to match:
// its brace expansion, each rewritten for case folding when fold.
func compile(pat string, fold bool) ([]string, error) {
	if !doublestar.ValidatePattern(pat) {
		return nil, errBad{}
	}
	pats := []string{pat}
	if exp, ok := expandBraces(pat, nil); ok {
		pats = slices.Compact(exp)
	}
	for i, p := range pats {
		p = classesSkipSlash(p)
		if fold {
			p = foldPattern(p)
		}
		pats[i] = p
	}
	return pats, nil
}

// expandBraces appends the brace expansion of the valid pattern pat to
// out, splitting alternatives where doublestar's matcher does: a '{'
// outside classes and escapes, its alternatives separated by the commas
// of its own nesting level. Expansion matches exactly what doublestar
// matches alternative by alternative, since doublestar matches each
// alternative as the whole pattern with it spliced in. It reports false
// when there would be more than maxAlts patterns.
func expandBraces(pat string, out []string) ([]string, bool) {
	open := indexOpenBrace(pat)
	if open < 0 {
		if len(out) >= maxAlts {
			return out, false
		}
		return append(out, pat), true
	}
	closing := indexAltEnd(pat[open+1:], false) + open + 1
	prefix, suffix := pat[:open], pat[closing+1:]
	body := pat[open+1 : closing]
	for {
		comma := indexAltEnd(body, true)
		alt := body
		if comma >= 0 {
			alt = body[:comma]
		}
		var ok bool
		if out, ok = expandBraces(prefix+alt+suffix, out); !ok {
			return out, false
		}
		if comma < 0 {
			return out, true
		}
		body = body[comma+1:]
	}
}

// indexOpenBrace returns the index of the first '{' that doublestar's
// matcher treats as the start of alternatives, or -1.
func indexOpenBrace(s string) int {
	return indexSyntax(s, func(c byte) bool { return c == '{' })
}

// indexSyntax returns the index of the first byte of s outside classes
// and escapes, as doublestar's matcher scans them, for which stop is
// true, or -1.
func indexSyntax(s string, stop func(c byte) bool) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			i = classEnd(s, i)
		default:
			if stop(s[i]) {
				return i
			}
		}
	}
	return -1
}

// classEnd returns the index of the ']' that closes the class opening at
// s[open] (the next unescaped one, as doublestar scans), or len(s).
func classEnd(s string, open int) int {
	for i := open + 1; i < len(s); i++ {
		if s[i] == '\\' {
			i++
		} else if s[i] == ']' {
			return i
		}
	}
	return len(s)
}

// indexAltEnd is doublestar's indexMatchedClosingAlt and indexNextAlt
// in one scan of s, which follows a '{': the index of the '}' closing
// that '{', skipping nested braces, classes and escapes, or with commas
// that of the first comma at the outer nesting level before it; -1 if
// there is none. expandBraces looks for commas only in a body that ends
// before the closing '}', so with commas it finds a comma or nothing.
func indexAltEnd(s string, commas bool) int {
	depth := 1
	return indexSyntax(s, func(c byte) bool {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
			return depth == 0
		case ',':
			return commas && depth == 1
		}
		return false
	})
}

// foldPattern rewrites a valid pattern so that matching it case
// sensitively is matching pat case-insensitively: every literal
// character with case variants becomes a class of all of them ('k' is
// "[Kk\u212a]"), and every class gains the variants of its members, so
// "[a-c]" also takes "A-C" and "[!a]" refuses "A" too. Folding is
// Unicode's simple case folding (unicode.SimpleFold orbits), which is
// exact for ASCII and UTF-8 but never maps one character to several
// ("ß" does not match "SS"). Bytes that are not UTF-8 are kept.
func foldPattern(pat string) string {
	var b strings.Builder
	for i := 0; i < len(pat); {
		c := pat[i]
		switch c {
		case '*', '?', '/', '{', '}', ',':
			b.WriteByte(c)
			i++
			continue
		case '[':
			end := classEnd(pat, i)
			writeFoldedClass(&b, pat[i+1:end])
			i = end + 1
			continue
		case '\\':
			i++
			if i >= len(pat) {
				b.WriteByte('\\') // unreachable for a valid pattern
				return b.String()
			}
		}
		r, size := utf8.DecodeRuneInString(pat[i:])
		if r == utf8.RuneError && size <= 1 || !hasCase(r) {
			if c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteString(pat[i : i+size])
		} else {
			b.WriteByte('[')
			for _, v := range orbit(r, nil) {
				b.WriteRune(v)
			}
			b.WriteByte(']')
		}
		i += size
	}
	return b.String()
}

// classRange is one item of a character class: lo-hi, or lo alone.
type classRange struct{ lo, hi rune }

// writeFoldedClass writes the class whose contents (between '[' and
// ']') are body, with the case variants of its members added. It parses
// body the way doublestar's matcher does and writes every item escaped,
// so that no appended item can change how the original ones read.
func writeFoldedClass(b *strings.Builder, body string) {
	neg, items := parseClass(body)
	b.WriteByte('[')
	b.WriteString(neg)
	var extra []rune
	for _, it := range items {
		hi := min(it.hi, maxCased)
		for r := it.lo; r <= hi; r++ {
			if hasCase(r) {
				extra = orbit(r, extra)
			}
		}
	}
	slices.Sort(extra)
	extra = slices.Compact(extra)
	for _, it := range items {
		writeClassItem(b, it)
	}
	// Runs of consecutive variants are written as ranges.
	for i := 0; i < len(extra); {
		j := i + 1
		for j < len(extra) && extra[j] == extra[j-1]+1 {
			j++
		}
		writeClassItem(b, classRange{extra[i], extra[j-1]})
		i = j
	}
	b.WriteByte(']')
}

// parseClass parses a class's contents (between '[' and ']') the way
// doublestar's matcher does: its negation ("!", "^" or "") and items.
func parseClass(body string) (neg string, items []classRange) {
	if body != "" && (body[0] == '!' || body[0] == '^') {
		neg, body = body[:1], body[1:]
	}
	last := utf8.MaxRune // doublestar's: the previous single character
	for i := 0; i < len(body); {
		r, size := utf8.DecodeRuneInString(body[i:])
		i += size
		if last < utf8.MaxRune && r == '-' && i < len(body) {
			if body[i] == '\\' {
				i++
			}
			hi, size := utf8.DecodeRuneInString(body[i:])
			i += size
			// last was pushed alone. A reversed range ("a-0") matches
			// nothing in doublestar but its low end, which the matcher
			// has already tried alone: it reads as that end.
			items[len(items)-1].hi = max(hi, last)
			last = utf8.MaxRune
			continue
		}
		if r == '\\' && i < len(body) {
			r, size = utf8.DecodeRuneInString(body[i:])
			i += size
		}
		items = append(items, classRange{r, r})
		last = r
	}
	return neg, items
}

// classesSkipSlash rewrites the classes of a valid pattern so that none
// matches '/', as in a shell's pathname expansion and in gitignore:
// doublestar's Match lets "[!x]" (and "[+-0]", "[/]") take the
// separator, so "a[!x]b" would match "a/b". A negated class gets '/'
// added to what it refuses; a range that spans '/' is split around it;
// a class left with nothing to match becomes "[\x00]", which no path
// holds.
func classesSkipSlash(pat string) string {
	if !strings.Contains(pat, "[") {
		return pat
	}
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '\\':
			b.WriteByte(c)
			if i+1 < len(pat) {
				i++
				b.WriteByte(pat[i])
			}
		case '[':
			end := classEnd(pat, i)
			neg, items := parseClass(pat[i+1 : end])
			b.WriteByte('[')
			b.WriteString(neg)
			n := 0
			for _, it := range items {
				switch {
				case neg != "" || it.hi < '/' || it.lo > '/':
					writeClassItem(&b, it)
				default: // a positive item that covers '/'
					if it.lo < '/' {
						writeClassItem(&b, classRange{it.lo, '/' - 1})
						n++
					}
					if it.hi > '/' {
						writeClassItem(&b, classRange{'/' + 1, it.hi})
						n++
					}
					continue
				}
				n++
			}
			if neg != "" {
				writeClassItem(&b, classRange{'/', '/'})
			} else if n == 0 {
				writeClassItem(&b, classRange{0, 0})
			}
			b.WriteByte(']')
			i = end
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func writeClassItem(b *strings.Builder, it classRange) {
	b.WriteByte('\\')
	b.WriteRune(it.lo)
	if it.hi != it.lo {
		b.WriteString("-\\")
		b.WriteRune(it.hi)
	}
}

// maxCased is the largest rune with case variants (ADLAM SMALL LETTER
// SHA in Unicode 15); TestMaxCased checks it against the unicode
// package.
const maxCased = 0x1E943

// hasCase reports whether r has case variants.
func hasCase(r rune) bool { return r <= maxCased && unicode.SimpleFold(r) != r }

// orbit appends r's case variants, r included, in rune order.
func orbit(r rune, out []rune) []rune {
	start := len(out)
	out = append(out, r)
	for v := unicode.SimpleFold(r); v != r; v = unicode.SimpleFold(v) {
		out = append(out, v)
	}
	slices.Sort(out[start:])
	return out
}
