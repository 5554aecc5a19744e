package predicate

import (
	"strings"

	"github.com/gfind/gfind/internal/gnuregex"
	"github.com/gfind/gfind/walker"
)

// costRegex is the cost of matching a path against a regular
// expression: no system call, but more work than a glob.
const costRegex = 10 * costName

// regexNode is -regex PATTERN and -iregex PATTERN: the whole path must
// match, in the syntax of the last -regextype before it (gnuregex).
type regexNode struct {
	op, pat string
	g       *gnuregex.Regexp
}

func (n *regexNode) Eval(e *walker.Entry, _ *State) bool { return n.g.Match(e.Path) }

func (n *regexNode) Facts() Facts {
	// GNU's estimate_pattern_match_rate(pattern, 1).
	p := 0.1
	if strings.ContainsAny(n.pat, "*?[.") {
		p = 0.8
	}
	return Facts{Cost: costRegex, Prob: p}
}

// Args leaves the syntax to the -regextype before the node, which stays
// in the expression as an always-true option in front of it.
func (n *regexNode) Args() []string { return []string{n.op, n.pat} }

func parseRegex(p *parser, op string, v variant) error {
	pat, err := p.arg(op)
	if err != nil {
		return err
	}
	syn := p.regexSyntax()
	if v&foldCase != 0 {
		syn |= gnuregex.ICase
	}
	g, err := gnuregex.Compile(pat, syn)
	switch {
	case err == gnuregex.ErrBackRef:
		return p.errorf("back-references are not supported in %s: '%s'", op, pat)
	case err != nil:
		// GNU quotes the pattern with plain quotes, whatever it holds.
		return p.errorf("failed to compile regular expression '%s': %s", pat, err)
	}
	p.push(&regexNode{op: op, pat: pat, g: g})
	return nil
}

// regexSyntax is the syntax -regex uses at this point of the command
// line: that of the last -regextype before it (GNU's positional
// options.regex_options), or emacs.
func (p *parser) regexSyntax() gnuregex.Syntax {
	for i := len(p.toks) - 1; i >= 0; i-- {
		if c, ok := p.toks[i].node.(*constNode); ok && len(c.args) == 2 && c.args[0] == "-regextype" {
			syn, _ := gnuregex.Lookup(c.args[1]) // checked by parseRegextype
			return syn
		}
	}
	return gnuregex.Default
}

// parseRegextype checks the name; the option stays in the expression
// (parse.go keeps positional options as true tests), where regexSyntax
// finds it.
func parseRegextype(p *parser, op string, _ variant) error {
	name, err := p.arg(op)
	if err != nil {
		return err
	}
	if _, ok := gnuregex.Lookup(name); !ok {
		var list strings.Builder
		for i, typ := range gnuregex.TypeNames() {
			if i > 0 {
				list.WriteString(", ")
			}
			list.WriteString(p.quote(typ))
		}
		return p.errorf("Unknown regular expression type %s; valid types are %s.", p.quote(name), list.String())
	}
	return nil
}
