package predicate

import (
	"strings"

	"github.com/gfind/gfind/walker"
)

// kind is the class of a primary, which decides GNU's warnings and
// whether it is kept in the expression as an always-true test.
type kind int

const (
	kindTest       kind = iota
	kindAction          // has side effects
	kindOption          // global: applies to the whole walk (-maxdepth)
	kindPositional      // applies to what follows it (-follow, -daystart)
	kindPunct           // operators and parentheses
)

// entry is one row of the parse table: a primary's kind and the
// function that consumes its arguments and pushes its tokens.
type entry struct {
	kind  kind
	parse func(p *parser, op string) error
}

// table maps a primary's name without its leading '-' to its entry, as
// GNU's parse_table does (GNU strips one '-', which is why "--help" is
// "-help"). The metadata families add their rows from their own files'
// init functions, next to their parse functions.
var table = map[string]entry{
	// Operators.
	"!":   {kindPunct, parseNot},
	"not": {kindPunct, parseNot},
	"(":   {kindPunct, func(p *parser, op string) error { p.pushTok(token{kind: tokOpen, prec: precNone}); return nil }},
	")":   {kindPunct, func(p *parser, op string) error { p.pushTok(token{kind: tokClose, prec: precNone}); return nil }},
	",":   {kindPunct, binary(precComma)},
	"a":   {kindPunct, binary(precAnd)},
	"and": {kindPunct, binary(precAnd)},
	"o":   {kindPunct, binary(precOr)},
	"or":  {kindPunct, binary(precOr)},

	// Names.
	"name":       {kindTest, parseName},
	"iname":      {kindTest, parseName},
	"path":       {kindTest, parsePath},
	"ipath":      {kindTest, parsePath},
	"wholename":  {kindTest, parsePath},
	"iwholename": {kindTest, parsePath},
	"type":       {kindTest, parseType},
	"true":       {kindTest, constant(true)},
	"false":      {kindTest, constant(false)},

	// Actions.
	"print":  {kindAction, func(p *parser, op string) error { p.push(p.print(op)); return nil }},
	"print0": {kindAction, func(p *parser, op string) error { p.push(&printNode{op: op, term: 0}); return nil }},
	"prune":  {kindAction, func(p *parser, op string) error { p.push(pruneNode{}); return nil }},
	"quit":   {kindAction, func(p *parser, op string) error { p.push(quitNode{}); return nil }},

	// Global options.
	"maxdepth": {kindOption, func(p *parser, op string) (err error) { p.walk.MaxDepth, err = p.depthArg(op); return }},
	"mindepth": {kindOption, func(p *parser, op string) (err error) { p.walk.MinDepth, err = p.depthArg(op); return }},
	"depth":    {kindOption, parseDepth},
	"d":        {kindOption, parseDepth},
	"xdev":     {kindOption, func(p *parser, op string) error { p.walk.XDev = true; return nil }},
	"mount":    {kindOption, func(p *parser, op string) error { p.walk.XDev = true; return nil }},
	"noleaf":   {kindOption, func(p *parser, op string) error { return nil }}, // gfind never assumes leaf counts
	"ignore_readdir_race": {kindOption, func(p *parser, op string) error {
		p.walk.IgnoreReaddirRace = true
		return nil
	}},
	"noignore_readdir_race": {kindOption, func(p *parser, op string) error {
		p.walk.IgnoreReaddirRace = false
		return nil
	}},

	// Positional options.
	"follow": {kindPositional, func(p *parser, op string) error { p.walk.Follow = walker.FollowAll; return nil }},
	"warn":   {kindPositional, func(p *parser, op string) error { p.warnings = true; return nil }},
	"nowarn": {kindPositional, func(p *parser, op string) error { p.warnings = false; return nil }},

	// gfind, like the Debian build of GNU find it copies, has no
	// SELinux support.
	"context": {kindTest, func(p *parser, op string) error {
		if _, err := p.arg(op); err != nil {
			return err
		}
		return p.errorf("invalid predicate -context: SELinux is not enabled.")
	}},

	"help":     {kindTest, func(p *parser, op string) error { return ErrHelp }},
	"-help":    {kindTest, func(p *parser, op string) error { return ErrHelp }},
	"version":  {kindTest, func(p *parser, op string) error { return ErrVersion }},
	"-version": {kindTest, func(p *parser, op string) error { return ErrVersion }},
}

// lookup finds the table entry for an argument such as "-name".
func lookup(arg string) (*entry, string) {
	if strings.HasPrefix(arg, "-newer") && len(arg) == 8 {
		// -newerXY: one row for all XY, as GNU's parse_entry_newerXY.
		if e, ok := table["newerXY"]; ok {
			return &e, arg
		}
	}
	name := strings.TrimPrefix(arg, "-")
	e, ok := table[name]
	if !ok {
		return nil, ""
	}
	return &e, arg
}

func parseNot(p *parser, op string) error {
	p.pushTok(token{kind: tokNot, prec: precNot})
	return nil
}

func binary(prec int) func(p *parser, op string) error {
	return func(p *parser, op string) error {
		p.pushTok(token{kind: tokBinary, prec: prec})
		return nil
	}
}

func constant(v bool) func(p *parser, op string) error {
	return func(p *parser, op string) error {
		p.push(&constNode{val: v, args: []string{op}})
		return nil
	}
}

func parseDepth(p *parser, op string) error {
	if op == "-d" && p.warnings {
		p.warnf("the -d option is deprecated; please use -depth instead, because the latter is a POSIX-compliant feature.")
	}
	p.walk.PostOrder = true
	p.explicitDepth = true
	return nil
}
