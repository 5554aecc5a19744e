package gnuregex

// GNU regular expressions (-regex, -iregex) as GNU find 4.9 compiles them
// with glibc 2.36: re_compile_pattern with the -regextype's syntax bits,
// then re_match, which must consume the whole path. The C locale is
// assumed: a character is a byte, and the classes are ASCII.
//
// The pattern is parsed here the way glibc's regcomp.c parses it: the
// same tokens, context rules and error codes (regex_test.go checks them
// against GNU find; a comparison with glibc's re_compile_pattern and
// re_match on some 500,000 random patterns found no difference). The
// tree is then handed to Go's regexp as a regexp/syntax tree in which
// byte b is rune b (Latin-1), so that '.' and brackets match exactly one
// byte; -iregex is compiled into the sets rather than left to Go's
// Unicode case folding. Since re_compile_pattern sets newline_anchor, ^
// and $ also match after and before a newline in the path.
//
// Go's RE2 has no \< and \> (a word start, a word end), so a pattern
// using them runs on a small NFA simulation of the compiled program
// instead (rxVM). Back-references cannot be done by an automaton and are
// refused with an error of gfind's own.

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"
)

// Syntax is glibc's reg_syntax_t: one bit per syntax option, in the
// order of <regex.h>.
type Syntax uint32

const (
	rxBackslashEscapeInLists Syntax = 1 << iota
	rxBkPlusQM
	rxCharClasses
	rxContextIndepAnchors
	rxContextIndepOps
	rxContextInvalidOps
	rxDotNewline
	rxDotNotNull
	rxHatListsNotNewline
	rxIntervals
	rxLimitedOps
	rxNewlineAlt
	rxNoBkBraces
	rxNoBkParens
	rxNoBkRefs
	rxNoBkVbar
	rxNoEmptyRanges
	rxUnmatchedRightParenOrd
	rxNoPosixBacktracking
	rxNoGNUOps
	rxDebug
	rxInvalidIntervalOrd
	ICase // RE_ICASE, which -iregex adds to the -regextype's bits
	rxCaretAnchorsHere
	rxContextInvalidDup
	rxNoSub
)

// The named syntaxes of <regex.h> (glibc 2.36).
const (
	rxSyntaxEmacs         Syntax = 0
	rxSyntaxPosixCommon          = rxCharClasses | rxDotNewline | rxDotNotNull | rxIntervals | rxNoEmptyRanges
	rxSyntaxPosixBasic           = rxSyntaxPosixCommon | rxBkPlusQM | rxContextInvalidDup
	rxSyntaxPosixMinBasic        = rxSyntaxPosixCommon | rxLimitedOps
	rxSyntaxPosixExtended        = rxSyntaxPosixCommon | rxContextIndepAnchors | rxContextIndepOps |
		rxNoBkBraces | rxNoBkParens | rxNoBkVbar | rxContextInvalidOps | rxUnmatchedRightParenOrd
	rxSyntaxAwk = rxBackslashEscapeInLists | rxDotNotNull | rxNoBkParens | rxNoBkRefs | rxNoBkVbar |
		rxNoEmptyRanges | rxDotNewline | rxContextIndepAnchors | rxCharClasses |
		rxUnmatchedRightParenOrd | rxNoGNUOps
	rxSyntaxGNUAwk = (rxSyntaxPosixExtended | rxBackslashEscapeInLists | rxInvalidIntervalOrd) &^
		(rxDotNotNull | rxContextIndepOps | rxContextInvalidOps)
	rxSyntaxPosixAwk = rxSyntaxPosixExtended | rxBackslashEscapeInLists | rxIntervals | rxNoGNUOps |
		rxInvalidIntervalOrd
	rxSyntaxGrep  = (rxSyntaxPosixBasic | rxNewlineAlt) &^ (rxContextInvalidDup | rxDotNotNull)
	rxSyntaxEgrep = (rxSyntaxPosixExtended | rxInvalidIntervalOrd | rxNewlineAlt) &^
		(rxContextInvalidOps | rxDotNotNull)
)

// Default is the syntax -regex has without a -regextype before it.
const Default = rxSyntaxEmacs

// regexTypes are the -regextype names in the order of findutils'
// regextype.c, which is the order its error message lists them in.
// findutils-default is not what find uses without -regextype: that is
// plain emacs (rxSyntaxEmacs), where '.' does not match a newline.
var regexTypes = []struct {
	name string
	syn  Syntax
}{
	{"findutils-default", rxSyntaxEmacs | rxDotNewline},
	{"ed", rxSyntaxPosixBasic},
	{"emacs", rxSyntaxEmacs},
	{"gnu-awk", rxSyntaxGNUAwk},
	{"grep", rxSyntaxGrep},
	{"posix-awk", rxSyntaxPosixAwk},
	{"awk", rxSyntaxAwk},
	{"posix-basic", rxSyntaxPosixBasic},
	{"posix-egrep", rxSyntaxEgrep},
	{"egrep", rxSyntaxEgrep},
	{"posix-extended", rxSyntaxPosixExtended},
	{"posix-minimal-basic", rxSyntaxPosixMinBasic},
	{"sed", rxSyntaxPosixBasic},
}

