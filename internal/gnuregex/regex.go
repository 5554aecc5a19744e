package gnuregex

// GNU regular expressions (-regex, -iregex) as GNU find 4.11 compiles
// them: re_compile_pattern with the -regextype's syntax bits, then
// re_match, which must consume the whole path. GNU find 4.11 is built
// with gnulib's copy of glibc's regex code (its configure turns glibc
// 2.36's down for back-reference bugs, and gfind refuses back-references
// anyway); where it matters here, the copy differs from glibc 2.36 only
// in the bits of the emacs syntax (syntaxEmacs), which the glibc oracle
// of glibc_test.go is given explicitly. The C locale is assumed: a
// character is a byte, and the classes are ASCII.
//
// The pattern is parsed here the way glibc's regcomp.c parses it: the
// same tokens, context rules and error codes (regex_test.go checks them
// against GNU find, glibc_test.go against glibc's re_compile_pattern
// and re_match on random patterns in every syntax). The
// tree is then handed to Go's regexp as a regexp/syntax tree in which
// byte b is rune b (Latin-1), so that '.' and brackets match exactly one
// byte; -iregex is compiled into the sets rather than left to Go's
// Unicode case folding. Since re_compile_pattern sets newline_anchor, ^
// and $ also match after and before a newline in the path.
//
// Go's RE2 has no \< and \> (a word start, a word end), so a pattern
// using them runs on a small NFA simulation of the compiled program
// instead (nfa). Back-references cannot be done by an automaton and are
// refused with an error of gfind's own.

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gfind/gfind/internal/ctype"
)

// Syntax is glibc's reg_syntax_t: one bit per syntax option, in the
// order of <regex.h>.
type Syntax uint32

const (
	backslashEscapeInLists Syntax = 1 << iota
	bkPlusQM
	charClasses
	contextIndepAnchors
	contextIndepOps
	contextInvalidOps
	dotNewline
	dotNotNull
	hatListsNotNewline
	intervals
	limitedOps
	newlineAlt
	noBkBraces
	noBkParens
	noBkRefs
	noBkVbar
	noEmptyRanges
	unmatchedRightParenOrd
	noPosixBacktracking
	noGNUOps
	debug
	invalidIntervalOrd
	ICase // RE_ICASE, which -iregex adds to the -regextype's bits
	caretAnchorsHere
	contextInvalidDup
	noSub
)

// The named syntaxes of <regex.h>: glibc 2.36's, but for emacs, which is
// that of the gnulib GNU find 4.11 is built with: glibc's header still
// has 0 (no classes, no intervals), gnulib's RE_CHAR_CLASSES |
// RE_INTERVALS (Emacs 21's syntax), so [[:digit:]] is a class and
// \{1,2\} an interval for -regex without -regextype (findutils 4.11 NEWS).
const (
	syntaxEmacs         Syntax = charClasses | intervals
	syntaxPosixCommon          = charClasses | dotNewline | dotNotNull | intervals | noEmptyRanges
	syntaxPosixBasic           = syntaxPosixCommon | bkPlusQM | contextInvalidDup
	syntaxPosixMinBasic        = syntaxPosixCommon | limitedOps
	syntaxPosixExtended        = syntaxPosixCommon | contextIndepAnchors | contextIndepOps |
		noBkBraces | noBkParens | noBkVbar | contextInvalidOps | unmatchedRightParenOrd
	syntaxAwk = backslashEscapeInLists | dotNotNull | noBkParens | noBkRefs | noBkVbar |
		noEmptyRanges | dotNewline | contextIndepAnchors | charClasses |
		unmatchedRightParenOrd | noGNUOps
	syntaxGNUAwk = (syntaxPosixExtended | backslashEscapeInLists | invalidIntervalOrd) &^
		(dotNotNull | contextIndepOps | contextInvalidOps)
	syntaxPosixAwk = syntaxPosixExtended | backslashEscapeInLists | intervals | noGNUOps |
		invalidIntervalOrd
	syntaxGrep  = (syntaxPosixBasic | newlineAlt) &^ (contextInvalidDup | dotNotNull)
	syntaxEgrep = (syntaxPosixExtended | invalidIntervalOrd | newlineAlt) &^
		(contextInvalidOps | dotNotNull)
)

// Default is the syntax -regex has without a -regextype before it.
const Default = syntaxEmacs

// types are the -regextype names in the order of findutils 4.11's
// regextype.c, which is the order its error message lists them in
// (alphabetical after findutils-default; 4.9's was not).
// findutils-default is not what find uses without -regextype: that is
// plain emacs (syntaxEmacs), where '.' does not match a newline.
var types = []struct {
	name string
	syn  Syntax
}{
	{"findutils-default", syntaxEmacs | dotNewline},
	{"awk", syntaxAwk},
	{"ed", syntaxPosixBasic},
	{"egrep", syntaxEgrep},
	{"emacs", syntaxEmacs},
	{"gnu-awk", syntaxGNUAwk},
	{"grep", syntaxGrep},
	{"posix-awk", syntaxPosixAwk},
	{"posix-basic", syntaxPosixBasic},
	{"posix-egrep", syntaxEgrep},
	{"posix-extended", syntaxPosixExtended},
	{"posix-minimal-basic", syntaxPosixMinBasic},
	{"sed", syntaxPosixBasic},
}

