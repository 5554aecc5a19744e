package fnmatch

// fnmatch(3) as GNU find 4.9 calls it on glibc: flags 0 for -name, -path
// and -wholename, FNM_CASEFOLD for -iname and -ipath. There is no
// FNM_PATHNAME ('*', '?' and brackets match '/'), no FNM_PERIOD ('*'
// matches a leading dot) and escapes are on.
//
// The matcher reproduces glibc 2.36 (posix/fnmatch_loop.c) bit for bit,
// quirks included, because users compare gfind's output with GNU find's.
// The quirks, all checked against glibc by fnmatch_test.go:
//
//   - A trailing lone backslash never matches ("a\" matches nothing).
//   - An unknown class name ("[[:foo:]]") is an error, not literal text:
//     the match fails at that position unless an earlier member of the
//     set already matched ("[a[:foo:]]" matches "a").
//   - A '[' without a closing ']' stands for itself, but glibc scans the
//     would-be set first, and an error found on the way (an unfinished
//     range "[a-", a trailing backslash, a malformed "[.x.]" or "[=x=]",
//     an unknown class) fails that position instead. So "[a-" matches
//     nothing while "[ab" matches "[ab" and "[[" matches "[[".
//   - FNM_CASEFOLD lowercases the name's character and the pattern's
//     characters and range ends, but not what is compared with classes,
//     equivalence classes or collating symbols: "[[:upper:]]" does not
//     match "a" under -iname, "[A-Z]" does.
//   - "[^...]" negates like "[!...]" unless POSIXLY_CORRECT is set in the
//     environment; gfind assumes it is not.
//
// In a UTF-8 locale glibc first converts both strings to wide characters
// and matches those; if that fails (invalid sequence) or does not match,
// it matches the bytes as in the C locale. CompileUTF8 reproduces that
// "wide or bytes" rule.
//
// Compilation turns the pattern into a small program: one token per
// position reachable in the pattern. A bracket becomes a 256-entry table
// giving, for every byte, the token to continue with (or none); because
// glibc's bracket scanning depends only on the name's current byte, that
// table is exact even for malformed brackets. Matching is then the usual
// iterative "remember the last star" loop, which gives glibc's result
// (every token consumes exactly one byte, so glibc's leftmost-commit
// recursion agrees with it) without exponential blow-up.

import (
	"bytes"
	"math/bits"
	"strings"
	"sync"
	"unicode"

	"github.com/gfind/gfind/internal/ctype"
	"github.com/gfind/gfind/internal/mbchar"
)

// Pattern is a compiled fnmatch(3) pattern. It is immutable after
// compilation and safe for concurrent use.
type Pattern struct {
	pattern string
	fold    bool
	fast    shortcut
	lit     []byte  // fast paths: the literal, lowercased when fold
	prog    []token // byte (C locale) program; prog[0] is the start

	wide     *wideMatcher // UTF-8 mode only; nil when wide matching can add nothing
	patASCII bool
}

type shortcut uint8

const (
	fastNone     shortcut = iota // run prog
	fastLiteral                  // name == lit
	fastPrefix                   // lit*
	fastSuffix                   // *lit
	fastContains                 // *lit*
	fastAll                      // * (or **...)
)

type opcode uint8

const (
	opLit     opcode = iota // name byte == c
	opLitFold               // lower(name byte) == c
	opAny                   // ?
	opStar                  // *
	opSet                   // [...]: set[b] is the next token, -1 for no match
	opFail                  // a trailing backslash: never matches
	opEnd                   // end of pattern: matches the end of the name
)

type token struct {
	kind opcode
	c    int32 // opLit, opLitFold: the (folded) character
	next int32 // all but opSet
	at   int32 // opSet in wide programs: offset of the '[' in the pattern
	set  *[256]int32
	// nexts (opSet in wide programs) lists the tokens the set can
	// continue with.
	nexts []int32
	// tail is the number of bytes (characters in wide programs) left to
	// match from this token when the rest of the pattern has no star
	// (every token takes one), -1 otherwise. After the last star only
	// one position can then work.
	tail int32
}

// Compile compiles pattern for byte-wise (C locale) matching, with
// FNM_CASEFOLD when fold is set (-iname, -ipath, -ilname). It never
// fails: malformed patterns behave as glibc treats them.
func Compile(pattern string, fold bool) *Pattern {
	return compile(pattern, fold, false, true)
}

// CompileUTF8 compiles pattern for a UTF-8 locale (LC_ALL=C.UTF-8):
// where pattern and name are both valid UTF-8, '?' and brackets also match
// one whole character, case folding is Unicode-aware and classes are
// Unicode classes (approximated with Go's unicode tables).
func CompileUTF8(pattern string, fold bool) *Pattern {
	return compile(pattern, fold, true, true)
}

