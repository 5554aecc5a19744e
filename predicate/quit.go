package predicate

import (
	"sync"
	"sync/atomic"

	"github.com/gfind/gfind/walker"
)

// -quit with several workers.
//
// GNU find evaluates one file at a time, so after -quit nothing else
// happens: no other command runs, nothing is deleted or printed. With
// several workers two files may reach their actions at the same moment,
// and a check of a "stopped" flag before each action is not enough: in
// `-name x -exec echo {} ; -quit`, worker B may check the flag after A
// ran its echo but before A reached -quit, and run a second echo.
//
// So when the expression holds a -quit, the actions of one file's
// evaluation happen under one lock, the quitGate, taken by the first
// action the evaluation reaches and held until the evaluation ends
// (State.act, State.Visit). -quit is an action too: it sets quit while
// holding the gate. The order is decided by who takes the gate: an
// evaluation that takes it before the -quit has done all its actions
// before it, and one that takes it after sees quit and does nothing,
// not even the first action. The effects of the files evaluated before
// the -quit are all kept: their records, buffered by any worker, are
// written at the end (State.Done, Command.Close), and pending
// -exec ... + batches run then too, after those records (GNU's cleanup
// after -quit), holding only files added before the -quit.
//
// Tests and the walk itself run outside the gate, in parallel; only
// files that reach an action wait for each other, and only when there
// is a -quit. Without -quit there is no gate and an action costs one
// nil check.
type quitGate struct {
	mu   sync.Mutex
	quit atomic.Bool // set under mu; read without it to stop the walk
}

// newQuitGate returns a gate when expr holds a -quit, else nil.
func newQuitGate(expr Node) *quitGate {
	if expr.Facts().Effects&EffectQuit == 0 {
		return nil
	}
	return &quitGate{}
}

// act is called by every action before its effect (printing, writing
// to a file, deleting, running or adding to a command): it reports
// whether -quit still lets the action happen. With a quitGate it takes
// the gate for the rest of the evaluation, so that no -quit can come
// between this action and the next ones of the same file. (A stop for
// a signal or a write error is the Sink's, which refuses the records
// itself; -exec checks Stopped too.) Without -quit it is one compare,
// inlined.
func (s *State) act() bool {
	return s.gate == nil || s.actGated()
}

func (s *State) actGated() bool {
	if !s.inGate {
		s.gate.mu.Lock()
		s.inGate = true
	}
	return !s.gate.quit.Load() && !s.sink.Stopped()
}

// leaveGate ends the evaluation's hold on the gate, if it took it.
func (s *State) leaveGate() {
	if s.inGate {
		s.unlockGate()
	}
}

func (s *State) unlockGate() {
	s.inGate = false
	s.gate.mu.Unlock()
}

// quitNode is -quit: stop the whole walk now. Nothing happens after it,
// for any file, from any worker (see quitGate); what was printed before
// is written, and pending -exec ... + batches run at the end, as in
// GNU's cleanup.
type quitNode struct{}

func (quitNode) Eval(e *walker.Entry, s *State) bool {
	if s.gate == nil {
		// A State made without its Command (tests): stop the output.
		s.Out.FlushAndStop()
		return true
	}
	s.act()
	s.gate.quit.Store(true)
	return true
}

func (quitNode) Facts() Facts   { return Facts{Effects: EffectQuit, Prob: 1} }
func (quitNode) Args() []string { return []string{"-quit"} }