// Lookup returns the syntax bits of a -regextype name.
func Lookup(name string) (Syntax, bool) {
	for _, t := range types {
		if t.name == name {
			return t.syn, true
		}
	}
	return 0, false
}

// TypeNames returns the -regextype names in the order GNU find's error
// message lists them.
func TypeNames() []string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = t.name
	}
	return names
}

// dupMax is glibc's RE_DUP_MAX, the largest count of an interval.
const dupMax = 0x7fff

// errCode is one of glibc's reg_errcode_t values; its text is what
// re_compile_pattern returns (and find prints) in the C locale.
type errCode uint8

const (
	errNone errCode = iota
	errBadPat
	errCollate
	errCType
	errEscape
	errSubReg
	errBrack
	errParen
	errBrace
	errBadBR
	errRange
	errSpace
	errBadRpt
	errEnd
	errSize
	errRParen
	// errBackRef is gfind's own: a valid back-reference, which an
	// automaton cannot match.
	errBackRef
)

var errText = [...]string{
	errNone:    "Success",
	errBadPat:  "Invalid regular expression",
	errCollate: "Invalid collation character",
	errCType:   "Invalid character class name",
	errEscape:  "Trailing backslash",
	errSubReg:  "Invalid back reference",
	errBrack:   "Unmatched [, [^, [:, [., or [=",
	errParen:   "Unmatched ( or \\(",
	errBrace:   "Unmatched \\{",
	errBadBR:   "Invalid content of \\{\\}",
	errRange:   "Invalid range end",
	errSpace:   "Memory exhausted",
	errBadRpt:  "Invalid preceding regular expression",
	errEnd:     "Premature end of regular expression",
	errSize:    "Regular expression too big",
	errRParen:  "Unmatched ) or \\)",
	errBackRef: "back-references are not supported",
}

func (e errCode) Error() string { return errText[e] }

// ErrBackRef is the error Compile returns for a pattern glibc accepts but
// gfind cannot match: one with a back-reference. The caller words the
// message; every other error is glibc's, with glibc's text.
var ErrBackRef error = errBackRef

// Token types, as glibc's re_token_type_t has them.
type tokType uint8

const (
	tChar tokType = iota
	tEnd
	tBackslash // a trailing backslash
	tAlt
	tBackRef
	tAnchor
	tWord
	tNotWord
	tSpace
	tNotSpace
	tOpenGroup
	tCloseGroup
	tStar
	tPlus
	tQuestion
	tOpenDup
	tCloseDup
	tOpenBracket
	tPeriod
	// Inside brackets.
	tCloseBracket
	tNonMatch
	tRange
	tOpenColl
	tOpenEquiv
	tOpenClass
)

// assertion is a zero-width assertion.
type assertion uint8

const (
	lineStart    assertion = iota // ^: start, or after a newline
	lineEnd                       // $: end, or before a newline
	bufStart                      // \`
	bufEnd                        // \'
	wordBoundary                  // \b
	notBoundary                   // \B
	wordStart                     // \<
	wordEnd                       // \>
)

type token struct {
	typ tokType
	c   byte // the character, for tChar and the operators that may become one
	as  assertion
	ref int // tBackRef: the group number minus one
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *byteSet) not() {
	for i := range s {
		s[i] = ^s[i]
	}
}

// addClass adds the members of a C-locale character class; false for an
// unknown name.
func (s *byteSet) addClass(name string) bool {
	in, ok := ctype.Class(name)
	if !ok {
		return false
	}
	for c := 0; c < 256; c++ {
		if in(byte(c)) {
			s.add(byte(c))
		}
	}
	return true
}

// nodeOp is the kind of a parse tree node.
type nodeOp uint8

const (
	opSet nodeOp = iota
	opAssert
	opCat
	opAlt
	opRepeat
)

// node is a node of the parse tree. A nil *node matches the empty
// string (glibc's NULL tree).
type node struct {
	op       nodeOp
	set      byteSet   // opSet, over the bytes of the (uppercased) subject
	as       assertion // opAssert
	kids     []*node
	min, max int // opRepeat; max < 0 is unbounded
}

// parser is glibc's parser state: the pattern, its read position
// (cur_idx) and the current token.
type parser struct {
	pat []byte // as given
	up  []byte // as read: uppercased under RE_ICASE, except where noted
	pos int
	syn Syntax
	tok token

	nsub      int    // groups opened so far
	completed uint16 // groups closed so far (completed_bkref_map)
	backRef   bool   // a valid back-reference was seen
	words     bool   // \< or \> was seen
	err       errCode
}