// compile is the constructor behind both; fast=false disables the
// literal/prefix/suffix/contains shortcuts so tests can check them against
// the general matcher.
func compile(pattern string, fold, utf8Mode, fast bool) *Pattern {
	// A C string ends at the first NUL; argv can hold no NUL anyway.
	if i := strings.IndexByte(pattern, 0); i >= 0 {
		pattern = pattern[:i]
	}
	g := &Pattern{pattern: pattern, fold: fold, patASCII: isASCII(pattern)}
	pat := make([]int32, len(pattern))
	for i := 0; i < len(pattern); i++ {
		pat[i] = int32(pattern[i])
	}
	c := newCompiler(pat, fold, false, utf8Mode)
	g.prog = c.compile()
	if fast {
		g.detectFast()
	}
	if utf8Mode {
		if runes, ok := decode(pattern); ok {
			w := newCompiler(runes, fold, true, true)
			w.compile()
			// Without case folding, '?' or brackets, matching characters
			// can only match what matching bytes already does.
			if fold || w.hasWild {
				g.wide = &wideMatcher{c: w}
			}
		}
	}
	return g
}

// Match reports whether name matches, as fnmatch(pattern, name, flags)
// == 0 would. It does not allocate, and is safe for concurrent use.
func (g *Pattern) Match(name []byte) bool {
	if g.matchBytes(name) {
		return true
	}
	if g.wide == nil || (g.patASCII && isASCIIBytes(name)) {
		// For ASCII pattern and name the wide matcher sees the same
		// characters with the same classes, folding and order.
		return false
	}
	if !validUTF8(name) {
		return false
	}
	return g.wide.run(name)
}

func (g *Pattern) matchBytes(name []byte) bool {
	lit := g.lit
	switch g.fast {
	case fastLiteral:
		if g.fold {
			return len(name) == len(lit) && equalFold(name, lit)
		}
		return bytes.Equal(name, lit)
	case fastPrefix:
		if len(name) < len(lit) {
			return false
		}
		if g.fold {
			return equalFold(name[:len(lit)], lit)
		}
		return bytes.Equal(name[:len(lit)], lit)
	case fastSuffix:
		if len(name) < len(lit) {
			return false
		}
		if g.fold {
			return equalFold(name[len(name)-len(lit):], lit)
		}
		return bytes.Equal(name[len(name)-len(lit):], lit)
	case fastContains:
		if g.fold {
			return containsFold(name, lit)
		}
		return bytes.Contains(name, lit)
	case fastAll:
		return true
	}
	return g.run(name)
}

// run is the general matcher, with a single backtrack point at the most
// recent star. Reaching a later star drops the earlier one: the segment
// between them matched at its leftmost place, which leaves the most room
// for the rest, so moving it cannot help (glibc commits the same way).
func (g *Pattern) run(name []byte) bool {
	prog := g.prog
	ti, ni := int32(0), 0
	starTi, starNi := int32(-1), 0
	for {
		t := &prog[ti]
		switch t.kind {
		case opLit:
			if ni < len(name) && int32(name[ni]) == t.c {
				ni++
				ti = t.next
				continue
			}
		case opLitFold:
			if ni < len(name) && int32(lower[name[ni]]) == t.c {
				ni++
				ti = t.next
				continue
			}
		case opAny:
			if ni < len(name) {
				ni++
				ti = t.next
				continue
			}
		case opSet:
			if ni < len(name) {
				if nx := t.set[name[ni]]; nx >= 0 {
					ni++
					ti = nx
					continue
				}
			}
		case opStar:
			ti = t.next
			if tail := prog[ti].tail; tail >= 0 {
				// The last star: the rest must match exactly the
				// last tail bytes, and nothing earlier can change that.
				if len(name)-int(tail) < ni {
					return false
				}
				ni = len(name) - int(tail)
				starTi = -1
				continue
			}
			starTi, starNi = ti, ni
			if !seek(&prog[ti], name, &starNi) {
				return false
			}
			ni = starNi
			continue
		case opEnd:
			if ni == len(name) {
				return true
			}
		}
		// Mismatch (or opFail): let the last star eat one more byte.
		if starTi < 0 || starNi >= len(name) {
			return false
		}
		starNi++
		if !seek(&prog[starTi], name, &starNi) {
			return false
		}
		ti, ni = starTi, starNi
	}
}

// seek moves a star's restart position *ni ahead to the first byte the
// token t after the star can accept, as glibc's own star loop does for a
// literal. It reports false if there is none.
func seek(t *token, name []byte, ni *int) bool {
	i := *ni
	switch t.kind {
	case opLit:
		k := bytes.IndexByte(name[i:], byte(t.c))
		if k < 0 {
			return false
		}
		i += k
	case opLitFold:
		for i < len(name) && int32(lower[name[i]]) != t.c {
			i++
		}
	case opSet:
		for i < len(name) && t.set[name[i]] < 0 {
			i++
		}
	default:
		*ni = i
		return true
	}
	*ni = i
	return i < len(name)
}

