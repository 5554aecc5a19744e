package main

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

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

// cli is gfind's own options, which GNU find does not have, and the one
// list of them: kong parses them, and kong's model of this struct is what
// ownOption, --help (ownHelp) and the generated parts of the man page and
// the completion scripts (gendoc_test.go) read. None changes what a GNU
// find command line does.
//
// Tags besides kong's: help is the description in --help, with its line
// breaks (the completion menus show its first clause); man is what the
// man page says after it; bare is the value of the option given without
// one (a bare --color is --color=always, as in ls). The man page lists
// the options in this order, --help lists them by group.
type cli struct {
	Threads     int    `short:"j" name:"threads" placeholder:"N" group:"own" help:"use N worker goroutines (default: the number\nof CPUs, and up to 32 while the file system\nmakes them wait). The order of output lines\ndiffers from GNU find's unless N is 1: with\n-j1 gfind prints in exactly GNU find's order." man:"Without -j the walk watches its own calls: while a quarter of the workers' time goes to opens, directory reads and stats that sleep (a cold cache, NFS, FUSE), it doubles its workers and the threads that may wait in calls at once, up to 32, and halves them again once calls are fast, so a warm walk keeps one worker per CPU. With -j N the walk has N workers and lets up to N of them wait in calls at once; with -j1, and with -s, it does not adapt. N is at least 1: -j0 is refused, as in bfs."`
	Sort        bool   `short:"s" name:"sort" group:"own" help:"visit each directory's entries in name order\n(bytewise), depth first" man:"The output is then sorted and the same on every run; directories are still read in parallel. When the expression only prints to standard output (-print, -print0, -printf, -printjson, with any tests), each worker walks subtrees of its own, and the output of those that are not next is held in memory (up to 2 MiB per subtree waiting its turn) and written in order; messages about files on standard error may then come in another order than the output's."`
	Color       string `name:"color" placeholder:"WHEN" enum:"auto,always,never" default:"never" bare:"always" group:"own" help:"color names as bfs does, from LS_COLORS or\nLSCOLORS; WHEN is never (the default, as GNU\nfind), auto (on a terminal) or always; a bare\n--color is always" man:"A non-empty NO_COLOR in the environment turns auto off; always, and -color, still color."`
	DryRun      bool   `name:"dry-run" group:"own" help:"make -delete print what it would unlink" man:"It unlinks nothing."`
	JSON        bool   `name:"json" group:"own" help:"print JSON lines (as -printjson) instead of names" man:"Each match is one JSON object on a line, wherever the expression would print its name (including the implicit -print)."`
	QuietErrors bool   `name:"quiet-errors" group:"own" help:"do not report permission errors, but still\nexit 1 for them" man:"It is the strictest of the three: --ignore-errors also exits 0 for them, and -noerror ignores every error met on a file."`
	// IgnoreErrors is --quiet-errors that also keeps permission errors
	// out of the exit status: what bfs's -noerror does to every error.
	IgnoreErrors bool `name:"ignore-errors" group:"own" help:"as --quiet-errors, and exit 0 despite them" man:"Only the permission errors it hides are kept out of the exit status; other errors are still reported and make it 1 (-noerror ignores them all)."`
	// GitIgnore is -exclude of -gitignored and .git below the starting
	// points (predicate.Config.GitIgnore).
	GitIgnore bool `name:"gitignore" group:"own" help:"leave out .git and what git ignores below\nthe starting points (as -exclude -gitignored)" man:"Inside a git work tree, the files its .gitignore files, .git/info/exclude and core.excludesFile ignore are neither visited nor descended into, nor are the .git directories; outside a work tree nothing is left out. See -gitignored."`
	Stats     bool `name:"stats" group:"own" help:"print a one-line summary on standard error" man:"At the end of the walk: \"gfind: stats:\" and the numbers of directories, files, matches, stat calls and errors, and the time taken."`
	Progress  bool `name:"progress" group:"own" help:"show a live status line on standard error when\nit is a terminal (as -status)" man:"The line shows the entries seen, the directories among them, the matches, the rate per second, the time since the start and a directory being walked (escaped as -print escapes names on a terminal, and cut from the left to the terminal's width). It is redrawn at most ten times a second, to the width the terminal has then (asked before each draw, so also after a -exec command that resized it), and erased before any other message and -ok prompt, while a -exec command runs, before names printed to a terminal, and at the end of the walk. When standard error is not a terminal nothing is written."`
	// NoPreserveRoot allows "gfind / -delete" (predicate.checkPreserveRoot).
	NoPreserveRoot bool `name:"no-preserve-root" group:"own" help:"allow a -delete that no test guards on /" man:"See SAFETY."`
	Help           bool `name:"help" group:"common" help:"display this help and exit"`
	Version        bool `name:"version" group:"common" help:"output version information and exit"`
}

// optionGroups are the headings of cli's groups in --help, in its order.
var optionGroups = []kong.Group{
	{Key: "common", Title: "Other common options:"},
	{Key: "own", Title: "gfind's own options (before the starting points):"},
}

