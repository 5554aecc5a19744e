package predicate

import (
	"errors"

	"github.com/gfind/gfind/internal/spawn"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
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

// Effect is a set of what evaluating a node may do besides being true
// or false. An operator has the effects of its operands.
type Effect uint8

const (
	EffectStdout Effect = 1 << iota // writes records to standard output: -print, -print0, -printf, -ls, -printjson
	EffectFile                      // writes to a file it opened: -fprint, -fprint0, -fprintf, -fls (even /dev/stdout)
	EffectExec                      // runs a command: -exec, -execdir, -ok, -okdir
	EffectDelete                    // removes the file: -delete, and -delete-dry-run, which acts as if
	EffectPrune                     // keeps the walk out of the directory: -prune
	EffectQuit                      // ends the walk: -quit
	EffectOrder                     // what it writes depends on the files visited before: -ls's column widths
)

// acts are the effects that turn off the implicit -print.
const acts = EffectStdout | EffectFile | EffectExec | EffectDelete

// Facts are what is known about a node without evaluating it.
type Facts struct {
	Effects Effect
	// Cost is the expected cost of one evaluation in arbitrary units, as
	// bfs estimates them: 1 for a test on the name, 1000 for one needing
	// a stat. Prob is the estimated chance of being true.
	Cost, Prob float64
}

// Pure reports whether the node has no effect: the optimizer may skip
// or reorder it. Actions, -prune and -quit are not pure.
func (f Facts) Pure() bool { return f.Effects == 0 }

// Prints reports whether the node prints or otherwise acts on its own,
// which turns off the implicit -print (GNU's no_default_print): every
// action but -prune and -quit.
func (f Facts) Prints() bool { return f.Effects&acts != 0 }

// State is one worker's evaluation state. It is not shared between
// goroutines.
type State struct {
	Out  *output.Buffer
	Diag *output.Diag
	sink *output.Sink

	follow  walker.Follow    // -P, -H or -L: which status the tests see
	race    bool             // -ignore_readdir_race, as it stands after parsing
	prune   bool             // set by -prune for the entry being evaluated
	dirs    *execdirState    // this worker's place in the -execdir ... + batches (exec.go)
	files   []*output.Buffer // this worker's Buffer per -fprint file, by outFile.id (files.go)
	bufSize int              // its Buffers' size (output.NewBufferSize)
	limit   *limiter         // -limit's shared count, or nil (limit.go)
	matches int64            // entries the whole expression was true for

	gate   *quitGate // orders the actions against -quit, or nil without one (quit.go)
	inGate bool      // this evaluation holds gate

	meta metaScratch // the xattr tests' buffers (fsmeta.go)
	git  gitState    // -gitignored's scratch (gitignore.go)
}

// NewState returns the state for one worker of cmd writing through sink.
func NewState(cmd *Command, sink *output.Sink, diag *output.Diag) *State {
	return NewStateSize(cmd, sink, diag, 0)
}

// NewStateSize is NewState with Buffers of bufSize bytes
// (output.NewBufferSize): for a worker a walk adds while its calls
// block, which waits more than it writes.
func NewStateSize(cmd *Command, sink *output.Sink, diag *output.Diag, bufSize int) *State {
	s := &State{Out: sink.NewBufferSize(bufSize), Diag: diag, sink: sink, follow: cmd.Walk.Follow,
		race: cmd.Walk.IgnoreReaddirRace, limit: cmd.lim, gate: cmd.gate, bufSize: bufSize}
	if len(cmd.execdirs) > 0 {
		s.dirs = &execdirState{nodes: cmd.execdirs, lines: make([]*spawn.Line, len(cmd.execdirs))}
	}
	return s
}

// stat returns the status the tests see for e, as GNU's options.xstat:
// the file itself under -P, the link's target under -L (and -H for a
// starting point), falling back to the link itself when it dangles. A
// failure is reported once per entry and the caller's test is false.
func (s *State) stat(e *walker.Entry) (*unix.Stat_t, bool) {
	if !s.follows(e) {
		st, err := e.Lstat()
		if err != nil {
			s.reportStat(e, err)
			return nil, false
		}
		return st, true
	}
	st, err := e.Stat()
	if err == nil {
		return st, true
	}
	lst, lerr := e.Lstat()
	isLink := lerr == nil && lst.Mode&unix.S_IFMT == unix.S_IFLNK
	switch {
	case isLink && (errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR)):
		return lst, true // a dangling link is seen as itself
	case isLink:
		// The walker stats every link it follows and has reported this
		// failure (ELOOP, EACCES) already; GNU's tests are then false.
		e.ReportOnce()
		return nil, false
	}
	s.reportStat(e, err)
	return nil, false
}

// follows reports whether the tests see the target of a link at e: under
// -L, and under -H for a starting point.
func (s *State) follows(e *walker.Entry) bool { return s.follow.Follows(e.Depth) }

// reportStat reports a failed stat of e, once per entry. A file that
// vanished since its directory was read (ENOENT) is not reported under
// -ignore_readdir_race, as in GNU's get_statinfo: the test that needed
// its status is just false. It still counts as reported, so that the
// walker does not try to read a directory that is gone.
func (s *State) reportStat(e *walker.Entry, err error) {
	if e.ReportOnce() && !(s.race && errors.Is(err, unix.ENOENT)) {
		s.Diag.FileError(e.Path, err)
	}
}

// Stopped reports whether -quit, a write error or a signal ended the
// walk.
func (s *State) Stopped() bool {
	return s.sink.Stopped() || s.gate != nil && s.gate.quit.Load()
}

// Visit evaluates the expression on e and tells the walker what to do
// next: Prune when -prune was true on a directory, Stop after -quit.
func (s *State) Visit(expr Node, e *walker.Entry) walker.Action {
	s.prune = false
	if s.limit != nil && !s.limit.acquire() {
		return walker.Stop
	}
	if s.dirs != nil {
		s.enterDir(e) // may run the batches of the directory left (exec.go)
	}
	matched := expr.Eval(e, s)
	s.leaveGate()
	if matched {
		s.matches++
	}
	switch {
	case s.limit != nil && s.limit.release(matched):
		return walker.Stop // the Nth match (limit.go)
	case s.Stopped():
		return walker.Stop
	case s.prune:
		return walker.Prune
	}
	return walker.Continue
}

// Done flushes what the worker has buffered.
func (s *State) Done() { s.Out.Flush() }