// Lookup returns the syntax bits of a -regextype name.
func Lookup(name string) (Syntax, bool) {
	for _, t := range regexTypes {
		if t.name == name {
			return t.syn, true
		}
	}
	return 0, false
}

// TypeNames returns the -regextype names in the order GNU find's error
// message lists them.
func TypeNames() []string {
	names := make([]string, len(regexTypes))
	for i, t := range regexTypes {
		names[i] = t.name
	}
	return names
}

// rxDupMax is glibc's RE_DUP_MAX, the largest count of an interval.
const rxDupMax = 0x7fff

// rxErr is one of glibc's reg_errcode_t values; its text is what
// re_compile_pattern returns (and find prints) in the C locale.
type rxErr uint8

const (
	rxOK rxErr = iota
	rxEBadPat
	rxECollate
	rxECType
	rxEEscape
	rxESubReg
	rxEBrack
	rxEParen
	rxEBrace
	rxEBadBR
	rxERange
	rxESpace
	rxEBadRpt
	rxEEnd
	rxESize
	rxERParen
	// rxEBackRef is gfind's own: a valid back-reference, which an
	// automaton cannot match.
	rxEBackRef
)

var rxErrText = [...]string{
	rxOK:       "Success",
	rxEBadPat:  "Invalid regular expression",
	rxECollate: "Invalid collation character",
	rxECType:   "Invalid character class name",
	rxEEscape:  "Trailing backslash",
	rxESubReg:  "Invalid back reference",
	rxEBrack:   "Unmatched [, [^, [:, [., or [=",
	rxEParen:   "Unmatched ( or \\(",
	rxEBrace:   "Unmatched \\{",
	rxEBadBR:   "Invalid content of \\{\\}",
	rxERange:   "Invalid range end",
	rxESpace:   "Memory exhausted",
	rxEBadRpt:  "Invalid preceding regular expression",
	rxEEnd:     "Premature end of regular expression",
	rxESize:    "Regular expression too big",
	rxERParen:  "Unmatched ) or \\)",
	rxEBackRef: "back-references are not supported",
}

func (e rxErr) Error() string { return rxErrText[e] }

// ErrBackRef is the error Compile returns for a pattern glibc accepts but
// gfind cannot match: one with a back-reference. The caller words the
// message; every other error is glibc's, with glibc's text.
var ErrBackRef error = rxEBackRef

// Token types, as glibc's re_token_type_t has them.
type rxTokType uint8

const (
	rxTChar rxTokType = iota
	rxTEnd
	rxTBackslash // a trailing backslash
	rxTAlt
	rxTBackRef
	rxTAnchor
	rxTWord
	rxTNotWord
	rxTSpace
	rxTNotSpace
	rxTOpenGroup
	rxTCloseGroup
	rxTStar
	rxTPlus
	rxTQuestion
	rxTOpenDup
	rxTCloseDup
	rxTOpenBracket
	rxTPeriod
	// Inside brackets.
	rxTCloseBracket
	rxTNonMatch
	rxTRange
	rxTOpenColl
	rxTOpenEquiv
	rxTOpenClass
)

// rxAssert is a zero-width assertion.
type rxAssert uint8

const (
	rxLineStart    rxAssert = iota // ^: start, or after a newline
	rxLineEnd                      // $: end, or before a newline
	rxBufStart                     // \`
	rxBufEnd                       // \'
	rxWordBoundary                 // \b
	rxNotBoundary                  // \B
	rxWordStart                    // \<
	rxWordEnd                      // \>
)

type rxToken struct {
	typ rxTokType
	c   byte // the character, for rxTChar and the operators that may become one
	as  rxAssert
	ref int // rxTBackRef: the group number minus one
}

// rxSet is a set of bytes.
type rxSet [4]uint64

func (s *rxSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *rxSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *rxSet) not() {
	for i := range s {
		s[i] = ^s[i]
	}
}

