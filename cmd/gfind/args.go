package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/gfind/gfind/walker"
)

// options are the leading options: GNU find's -H -L -P -D -O, and
// gfind's own long options.
type options struct {
	follow   walker.Follow
	debug    []string
	optLevel int
	cli      cli
}

// cli is the part of the leading options parsed by kong: gfind's own
// options, which GNU find does not have.
type cli struct {
	Threads int  `short:"j" name:"threads" help:"Number of worker goroutines (default: number of CPUs). -j1 gives GNU find's exact output order."`
	Help    bool `name:"help" help:"Print this help and exit."`
	Version bool `name:"version" help:"Print the version and exit."`
	// gfind's extras; none changes a GNU find command line.
	Sort        bool   `short:"s" name:"sort" help:"Visit each directory's entries sorted by name (byte order)."`
	Color       string `name:"color" enum:"auto,always,never" default:"never" help:"Color names as ls does, from LS_COLORS: always (a bare --color), auto (when standard output is a terminal) or never (the default: GNU find never colors)."`
	DryRun      bool   `name:"dry-run" help:"Make -delete print what it would unlink instead of unlinking."`
	JSON        bool   `name:"json" help:"Print matches as JSON lines (as -printjson) instead of names."`
	QuietErrors bool   `name:"quiet-errors" help:"Do not print permission errors (as -noerror); the exit status is still 1."`
	// IgnoreErrors is --quiet-errors that also keeps permission errors
	// out of the exit status: the "unless told otherwise" of -noerror.
	IgnoreErrors bool `name:"ignore-errors" help:"As --quiet-errors, and permission errors do not make the exit status 1."`
	Stats        bool `name:"stats" help:"Print a one-line summary on standard error at the end."`
	// NoPreserveRoot allows "gfind / -delete" (predicate.checkPreserveRoot).
	NoPreserveRoot bool `name:"no-preserve-root" help:"Allow a -delete that no test guards on the root directory."`
}

// usageError is a mistake in the leading options. GNU find follows some
// of these with a hint to run --help.
type usageError struct {
	msg  string
	hint bool
}

func (e *usageError) Error() string { return e.msg }

// debugFlags are the names GNU find accepts after -D.
var debugFlags = []string{"exec", "opt", "rates", "search", "stat", "tree", "time", "all", "help"}

// splitArgs separates the leading options from the starting points and
// the expression, as GNU's process_leading_options does. Kong sees only
// gfind's own options: given the expression it would read "-name" as
// the short flag -n followed by "ame", silently.
func splitArgs(argv []string, quote func(string) string, warn func(string)) (*options, []string, error) {
	o := &options{optLevel: 2, cli: cli{Color: "never"}}
	var own []string
	i := 0
loop:
	for ; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-H":
			o.follow = walker.FollowRoots
		case a == "-L":
			o.follow = walker.FollowAll
		case a == "-P":
			o.follow = walker.FollowNever
		case a == "-D":
			if i+1 >= len(argv) {
				return nil, nil, &usageError{msg: "Missing argument after the -D option.", hint: true}
			}
			i++
			for _, f := range strings.Split(argv[i], ",") {
				if !contains(debugFlags, f) {
					warn(fmt.Sprintf("Ignoring unrecognised debug flag %s", quote(f)))
					continue
				}
				o.debug = append(o.debug, f)
			}
		case strings.HasPrefix(a, "-O"):
			if len(a) == 2 {
				return nil, nil, &usageError{msg: "The -O option must be immediately followed by a decimal integer"}
			}
			n, err := strconv.Atoi(a[2:])
			if err != nil || n < 0 || a[2] < '0' || a[2] > '9' {
				return nil, nil, &usageError{msg: "Please specify a decimal number immediately after -O"}
			}
			o.optLevel = n
		case a == "--":
			i++
			break loop
		case isOwnOption(a):
			if a == "--color" {
				a = "--color=always" // as ls: a bare --color means always
			}
			own = append(own, a)
			if (a == "-j" || a == "--threads") && i+1 < len(argv) {
				i++
				own = append(own, argv[i])
			}
		default:
			break loop
		}
	}
	if len(own) > 0 {
		k, err := kong.New(&o.cli, kong.Name("gfind"), kong.NoDefaultHelp())
		if err != nil {
			return nil, nil, err
		}
		if _, err := k.Parse(own); err != nil {
			return nil, nil, &usageError{msg: err.Error(), hint: true}
		}
		if o.cli.Threads < 0 {
			return nil, nil, &usageError{msg: fmt.Sprintf("invalid number of threads %d", o.cli.Threads), hint: true}
		}
	}
	return o, argv[i:], nil
}

// isOwnOption reports whether a leading argument is one of gfind's own
// options rather than the start of the expression.
func isOwnOption(a string) bool {
	switch {
	case a == "--help", a == "--version", a == "-j", a == "--threads":
		return true
	case a == "-s", a == "--sort", a == "--color", a == "--dry-run", a == "--json",
		a == "--quiet-errors", a == "--ignore-errors", a == "--stats", a == "--no-preserve-root":
		return true
	case strings.HasPrefix(a, "--threads="), strings.HasPrefix(a, "--color="):
		return true
	case strings.HasPrefix(a, "-j") && len(a) > 2 && a[2] >= '0' && a[2] <= '9':
		return true
	}
	return false
}

func contains(list []string, s string) bool { return slices.Contains(list, s) }