// parse parses pat with the syntax bits syn into a tree, or
// returns glibc's error for it.
func parse(pat string, syn Syntax) (*node, *parser, error) {
	// A C string ends at the first NUL; argv can hold none anyway.
	if i := strings.IndexByte(pat, 0); i >= 0 {
		pat = pat[:i]
	}
	p := &parser{pat: []byte(pat), syn: syn}
	p.up = p.pat
	if syn&ICase != 0 {
		p.up = make([]byte, len(pat))
		for i := range p.pat {
			p.up[i] = ctype.ToUpper(p.pat[i])
		}
	}
	p.fetch(syn | caretAnchorsHere)
	tree := p.regExp(0)
	if p.err != errNone {
		return nil, p, p.err
	}
	if p.backRef {
		return nil, p, errBackRef
	}
	return tree, p, nil
}

func (p *parser) fail(e errCode) *node {
	if p.err == errNone {
		p.err = e
	}
	return nil
}

func (p *parser) fetch(syn Syntax) {
	var n int
	p.tok, n = p.peek(p.pos, syn)
	p.pos += n
}

// peek is glibc's peek_token: the token at i and its length.
func (p *parser) peek(i int, syn Syntax) (token, int) {
	if i >= len(p.up) {
		return token{typ: tEnd}, 0
	}
	c := p.up[i]
	if c == '\\' {
		if i+1 >= len(p.up) {
			return token{typ: tBackslash, c: c}, 1
		}
		c2 := p.pat[i+1] // the escaped character keeps its case
		t := token{typ: tChar, c: c2}
		gnu := syn&noGNUOps == 0
		switch c2 {
		case '|':
			if syn&limitedOps == 0 && syn&noBkVbar == 0 {
				t.typ = tAlt
			}
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if syn&noBkRefs == 0 {
				t = token{typ: tBackRef, ref: int(c2 - '1')}
			}
		case '<':
			if gnu {
				t = token{typ: tAnchor, as: wordStart}
			}
		case '>':
			if gnu {
				t = token{typ: tAnchor, as: wordEnd}
			}
		case 'b':
			if gnu {
				t = token{typ: tAnchor, as: wordBoundary}
			}
		case 'B':
			if gnu {
				t = token{typ: tAnchor, as: notBoundary}
			}
		case 'w':
			if gnu {
				t.typ = tWord
			}
		case 'W':
			if gnu {
				t.typ = tNotWord
			}
		case 's':
			if gnu {
				t.typ = tSpace
			}
		case 'S':
			if gnu {
				t.typ = tNotSpace
			}
		case '`':
			if gnu {
				t = token{typ: tAnchor, as: bufStart}
			}
		case '\'':
			if gnu {
				t = token{typ: tAnchor, as: bufEnd}
			}
		case '(':
			if syn&noBkParens == 0 {
				t.typ = tOpenGroup
			}
		case ')':
			if syn&noBkParens == 0 {
				t.typ = tCloseGroup
			}
		case '+':
			if syn&limitedOps == 0 && syn&bkPlusQM != 0 {
				t.typ = tPlus
			}
		case '?':
			if syn&limitedOps == 0 && syn&bkPlusQM != 0 {
				t.typ = tQuestion
			}
		case '{':
			if syn&intervals != 0 && syn&noBkBraces == 0 {
				t.typ = tOpenDup
			}
		case '}':
			if syn&intervals != 0 && syn&noBkBraces == 0 {
				t.typ = tCloseDup
			}
		}
		return t, 2
	}
	t := token{typ: tChar, c: c}
	switch c {
	case '\n':
		if syn&newlineAlt != 0 {
			t.typ = tAlt
		}
	case '|':
		if syn&limitedOps == 0 && syn&noBkVbar != 0 {
			t.typ = tAlt
		}
	case '*':
		t.typ = tStar
	case '+':
		if syn&limitedOps == 0 && syn&bkPlusQM == 0 {
			t.typ = tPlus
		}
	case '?':
		if syn&limitedOps == 0 && syn&bkPlusQM == 0 {
			t.typ = tQuestion
		}
	case '{':
		if syn&intervals != 0 && syn&noBkBraces != 0 {
			t.typ = tOpenDup
		}
	case '}':
		if syn&intervals != 0 && syn&noBkBraces != 0 {
			t.typ = tCloseDup
		}
	case '(':
		if syn&noBkParens != 0 {
			t.typ = tOpenGroup
		}
	case ')':
		if syn&noBkParens != 0 {
			t.typ = tCloseGroup
		}
	case '[':
		t.typ = tOpenBracket
	case '.':
		t.typ = tPeriod
	case '^':
		// An anchor at the start, after an open group or an
		// alternation (the caller passes caretAnchorsHere there),
		// after a newline that is an alternation, or anywhere when
		// anchors are context independent.
		if syn&(contextIndepAnchors|caretAnchorsHere) == 0 && i != 0 {
			if syn&newlineAlt == 0 || p.up[i-1] != '\n' {
				break
			}
		}
		t = token{typ: tAnchor, as: lineStart}
	case '$':
		// An anchor at the end, or before a close group or an
		// alternation.
		if syn&contextIndepAnchors == 0 && i+1 != len(p.up) {
			next, _ := p.peek(i+1, syn)
			if next.typ != tAlt && next.typ != tCloseGroup {
				break
			}
		}
		t = token{typ: tAnchor, as: lineEnd}
	}
	return t, 1
}

