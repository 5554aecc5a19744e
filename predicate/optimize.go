package predicate

import (
	"cmp"
	"math"
	"slices"
)

// Optimize rewrites the expression for speed without changing what it
// prints or does, at GNU's -O levels:
//
//	-O0  nothing
//	-O1  constant folding: always-true options and -true vanish from -a
//	     chains, -false from -o chains, and whatever can never run after
//	     a constant decides the result is dropped, if it is pure
//	-O2+ also reorders runs of adjacent pure operands of -a and -o so
//	     that cheap, decisive tests run first: -size +1M -name '*.log'
//	     tests the name before it stats
//
// Nodes with effects (Facts.Effects: actions, -prune, -quit) never move
// and are never dropped, and pure nodes never move across them.
func Optimize(n Node, level int) Node {
	if level <= 0 {
		return n
	}
	o := optimizer{reorder: level >= 2}
	return o.node(n)
}

type optimizer struct{ reorder bool }

func (o optimizer) node(n Node) Node {
	switch n := n.(type) {
	case *andNode:
		return o.chain(n.kids, true)
	case *orNode:
		return o.chain(n.kids, false)
	case *commaNode:
		kids := make([]Node, 0, len(n.kids))
		for i, k := range n.kids {
			k = o.node(k)
			// Only the last operand's value counts: a pure operand
			// before it does nothing at all.
			if i < len(n.kids)-1 && k.Facts().Pure() {
				continue
			}
			kids = append(kids, k)
		}
		if len(kids) == 1 {
			return kids[0]
		}
		return &commaNode{kids: kids}
	case *notNode:
		kid := o.node(n.kid)
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
	if o.reorder {
		reorderPure(kids, and)
	}
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

// reorderPure sorts each run of adjacent pure operands, stably, by the
// classic rank for independent tests: cost divided by the chance that
// the operand decides the chain (being false under -a, true under -o).
// Lowest rank first minimises the expected cost of the chain.
func reorderPure(kids []Node, and bool) {
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
		slices.SortStableFunc(kids[i:j], func(a, b Node) int { return cmp.Compare(rank(a), rank(b)) })
		i = j
	}
}

func constOf(v bool) *constNode {
	if v {
		return &constNode{val: true, args: []string{"-true"}}
	}
	return &constNode{val: false, args: []string{"-false"}}
}