// newParser is kong's parser of gfind's own options into c; its Model
// holds their flags.
func newParser(c *cli) (*kong.Kong, error) {
	return kong.New(c, kong.Name("gfind"), kong.NoDefaultHelp(), kong.ExplicitGroups(optionGroups))
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

// optLevel parses the level after -O as GNU's process_leading_options
// does with strtoul: digits only, and at most 65535 (an unsigned short).
func optLevel(arg string) (int, error) {
	if arg[0] < '0' || arg[0] > '9' {
		return 0, &usageError{msg: "Please specify a decimal number immediately after -O"}
	}
	end := 0
	for end < len(arg) && arg[end] >= '0' && arg[end] <= '9' {
		end++
	}
	if end < len(arg) {
		return 0, &usageError{msg: "Invalid optimisation level " + arg}
	}
	n, err := strconv.ParseUint(arg, 10, 64)
	if err != nil {
		return 0, &usageError{msg: "Invalid optimisation level " + arg + ": Numerical result out of range"}
	}
	if n > 65535 {
		return 0, &usageError{msg: fmt.Sprintf("Optimisation level %d is too high.  If you want to find files very quickly, consider using GNU locate.", n)}
	}
	return int(n), nil
}

// splitArgs separates the leading options from the starting points and
// the expression, as GNU's process_leading_options does. Kong sees only
// gfind's own options: given the expression it would read "-name" as
// the short flag -n followed by "ame", silently.
func splitArgs(argv []string, quote func(string) string, warn func(string)) (*options, []string, error) {
	// GNU find's default level is 1 since 4.10 (savannah bug 58427):
	// the cost-based reordering, which can change what the user sees
	// (the order of diagnostics), runs only at -O2 and above.
	o := &options{optLevel: 1}
	var k *kong.Kong // built at the first word that may be an own option
	var own []string
	threads := false // -j or --threads was given
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
			n, err := optLevel(a[2:])
			if err != nil {
				return nil, nil, err
			}
			o.optLevel = n
		case a == "--":
			i++
			break loop
		case !strings.HasPrefix(a, "-"):
			// A starting point. Every flag starts with '-', and a
			// command line that starts with one does not pay for kong.
			break loop
		case !mayBeOwn(a):
			// The expression (most often a command line with no
			// starting point): told without kong, whose model of cli
			// costs more than the rest of a run on a small tree.
			break loop
		default:
			if k == nil {
				var err error
				if k, err = newParser(&o.cli); err != nil {
					return nil, nil, err
				}
			}
			f, takesNext := ownOption(k.Model.Flags, a)
			if f == nil {
				break loop // the expression
			}
			if v := f.Tag.Get("bare"); v != "" && a == "--"+f.Name {
				a += "=" + v
			}
			own = append(own, a)
			threads = threads || f.Name == "threads"
			if takesNext && i+1 < len(argv) {
				i++
				own = append(own, argv[i])
			}
		}
	}
	if len(own) > 0 {
		if _, err := k.Parse(own); err != nil {
			return nil, nil, &usageError{msg: err.Error(), hint: true}
		}
		switch {
		case o.cli.Threads < 0:
			return nil, nil, &usageError{msg: fmt.Sprintf("invalid number of threads %d", o.cli.Threads), hint: true}
		case o.cli.Threads == 0 && threads:
			// As bfs says of -j0: a walk needs a worker. Only an absent
			// -j means the default.
			return nil, nil, &usageError{msg: "0 is not enough threads", hint: true}
		}
	}
	return o, argv[i:], nil
}

// ownOption returns the flag of kong's model that the leading argument a
// gives, and whether the flag takes the next argument as its value (-j N,
// --threads N); nil when a is none of gfind's own options, and so starts
// the expression. A value in a's own word follows "=" (--threads=N), or
// the short name when it is a number (-j2: -jx stays an unknown primary,
// as in GNU find). A flag with a bare value (--color) takes no next
// argument.
func ownOption(flags []*kong.Flag, a string) (*kong.Flag, bool) {
	for _, f := range flags {
		valued := !f.IsBool()
		short := "-" + string(f.Short)
		switch {
		case a == "--"+f.Name, f.Short != 0 && a == short:
			return f, valued && !f.Tag.Has("bare")
		case valued && strings.HasPrefix(a, "--"+f.Name+"="):
			return f, false
		case valued && f.Short != 0 && f.Target.CanInt() && len(a) > 2 && strings.HasPrefix(a, short) && '0' <= a[2] && a[2] <= '9':
			return f, false
		}
	}
	return nil, false
}

// mayBeOwn reports whether the leading argument a may be one of gfind's
// own options, and so needs kong's model to be told: a long option, or
// the short name of one of cli's flags (its short tag), alone or with a
// number. ownOption accepts nothing it rejects.
func mayBeOwn(a string) bool {
	if strings.HasPrefix(a, "--") {
		return true
	}
	if len(a) < 2 || a[0] != '-' || !strings.Contains(ownShorts(), a[1:2]) {
		return false
	}
	return len(a) == 2 || '0' <= a[2] && a[2] <= '9'
}

// ownShorts returns the short names of cli's flags, read from its tags.
var ownShorts = sync.OnceValue(func() string {
	var b strings.Builder
	t := reflect.TypeFor[cli]()
	for i := range t.NumField() {
		b.WriteString(t.Field(i).Tag.Get("short"))
	}
	return b.String()
})

func contains(list []string, s string) bool { return slices.Contains(list, s) }