// regExp is glibc's parse_reg_exp: branches separated by alternations.
func (p *parser) regExp(nest int) *node {
	initial := p.completed
	tree := p.branch(nest)
	if p.err != errNone {
		return nil
	}
	var alts []*node
	for p.tok.typ == tAlt {
		if alts == nil {
			alts = []*node{tree}
		}
		p.fetch(p.syn | caretAnchorsHere)
		var br *node
		if p.tok.typ != tAlt && p.tok.typ != tEnd && (nest == 0 || p.tok.typ != tCloseGroup) {
			acc := p.completed
			p.completed = initial // a branch cannot refer to a group of another
			br = p.branch(nest)
			if p.err != errNone {
				return nil
			}
			p.completed |= acc
		}
		alts = append(alts, br)
	}
	if alts != nil {
		return &node{op: opAlt, kids: alts}
	}
	return tree
}

// branch is glibc's parse_branch: a concatenation.
func (p *parser) branch(nest int) *node {
	var cat []*node
	for {
		expr := p.expression(nest)
		if p.err != errNone {
			return nil
		}
		if expr != nil {
			cat = append(cat, expr)
		}
		if p.tok.typ == tAlt || p.tok.typ == tEnd || (nest > 0 && p.tok.typ == tCloseGroup) {
			break
		}
	}
	switch len(cat) {
	case 0:
		return nil
	case 1:
		return cat[0]
	}
	return &node{op: opCat, kids: cat}
}

// charNode matches the character c of the (uppercased) pattern.
func charNode(c byte) *node {
	n := &node{op: opSet}
	n.set.add(c)
	return n
}

// expression is glibc's parse_expression: one atom and the repetition
// operators after it.
func (p *parser) expression(nest int) *node {
	var tree *node
	switch t := p.tok; t.typ {
	case tChar:
		tree = charNode(t.c)
	case tOpenGroup:
		tree = p.subExp(nest + 1)
		if p.err != errNone {
			return nil
		}
	case tOpenBracket:
		tree = p.bracket()
		if p.err != errNone {
			return nil
		}
	case tBackRef:
		if p.completed&(1<<t.ref) == 0 {
			return p.fail(errSubReg)
		}
		p.backRef = true
		tree = &node{op: opCat} // never used: the pattern is refused
	case tOpenDup, tStar, tPlus, tQuestion, tCloseGroup, tCloseDup:
		switch {
		case t.typ == tOpenDup && p.syn&contextInvalidDup != 0:
			return p.fail(errBadRpt)
		case t.typ == tCloseGroup || t.typ == tCloseDup:
		case p.syn&contextInvalidOps != 0:
			return p.fail(errBadRpt)
		case p.syn&contextIndepOps != 0:
			// A repetition operator with nothing before it is
			// ignored.
			p.fetch(p.syn)
			return p.expression(nest)
		}
		if t.typ == tCloseGroup && p.syn&unmatchedRightParenOrd == 0 {
			return p.fail(errRParen)
		}
		tree = charNode(t.c) // taken literally
	case tAnchor:
		if t.as == wordStart || t.as == wordEnd {
			p.words = true
		}
		tree = &node{op: opAssert, as: t.as}
		// An anchor cannot be repeated: a '*' after it starts the next
		// expression.
		p.fetch(p.syn)
		return tree
	case tPeriod:
		tree = &node{op: opSet}
		tree.set.not()
		if p.syn&dotNewline == 0 {
			tree.set[0] &^= 1 << '\n'
		}
		if p.syn&dotNotNull != 0 {
			tree.set[0] &^= 1
		}
	case tWord, tNotWord:
		tree = &node{op: opSet}
		tree.set.addClass("alnum")
		tree.set.add('_')
		if t.typ == tNotWord {
			tree.set.not()
		}
	case tSpace, tNotSpace:
		tree = &node{op: opSet}
		tree.set.addClass("space")
		if t.typ == tNotSpace {
			tree.set.not()
		}
	case tAlt, tEnd:
		return nil
	case tBackslash:
		return p.fail(errEscape)
	}
	p.fetch(p.syn)
	for p.tok.typ == tStar || p.tok.typ == tPlus || p.tok.typ == tQuestion || p.tok.typ == tOpenDup {
		tree = p.dupOp(tree)
		if p.err != errNone {
			return nil
		}
		// In BRE consecutive duplications are not allowed.
		if p.syn&contextInvalidDup != 0 && (p.tok.typ == tStar || p.tok.typ == tOpenDup) {
			return p.fail(errBadRpt)
		}
	}
	return tree
}

