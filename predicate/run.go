package predicate

import (
	"errors"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
)

// Run is one run of a parsed command: the walk's options as the command
// line decides them, the State of each worker, and the exit status.
// cmd/gfind makes one (NewRun), walks (Walk, with Visit), and exits
// with what Finish returns.
type Run struct {
	cmd  *Command
	sink *output.Sink
	diag *output.Diag
	expr Node // cmd.Expr, optimized
	walk walker.Options
	// states holds a State per worker the walk may have. Only worker i
	// touches states[i] during the walk, so the States of the workers a
	// walk grows (MaxWorkers) are made by the worker that first needs
	// one (state), and a walk that does not grow makes none.
	states []*State
}

// RunConfig is what the command line says about a run besides the
// expression.
type RunConfig struct {
	Workers  int  // -j; 0 when not given
	Sort     bool // -s, besides the expression's own
	OptLevel int  // -O, for the expression and -exclude's operands
}

// maxAdaptWorkers is the most workers (and Ps) a walk without -j grows
// to while its calls block: about what a virtio disk or an NFS server
// serves at once.
const maxAdaptWorkers = 32

// NewRun prepares a run of cmd writing through sink and reporting
// through diag, which it tells what the command says of errors.
func NewRun(cmd *Command, sink *output.Sink, diag *output.Diag, cfg RunConfig) *Run {
	diag.SetQuietErrors(cmd.QuietErrors) // --quiet-errors, --ignore-errors
	diag.SetNoError(cmd.NoError)         // -noerror: no error about a file counts
	r := &Run{cmd: cmd, sink: sink, diag: diag, walk: walkOptions(cmd.Walk, cfg.Workers, cfg.Sort)}
	r.states = make([]*State, max(r.walk.Workers, r.walk.MaxWorkers))
	for i := range r.walk.Workers {
		r.states[i] = NewState(cmd, sink, diag)
	}
	if exclude := cmd.ExcludeFunc(r.states, cfg.OptLevel); exclude != nil { // -exclude, evaluated before the visit
		r.walk.Exclude = func(e *walker.Entry) bool {
			r.state(e.Worker)
			return exclude(e)
		}
	}
	if cmd.TracksPieces() { // -execdir ... +: a directory's batch waits for the pieces of it handed out
		r.walk.PieceOut = func(worker int, dir []byte, held bool) { r.state(worker).PieceOut(dir, held) }
	}
	r.expr = Optimize(cmd.Expr, cfg.OptLevel)
	if reorders(r.walk, sink.TTY(), cmd.OutputOnly()) {
		bufs := make([]*output.Buffer, len(r.states))
		for i, s := range r.states {
			bufs[i] = s.Out
		}
		r.walk.Ordered = output.NewReorder(bufs)
	}
	return r
}

// walkOptions completes opt, the walk's options the expression decided,
// with the command line's -j (workers, 0 when not given) and -s (sort).
// Without -j the walk starts with a worker per P and grows to
// maxAdaptWorkers while its calls block (a cold cache, a remote file
// system); -s keeps the workers it starts with.
func walkOptions(opt walker.Options, workers int, sort bool) walker.Options {
	opt.Workers = workers
	if workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	opt.Sort = opt.Sort || sort
	if workers <= 0 && !opt.Sort {
		opt.MaxWorkers = max(opt.Workers, maxAdaptWorkers)
	}
	opt.Procs = func(n int) { runtime.GOMAXPROCS(n) }
	return opt
}

// reorders reports whether a walk with options opt may make its visits
// out of order, each worker walking subtrees of its own, and put their
// output back in order (walker.Options.Ordered, output.Reorder): when
// the walker would own subtrees (-s with more than one worker and P,
// visits before the directory's contents: Options.OwnsSubtrees, the
// rule the walker picks its engine by), output that is not a terminal's
// (which is written a record at a time, as it is made, and must not be
// held back), and an expression whose only effect is that output
// (Command.OutputOnly).
func reorders(opt walker.Options, tty, outputOnly bool) bool {
	return opt.OwnsSubtrees() && !tty && outputOnly
}

// state returns worker i's State, making it if the walk grew to i.
func (r *Run) state(i int) *State {
	if r.states[i] == nil {
		// Such a worker waits on its calls more than it writes: smaller
		// buffers make the walk's peak memory grow less with it.
		r.states[i] = NewStateSize(r.cmd, r.sink, r.diag, output.FlushSize/4)
	}
	return r.states[i]
}

// Expr returns the expression as the run evaluates it: optimized.
func (r *Run) Expr() Node { return r.expr }

// Workers returns the most workers the walk may have.
func (r *Run) Workers() int { return len(r.states) }

// WorkerMatches returns the files worker i's evaluations matched so
// far; only worker i may ask during the walk.
func (r *Run) WorkerMatches(i int) int64 {
	if r.states[i] == nil {
		return 0
	}
	return r.states[i].Matches()
}

// Matches returns the files the expression matched, once the walk is
// over.
func (r *Run) Matches() int64 {
	var n int64
	for i := range r.states {
		n += r.WorkerMatches(i)
	}
	return n
}

// Walk walks the starting points roots gives, calling visit (Visit, or
// a wrapper of it) for each file, and returns the walk's error.
func (r *Run) Walk(roots func() (string, bool), visit func(*walker.Entry) walker.Action) error {
	if r.walk.Sort && os.Getenv("GOGC") == "" {
		// -s holds a window of sorted listings, a few MiB of live heap
		// that the default GOGC=100 (a 4 MiB minimum heap) would collect
		// again and again: fewer collections are worth a little more
		// peak RSS (bench/NOTES.md, "GOGC under -s"). It stays so for
		// the rest of the process, as it would under GOGC=200.
		debug.SetGCPercent(200)
	}
	return walker.WalkNext(roots, r.walk, visit)
}

// Visit evaluates the expression for e with its worker's State, or
// reports the walker's error on e.
func (r *Run) Visit(e *walker.Entry) walker.Action {
	if r.state(e.Worker).Stopped() {
		return walker.Stop // a signal, -quit or a write error: visit nothing more
	}
	if e.Err != nil {
		var loop *walker.LoopError
		if !r.cmd.Unique || !errors.As(e.Err, &loop) { // -unique skips a loop silently, as bfs does
			r.diag.FileError(e.Path, e.Err)
		}
		return walker.Continue
	}
	return r.states[e.Worker].Visit(r.expr, e)
}

// Finish ends the run once the walk is over, err being its error: each
// worker's output is flushed, then the command finished (Command.Close:
// the pending -exec ... + batches and the -fprint files) and the sink
// closed; err is reported, and so are the errors -noerror hid. It
// returns the exit status.
func (r *Run) Finish(err error) int {
	for _, s := range r.states {
		if s != nil {
			s.Done()
		}
	}
	r.cmd.Close() // errors are reported
	r.sink.Close()
	if err != nil {
		r.diag.Errorf("%s", err)
	}
	if n := r.diag.Suppressed(); n > 0 && r.cmd.Warnings {
		// bfs's warning, in its words: the errors are hidden, not gone.
		r.diag.Warnf("Suppressed errors: %d", n)
	}
	if r.diag.Failed() {
		return 1
	}
	return 0
}