// detectFast recognises programs of the form [*]lit[*] (no '?', brackets
// or escapes other than plain literals) and replaces the general loop by a
// comparison.
func (g *Pattern) detectFast() {
	const (
		lead = iota
		lits
		trail
	)
	state, leadStar, trailStar := lead, false, false
	var lit []byte
	for ti := int32(0); ; {
		t := &g.prog[ti]
		switch t.kind {
		case opStar:
			if state == lead {
				leadStar = true
			} else {
				state, trailStar = trail, true
			}
		case opLit, opLitFold:
			if state == trail {
				return
			}
			state = lits
			lit = append(lit, byte(t.c))
		case opEnd:
			g.lit = lit
			switch {
			case state == lead && leadStar:
				g.fast = fastAll
			case leadStar && trailStar:
				g.fast = fastContains
			case leadStar:
				g.fast = fastSuffix
			case trailStar:
				g.fast = fastPrefix
			default:
				g.fast = fastLiteral
			}
			return
		default:
			return
		}
		ti = t.next
	}
}

// ---------------------------------------------------------------------
// Compiler

type compiler struct {
	pat     []int32 // the pattern, then NUL padding (glibc reads p[1])
	n       int     // pattern length without padding
	fold    bool
	wide    bool // match characters (UTF-8), not bytes
	utf8Loc bool // the locale is UTF-8 (it defines the class "combining")
	hasWild bool // the program contains '?' or a bracket

	prog  []token
	tokAt []int32 // pattern offset -> token index, -1 if none yet
	queue []int32 // offsets whose tokens still need parsing

	skipDone []bool
	skipRes  []skipResult
	visited  []int32
}

func newCompiler(pat []int32, fold, wide, utf8Loc bool) *compiler {
	n := len(pat)
	p := make([]int32, n+3)
	copy(p, pat)
	c := &compiler{pat: p, n: n, fold: fold, wide: wide, utf8Loc: utf8Loc}
	c.tokAt = make([]int32, n+1)
	for i := range c.tokAt {
		c.tokAt[i] = -1
	}
	c.skipDone = make([]bool, n+3)
	c.skipRes = make([]skipResult, n+3)
	return c
}

// foldc is glibc's FOLD(): tolower in the C locale, towlower in UTF-8.
func (c *compiler) foldc(ch int32) int32 {
	if !c.fold {
		return ch
	}
	if c.wide {
		return wideLower(ch)
	}
	return int32(lower[byte(ch)])
}

func (c *compiler) compile() []token {
	c.tok(0)
	for len(c.queue) > 0 {
		o := c.queue[len(c.queue)-1]
		c.queue = c.queue[:len(c.queue)-1]
		c.parse(int(o))
	}
	// Tokens only ever continue at larger pattern offsets, so filling
	// tails from the end of the pattern backwards sees successors first.
	for o := c.n; o >= 0; o-- {
		if i := c.tokAt[o]; i >= 0 {
			c.prog[i].tail = c.tail(&c.prog[i])
		}
	}
	return c.prog
}

func (c *compiler) tail(t *token) int32 {
	switch t.kind {
	case opEnd:
		return 0
	case opLit, opLitFold, opAny:
		if n := c.prog[t.next].tail; n >= 0 {
			return n + 1
		}
	case opSet:
		// Fixed only if every byte the set accepts continues at the
		// same token (it does unless the bracket is malformed).
		next := int32(-1)
		nexts := t.nexts
		if !c.wide {
			nexts = t.set[:]
		}
		for _, nx := range nexts {
			if nx >= 0 {
				if next >= 0 && nx != next {
					return -1
				}
				next = nx
			}
		}
		if next >= 0 {
			if n := c.prog[next].tail; n >= 0 {
				return n + 1
			}
		}
	}
	return -1
}

// tok returns the index of the token for pattern offset o, queueing it
// for parsing when it is new.
func (c *compiler) tok(o int) int32 {
	if i := c.tokAt[o]; i >= 0 {
		return i
	}
	i := int32(len(c.prog))
	c.prog = append(c.prog, token{})
	c.tokAt[o] = i
	c.queue = append(c.queue, int32(o))
	return i
}