// addClass adds the members of a C-locale character class; false for an
// unknown name.
func (s *rxSet) addClass(name string) bool {
	var in func(c byte) bool
	switch name {
	case "alnum":
		in = func(c byte) bool { return isCDigit(c) || isCAlpha(c) }
	case "cntrl":
		in = func(c byte) bool { return c < ' ' || c == 0x7f }
	case "lower":
		in = func(c byte) bool { return 'a' <= c && c <= 'z' }
	case "space":
		in = func(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }
	case "alpha":
		in = isCAlpha
	case "digit":
		in = isCDigit
	case "print":
		in = func(c byte) bool { return ' ' <= c && c < 0x7f }
	case "upper":
		in = func(c byte) bool { return 'A' <= c && c <= 'Z' }
	case "blank":
		in = func(c byte) bool { return c == ' ' || c == '\t' }
	case "graph":
		in = func(c byte) bool { return ' ' < c && c < 0x7f }
	case "punct":
		in = func(c byte) bool { return ' ' < c && c < 0x7f && !isCDigit(c) && !isCAlpha(c) }
	case "xdigit":
		in = func(c byte) bool { return isCDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }
	default:
		return false
	}
	for c := 0; c < 256; c++ {
		if in(byte(c)) {
			s.add(byte(c))
		}
	}
	return true
}

