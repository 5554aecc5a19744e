package predicate

import "github.com/gfind/gfind/walker"

// excludeNode is -exclude EXPR (bfs's, a gfind extra) where it stands in
// the expression, where it is always true: its operand does its work in
// the walker instead (Command.ExcludeFunc), before anything else looks
// at a file. An excluded file is not visited, not descended into, and
// not evaluated by the rest of the expression, even under -depth or
// -mindepth where -prune could not help; that holds for a starting
// point too, as in bfs.
//
// The operand is the next unary term, like the operand of '!': a
// primary, "! X", or a parenthesised group. The parser turns -exclude
// into a '!'-like token and getExpr hands the operand to addExclude.
type excludeNode struct{ kid Node }

func (n *excludeNode) Eval(*walker.Entry, *State) bool { return true }

// Facts: the node itself costs nothing and has no effect here.
func (n *excludeNode) Facts() Facts { return Facts{Prob: 1} }

func (n *excludeNode) Args() []string {
	return append([]string{"-exclude"}, argsAt(n.kid, precNot)...)
}

func parseExclude(p *parser, op string, _ variant) error {
	p.pushTok(token{kind: tokNot, prec: precNot, exclude: true})
	return nil
}

// addExclude checks the operand of -exclude: it is evaluated on every
// file before the expression, so it may hold tests and operators only
// (as in bfs): an action would run on files the expression never sees.
func (p *parser) addExclude(kid Node) (Node, error) {
	if bad := excludeRefused(kid); bad != nil {
		return nil, p.errorf("`%s' is not supported within `-exclude' (only tests and operators are)", bad.Args()[0])
	}
	return &excludeNode{kid: kid}, nil
}

// excludeRefused returns a node of n that may not be part of an -exclude
// operand: one with side effects (actions, -prune, -quit) or another
// -exclude; nil if there is none.
func excludeRefused(n Node) Node {
	var kids []Node
	switch n := n.(type) {
	case *andNode:
		kids = n.kids
	case *orNode:
		kids = n.kids
	case *commaNode:
		kids = n.kids
	case *notNode:
		kids = []Node{n.kid}
	case *excludeNode:
		return n
	default:
		if !n.Facts().Pure() {
			return n
		}
		return nil
	}
	for _, k := range kids {
		if bad := excludeRefused(k); bad != nil {
			return bad
		}
	}
	return nil
}

// excludeExpr returns the operands of the -exclude nodes in the parsed
// tree n joined with -o, after -nohidden's when noHidden and
// --gitignore's (git, when not nil), or nil when there are none.
func excludeExpr(n Node, noHidden bool, git Node) Node {
	var ops []Node
	if noHidden {
		ops = append(ops, nohiddenNode{})
	}
	if git != nil {
		ops = append(ops, git)
	}
	// forEachNode does not go into an -exclude's operand, which holds
	// no -exclude anyway (excludeRefused).
	forEachNode(n, func(n Node) {
		if x, ok := n.(*excludeNode); ok {
			ops = append(ops, x.kid)
		}
	})
	switch len(ops) {
	case 0:
		return nil
	case 1:
		return ops[0]
	}
	return &orNode{kids: ops}
}

// ExcludeFunc returns the walker's Options.Exclude for the command: it
// skips what -unique has met before (unique.go), then evaluates the
// -exclude operands, optimized at level (as Optimize), with the State of
// the worker that asks, states[e.Worker]. It is nil when the command has
// neither.
func (c *Command) ExcludeFunc(states []*State, level int) func(*walker.Entry) bool {
	var expr Node
	if c.Exclude != nil {
		expr = Optimize(c.Exclude, level)
	}
	switch seen := c.seen; {
	case seen != nil && expr != nil:
		return func(e *walker.Entry) bool {
			s := states[e.Worker]
			return s.seenBefore(seen, e) || s.excluded(expr, e)
		}
	case seen != nil:
		return func(e *walker.Entry) bool { return states[e.Worker].seenBefore(seen, e) }
	case expr != nil:
		return func(e *walker.Entry) bool { return states[e.Worker].excluded(expr, e) }
	}
	return nil
}

// excluded evaluates an -exclude operand on e. A status that cannot be
// read is reported once for the file, whether the operand or the
// expression asks first (Entry.ReportOnce).
func (s *State) excluded(expr Node, e *walker.Entry) bool {
	return expr.Eval(e, s)
}