// parse fills in the token at offset o, following glibc's main loop.
func (c *compiler) parse(o int) {
	i := c.tokAt[o]
	var t token
	ch := c.foldc(c.pat[o])
	switch {
	case o >= c.n:
		t.kind = opEnd
	case ch == '?':
		c.hasWild = true
		t.kind, t.next = opAny, c.tok(o+1)
	case ch == '*':
		t.kind, t.next = opStar, c.tok(o+1)
	case ch == '\\':
		if o+1 >= c.n {
			t.kind = opFail // "Trailing \ loses."
		} else {
			t.kind, t.c, t.next = c.litKind(), c.foldc(c.pat[o+1]), c.tok(o+2)
		}
	case ch == '[':
		c.hasWild = true
		t.kind, t.at = opSet, int32(o)
		if c.wide {
			t.nexts = c.collectBracket(o)
		} else {
			t.set = c.byteBracket(o)
		}
	default:
		t.kind, t.c, t.next = c.litKind(), ch, c.tok(o+1)
	}
	c.prog[i] = t
}

func (c *compiler) litKind() opcode {
	if c.fold && !c.wide {
		return opLitFold
	}
	return opLit
}

// ---------------------------------------------------------------------
// Brackets

// classNameMax is glibc's CHARCLASS_NAME_MAX (<bits/posix2_lim.h>): a
// longer run of a..y letters after "[:" makes the match fail.
const classNameMax = 2048

type bracketEnd uint8

const (
	endClosed bracketEnd = iota // found the closing ']'; pos is just past it
	endOpen                     // reached the end of the pattern: '[' is literal
	endError                    // glibc returns FNM_NOMATCH here
)

type predKind uint8

const (
	predChar  predKind = iota // FOLD(ch) == a
	predRaw                   // ch == a ([=a=], [.a.])
	predClass                 // ch is in class a
	predRange                 // a <= FOLD(ch) <= b in collation order
)

// pred is one membership test of a bracket, in the order glibc tries them.
type pred struct {
	kind predKind
	a, b int32
}

// walkBracket follows glibc's bracket loop from p, the offset just after
// '['. Every membership test is reported to hit with q, the offset where
// glibc would continue (skipping the rest of the set) if the test
// succeeded; hit returns true to stop the walk. If the walk was not
// stopped, end/pos say how the set ended for characters that no test
// accepted.
//
// The walk does not depend on the character, which is what lets the byte
// compiler evaluate all 256 bytes in one pass, with one exception in wide
// mode: noColl says the folded character has no collation sequence value
// (in glibc's C.UTF-8, anything outside U+0001..U+00FF). glibc then
// abandons each range right after reading the first character of its end
// and goes on parsing from there: for "日", "[a-bx]" only tests 'x', and
// "[!a-\]x]" is the set "[!a-\]" followed by "x]". noColl reproduces that.
func (c *compiler) walkBracket(p int, noColl bool, hit func(pr pred, q int) bool) (not bool, end bracketEnd, pos int, stopped bool) {
	pat := c.pat
	not = c.negated(p)
	if not {
		p++
	}
	ch := pat[p]
	p++
	for {
		var cold int32
		normal := false    // run glibc's normal_bracket with ch
		rangeable := false // a following '-' may start a range from cold
		switch {
		case ch == '\\':
			if pat[p] == 0 {
				return not, endError, 0, false
			}
			ch = c.foldc(pat[p])
			p++
			normal = true
		case ch == '[' && pat[p] == ':':
			startp, n := p, 0
			isClass := true
			for {
				if n == classNameMax {
					return not, endError, 0, false
				}
				p++
				ch = pat[p]
				if ch == ':' && pat[p+1] == ']' {
					p += 2
					break
				}
				if ch < 'a' || ch >= 'z' { // sic: glibc excludes 'z'
					p, ch, isClass = startp, '[', false
					break
				}
				n++
			}
			if !isClass {
				normal = true
				break
			}
			k := c.lookupClass(pat[startp+1 : startp+1+n])
			if k < 0 {
				return not, endError, 0, false
			}
			if hit(pred{kind: predClass, a: int32(k)}, p) {
				return not, 0, p, true
			}
			ch = pat[p]
			p++
		case ch == '[' && pat[p] == '=':
			startp := p
			p++
			str := pat[p]
			if str == 0 {
				p, ch, normal = startp, '[', true
				break
			}
			p++
			if pat[p] != '=' || pat[p+1] != ']' {
				p, ch, normal = startp, '[', true
				break
			}
			p += 2
			if hit(pred{kind: predRaw, a: str}, p) {
				return not, 0, p, true
			}
			ch = pat[p]
			p++
		case ch == 0:
			return not, endOpen, 0, false
		case ch == '[' && pat[p] == '.':
			// A collating symbol; without collation rules (C and
			// C.UTF-8) only a single character is accepted.
			startp, n := p, 0
			for {
				p++
				ch = pat[p]
				if ch == '.' && pat[p+1] == ']' {
					p += 2
					break
				}
				if ch == 0 {
					return not, endError, 0, false
				}
				n++
			}
			isRange := pat[p] == '-' && pat[p+1] != 0
			if n != 1 {
				return not, endError, 0, false
			}
			if !isRange && hit(pred{kind: predRaw, a: pat[startp+1]}, p) {
				return not, 0, p, true
			}
			cold = pat[startp+1]
			ch = pat[p]
			p++
			rangeable = true
		default:
			ch = c.foldc(ch)
			normal = true
		}
		if normal {
			isRange := pat[p] == '-' && pat[p+1] != 0 && pat[p+1] != ']'
			if !isRange && hit(pred{kind: predChar, a: ch}, p) {
				return not, 0, p, true
			}
			cold = ch
			ch = pat[p]
			p++
			rangeable = true
		}
		if rangeable && ch == '-' && pat[p] != ']' && noColl {
			// glibc's range_not_matched. If the end was the pattern's
			// NUL, glibc reads past it; the padding makes that an
			// unclosed set here.
			p++
			ch = pat[p]
			p++
		} else if rangeable && ch == '-' && pat[p] != ']' {
			cend := pat[p]
			p++
			if cend == '[' && pat[p] == '.' {
				startp, n := p, 0
				for {
					p++
					ch = pat[p]
					if ch == '.' && pat[p+1] == ']' {
						p += 2
						break
					}
					if ch == 0 {
						return not, endError, 0, false
					}
					n++
				}
				if n != 1 {
					return not, endError, 0, false
				}
				cend = pat[startp+1] // not folded, as in glibc
			} else {
				if cend == '\\' {
					cend = pat[p]
					p++
				}
				if cend == 0 {
					return not, endError, 0, false
				}
				cend = c.foldc(cend)
			}
			if hit(pred{kind: predRange, a: cold, b: cend}, p) {
				return not, 0, p, true
			}
			ch = pat[p]
			p++
		}
		if ch == ']' {
			return not, endClosed, p, false
		}
	}
}

