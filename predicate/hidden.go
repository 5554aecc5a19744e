package predicate

import "github.com/gfind/gfind/walker"

// bfs's hidden files: -hidden is true for a name that starts with '.',
// and -nohidden leaves such files, and everything below them, out of the
// whole walk, as bfs 2.0 and later do by making it -exclude -hidden;
// except that a starting point is always walked (bfs leaves out a hidden
// one): a hidden directory named on the command line is where the user
// asked to look, as in fd.

// hiddenNode is -hidden.
type hiddenNode struct{}

// Eval is bfs's eval_hidden: the name starts with '.' but is not "." or
// "..", which only a starting point can be named ("gfind . -nohidden"
// would leave out everything). A starting point's name is its last
// component without trailing slashes (rootBase, as -name sees it), so
// "./" and "../" are not hidden either, where bfs 4.1 takes them for
// hidden names.
func (hiddenNode) Eval(e *walker.Entry, _ *State) bool {
	if e.Depth > 0 {
		name := e.Path[e.NameOff:]
		return len(name) > 0 && name[0] == '.'
	}
	name := rootBase(e.Path)
	switch string(name) {
	case ".", "..":
		return false
	}
	return name[0] == '.'
}

func (hiddenNode) Facts() Facts {
	// As bfs estimates it for -nohidden: few names are hidden.
	return Facts{Cost: costName, Prob: 0.01}
}

func (hiddenNode) Args() []string { return []string{"-hidden"} }

func parseHidden(p *parser, op string, _ variant) error {
	p.push(hiddenNode{})
	return nil
}

// parseNohidden is -nohidden, an option that is always true where it
// stands and adds nohiddenNode to the -exclude operands (excludeExpr).
func parseNohidden(p *parser, op string, _ variant) error {
	p.noHidden = true
	return nil
}

// nohiddenNode is the -exclude operand -nohidden adds: -hidden below the
// starting points.
type nohiddenNode struct{}

func (nohiddenNode) Eval(e *walker.Entry, s *State) bool {
	return e.Depth > 0 && hiddenNode{}.Eval(e, s)
}

func (nohiddenNode) Facts() Facts { return hiddenNode{}.Facts() }

// Args gives the option that makes it: parsing it again adds it to the
// -exclude operands again.
func (nohiddenNode) Args() []string { return []string{"-nohidden"} }
