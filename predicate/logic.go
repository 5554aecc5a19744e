package predicate

import "github.com/gfind/gfind/walker"

// andNode is EXPR1 -a EXPR2 -a ...: true when every child is, evaluated
// left to right until one is false.
type andNode struct{ kids []Node }

func (n *andNode) Eval(e *walker.Entry, s *State) bool {
	for _, k := range n.kids {
		if !k.Eval(e, s) || s.Stopped() {
			return false
		}
	}
	return true
}

func (n *andNode) Facts() Facts {
	f := Facts{Prob: 1}
	for _, k := range n.kids {
		kf := k.Facts()
		f.Effects |= kf.Effects
		f.Cost += f.Prob * kf.Cost // a child runs only if all before it were true
		f.Prob *= kf.Prob
	}
	return f
}

func (n *andNode) Args() []string { return joinArgs(n.kids, "-a", precAnd) }

// orNode is EXPR1 -o EXPR2 -o ...: true when a child is, evaluated left
// to right until one is true.
type orNode struct{ kids []Node }

func (n *orNode) Eval(e *walker.Entry, s *State) bool {
	for _, k := range n.kids {
		if k.Eval(e, s) {
			return true
		}
		if s.Stopped() {
			return false
		}
	}
	return false
}

func (n *orNode) Facts() Facts {
	f := Facts{Prob: 0}
	miss := 1.0
	for _, k := range n.kids {
		kf := k.Facts()
		f.Effects |= kf.Effects
		f.Cost += miss * kf.Cost // a child runs only if all before it were false
		miss *= 1 - kf.Prob
	}
	f.Prob = 1 - miss
	return f
}

func (n *orNode) Args() []string { return joinArgs(n.kids, "-o", precOr) }

// commaNode is EXPR1 , EXPR2: every child is evaluated, the value is the
// last one's.
type commaNode struct{ kids []Node }

func (n *commaNode) Eval(e *walker.Entry, s *State) bool {
	v := false
	for _, k := range n.kids {
		v = k.Eval(e, s)
		if s.Stopped() {
			return false
		}
	}
	return v
}

func (n *commaNode) Facts() Facts {
	var f Facts
	for _, k := range n.kids {
		kf := k.Facts()
		f.Effects |= kf.Effects
		f.Cost += kf.Cost
		f.Prob = kf.Prob
	}
	return f
}

func (n *commaNode) Args() []string { return joinArgs(n.kids, ",", precComma) }

// notNode is ! EXPR.
type notNode struct{ kid Node }

func (n *notNode) Eval(e *walker.Entry, s *State) bool { return !n.kid.Eval(e, s) }

func (n *notNode) Facts() Facts {
	f := n.kid.Facts()
	f.Prob = 1 - f.Prob
	return f
}

func (n *notNode) Args() []string { return append([]string{"!"}, argsAt(n.kid, precNot)...) }

// posNode is a primary with the -daystart options written before it.
// GNU inserts no predicate for -daystart (parse_daystart), which acts
// while the command line is parsed: in the expression it is nothing at
// all. posNode keeps it where Args renders it, before kid, so that
// parsing the rendering again gives the same tree. The parser checks its
// tokens, which hold kid alone; only the tree has posNodes.
type posNode struct {
	opts []string // the options, as written
	kid  Node
}

func (n *posNode) Eval(e *walker.Entry, s *State) bool { return n.kid.Eval(e, s) }
func (n *posNode) Facts() Facts                        { return n.kid.Facts() }
func (n *posNode) Args() []string {
	return append(append([]string(nil), n.opts...), n.kid.Args()...)
}

// constNode is -true, -false, and the options (-maxdepth 2, -depth, ...)
// which GNU find keeps in the expression as tests that are always true.
type constNode struct {
	val  bool
	args []string
}

func (n *constNode) Eval(*walker.Entry, *State) bool { return n.val }

func (n *constNode) Facts() Facts {
	p := 0.0
	if n.val {
		p = 1
	}
	return Facts{Prob: p}
}

func (n *constNode) Args() []string { return n.args }

// Operator precedences, lowest first, for rendering parentheses.
const (
	precComma = iota + 1
	precOr
	precAnd
	precNot
)

func precOf(n Node) int {
	switch n.(type) {
	case *commaNode:
		return precComma
	case *orNode:
		return precOr
	case *andNode:
		return precAnd
	}
	return precNot + 1
}

// argsAt renders n inside an operator of precedence prec, with
// parentheses where n binds less tightly.
func argsAt(n Node, prec int) []string {
	a := n.Args()
	if precOf(n) <= prec {
		return append(append([]string{"("}, a...), ")")
	}
	return a
}

func joinArgs(kids []Node, op string, prec int) []string {
	var out []string
	for i, k := range kids {
		if i > 0 {
			out = append(out, op)
		}
		out = append(out, argsAt(k, prec)...)
	}
	return out
}