// negated reports whether the set starting at p is negated. '^' counts
// as glibc's default; with POSIXLY_CORRECT set glibc would take it
// literally.
func (c *compiler) negated(p int) bool {
	return c.pat[p] == '!' || c.pat[p] == '^'
}

type skipResult struct {
	end bracketEnd
	pos int32
}

// skip is glibc's "skip the rest of the [...] that already matched" loop,
// which parses differently from the main bracket loop. Its only state is
// the offset, so results are memoised: each offset is scanned once.
func (c *compiler) skip(p int) skipResult {
	pat := c.pat
	vis := c.visited[:0]
	var r skipResult
	for {
		if c.skipDone[p] {
			r = c.skipRes[p]
			break
		}
		vis = append(vis, int32(p))
		ch := pat[p]
		p++
		if ch == ']' {
			r = skipResult{endClosed, int32(p)}
			break
		}
		if ch == 0 {
			r = skipResult{endOpen, 0}
			break
		}
		if ch == '\\' {
			if pat[p] == 0 {
				r = skipResult{endError, 0}
				break
			}
			p++
		} else if ch == '[' && pat[p] == ':' {
			startp, n := p, 0
			tooLong := false
			for {
				p++
				ch = pat[p]
				n++
				if n == classNameMax {
					tooLong = true
					break
				}
				if pat[p] == ':' && pat[p+1] == ']' {
					break
				}
				if ch < 'a' || ch >= 'z' {
					p = startp - 2
					break
				}
			}
			if tooLong {
				r = skipResult{endError, 0}
				break
			}
			p += 2
		} else if ch == '[' && pat[p] == '=' {
			p++
			if pat[p] == 0 {
				r = skipResult{endError, 0}
				break
			}
			p++
			if pat[p] != '=' || pat[p+1] != ']' {
				r = skipResult{endError, 0}
				break
			}
			p += 2
		} else if ch == '[' && pat[p] == '.' {
			bad := false
			for {
				p++
				ch = pat[p]
				if ch == 0 {
					bad = true
					break
				}
				if ch == '.' && pat[p+1] == ']' {
					break
				}
			}
			if bad {
				r = skipResult{endError, 0}
				break
			}
			p += 2
		}
	}
	for _, v := range vis {
		c.skipDone[v] = true
		c.skipRes[v] = r
	}
	c.visited = vis
	return r
}

