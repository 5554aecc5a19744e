package predicate

import (
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
)

// A Node is one part of the expression: a test (-name), an action
// (-print), an option that is always true (-maxdepth), or an operator.
type Node interface {
	// Eval reports whether the node is true for e. Actions write
	// through s; no Node writes to os.Stdout itself.
	Eval(e *walker.Entry, s *State) bool
	// Facts returns what is known about the node without evaluating it.
	Facts() Facts
	// Args renders the node as find arguments; parsing them again gives
	// back an equal tree.
	Args() []string
}

// Need is a set of facts about a file that evaluating a node may need.
type Need uint8

const (
	NeedType  Need = 1 << iota // the file type (free from d_type)
	NeedLstat                  // lstat(2) of the file itself
	NeedStat                   // stat(2) following a final symbolic link
)

// Facts are what is known about a node without evaluating it.
type Facts struct {
	Needs Need
	// Pure nodes have no side effects: the optimizer may skip or reorder
	// them. Actions, -prune and -quit are not pure.
	Pure bool
	// Prints is set when the node or a child prints or otherwise acts on
	// its own, which turns off the implicit -print (GNU's
	// no_default_print).
	Prints bool
	// Cost is the expected cost of one evaluation in arbitrary units, as
	// bfs estimates them: 1 for a test on the name, 1000 for one needing
	// a stat. Prob is the estimated chance of being true.
	Cost, Prob float64
}

// State is one worker's evaluation state. It is not shared between
// goroutines.
type State struct {
	Out  *output.Buffer
	Diag *output.Diag
	sink *output.Sink

	prune bool // set by -prune for the entry being evaluated
}

// NewState returns the state for one worker writing through sink.
func NewState(sink *output.Sink, diag *output.Diag) *State {
	return &State{Out: sink.NewBuffer(), Diag: diag, sink: sink}
}

// Stopped reports whether -quit or a write error ended the walk.
func (s *State) Stopped() bool { return s.sink.Stopped() }

// Visit evaluates the expression on e and tells the walker what to do
// next: Prune when -prune was true on a directory, Stop after -quit.
func (s *State) Visit(expr Node, e *walker.Entry) walker.Action {
	s.prune = false
	expr.Eval(e, s)
	switch {
	case s.sink.Stopped():
		return walker.Stop
	case s.prune:
		return walker.Prune
	}
	return walker.Continue
}

// Done flushes what the worker has buffered.
func (s *State) Done() { s.Out.Flush() }