// subExp is glibc's parse_sub_exp: a group, after its open token.
func (p *parser) subExp(nest int) *node {
	cur := p.nsub
	p.nsub++
	p.fetch(p.syn | caretAnchorsHere)
	var tree *node
	if p.tok.typ != tCloseGroup {
		tree = p.regExp(nest)
		if p.err == errNone && p.tok.typ != tCloseGroup {
			p.fail(errParen)
		}
		if p.err != errNone {
			return nil
		}
	}
	if cur <= 8 {
		p.completed |= 1 << cur
	}
	if tree == nil {
		// An empty group is not nothing: it can be repeated.
		return &node{op: opCat}
	}
	return tree
}

// dupOp is glibc's parse_dup_op: the repetition operator in p.tok
// applied to elem.
func (p *parser) dupOp(elem *node) *node {
	startPos, startTok := p.pos, p.tok
	var start, end int
	if p.tok.typ == tOpenDup {
		start = p.fetchNumber()
		if start == -1 {
			if p.tok.typ == tChar && p.tok.c == ',' {
				start = 0 // {,m} is {0,m}
			} else {
				return p.fail(errBadBR) // {} is invalid
			}
		}
		if start != -2 {
			switch {
			case p.tok.typ == tCloseDup:
				end = start
			case p.tok.typ == tChar && p.tok.c == ',':
				end = p.fetchNumber()
			default:
				end = -2
			}
		}
		if start == -2 || end == -2 {
			if p.syn&invalidIntervalOrd == 0 {
				if p.tok.typ == tEnd {
					return p.fail(errBrace)
				}
				return p.fail(errBadBR)
			}
			// Not an interval after all: the '{' is a character.
			p.pos, p.tok = startPos, startTok
			p.tok.typ = tChar
			return elem
		}
		if (end != -1 && start > end) || p.tok.typ != tCloseDup {
			return p.fail(errBadBR)
		}
		if m := end; m > dupMax || m == -1 && start > dupMax {
			return p.fail(errSize) // RE_DUP_MAX < (end == -1 ? start : end)
		}
	} else {
		start, end = 0, -1
		switch p.tok.typ {
		case tPlus:
			start = 1
		case tQuestion:
			end = 1
		}
	}
	p.fetch(p.syn)
	if elem == nil || start == 0 && end == 0 {
		return nil
	}
	return &node{op: opRepeat, kids: []*node{elem}, min: start, max: end}
}

// fetchNumber is glibc's fetch_number: -1 for no digits, -2 for an
// error, at most dupMax+1.
func (p *parser) fetchNumber() int {
	num := -1
	for {
		p.fetch(p.syn)
		c := p.tok.c
		if p.tok.typ == tEnd {
			return -2
		}
		if p.tok.typ == tCloseDup || c == ',' {
			break
		}
		switch {
		case p.tok.typ != tChar || c < '0' || c > '9' || num == -2:
			num = -2
		case num == -1:
			num = int(c - '0')
		default:
			num = min(dupMax+1, num*10+int(c-'0'))
		}
	}
	return num
}

// elemKind is the kind of a bracket element.
type elemKind uint8

const (
	elemChar elemKind = iota
	elemColl
	elemEquiv
	elemClass
)

type listElem struct {
	kind elemKind
	c    byte
	name string
}

// peekBracket is gnulib's peek_token_bracket. An escaped character
// (RE_BACKSLASH_ESCAPE_IN_LISTS) is one token of length 2.
func (p *parser) peekBracket() (token, int) {
	i := p.pos
	if i >= len(p.up) {
		return token{typ: tEnd}, 0
	}
	c := p.up[i]
	if c == '\\' && p.syn&backslashEscapeInLists != 0 && i+1 < len(p.up) {
		return token{typ: tChar, c: p.up[i+1]}, 2
	}
	if c == '[' {
		var c2 byte
		if i+1 < len(p.up) {
			c2 = p.up[i+1]
		}
		switch {
		case c2 == '.':
			return token{typ: tOpenColl, c: c2}, 2
		case c2 == '=':
			return token{typ: tOpenEquiv, c: c2}, 2
		case c2 == ':' && p.syn&charClasses != 0:
			return token{typ: tOpenClass, c: c2}, 2
		}
		return token{typ: tChar, c: c}, 1
	}
	t := token{typ: tChar, c: c}
	switch c {
	case ']':
		t.typ = tCloseBracket
	case '^':
		t.typ = tNonMatch
	case '-':
		// In V7 grep, awk and mawk, "---" in a list is one '-'. gnulib
		// (GNU find 4.11) reads it so, glibc 2.36 does not. As gnulib
		// does, the peek moves past the first two: the token is the
		// third, a plain character.
		if i+2 < len(p.up) && p.up[i+1] == '-' && p.up[i+2] == '-' {
			p.pos += 2
			break
		}
		t.typ = tRange
	}
	return t, 1
}