// byteBracket builds the per-byte continuation table of the bracket at o.
func (c *compiler) byteBracket(o int) *[256]int32 {
	tab := new([256]int32)
	for i := range tab {
		tab[i] = -1
	}
	lit := func(b int) int32 { // '[' taken literally: continue after it
		if b == '[' {
			return c.tok(o + 1)
		}
		return -1
	}
	not := c.negated(o + 1)
	undecided := byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	hit := func(pr pred, q int) bool {
		s := c.predSet(pr)
		s.and(&undecided)
		if s.empty() {
			return false
		}
		r := c.skip(q)
		s.each(func(b int) {
			switch r.end {
			case endClosed:
				if !not {
					tab[b] = c.tok(int(r.pos))
				}
			case endOpen:
				tab[b] = lit(b)
			}
		})
		undecided.andNot(&s)
		return undecided.empty()
	}
	_, end, pos, _ := c.walkBracket(o+1, false, hit)
	undecided.each(func(b int) {
		switch end {
		case endClosed:
			if not {
				tab[b] = c.tok(pos)
			}
		case endOpen:
			tab[b] = lit(b)
		}
	})
	return tab
}

// collectBracket creates and returns the tokens a wide bracket at o can
// continue with, and fills the skip memo the runtime walk will read.
func (c *compiler) collectBracket(o int) []int32 {
	not := c.negated(o + 1)
	var nexts []int32
	add := func(end bracketEnd, pos int) {
		var i int32
		switch end {
		case endClosed:
			i = c.tok(pos)
		case endOpen: // '[' taken literally
			i = c.tok(o + 1)
		default:
			return
		}
		for _, n := range nexts {
			if n == i {
				return
			}
		}
		nexts = append(nexts, i)
	}
	for _, noColl := range []bool{false, true} {
		_, end, pos, _ := c.walkBracket(o+1, noColl, func(_ pred, q int) bool {
			if r := c.skip(q); r.end != endClosed || !not {
				add(r.end, int(r.pos))
			}
			return false
		})
		if end != endClosed || not {
			add(end, pos)
		}
	}
	return nexts
}

// predSet is the set of bytes (C locale) for which pr holds.
func (c *compiler) predSet(pr pred) byteSet {
	var s byteSet
	switch pr.kind {
	case predChar:
		// Bytes whose FOLD is a: a itself (a comes folded from the
		// pattern), plus the uppercase letter when a is a lowercase one.
		a := pr.a
		if a >= 0 && a < 256 {
			if c.foldc(a) == a {
				s.add(int(a))
			}
			if c.fold && a >= 'a' && a <= 'z' {
				s.add(int(a - 32))
			}
		}
	case predRaw:
		if pr.a >= 0 && pr.a < 256 {
			s.add(int(pr.a))
		}
	case predClass:
		if pr.a < classCombining {
			s = byteClasses()[pr.a]
		}
	case predRange:
		// The C locale collates bytes by value.
		lo, hi := pr.a, pr.b
		if lo < 0 {
			lo = 0
		}
		if hi > 255 {
			hi = 255
		}
		if lo > hi {
			break
		}
		r := rangeSet(int(lo), int(hi))
		if !c.fold {
			s = r
			break
		}
		// FOLD(b) in [lo,hi]: the range minus uppercase letters, plus
		// the uppercase letters whose lowercase is in it.
		s = r
		s.andNot(&upperSet)
		low := r
		low.and(&lowerSet)
		s[1] |= low[1] >> 32
	}
	return s
}

var classNames = [...]string{
	"alnum", "alpha", "blank", "cntrl", "digit", "graph",
	"lower", "print", "punct", "space", "upper", "xdigit",
	"combining", // only in UTF-8 locales; no single byte is in it
}

const classCombining = 12

func (c *compiler) lookupClass(name []int32) int {
	for k, s := range classNames {
		if len(s) != len(name) || (k == classCombining && !c.utf8Loc) {
			continue
		}
		ok := true
		for i := range name {
			if name[i] != int32(s[i]) {
				ok = false
				break
			}
		}
		if ok {
			return k
		}
	}
	return -1
}

// ---------------------------------------------------------------------
// Wide (UTF-8) matching

// wideMatcher matches characters rather than bytes. It is the slow, rarely
// taken path (only after the byte matcher failed on non-ASCII input), so
// brackets are evaluated by re-walking the pattern for each character.
type wideMatcher struct {
	c *compiler
}

