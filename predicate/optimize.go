package predicate

import (
	"cmp"
	"math"
	"slices"
)

// Optimize rewrites the expression for speed without changing what it
// prints or does, at GNU's -O levels (GNU 4.10 and later default to 1):
//
//	-O0  the tests on the name alone (-name, -iname, -path, -ipath,
//	     -regex, -iregex) move to the front of each run of pure operands
//	     of -a and -o, as GNU has always done: -size +1M -name '*.log'
//	     tests the name before it stats
//	-O1  also constant folding: always-true options and -true vanish
//	     from -a chains, -false from -o chains, and whatever can never
//	     run after a constant that decides the result is dropped, if it
//	     is pure (GNU moves the constant to the front instead)
//	-O2  also the tests that cost no more than the file type (-type,
//	     and gfind's -glob and -hidden) move, and what moves is ordered
//	     by cost, so that cheap, decisive tests run first
//	-O3  every test moves, by cost
//
// Only tests move, never an operator (a negation, a parenthesised
// group), as in GNU's opt_expr; what does not move keeps its order,
// after what does. Which test runs first is visible where a test fails
// on a file (a stat refused): GNU 4.10 lowered the default level so
// that the order the user wrote is kept otherwise (savannah bug 58427).
// Nodes with effects (Facts.Effects: actions, -prune, -quit) never move
// and are never dropped, and pure nodes never move across them. The
// operands of the comma operator are all kept: they are evaluated.
func Optimize(n Node, level int) Node {
	o := optimizer{level: level}
	return o.node(n)
}

type optimizer struct{ level int }

func (o optimizer) node(n Node) Node {
	switch n := n.(type) {
	case *andNode:
		return o.chain(n.kids, true)
	case *orNode:
		return o.chain(n.kids, false)
	case *commaNode:
		// A pure operand before the last does not decide anything, but
		// GNU evaluates it, and what it reports (a stat refused) shows.
		kids := make([]Node, len(n.kids))
		for i, k := range n.kids {
			kids[i] = o.node(k)
		}
		return &commaNode{kids: kids}
	case *notNode:
		kid := o.node(n.kid)
		if o.level < 1 {
			return &notNode{kid: kid}
		}
		if c, ok := kid.(*constNode); ok {
			return constOf(!c.val)
		}
		if inner, ok := kid.(*notNode); ok {
			return inner.kid
		}
		return &notNode{kid: kid}
	}
	return n
}

// chain optimizes the operands of -a (and) or -o (!and). The neutral
// constant (true for -a, false for -o) is dropped; the absorbing one
// ends the chain, and pure operands just before it go too.
func (o optimizer) chain(in []Node, and bool) Node {
	kids := make([]Node, 0, len(in))
	for _, k := range in {
		k = o.node(k)
		if o.level < 1 {
			kids = append(kids, k)
			continue
		}
		// Splice in a child of the same operator that folding exposed.
		if a, ok := k.(*andNode); ok && and {
			kids = append(kids, a.kids...)
			continue
		}
		if or, ok := k.(*orNode); ok && !and {
			kids = append(kids, or.kids...)
			continue
		}
		if c, ok := k.(*constNode); ok {
			if c.val == and {
				continue // neutral
			}
			// Absorbing: the result is c whatever follows, and pure
			// operands before it only cost time.
			for len(kids) > 0 && kids[len(kids)-1].Facts().Pure() {
				kids = kids[:len(kids)-1]
			}
			kids = append(kids, constOf(c.val))
			break
		}
		kids = append(kids, k)
	}
	o.reorder(kids, and)
	switch len(kids) {
	case 0:
		return constOf(and)
	case 1:
		return kids[0]
	}
	if and {
		return &andNode{kids: kids}
	}
	return &orNode{kids: kids}
}

// reorder reorders each run of adjacent pure operands of -a (and) or
// -o: the tests that move at o's level (moves) come first, stably, and
// at -O2 and above sorted by the classic rank for independent tests:
// cost divided by the chance that the operand decides the chain (being
// false under -a, true under -o). Lowest rank first minimises the
// expected cost of the chain. The rest follow in their order.
func (o optimizer) reorder(kids []Node, and bool) {
	rank := func(n Node) float64 {
		f := n.Facts()
		decide := f.Prob
		if and {
			decide = 1 - f.Prob
		}
		if decide <= 0 {
			return math.Inf(1)
		}
		return f.Cost / decide
	}
	for i := 0; i < len(kids); {
		if !kids[i].Facts().Pure() {
			i++
			continue
		}
		j := i
		for j < len(kids) && kids[j].Facts().Pure() {
			j++
		}
		run := kids[i:j]
		moved := make([]Node, 0, len(run))
		rest := make([]Node, 0, len(run))
		for _, k := range run {
			if o.moves(k) {
				moved = append(moved, k)
			} else {
				rest = append(rest, k)
			}
		}
		if o.level >= 2 {
			slices.SortStableFunc(moved, func(a, b Node) int { return cmp.Compare(rank(a), rank(b)) })
		}
		copy(run, moved)
		copy(run[len(moved):], rest)
		i = j
	}
}

// moves reports whether the pure node n moves to the front of its run
// at o's level: as GNU's opt_expr, tests only (predicate_is_cost_free,
// then the cost lists of -O2 and -O3).
func (o optimizer) moves(n Node) bool {
	switch n.(type) {
	case *andNode, *orNode, *notNode, *commaNode:
		return false
	}
	if o.level >= 3 {
		return true
	}
	if p, ok := n.(*posNode); ok {
		n = p.kid
	}
	args := n.Args()
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
		return true
	case "-true", "-false":
		return o.level >= 1
	}
	// GNU's -O2 moves what costs no more than the file type the
	// directory gave (p_cost NeedsType and no need_stat): a test that
	// makes a system call, -lname's readlink or -readable's access,
	// keeps its place.
	return o.level >= 2 && n.Facts().Cost <= costType
}

func constOf(v bool) *constNode {
	if v {
		return &constNode{val: true, args: []string{"-true"}}
	}
	return &constNode{val: false, args: []string{"-false"}}
}
