package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"github.com/gfind/gfind/internal/tz"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/predicate"
	"golang.org/x/term"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run is gfind with arguments args (without the program name), writing
// to os.Stdout and os.Stderr; it returns the exit status: the command
// line is read (splitArgs, predicate.Parse), the process's own parts
// are set up (output, signals, the status line), and a predicate.Run
// walks and decides the status.
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
	cmd, err := predicate.Parse(rest, parseConfig(opts, diag))
	if err != nil {
		return parseFailed(diag, err, rest)
	}
	if cmd.Status && stats == nil {
		stats = startStats(false, true)
	}
	diag.SetPermErrorsOK(opts.cli.IgnoreErrors) // --ignore-errors
	diag.SetJSON(opts.cli.JSON)                 // --json: diagnostics about files as JSON records

	statusOn := opts.cli.Progress || cmd.Status
	var sinkOpts []output.SinkOption
	if statusOn {
		// A broken pipe on standard output (gfind -status | head) kills
		// gfind in the runtime's write, with the line left on the
		// terminal, unless the Sink sees the EPIPE and dies itself.
		sinkOpts = append(sinkOpts, output.WithOwnSIGPIPE())
	}
	sink := output.NewSink(os.Stdout, diag, sinkOpts...)
	var status atomic.Pointer[statusLine] // started just before the walk, read by the watch
	defer watchSignals(sink, cmd.RunsCommands(), func() { status.Load().stopNow() }).stop()

	r := predicate.NewRun(cmd, sink, diag, predicate.RunConfig{Workers: opts.cli.Threads, Sort: opts.cli.Sort, OptLevel: opts.optLevel})
	if contains(opts.debug, "tree") || contains(opts.debug, "opt") || contains(opts.debug, "all") {
		fmt.Fprintf(os.Stderr, "Parsed tree:\n%s\nOptimized tree (-O%d):\n%s\n",
			strings.Join(cmd.Expr.Args(), " "), opts.optLevel, strings.Join(r.Expr().Args(), " "))
	}
	// -files0-from's names are read as the walk goes, and what is wrong
	// with one is reported in its place.
	roots := cmd.NextRoot(diag)
	if statusOn {
		stats.matches = r.WorkerMatches
	}
	visit := stats.wrap(r.Workers(), cmd.Walk.Follow, r.Visit)
	if statusOn {
		status.Store(startStatus(stats, diag)) // after wrap: it samples what wrap made
	}
	err = r.Walk(roots, visit)
	status.Load().stop() // before the -exec + batches run and anything more is reported
	code := r.Finish(err)
	stats.writeReport(diag, r.Matches())
	return code
}

// parseConfig is what predicate.Parse needs to know of the command line
// and the environment besides the arguments it parses.
func parseConfig(opts *options, diag *output.Diag) predicate.Config {
	return predicate.Config{
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
	}
}

// parseFailed handles predicate.Parse's error err on the expression
// args: -help and -version are answered, anything else reported, with
// a hint when one helps. It returns the exit status.
func parseFailed(diag *output.Diag, err error, args []string) int {
	switch {
	case errors.Is(err, predicate.ErrHelp):
		return printHelp()
	case errors.Is(err, predicate.ErrVersion):
		return printVersion()
	}
	diag.Errorf("%s", err)
	var pe *predicate.ParseError
	switch {
	case errors.As(err, &pe) && pe.Hint != "":
		diag.Errorf("%s", pe.Hint)
	case term.IsTerminal(2):
		// Only for a reader: off a terminal, stderr stays GNU's.
		if h := parseHint(err, args); h != "" {
			diag.Notef("%s", h)
		}
	}
	return 1
}

// colorWanted decides --color: always, or auto on a terminal unless
// NO_COLOR is set and not empty (https://no-color.org, as bfs: it changes
// the default only, so --color=always and -color still color).
func colorWanted(when string, tty bool, noColor string) bool {
	return when == "always" || when == "auto" && tty && noColor == ""
}