func (w *wideMatcher) run(name []byte) bool {
	c := w.c
	prog := c.prog
	ti, ni := int32(0), 0
	starTi, starNi := int32(-1), 0
	for {
		t := &prog[ti]
		var r rune
		size := 0
		if ni < len(name) {
			r, size = decodeRune(name[ni:])
		}
		switch t.kind {
		case opLit:
			if size > 0 && c.foldc(r) == t.c {
				ni += size
				ti = t.next
				continue
			}
		case opAny:
			if size > 0 {
				ni += size
				ti = t.next
				continue
			}
		case opSet:
			if size > 0 {
				if nx := w.bracket(t.at, r); nx >= 0 {
					ni += size
					ti = nx
					continue
				}
			}
		case opStar:
			ti = t.next
			if tail := prog[ti].tail; tail >= 0 {
				// The last star: the rest takes the last tail
				// characters. Step back over them; a valid name has
				// no continuation byte at a character start.
				k := len(name)
				for j := int32(0); j < tail; j++ {
					if k <= ni {
						return false
					}
					k--
					for k > ni && name[k]&0xc0 == 0x80 {
						k--
					}
				}
				ni, starTi = k, -1
				continue
			}
			starTi, starNi = ti, ni
			if nx := &prog[ti]; nx.kind == opLit && !c.fold && nx.c < 0x80 {
				// An ASCII byte is always a whole character.
				k := bytes.IndexByte(name[ni:], byte(nx.c))
				if k < 0 {
					return false
				}
				starNi += k
			}
			ni = starNi
			continue
		case opEnd:
			if ni == len(name) {
				return true
			}
		}
		if starTi < 0 || starNi >= len(name) {
			return false
		}
		_, sz := decodeRune(name[starNi:])
		starNi += sz
		ti, ni = starTi, starNi
	}
}

// bracket returns the token to continue with after the bracket at o
// matched r, or -1.
func (w *wideMatcher) bracket(o int32, r rune) int32 {
	c := w.c
	q := -1
	_, hasColl := wideColl(c.foldc(r))
	not, end, pos, stopped := c.walkBracket(int(o)+1, !hasColl, func(pr pred, at int) bool {
		if c.wideHolds(pr, r) {
			q = at
			return true
		}
		return false
	})
	if stopped {
		res := c.skipRes[q] // filled in by collectBracket
		end, pos = res.end, int(res.pos)
		if end == endClosed {
			if not {
				return -1
			}
			return c.tokAt[pos]
		}
	} else if end == endClosed {
		if !not {
			return -1
		}
		return c.tokAt[pos]
	}
	if end == endOpen && r == '[' {
		return c.tokAt[o+1]
	}
	return -1
}

func (c *compiler) wideHolds(pr pred, r rune) bool {
	switch pr.kind {
	case predChar:
		return c.foldc(r) == pr.a
	case predRaw:
		return r == pr.a
	case predClass:
		return wideClass(int(pr.a), r)
	case predRange:
		// glibc's C.UTF-8 has collation sequence values only for
		// U+0001..U+00FF (in code point order); other characters never
		// fall in a range, and a range ending beyond U+00FF matches only
		// its first character.
		f, okf := wideColl(c.foldc(r))
		if !okf {
			return false
		}
		l, okl := wideColl(pr.a)
		if !okl || l <= f {
			h, okh := wideColl(pr.b)
			if !okh {
				return okl && l == f
			}
			return okl && l <= h && f <= h
		}
	}
	return false
}

func wideColl(r rune) (rune, bool) {
	return r, r >= 1 && r <= 0xff
}

// wideLower is towlower for C.UTF-8 (simple Unicode lowercase mapping).
func wideLower(r rune) rune {
	if r < 0x80 {
		return rune(lower[r])
	}
	if r > unicode.MaxRune {
		return r
	}
	return unicode.ToLower(r)
}

// wideClass approximates glibc's C.UTF-8 character classes with Go's
// Unicode tables; for ASCII they are exactly the C locale's. Go's tables
// are used rather than a copy of glibc's: they disagree only on rare
// characters, mostly those newer than glibc 2.36's Unicode 14, and a
// match on such a character is not worth carrying glibc's tables for
// (bench/NOTES.md records the sampled difference).
func wideClass(k int, r rune) bool {
	if r < 0x80 {
		return k < classCombining && byteClasses()[k].has(int(r))
	}
	if r > unicode.MaxRune {
		return false
	}
	switch classNames[k] {
	case "alnum":
		return wideAlpha(r)
	case "alpha":
		return wideAlpha(r)
	case "blank":
		return wideBlank(r)
	case "cntrl":
		return unicode.Is(unicode.Cc, r) || r == 0x2028 || r == 0x2029
	case "digit", "xdigit":
		return false // only ASCII digits, as ISO C requires
	case "graph":
		return widePrint(r) && !wideSpace(r)
	case "lower":
		return unicode.In(r, unicode.Ll, unicode.Other_Lowercase) || unicode.ToUpper(r) != r
	case "print":
		return widePrint(r)
	case "punct":
		return widePrint(r) && !wideSpace(r) && !wideAlpha(r)
	case "space":
		return wideSpace(r)
	case "upper":
		return unicode.In(r, unicode.Lu, unicode.Other_Uppercase) || unicode.ToLower(r) != r
	case "combining":
		return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me)
	}
	return false
}

// wideAlpha: Unicode Alphabetic, plus non-ASCII digits (glibc puts them
// in alpha so that iswalnum accepts them).
func wideAlpha(r rune) bool {
	return unicode.In(r, unicode.L, unicode.Nl, unicode.Other_Alphabetic, unicode.Nd)
}