// bracket is glibc's parse_bracket_exp, after the '['.
func (p *parser) bracket() *node {
	n := &node{op: opSet}
	tok, tlen := p.peekBracket()
	if tok.typ == tEnd {
		return p.fail(errBadPat)
	}
	nonMatch := false
	if tok.typ == tNonMatch {
		nonMatch = true
		if p.syn&hatListsNotNewline != 0 {
			n.set.add('\n')
		}
		p.pos += tlen
		if tok, tlen = p.peekBracket(); tok.typ == tEnd {
			return p.fail(errBadPat)
		}
	}
	if tok.typ == tCloseBracket {
		tok.typ = tChar // a ']' first is a member
	}
	first := true
	for {
		start, ok := p.bracketElem(tok, tlen, first)
		if !ok {
			return nil
		}
		first = false
		tok, tlen = p.peekBracket()
		isRange := false
		var tok2 token
		var tlen2 int
		if start.kind != elemClass && start.kind != elemEquiv {
			if tok.typ == tEnd {
				return p.fail(errBrack)
			}
			if tok.typ == tRange {
				p.pos += tlen
				tok2, tlen2 = p.peekBracket()
				if tok2.typ == tEnd {
					return p.fail(errBrack)
				}
				if tok2.typ == tCloseBracket {
					// A '-' last is a member.
					p.pos -= tlen
					tok.typ = tChar
				} else {
					isRange = true
				}
			}
		}
		if isRange {
			end, ok := p.bracketElem(tok2, tlen2, true)
			if !ok {
				return nil
			}
			tok, tlen = p.peekBracket()
			if e := p.addRange(&n.set, start, end); e != errNone {
				return p.fail(e)
			}
		} else if e := p.addElem(&n.set, start); e != errNone {
			return p.fail(e)
		}
		if tok.typ == tEnd {
			return p.fail(errBrack)
		}
		if tok.typ == tCloseBracket {
			break
		}
	}
	p.pos += tlen
	if nonMatch {
		n.set.not()
	}
	return n
}

// bracketElem is glibc's parse_bracket_element.
func (p *parser) bracketElem(tok token, tlen int, acceptHyphen bool) (listElem, bool) {
	p.pos += tlen
	switch tok.typ {
	case tOpenColl, tOpenEquiv, tOpenClass:
		return p.bracketSymbol(tok)
	case tRange:
		if !acceptHyphen {
			// A '-' that does not start a range must end the list.
			if t2, _ := p.peekBracket(); t2.typ != tCloseBracket {
				p.fail(errRange)
				return listElem{}, false
			}
		}
	}
	return listElem{kind: elemChar, c: tok.c}, true
}

// bracketSymbol is glibc's parse_bracket_symbol: the name in [.x.],
// [=x=] or [:x:]. Class names keep their case under RE_ICASE.
func (p *parser) bracketSymbol(tok token) (listElem, bool) {
	if p.pos >= len(p.up) {
		p.fail(errBrack)
		return listElem{}, false
	}
	src := p.up
	if tok.typ == tOpenClass {
		src = p.pat
	}
	var name []byte
	for i := 0; ; i++ {
		if i >= 32 { // BRACKET_NAME_BUF_SIZE
			p.fail(errBrack)
			return listElem{}, false
		}
		ch := src[p.pos]
		p.pos++
		if p.pos >= len(p.up) {
			p.fail(errBrack)
			return listElem{}, false
		}
		if ch == tok.c && p.up[p.pos] == ']' {
			break
		}
		name = append(name, ch)
	}
	p.pos++
	e := listElem{name: string(name)}
	switch tok.typ {
	case tOpenColl:
		e.kind = elemColl
	case tOpenEquiv:
		e.kind = elemEquiv
	default:
		e.kind = elemClass
	}
	return e, true
}

// addElem adds a bracket element that is not part of a range. The C
// locale has no multi-character collating elements and every character
// is its own equivalence class.
func (p *parser) addElem(s *byteSet, e listElem) errCode {
	switch e.kind {
	case elemChar:
		s.add(e.c)
	case elemColl, elemEquiv:
		if len(e.name) != 1 {
			return errCollate
		}
		s.add(e.name[0])
	case elemClass:
		name := e.name
		if p.syn&ICase != 0 && (name == "upper" || name == "lower") {
			name = "alpha"
		}
		if !s.addClass(name) {
			return errCType
		}
	}
	return errNone
}

// addRange adds start-end; the C locale collates bytes by value.
func (p *parser) addRange(s *byteSet, start, end listElem) errCode {
	if start.kind == elemEquiv || start.kind == elemClass || end.kind == elemEquiv || end.kind == elemClass {
		return errRange
	}
	lo, ok1 := start.point()
	hi, ok2 := end.point()
	if !ok1 || !ok2 {
		return errCollate
	}
	if lo > hi && p.syn&noEmptyRanges != 0 {
		return errRange
	}
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
	return errNone
}

// point is the collation value of a range end point.
func (e listElem) point() (byte, bool) {
	if e.kind == elemChar {
		return e.c, true
	}
	if len(e.name) != 1 {
		return 0, false
	}
	return e.name[0], true
}

// Translation to Go.

// Marker runes stand for \< and \> in the program nfa runs; no subject
// character is above 0xff.
const (
	markWordStart = utf8.MaxRune
	markWordEnd   = utf8.MaxRune - 1
)

// maxSize bounds the size of a pattern after its intervals are
// expanded, which is how glibc compiles them too.
const maxSize = 1 << 20