func isCDigit(c byte) bool { return '0' <= c && c <= '9' }
func isCAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// toUpperC is toupper(3) in the C locale.
func toUpperC(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// rxOp is the kind of a parse tree node.
type rxOp uint8

const (
	rxOpSet rxOp = iota
	rxOpAssert
	rxOpCat
	rxOpAlt
	rxOpRepeat
)

// rxNode is a node of the parse tree. A nil *rxNode matches the empty
// string (glibc's NULL tree).
type rxNode struct {
	op       rxOp
	set      rxSet    // rxOpSet, over the bytes of the (uppercased) subject
	as       rxAssert // rxOpAssert
	kids     []*rxNode
	min, max int // rxOpRepeat; max < 0 is unbounded
}

// rxParser is glibc's parser state: the pattern, its read position
// (cur_idx) and the current token.
type rxParser struct {
	pat []byte // as given
	up  []byte // as read: uppercased under RE_ICASE, except where noted
	pos int
	syn Syntax
	tok rxToken

	nsub      int    // groups opened so far
	completed uint16 // groups closed so far (completed_bkref_map)
	backRef   bool   // a valid back-reference was seen
	words     bool   // \< or \> was seen
	err       rxErr
}

// parseGNURegex parses pat with the syntax bits syn into a tree, or
// returns glibc's error for it.
func parseGNURegex(pat string, syn Syntax) (*rxNode, *rxParser, error) {
	// A C string ends at the first NUL; argv can hold none anyway.
	if i := strings.IndexByte(pat, 0); i >= 0 {
		pat = pat[:i]
	}
	p := &rxParser{pat: []byte(pat), syn: syn}
	p.up = p.pat
	if syn&ICase != 0 {
		p.up = make([]byte, len(pat))
		for i := range p.pat {
			p.up[i] = toUpperC(p.pat[i])
		}
	}
	p.fetch(syn | rxCaretAnchorsHere)
	tree := p.regExp(0)
	if p.err != rxOK {
		return nil, p, p.err
	}
	if p.backRef {
		return nil, p, rxEBackRef
	}
	return tree, p, nil
}

func (p *rxParser) fail(e rxErr) *rxNode {
	if p.err == rxOK {
		p.err = e
	}
	return nil
}

func (p *rxParser) fetch(syn Syntax) {
	var n int
	p.tok, n = p.peek(p.pos, syn)
	p.pos += n
}

// peek is glibc's peek_token: the token at i and its length.
func (p *rxParser) peek(i int, syn Syntax) (rxToken, int) {
	if i >= len(p.up) {
		return rxToken{typ: rxTEnd}, 0
	}
	c := p.up[i]
	if c == '\\' {
		if i+1 >= len(p.up) {
			return rxToken{typ: rxTBackslash, c: c}, 1
		}
		c2 := p.pat[i+1] // the escaped character keeps its case
		t := rxToken{typ: rxTChar, c: c2}
		gnu := syn&rxNoGNUOps == 0
		switch c2 {
		case '|':
			if syn&rxLimitedOps == 0 && syn&rxNoBkVbar == 0 {
				t.typ = rxTAlt
			}
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if syn&rxNoBkRefs == 0 {
				t = rxToken{typ: rxTBackRef, ref: int(c2 - '1')}
			}
		case '<':
			if gnu {
				t = rxToken{typ: rxTAnchor, as: rxWordStart}
			}
		case '>':
			if gnu {
				t = rxToken{typ: rxTAnchor, as: rxWordEnd}
			}
		case 'b':
			if gnu {
				t = rxToken{typ: rxTAnchor, as: rxWordBoundary}
			}
		case 'B':
			if gnu {
				t = rxToken{typ: rxTAnchor, as: rxNotBoundary}
			}
		case 'w':
			if gnu {
				t.typ = rxTWord
			}
		case 'W':
			if gnu {
				t.typ = rxTNotWord
			}
		case 's':
			if gnu {
				t.typ = rxTSpace
			}
		case 'S':
			if gnu {
				t.typ = rxTNotSpace
			}
		case '`':
			if gnu {
				t = rxToken{typ: rxTAnchor, as: rxBufStart}
			}
		case '\'':
			if gnu {
				t = rxToken{typ: rxTAnchor, as: rxBufEnd}
			}
		case '(':
			if syn&rxNoBkParens == 0 {
				t.typ = rxTOpenGroup
			}
		case ')':
			if syn&rxNoBkParens == 0 {
				t.typ = rxTCloseGroup
			}
		case '+':
			if syn&rxLimitedOps == 0 && syn&rxBkPlusQM != 0 {
				t.typ = rxTPlus
			}
		case '?':
			if syn&rxLimitedOps == 0 && syn&rxBkPlusQM != 0 {
				t.typ = rxTQuestion
			}
		case '{':
			if syn&rxIntervals != 0 && syn&rxNoBkBraces == 0 {
				t.typ = rxTOpenDup
			}
		case '}':
			if syn&rxIntervals != 0 && syn&rxNoBkBraces == 0 {
				t.typ = rxTCloseDup
			}
		}
		return t, 2
	}
	t := rxToken{typ: rxTChar, c: c}
	switch c {
	case '\n':
		if syn&rxNewlineAlt != 0 {
			t.typ = rxTAlt
		}
	case '|':
		if syn&rxLimitedOps == 0 && syn&rxNoBkVbar != 0 {
			t.typ = rxTAlt
		}
	case '*':
		t.typ = rxTStar
	case '+':
		if syn&rxLimitedOps == 0 && syn&rxBkPlusQM == 0 {
			t.typ = rxTPlus
		}
	case '?':
		if syn&rxLimitedOps == 0 && syn&rxBkPlusQM == 0 {
			t.typ = rxTQuestion
		}
	case '{':
		if syn&rxIntervals != 0 && syn&rxNoBkBraces != 0 {
			t.typ = rxTOpenDup
		}
	case '}':
		if syn&rxIntervals != 0 && syn&rxNoBkBraces != 0 {
			t.typ = rxTCloseDup
		}
	case '(':
		if syn&rxNoBkParens != 0 {
			t.typ = rxTOpenGroup
		}
	case ')':
		if syn&rxNoBkParens != 0 {
			t.typ = rxTCloseGroup
		}
	case '[':
		t.typ = rxTOpenBracket
	case '.':
		t.typ = rxTPeriod
	case '^':
		// An anchor at the start, after an open group or an
		// alternation (the caller passes rxCaretAnchorsHere there),
		// after a newline that is an alternation, or anywhere when
		// anchors are context independent.
		if syn&(rxContextIndepAnchors|rxCaretAnchorsHere) == 0 && i != 0 {
			if syn&rxNewlineAlt == 0 || p.up[i-1] != '\n' {
				break
			}
		}
		t = rxToken{typ: rxTAnchor, as: rxLineStart}
	case '$':
		// An anchor at the end, or before a close group or an
		// alternation.
		if syn&rxContextIndepAnchors == 0 && i+1 != len(p.up) {
			next, _ := p.peek(i+1, syn)
			if next.typ != rxTAlt && next.typ != rxTCloseGroup {
				break
			}
		}
		t = rxToken{typ: rxTAnchor, as: rxLineEnd}
	}
	return t, 1
}

// regExp is glibc's parse_reg_exp: branches separated by alternations.
func (p *rxParser) regExp(nest int) *rxNode {
	initial := p.completed
	tree := p.branch(nest)
	if p.err != rxOK {
		return nil
	}
	var alts []*rxNode
	for p.tok.typ == rxTAlt {
		if alts == nil {
			alts = []*rxNode{tree}
		}
		p.fetch(p.syn | rxCaretAnchorsHere)
		var br *rxNode
		if p.tok.typ != rxTAlt && p.tok.typ != rxTEnd && (nest == 0 || p.tok.typ != rxTCloseGroup) {
			acc := p.completed
			p.completed = initial // a branch cannot refer to a group of another
			br = p.branch(nest)
			if p.err != rxOK {
				return nil
			}
			p.completed |= acc
		}
		alts = append(alts, br)
	}
	if alts != nil {
		return &rxNode{op: rxOpAlt, kids: alts}
	}
	return tree
}

// branch is glibc's parse_branch: a concatenation.
func (p *rxParser) branch(nest int) *rxNode {
	var cat []*rxNode
	for {
		expr := p.expression(nest)
		if p.err != rxOK {
			return nil
		}
		if expr != nil {
			cat = append(cat, expr)
		}
		if p.tok.typ == rxTAlt || p.tok.typ == rxTEnd || (nest > 0 && p.tok.typ == rxTCloseGroup) {
			break
		}
	}
	switch len(cat) {
	case 0:
		return nil
	case 1:
		return cat[0]
	}
	return &rxNode{op: rxOpCat, kids: cat}
}

// charNode matches the character c of the (uppercased) pattern.
func charNode(c byte) *rxNode {
	n := &rxNode{op: rxOpSet}
	n.set.add(c)
	return n
}

// expression is glibc's parse_expression: one atom and the repetition
// operators after it.
func (p *rxParser) expression(nest int) *rxNode {
	var tree *rxNode
	switch t := p.tok; t.typ {
	case rxTChar:
		tree = charNode(t.c)
	case rxTOpenGroup:
		tree = p.subExp(nest + 1)
		if p.err != rxOK {
			return nil
		}
	case rxTOpenBracket:
		tree = p.bracket()
		if p.err != rxOK {
			return nil
		}
	case rxTBackRef:
		if p.completed&(1<<t.ref) == 0 {
			return p.fail(rxESubReg)
		}
		p.backRef = true
		tree = &rxNode{op: rxOpCat} // never used: the pattern is refused
	case rxTOpenDup, rxTStar, rxTPlus, rxTQuestion, rxTCloseGroup, rxTCloseDup:
		switch {
		case t.typ == rxTOpenDup && p.syn&rxContextInvalidDup != 0:
			return p.fail(rxEBadRpt)
		case t.typ == rxTCloseGroup || t.typ == rxTCloseDup:
		case p.syn&rxContextInvalidOps != 0:
			return p.fail(rxEBadRpt)
		case p.syn&rxContextIndepOps != 0:
			// A repetition operator with nothing before it is
			// ignored.
			p.fetch(p.syn)
			return p.expression(nest)
		}
		if t.typ == rxTCloseGroup && p.syn&rxUnmatchedRightParenOrd == 0 {
			return p.fail(rxERParen)
		}
		tree = charNode(t.c) // taken literally
	case rxTAnchor:
		if t.as == rxWordStart || t.as == rxWordEnd {
			p.words = true
		}
		tree = &rxNode{op: rxOpAssert, as: t.as}
		// An anchor cannot be repeated: a '*' after it starts the next
		// expression.
		p.fetch(p.syn)
		return tree
	case rxTPeriod:
		tree = &rxNode{op: rxOpSet}
		tree.set.not()
		if p.syn&rxDotNewline == 0 {
			tree.set[0] &^= 1 << '\n'
		}
		if p.syn&rxDotNotNull != 0 {
			tree.set[0] &^= 1
		}
	case rxTWord, rxTNotWord:
		tree = &rxNode{op: rxOpSet}
		tree.set.addClass("alnum")
		tree.set.add('_')
		if t.typ == rxTNotWord {
			tree.set.not()
		}
	case rxTSpace, rxTNotSpace:
		tree = &rxNode{op: rxOpSet}
		tree.set.addClass("space")
		if t.typ == rxTNotSpace {
			tree.set.not()
		}
	case rxTAlt, rxTEnd:
		return nil
	case rxTBackslash:
		return p.fail(rxEEscape)
	}
	p.fetch(p.syn)
	for p.tok.typ == rxTStar || p.tok.typ == rxTPlus || p.tok.typ == rxTQuestion || p.tok.typ == rxTOpenDup {
		tree = p.dupOp(tree)
		if p.err != rxOK {
			return nil
		}
		// In BRE consecutive duplications are not allowed.
		if p.syn&rxContextInvalidDup != 0 && (p.tok.typ == rxTStar || p.tok.typ == rxTOpenDup) {
			return p.fail(rxEBadRpt)
		}
	}
	return tree
}

// subExp is glibc's parse_sub_exp: a group, after its open token.
func (p *rxParser) subExp(nest int) *rxNode {
	cur := p.nsub
	p.nsub++
	p.fetch(p.syn | rxCaretAnchorsHere)
	var tree *rxNode
	if p.tok.typ != rxTCloseGroup {
		tree = p.regExp(nest)
		if p.err == rxOK && p.tok.typ != rxTCloseGroup {
			p.fail(rxEParen)
		}
		if p.err != rxOK {
			return nil
		}
	}
	if cur <= 8 {
		p.completed |= 1 << cur
	}
	if tree == nil {
		// An empty group is not nothing: it can be repeated.
		return &rxNode{op: rxOpCat}
	}
	return tree
}

// dupOp is glibc's parse_dup_op: the repetition operator in p.tok
// applied to elem.
func (p *rxParser) dupOp(elem *rxNode) *rxNode {
	startPos, startTok := p.pos, p.tok
	var start, end int
	if p.tok.typ == rxTOpenDup {
		start = p.fetchNumber()
		if start == -1 {
			if p.tok.typ == rxTChar && p.tok.c == ',' {
				start = 0 // {,m} is {0,m}
			} else {
				return p.fail(rxEBadBR) // {} is invalid
			}
		}
		if start != -2 {
			switch {
			case p.tok.typ == rxTCloseDup:
				end = start
			case p.tok.typ == rxTChar && p.tok.c == ',':
				end = p.fetchNumber()
			default:
				end = -2
			}
		}
		if start == -2 || end == -2 {
			if p.syn&rxInvalidIntervalOrd == 0 {
				if p.tok.typ == rxTEnd {
					return p.fail(rxEBrace)
				}
				return p.fail(rxEBadBR)
			}
			// Not an interval after all: the '{' is a character.
			p.pos, p.tok = startPos, startTok
			p.tok.typ = rxTChar
			return elem
		}
		if (end != -1 && start > end) || p.tok.typ != rxTCloseDup {
			return p.fail(rxEBadBR)
		}
		if m := end; m > rxDupMax || m == -1 && start > rxDupMax {
			return p.fail(rxESize) // RE_DUP_MAX < (end == -1 ? start : end)
		}
	} else {
		start, end = 0, -1
		switch p.tok.typ {
		case rxTPlus:
			start = 1
		case rxTQuestion:
			end = 1
		}
	}
	p.fetch(p.syn)
	if elem == nil || start == 0 && end == 0 {
		return nil
	}
	return &rxNode{op: rxOpRepeat, kids: []*rxNode{elem}, min: start, max: end}
}

// fetchNumber is glibc's fetch_number: -1 for no digits, -2 for an
// error, at most rxDupMax+1.
func (p *rxParser) fetchNumber() int {
	num := -1
	for {
		p.fetch(p.syn)
		c := p.tok.c
		if p.tok.typ == rxTEnd {
			return -2
		}
		if p.tok.typ == rxTCloseDup || c == ',' {
			break
		}
		switch {
		case p.tok.typ != rxTChar || c < '0' || c > '9' || num == -2:
			num = -2
		case num == -1:
			num = int(c - '0')
		default:
			num = min(rxDupMax+1, num*10+int(c-'0'))
		}
	}
	return num
}

// rxElemKind is the kind of a bracket element.
type rxElemKind uint8

const (
	rxElemChar rxElemKind = iota
	rxElemColl
	rxElemEquiv
	rxElemClass
)

type rxElem struct {
	kind rxElemKind
	c    byte
	name string
}

// peekBracket is glibc's peek_token_bracket. An escaped character
// (RE_BACKSLASH_ESCAPE_IN_LISTS) is one token of length 2.
func (p *rxParser) peekBracket() (rxToken, int) {
	i := p.pos
	if i >= len(p.up) {
		return rxToken{typ: rxTEnd}, 0
	}
	c := p.up[i]
	if c == '\\' && p.syn&rxBackslashEscapeInLists != 0 && i+1 < len(p.up) {
		return rxToken{typ: rxTChar, c: p.up[i+1]}, 2
	}
	if c == '[' {
		var c2 byte
		if i+1 < len(p.up) {
			c2 = p.up[i+1]
		}
		switch {
		case c2 == '.':
			return rxToken{typ: rxTOpenColl, c: c2}, 2
		case c2 == '=':
			return rxToken{typ: rxTOpenEquiv, c: c2}, 2
		case c2 == ':' && p.syn&rxCharClasses != 0:
			return rxToken{typ: rxTOpenClass, c: c2}, 2
		}
		return rxToken{typ: rxTChar, c: c}, 1
	}
	t := rxToken{typ: rxTChar, c: c}
	switch c {
	case ']':
		t.typ = rxTCloseBracket
	case '^':
		t.typ = rxTNonMatch
	case '-':
		t.typ = rxTRange
	}
	return t, 1
}

// bracket is glibc's parse_bracket_exp, after the '['.
func (p *rxParser) bracket() *rxNode {
	n := &rxNode{op: rxOpSet}
	tok, tlen := p.peekBracket()
	if tok.typ == rxTEnd {
		return p.fail(rxEBadPat)
	}
	nonMatch := false
	if tok.typ == rxTNonMatch {
		nonMatch = true
		if p.syn&rxHatListsNotNewline != 0 {
			n.set.add('\n')
		}
		p.pos += tlen
		if tok, tlen = p.peekBracket(); tok.typ == rxTEnd {
			return p.fail(rxEBadPat)
		}
	}
	if tok.typ == rxTCloseBracket {
		tok.typ = rxTChar // a ']' first is a member
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
		var tok2 rxToken
		var tlen2 int
		if start.kind != rxElemClass && start.kind != rxElemEquiv {
			if tok.typ == rxTEnd {
				return p.fail(rxEBrack)
			}
			if tok.typ == rxTRange {
				p.pos += tlen
				tok2, tlen2 = p.peekBracket()
				if tok2.typ == rxTEnd {
					return p.fail(rxEBrack)
				}
				if tok2.typ == rxTCloseBracket {
					// A '-' last is a member.
					p.pos -= tlen
					tok.typ = rxTChar
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
			if e := p.addRange(&n.set, start, end); e != rxOK {
				return p.fail(e)
			}
		} else if e := p.addElem(&n.set, start); e != rxOK {
			return p.fail(e)
		}
		if tok.typ == rxTEnd {
			return p.fail(rxEBrack)
		}
		if tok.typ == rxTCloseBracket {
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
func (p *rxParser) bracketElem(tok rxToken, tlen int, acceptHyphen bool) (rxElem, bool) {
	p.pos += tlen
	switch tok.typ {
	case rxTOpenColl, rxTOpenEquiv, rxTOpenClass:
		return p.bracketSymbol(tok)
	case rxTRange:
		if !acceptHyphen {
			// A '-' that does not start a range must end the list.
			if t2, _ := p.peekBracket(); t2.typ != rxTCloseBracket {
				p.fail(rxERange)
				return rxElem{}, false
			}
		}
	}
	return rxElem{kind: rxElemChar, c: tok.c}, true
}

// bracketSymbol is glibc's parse_bracket_symbol: the name in [.x.],
// [=x=] or [:x:]. Class names keep their case under RE_ICASE.
func (p *rxParser) bracketSymbol(tok rxToken) (rxElem, bool) {
	if p.pos >= len(p.up) {
		p.fail(rxEBrack)
		return rxElem{}, false
	}
	src := p.up
	if tok.typ == rxTOpenClass {
		src = p.pat
	}
	var name []byte
	for i := 0; ; i++ {
		if i >= 32 { // BRACKET_NAME_BUF_SIZE
			p.fail(rxEBrack)
			return rxElem{}, false
		}
		ch := src[p.pos]
		p.pos++
		if p.pos >= len(p.up) {
			p.fail(rxEBrack)
			return rxElem{}, false
		}
		if ch == tok.c && p.up[p.pos] == ']' {
			break
		}
		name = append(name, ch)
	}
	p.pos++
	e := rxElem{name: string(name)}
	switch tok.typ {
	case rxTOpenColl:
		e.kind = rxElemColl
	case rxTOpenEquiv:
		e.kind = rxElemEquiv
	default:
		e.kind = rxElemClass
	}
	return e, true
}

// addElem adds a bracket element that is not part of a range. The C
// locale has no multi-character collating elements and every character
// is its own equivalence class.
func (p *rxParser) addElem(s *rxSet, e rxElem) rxErr {
	switch e.kind {
	case rxElemChar:
		s.add(e.c)
	case rxElemColl, rxElemEquiv:
		if len(e.name) != 1 {
			return rxECollate
		}
		s.add(e.name[0])
	case rxElemClass:
		name := e.name
		if p.syn&ICase != 0 && (name == "upper" || name == "lower") {
			name = "alpha"
		}
		if !s.addClass(name) {
			return rxECType
		}
	}
	return rxOK
}

// addRange adds start-end; the C locale collates bytes by value.
func (p *rxParser) addRange(s *rxSet, start, end rxElem) rxErr {
	if start.kind == rxElemEquiv || start.kind == rxElemClass || end.kind == rxElemEquiv || end.kind == rxElemClass {
		return rxERange
	}
	lo, ok1 := start.point()
	hi, ok2 := end.point()
	if !ok1 || !ok2 {
		return rxECollate
	}
	if lo > hi && p.syn&rxNoEmptyRanges != 0 {
		return rxERange
	}
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
	return rxOK
}

// point is the collation value of a range end point.
func (e rxElem) point() (byte, bool) {
	if e.kind == rxElemChar {
		return e.c, true
	}
	if len(e.name) != 1 {
		return 0, false
	}
	return e.name[0], true
}

// Translation to Go.

// Marker runes stand for \< and \> in the program rxVM runs; no subject
// character is above 0xff.
const (
	rxMarkWordStart = utf8.MaxRune
	rxMarkWordEnd   = utf8.MaxRune - 1
)

// rxMaxSize bounds the size of a pattern after its intervals are
// expanded, which is how glibc compiles them too.
const rxMaxSize = 1 << 20

// toSyntax converts the parse tree to a regexp/syntax tree over Latin-1
// runes. Under RE_ICASE glibc matches the uppercased subject, so a set
// S matches the bytes whose toupper is in S.
func (n *rxNode) toSyntax(icase bool) *syntax.Regexp {
	if n == nil {
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	}
	switch n.op {
	case rxOpSet:
		set := n.set
		if icase {
			set = rxSet{}
			for c := 0; c < 256; c++ {
				if n.set.has(toUpperC(byte(c))) {
					set.add(byte(c))
				}
			}
		}
		return setSyntax(&set)
	case rxOpAssert:
		switch n.as {
		case rxLineStart:
			return &syntax.Regexp{Op: syntax.OpBeginLine}
		case rxLineEnd:
			return &syntax.Regexp{Op: syntax.OpEndLine}
		case rxBufStart:
			return &syntax.Regexp{Op: syntax.OpBeginText}
		case rxBufEnd:
			return &syntax.Regexp{Op: syntax.OpEndText}
		case rxWordBoundary:
			return &syntax.Regexp{Op: syntax.OpWordBoundary}
		case rxNotBoundary:
			return &syntax.Regexp{Op: syntax.OpNoWordBoundary}
		case rxWordStart:
			return &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{rxMarkWordStart}}
		default:
			return &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{rxMarkWordEnd}}
		}
	case rxOpCat, rxOpAlt:
		if len(n.kids) == 0 {
			return &syntax.Regexp{Op: syntax.OpEmptyMatch}
		}
		op := syntax.OpConcat
		if n.op == rxOpAlt {
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
func setSyntax(s *rxSet) *syntax.Regexp {
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
// rxMaxSize.
func (n *rxNode) size() int {
	if n == nil {
		return 1
	}
	switch n.op {
	case rxOpCat, rxOpAlt:
		s := 1
		for _, k := range n.kids {
			s = min(s+k.size(), rxMaxSize+1)
		}
		return s
	case rxOpRepeat:
		c := n.max
		if c < 0 {
			c = n.min + 1
		}
		return min(1+c*n.kids[0].size(), rxMaxSize+1)
	}
	return 1
}

// Regexp is a compiled -regex pattern: a Go regexp over Latin-1 runes,
// or for \< and \> a program for rxVM.
type Regexp struct {
	re *regexp.Regexp
	vm *rxVM
}

// Compile compiles pat with the syntax bits syn (including ICase for
// -iregex) into a matcher of whole paths. Its errors are glibc's
// (re_compile_pattern's message in the C locale) or ErrBackRef.
func Compile(pat string, syn Syntax) (*Regexp, error) {
	tree, p, err := parseGNURegex(pat, syn)
	if err != nil {
		return nil, err
	}
	if tree.size() > rxMaxSize {
		return nil, rxESize
	}
	body := tree.toSyntax(syn&ICase != 0)
	// re_match must consume the whole path.
	whole := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{
		{Op: syntax.OpBeginText}, body, {Op: syntax.OpEndText},
	}}
	if p.words {
		prog, err := syntax.Compile(whole.Simplify())
		if err != nil {
			return nil, rxESize
		}
		return &Regexp{vm: newRxVM(prog)}, nil
	}
	re, err := regexp.Compile(whole.String())
	if err != nil {
		// Only sizes Go refuses (a pattern too large or nested too
		// deep) get here.
		return nil, rxESize
	}
	return &Regexp{re: re}, nil
}

// rxBufs are buffers for paths re-encoded as Latin-1 UTF-8.
var rxBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

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
	bp := rxBufs.Get().(*[]byte)
	b := (*bp)[:0]
	for _, c := range path {
		b = utf8.AppendRune(b, rune(c))
	}
	ok := g.re.Match(b)
	*bp = b
	rxBufs.Put(bp)
	return ok
}

// rxVM simulates the compiled program's NFA over the bytes of a path,
// each byte one character, with the marker runes as \< and \>.
type rxVM struct {
	prog *syntax.Prog
	pool sync.Pool // *rxScratch
}

type rxScratch struct {
	cur, next rxQueue
	stack     []uint32
}

// rxQueue is a sparse set of instruction indexes.
type rxQueue struct{ sparse, dense []uint32 }

func (q *rxQueue) has(pc uint32) bool {
	i := q.sparse[pc]
	return int(i) < len(q.dense) && q.dense[i] == pc
}

func (q *rxQueue) add(pc uint32) {
	q.sparse[pc] = uint32(len(q.dense))
	q.dense = append(q.dense, pc)
}

func newRxVM(prog *syntax.Prog) *rxVM {
	vm := &rxVM{prog: prog}
	n := len(prog.Inst)
	vm.pool.New = func() any {
		return &rxScratch{
			cur:  rxQueue{sparse: make([]uint32, n), dense: make([]uint32, 0, n)},
			next: rxQueue{sparse: make([]uint32, n), dense: make([]uint32, 0, n)},
		}
	}
	return vm
}

func (vm *rxVM) match(s []byte) bool {
	sc := vm.pool.Get().(*rxScratch)
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
func (vm *rxVM) add(sc *rxScratch, q *rxQueue, pc uint32, s []byte, pos int) {
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
			case rxMarkWordStart:
				if !w1 && w2 {
					stack = append(stack, inst.Out)
				}
			case rxMarkWordEnd:
				if w1 && !w2 {
					stack = append(stack, inst.Out)
				}
			}
		}
	}
	sc.stack = stack
}