func wideBlank(r rune) bool {
	return unicode.Is(unicode.Zs, r) && r != 0xa0 && r != 0x2007 && r != 0x202f
}

func wideSpace(r rune) bool {
	return wideBlank(r) || r == 0x2028 || r == 0x2029 || r == 0x85
}

func widePrint(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S,
		unicode.Zs, unicode.Cf, unicode.Co)
}

// decode converts s to characters as glibc's UTF-8 mbsrtowcs does;
// ok is false when it would fail.
func decode(s string) ([]int32, bool) {
	var out []int32
	b := []byte(s)
	for len(b) > 0 {
		r, n := decodeRune(b)
		if n == 0 {
			return nil, false
		}
		out = append(out, r)
		b = b[n:]
	}
	return out, true
}

func validUTF8(b []byte) bool {
	for i := 0; i < len(b); {
		if b[i] < 0x80 {
			i++
			continue
		}
		_, n := decodeRune(b[i:])
		if n == 0 {
			return false
		}
		i += n
	}
	return true
}

// decodeRune decodes one character as glibc's UTF-8 converter does
// (mbchar.Decode); n == 0 means invalid or cut short.
func decodeRune(b []byte) (r rune, n int) {
	r, n, st := mbchar.Decode(b)
	if st != mbchar.Valid {
		return 0, 0
	}
	return r, n
}

// ---------------------------------------------------------------------
// Byte helpers

// lower is tolower in the C locale as a table: the byte matcher's
// inner loop reads it for every byte under FNM_CASEFOLD.
var lower = func() (t [256]byte) {
	for i := range t {
		t[i] = ctype.ToLower(byte(i))
	}
	return
}()

// equalFold compares a name with a lowercased literal of the same length.
func equalFold(name, lit []byte) bool {
	for i, b := range lit {
		if lower[name[i]] != b {
			return false
		}
	}
	return true
}

func containsFold(name, lit []byte) bool {
	if len(lit) == 0 {
		return true
	}
	first := lit[0]
	for i := 0; i+len(lit) <= len(name); i++ {
		if lower[name[i]] == first && equalFold(name[i:i+len(lit)], lit) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func isASCIIBytes(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(b int)      { s[b>>6] |= 1 << (uint(b) & 63) }
func (s *byteSet) has(b int) bool { return s[b>>6]&(1<<(uint(b)&63)) != 0 }
func (s *byteSet) empty() bool    { return s[0]|s[1]|s[2]|s[3] == 0 }
func (s *byteSet) and(o *byteSet) {
	s[0], s[1], s[2], s[3] = s[0]&o[0], s[1]&o[1], s[2]&o[2], s[3]&o[3]
}
func (s *byteSet) andNot(o *byteSet) {
	s[0], s[1], s[2], s[3] = s[0]&^o[0], s[1]&^o[1], s[2]&^o[2], s[3]&^o[3]
}
func (s *byteSet) each(f func(b int)) {
	for w := 0; w < 4; w++ {
		for x := s[w]; x != 0; x &= x - 1 {
			f(w*64 + bits.TrailingZeros64(x))
		}
	}
}

func setOf(f func(b int) bool) (s byteSet) {
	for b := 0; b < 256; b++ {
		if f(b) {
			s.add(b)
		}
	}
	return
}

// rangeSet is the set of bytes lo..hi.
func rangeSet(lo, hi int) (s byteSet) {
	for w := 0; w < 4; w++ {
		s[w] = wordRange(lo-w*64, hi-w*64)
	}
	return
}

// wordRange is the mask of bits lo..hi (clipped to 0..63) of one word.
func wordRange(lo, hi int) uint64 {
	if lo < 0 {
		lo = 0
	}
	if hi > 63 {
		hi = 63
	}
	if lo > hi {
		return 0
	}
	m := ^uint64(0) >> uint(63-(hi-lo))
	return m << uint(lo)
}

var (
	upperSet = setOf(func(b int) bool { return ctype.IsUpper(byte(b)) })
	lowerSet = setOf(func(b int) bool { return ctype.IsLower(byte(b)) })

	// byteClasses returns the C locale's classes, indexed like
	// classNames (no entry for "combining", which C does not define).
	// Made at the first pattern with a class, not at start-up: a run
	// of gfind on a small tree would spend a twentieth of its time
	// here (bench/startup.sh).
	byteClasses = sync.OnceValue(func() *[classCombining]byteSet {
		t := new([classCombining]byteSet)
		for k := range t {
			in, _ := ctype.Class(classNames[k])
			t[k] = setOf(func(b int) bool { return in(byte(b)) })
		}
		return t
	})
)