// toSyntax converts the parse tree to a regexp/syntax tree over Latin-1
// runes. Under RE_ICASE glibc matches the uppercased subject, so a set
// S matches the bytes whose toupper is in S.
func (n *node) toSyntax(icase bool) *syntax.Regexp {
	if n == nil {
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	}
	switch n.op {
	case opSet:
		set := n.set
		if icase {
			set = byteSet{}
			for c := 0; c < 256; c++ {
				if n.set.has(ctype.ToUpper(byte(c))) {
					set.add(byte(c))
				}
			}
		}
		return setSyntax(&set)
	case opAssert:
		switch n.as {
		case lineStart:
			return &syntax.Regexp{Op: syntax.OpBeginLine}
		case lineEnd:
			return &syntax.Regexp{Op: syntax.OpEndLine}
		case bufStart:
			return &syntax.Regexp{Op: syntax.OpBeginText}
		case bufEnd:
			return &syntax.Regexp{Op: syntax.OpEndText}
		case wordBoundary:
			return &syntax.Regexp{Op: syntax.OpWordBoundary}
		case notBoundary:
			return &syntax.Regexp{Op: syntax.OpNoWordBoundary}
		case wordStart:
			return &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{markWordStart}}
		default:
			return &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{markWordEnd}}
		}
	case opCat, opAlt:
		if len(n.kids) == 0 {
			return &syntax.Regexp{Op: syntax.OpEmptyMatch}
		}
		op := syntax.OpConcat
		if n.op == opAlt {
			op = syntax.OpAlternate
		}
		re := &syntax.Regexp{Op: op}
		for _, k := range n.kids {
			re.Sub = append(re.Sub, k.toSyntax(icase))
		}
		if len(re.Sub) == 1 {
			return re.Sub[0]
		}
		return re
	}
	return repeatSyntax(n.kids[0].toSyntax(icase), n.min, n.max)
}

// setSyntax is a set of bytes as a class of Latin-1 runes.
func setSyntax(s *byteSet) *syntax.Regexp {
	var ranges []rune
	count := 0
	for c := 0; c < 256; {
		if !s.has(byte(c)) {
			c++
			continue
		}
		lo := c
		for c < 256 && s.has(byte(c)) {
			c++
		}
		ranges = append(ranges, rune(lo), rune(c-1))
		count += c - lo
	}
	switch count {
	case 0:
		return &syntax.Regexp{Op: syntax.OpNoMatch}
	case 1:
		return &syntax.Regexp{Op: syntax.OpLiteral, Rune: ranges[:1]}
	}
	return &syntax.Regexp{Op: syntax.OpCharClass, Rune: ranges}
}

// repeatSyntax is sub{min,max} within what Go's parser accepts: counts
// above 1000, or nested counts whose product is, are written out as
// copies, as glibc itself expands every interval.
func repeatSyntax(sub *syntax.Regexp, min, max int) *syntax.Regexp {
	switch {
	case min == 0 && max == -1:
		return &syntax.Regexp{Op: syntax.OpStar, Sub: []*syntax.Regexp{sub}}
	case min == 1 && max == -1:
		return &syntax.Regexp{Op: syntax.OpPlus, Sub: []*syntax.Regexp{sub}}
	case min == 0 && max == 1:
		return &syntax.Regexp{Op: syntax.OpQuest, Sub: []*syntax.Regexp{sub}}
	}
	re := &syntax.Regexp{Op: syntax.OpRepeat, Sub: []*syntax.Regexp{sub}, Min: min, Max: max}
	if repeatValid(re, 1000) {
		return re
	}
	cat := &syntax.Regexp{Op: syntax.OpConcat}
	for range min {
		cat.Sub = append(cat.Sub, sub)
	}
	if max < 0 {
		cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpStar, Sub: []*syntax.Regexp{sub}})
	} else {
		q := &syntax.Regexp{Op: syntax.OpQuest, Sub: []*syntax.Regexp{sub}}
		for range max - min {
			cat.Sub = append(cat.Sub, q)
		}
	}
	return cat
}

// repeatValid is the limit regexp/syntax puts on counted repetitions:
// at most n, nested ones multiplied.
func repeatValid(re *syntax.Regexp, n int) bool {
	if re.Op == syntax.OpRepeat {
		m := re.Max
		if m == 0 {
			return true
		}
		if m < 0 {
			m = re.Min
		}
		if m > n {
			return false
		}
		if m > 0 {
			n /= m
		}
	}
	for _, sub := range re.Sub {
		if !repeatValid(sub, n) {
			return false
		}
	}
	return true
}

// size estimates the number of nodes n expands to, saturating above
// maxSize.
func (n *node) size() int {
	if n == nil {
		return 1
	}
	switch n.op {
	case opCat, opAlt:
		s := 1
		for _, k := range n.kids {
			s = min(s+k.size(), maxSize+1)
		}
		return s
	case opRepeat:
		c := n.max
		if c < 0 {
			c = n.min + 1
		}
		return min(1+c*n.kids[0].size(), maxSize+1)
	}
	return 1
}

