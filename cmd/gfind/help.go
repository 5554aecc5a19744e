package main

import (
	"fmt"
	"os"
)

const version = "0.1.0"

// helpText is the --help text: GNU find 4.9's groups, in GNU's order
// and wording, so that a reader of find --help finds everything where
// GNU puts it. The GNU primaries GNU's own text leaves out (-ipath,
// -samefile, -newerXY, -d) are added to their groups; gfind's extras
// come in groups of their own after GNU's, so that nothing in GNU's
// groups is gfind-only. doc_test.go checks that the expression groups
// list exactly the primaries of predicate's parse table, and that the
// man page and the completion scripts know every name listed here.
const helpText = `Usage: gfind [-H] [-L] [-P] [-Olevel] [-D debugopts] [gfind options] [path...] [expression]

Default path is the current directory; default expression is -print.
Expression may consist of: operators, options, tests, and actions.

Operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

Positional options (always true):
      -daystart -follow -nowarn -regextype -warn

Normal options (always true, specified before other expressions):
      -depth -files0-from FILE -maxdepth LEVELS -mindepth LEVELS
       -mount -noleaf -xdev -ignore_readdir_race -noignore_readdir_race
      -d (deprecated; as -depth)

Tests (N can be +N or -N or N):
      -amin N -anewer FILE -atime N -cmin N -cnewer FILE -context CONTEXT
      -ctime N -empty -false -fstype TYPE -gid N -group NAME -ilname PATTERN
      -iname PATTERN -inum N -iwholename PATTERN -iregex PATTERN
      -links N -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE
      -nouser -nogroup -path PATTERN -perm [-/]MODE -regex PATTERN
      -readable -writable -executable
      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N
      -used N -user NAME -xtype [bcdpfls]
      -ipath PATTERN -newerXY REFERENCE -samefile FILE

Actions:
      -delete -print0 -printf FORMAT -fprintf FILE FORMAT -print 
      -fprint0 FILE -fprint FILE -ls -fls FILE -prune -quit
      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;
      -execdir COMMAND ; -execdir COMMAND {} + -okdir COMMAND ;

gfind extras in the expression (not in GNU find):
      -color, -nocolor         (options) color names from LS_COLORS, or not
      -noerror                 (option) do not report permission errors
      -exclude EXPR            never visit or descend into what EXPR matches
      -glob PATTERN            match the path below the starting point with a
                               glob where ** crosses directories
      -iglob PATTERN           as -glob, ignoring case
      -older DURATION          modified before now minus DURATION (7d, 36h, 15m)
      -newer-than DURATION     modified after now minus DURATION
      -limit N                 stop after N matches
      -printjson               print one JSON object per line
      -delete-dry-run          print what -delete would unlink; unlink nothing

Other common options:
      --help                   display this help and exit
      --version                output version information and exit

gfind's own options (before the starting points):
      -j N, --threads=N        use N worker goroutines (default: the number
                               of CPUs). The order of output lines differs
                               from GNU find's unless N is 1: with -j1 gfind
                               prints in exactly GNU find's order.
      -s, --sort               visit each directory's entries in name order
                               (bytewise), depth first
      --color[=WHEN]           color names as ls does, from LS_COLORS; WHEN is
                               never (the default, as GNU find), auto (on a
                               terminal) or always; a bare --color is always
      --dry-run                make -delete print what it would unlink
      --json                   print JSON lines (as -printjson) instead of names
      --quiet-errors           do not report permission errors (as -noerror)
      --ignore-errors          as --quiet-errors, and exit 0 despite them
      --stats                  print a one-line summary on standard error
      --no-preserve-root       allow a -delete that no test guards on /

Valid arguments for -D:
exec, opt, rates, search, stat, time, tree, all, help
Use '-D help' for a description of the options, or see find(1)

Please see also the manual page gfind(1), and find(1) for the expression
language, which gfind takes unchanged.
Report bugs in gfind at https://github.com/gfind/gfind/issues.
`

func printHelp() int {
	fmt.Fprint(os.Stdout, helpText)
	return 0
}

func printVersion() int {
	fmt.Fprintf(os.Stdout, "gfind %s\nA parallel reimplementation of GNU find 4.9.\nLicense MIT.\n", version)
	return 0
}

func printDebugHelp() int {
	fmt.Fprint(os.Stdout, `Valid arguments for -D:
exec       Show diagnostic information relating to -exec, -execdir, -ok and -okdir
opt        Show diagnostic information relating to optimisation
rates      Indicate how often each predicate succeeded
search     Navigate the directory tree verbosely
stat       Trace calls to stat(2) and lstat(2)
time       Show diagnostic information relating to time-of-day and timestamp comparisons
tree       Display the expression tree
all        Set all of the debug flags (but help)
help       Explain the various -D options
`)
	return 0
}
