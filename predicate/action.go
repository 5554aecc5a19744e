package predicate

import "github.com/gfind/gfind/walker"

// printNode is -print (term '\n') and -print0 (term 0).
type printNode struct {
	op   string
	term byte
}

func (n *printNode) Eval(e *walker.Entry, s *State) bool {
	if !s.act() {
		return false
	}
	s.Out.Print(e.Path, n.term)
	return true
}

func (n *printNode) Facts() Facts {
	return Facts{Effects: EffectStdout, Cost: costPrint, Prob: 1}
}

func (n *printNode) Args() []string { return []string{n.op} }

// pruneNode is -prune: true, and a directory met in pre-order is not
// descended into. Under -depth it does nothing but be true.
type pruneNode struct{}

func (pruneNode) Eval(e *walker.Entry, s *State) bool {
	s.prune = true
	return true
}

func (pruneNode) Facts() Facts   { return Facts{Effects: EffectPrune, Prob: 1} }
func (pruneNode) Args() []string { return []string{"-prune"} }