// Regexp is a compiled -regex pattern: a Go regexp over Latin-1 runes,
// or for \< and \> a program for nfa.
type Regexp struct {
	re *regexp.Regexp
	vm *nfa
}

// Compile compiles pat with the syntax bits syn (including ICase for
// -iregex) into a matcher of whole paths. Its errors are glibc's
// (re_compile_pattern's message in the C locale) or ErrBackRef.
func Compile(pat string, syn Syntax) (*Regexp, error) {
	tree, p, err := parse(pat, syn)
	if err != nil {
		return nil, err
	}
	if tree.size() > maxSize {
		return nil, errSize
	}
	body := tree.toSyntax(syn&ICase != 0)
	// re_match must consume the whole path.
	whole := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{
		{Op: syntax.OpBeginText}, body, {Op: syntax.OpEndText},
	}}
	if p.words {
		prog, err := syntax.Compile(whole.Simplify())
		if err != nil {
			return nil, errSize
		}
		return &Regexp{vm: newNFA(prog)}, nil
	}
	re, err := regexp.Compile(whole.String())
	if err != nil {
		// Only sizes Go refuses (a pattern too large or nested too
		// deep) get here.
		return nil, errSize
	}
	return &Regexp{re: re}, nil
}

// latin1Bufs are buffers for paths re-encoded as Latin-1 UTF-8.
var latin1Bufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// Match reports whether the whole of path matches, as re_match
// consuming all of it would. It does not allocate once its pools are
// warm, and is safe for concurrent use.
func (g *Regexp) Match(path []byte) bool {
	if g.vm != nil {
		return g.vm.match(path)
	}
	ascii := true
	for _, c := range path {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return g.re.Match(path)
	}
	bp := latin1Bufs.Get().(*[]byte)
	b := (*bp)[:0]
	for _, c := range path {
		b = utf8.AppendRune(b, rune(c))
	}
	ok := g.re.Match(b)
	*bp = b
	latin1Bufs.Put(bp)
	return ok
}

// nfa simulates the compiled program's NFA over the bytes of a path,
// each byte one character, with the marker runes as \< and \>.
type nfa struct {
	prog *syntax.Prog
	pool sync.Pool // *scratch
}

type scratch struct {
	cur, next queue
	stack     []uint32
}

// queue is a sparse set of instruction indexes.
type queue struct{ sparse, dense []uint32 }

func (q *queue) has(pc uint32) bool {
	i := q.sparse[pc]
	return int(i) < len(q.dense) && q.dense[i] == pc
}

func (q *queue) add(pc uint32) {
	q.sparse[pc] = uint32(len(q.dense))
	q.dense = append(q.dense, pc)
}

func newNFA(prog *syntax.Prog) *nfa {
	vm := &nfa{prog: prog}
	n := len(prog.Inst)
	vm.pool.New = func() any {
		return &scratch{
			cur:  queue{sparse: make([]uint32, n), dense: make([]uint32, 0, n)},
			next: queue{sparse: make([]uint32, n), dense: make([]uint32, 0, n)},
		}
	}
	return vm
}

func (vm *nfa) match(s []byte) bool {
	sc := vm.pool.Get().(*scratch)
	defer vm.pool.Put(sc)
	cur, next := &sc.cur, &sc.next
	cur.dense = cur.dense[:0]
	vm.add(sc, cur, uint32(vm.prog.Start), s, 0)
	for i := 0; len(cur.dense) > 0; i++ {
		next.dense = next.dense[:0]
		for _, pc := range cur.dense {
			inst := &vm.prog.Inst[pc]
			switch inst.Op {
			case syntax.InstMatch:
				if i == len(s) {
					return true
				}
			case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				if i < len(s) && inst.MatchRune(rune(s[i])) {
					vm.add(sc, next, inst.Out, s, i+1)
				}
			}
		}
		if i == len(s) {
			break
		}
		cur, next = next, cur
	}
	return false
}

// add adds pc and what it reaches without reading a character at
// position pos of s.
func (vm *nfa) add(sc *scratch, q *queue, pc uint32, s []byte, pos int) {
	r1, r2 := rune(-1), rune(-1)
	if pos > 0 {
		r1 = rune(s[pos-1])
	}
	if pos < len(s) {
		r2 = rune(s[pos])
	}
	stack := append(sc.stack[:0], pc)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if q.has(pc) {
			continue
		}
		q.add(pc)
		inst := &vm.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, inst.Arg, inst.Out)
		case syntax.InstNop, syntax.InstCapture:
			stack = append(stack, inst.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.Arg)&^syntax.EmptyOpContext(r1, r2) == 0 {
				stack = append(stack, inst.Out)
			}
		case syntax.InstRune1:
			w1, w2 := syntax.IsWordChar(r1), syntax.IsWordChar(r2)
			switch inst.Rune[0] {
			case markWordStart:
				if !w1 && w2 {
					stack = append(stack, inst.Out)
				}
			case markWordEnd:
				if w1 && !w2 {
					stack = append(stack, inst.Out)
				}
			}
		}
	}
	sc.stack = stack
}
