package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/gfind/gfind/internal/tz"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/predicate"
	"github.com/gfind/gfind/walker"
	"golang.org/x/term"
)

// maxAdaptWorkers is the most workers (and Ps) a walk without -j grows
// to while its calls block: about what a virtio disk or an NFS server
// serves at once.
const maxAdaptWorkers = 32

func main() {
	os.Exit(run(os.Args[1:]))
}

// run is gfind with arguments args (without the program name), writing
// to os.Stdout and os.Stderr; it returns the exit status.
func run(args []string) int {
	// Before anything reads time.Local: a POSIX rule in TZ (internal/tz).
	tz.SetLocal()
	diag := output.NewDiag("gfind", os.Stderr)
	opts, rest, err := splitArgs(args, diag.Quote, func(msg string) { diag.Notef("%s", msg) })
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) && ue.hint {
			diag.Errorf("%s\nTry 'gfind --help' for more information.", ue.msg)
		} else {
			diag.Errorf("%s", err)
		}
		return 1
	}
	switch {
	case opts.cli.Help:
		return printHelp()
	case opts.cli.Version:
		return printVersion()
	case contains(opts.debug, "help"):
		return printDebugHelp()
	}
	// --stats (stats.go); -status and --progress (status.go) reuse its
	// counts. The clock starts here, before parsing, as --stats's does,
	// except for -status alone, which parsing finds.
	stats := startStats(opts.cli.Stats, opts.cli.Progress)

	cmd, err := predicate.Parse(rest, predicate.Config{
		Follow:   opts.follow,
		OptLevel: opts.optLevel,
		Warnings: term.IsTerminal(0) && os.Getenv("POSIXLY_CORRECT") == "",
		Quote:    diag.Quote,
		IsUTF8:   func() bool { return diag.Style() == output.StyleUTF8 },
		Warn:     func(msg string) { diag.Warnf("%s", msg) },

		Color:          colorWanted(opts.cli.Color, term.IsTerminal(1), os.Getenv("NO_COLOR")),
		DryRun:         opts.cli.DryRun,
		NoPreserveRoot: opts.cli.NoPreserveRoot,
		JSON:           opts.cli.JSON,
		QuietErrors:    opts.cli.QuietErrors || opts.cli.IgnoreErrors,
		GitIgnore:      opts.cli.GitIgnore,
	})
	switch {
	case errors.Is(err, predicate.ErrHelp):
		return printHelp()
	case errors.Is(err, predicate.ErrVersion):
		return printVersion()
	case err != nil:
		diag.Errorf("%s", err)
		var pe *predicate.ParseError
		switch {
		case errors.As(err, &pe) && pe.Hint != "":
			diag.Errorf("%s", pe.Hint)
		case term.IsTerminal(2):
			// Only for a reader: off a terminal, stderr stays GNU's.
			if h := parseHint(err, rest); h != "" {
				diag.Notef("%s", h)
			}
		}
		return 1
	}
	if cmd.Status && stats == nil {
		stats = startStats(false, true)
	}
	diag.SetQuietErrors(cmd.QuietErrors)        // --quiet-errors, --ignore-errors
	diag.SetPermErrorsOK(opts.cli.IgnoreErrors) // --ignore-errors
	diag.SetNoError(cmd.NoError)                // -noerror: no error about a file counts
	diag.SetJSON(opts.cli.JSON)                 // --json: diagnostics about files as JSON records

	workers := opts.cli.Threads
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	walk := cmd.Walk
	walk.Workers = workers
	walk.Sort = walk.Sort || opts.cli.Sort
	if opts.cli.Threads <= 0 && !walk.Sort {
		// No -j: the walk grows to maxAdaptWorkers while its calls
		// block (a cold cache, a remote file system).
		walk.MaxWorkers = max(workers, maxAdaptWorkers)
	}
	walk.Procs = func(n int) { runtime.GOMAXPROCS(n) }
	workers = max(workers, walk.MaxWorkers)
	if walk.Sort && os.Getenv("GOGC") == "" {
		// -s holds a window of sorted listings, a few MiB of live heap
		// that the default GOGC=100 (a 4 MiB minimum heap) would collect
		// again and again: fewer collections are worth a little more
		// peak RSS (bench/NOTES.md, "GOGC under -s").
		debug.SetGCPercent(200)
	}

	statusOn := opts.cli.Progress || cmd.Status
	var sinkOpts []output.SinkOption
	if statusOn {
		// A broken pipe on standard output (gfind -status | head) kills
		// gfind in the runtime's write, with the line left on the
		// terminal, unless the Sink sees the EPIPE and dies itself.
		sinkOpts = append(sinkOpts, output.WithOwnSIGPIPE())
	}
	sink := output.NewSink(os.Stdout, diag, sinkOpts...)
	// signal.go: die of SIGINT/SIGTERM/SIGHUP cleanly, once it matters.
	watch := &signalWatch{sink: sink}
	var status atomic.Pointer[statusLine] // started just before the walk, read by the watch
	watch.beforeDeath = func() { status.Load().stopNow() }
	if cmd.RunsCommands() {
		watch.start()
	} else {
		sink.BeforeLargeWrite(watch.start)
	}
	defer watch.stop()
	states := make([]*predicate.State, workers)
	for i := range walk.Workers {
		states[i] = predicate.NewState(cmd, sink, diag)
	}
	// The states of the workers a walk grows (MaxWorkers) are made by
	// the worker that first needs one: only worker i touches states[i]
	// during the walk, and a walk that does not grow makes none. Such a
	// worker waits on its calls more than it writes, so its buffers are
	// smaller: the walk's peak memory grows less with it.
	state := func(i int) *predicate.State {
		if states[i] == nil {
			states[i] = predicate.NewStateSize(cmd, sink, diag, output.FlushSize/4)
		}
		return states[i]
	}
	if exclude := cmd.ExcludeFunc(states, opts.optLevel); exclude != nil { // -exclude, evaluated before the visit
		walk.Exclude = func(e *walker.Entry) bool {
			state(e.Worker)
			return exclude(e)
		}
	}
	if cmd.TracksPieces() { // -execdir ... +: a directory's batch waits for the pieces of it handed out
		walk.Hold = func(worker int, dir []byte, held bool) { state(worker).PieceOut(dir, held) }
	}
	expr := predicate.Optimize(cmd.Expr, opts.optLevel)
	if contains(opts.debug, "tree") || contains(opts.debug, "opt") || contains(opts.debug, "all") {
		fmt.Fprintf(os.Stderr, "Parsed tree:\n%s\nOptimized tree (-O%d):\n%s\n",
			strings.Join(cmd.Expr.Args(), " "), opts.optLevel, strings.Join(expr.Args(), " "))
	}
	if walk.Sort && workers > 1 && !walk.PostOrder && !sink.TTY() && cmd.OutputOnly() {
		// -s whose visits only print: each worker walks subtrees of
		// its own, and the output is put back in order.
		bufs := make([]*output.Buffer, len(states))
		for i, s := range states {
			bufs[i] = s.Out
		}
		walk.Ordered = output.NewReorder(bufs)
	}
	// -files0-from's names are read as the walk goes, and what is wrong
	// with one is reported in its place.
	roots := cmd.NextRoot(diag)
	if statusOn {
		stats.matches = func(i int) int64 { return states[i].Matches() }
	}
	visit := stats.wrap(workers, walk.Follow, func(e *walker.Entry) walker.Action {
		if state(e.Worker).Stopped() {
			return walker.Stop // a signal (signal.go), -quit or a write error: visit nothing more
		}
		if e.Err != nil {
			if !(cmd.Unique && isLoop(e.Err)) { // -unique skips a loop silently, as bfs does
				diag.FileError(e.Path, e.Err)
			}
			return walker.Continue
		}
		return states[e.Worker].Visit(expr, e)
	})
	if statusOn {
		status.Store(startStatus(stats, diag)) // after wrap: it samples what wrap made
	}
	err = walker.WalkNext(roots, walk, visit)
	// Before the -exec + batches run and anything more is reported.
	status.Load().stop()
	states = slices.DeleteFunc(states, func(s *predicate.State) bool { return s == nil })
	for _, s := range states {
		s.Done()
	}
	cmd.Close() // pending -exec ... + batches; errors are reported
	sink.Close()
	if err != nil {
		diag.Errorf("%s", err)
	}
	if n := diag.Suppressed(); n > 0 && cmd.Warnings {
		// bfs's warning, in its words: the errors are hidden, not gone.
		diag.Warnf("Suppressed errors: %d", n)
	}
	stats.writeReport(diag, states)
	if diag.Failed() {
		return 1
	}
	return 0
}

// colorWanted decides --color: always, or auto on a terminal unless
// NO_COLOR is set and not empty (https://no-color.org, as bfs: it changes
// the default only, so --color=always and -color still color).
func colorWanted(when string, tty bool, noColor string) bool {
	return when == "always" || when == "auto" && tty && noColor == ""
}

// isLoop reports whether err is the walker's file system loop, which
// under -unique is a directory met before: skipped without a word.
func isLoop(err error) bool {
	var loop *walker.LoopError
	return errors.As(err, &loop)
}
