package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/alecthomas/kong"
)

const version = "0.1.0"

// exprHelp is the --help text up to the options (ownHelp comes after
// it): GNU find 4.9's groups, in GNU's order and wording, so that a
// reader of find --help finds everything where GNU puts it. The GNU primaries GNU's own text leaves out (-ipath,
// -samefile, -newerXY, -d) are added to their groups; gfind's extras
// come in groups of their own after GNU's, so that nothing in GNU's
// groups is gfind-only. doc_test.go checks that the expression groups
// list exactly the primaries of predicate's parse table, and that the
// man page and the completion scripts know every name listed here.
const exprHelp = `Usage: gfind [-H] [-L] [-P] [-Olevel] [-D debugopts] [gfind options] [path...] [expression]

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

`

// helpTail ends --help, after the options.
const helpTail = `Valid arguments for -D:
exec, opt, rates, search, stat, time, tree, all, help
Use '-D help' for a description of the options, or see find(1)

Please see also the manual page gfind(1), and find(1) for the expression
language, which gfind takes unchanged.
Report bugs in gfind at https://github.com/gfind/gfind/issues.
`

// helpText is the --help text: the expression groups, then the options.
func helpText() string { return exprHelp + ownHelp(ownFlags()) }

// ownFlags are the flags of kong's model of the cli struct, in its order.
// An error is a malformed tag of cli, which every test run shows, so it
// panics as regexp.MustCompile does.
func ownFlags() []*kong.Flag {
	k, err := newParser(&cli{})
	if err != nil {
		panic("gfind: kong rejects the cli struct: " + err.Error())
	}
	return k.Model.Flags
}

// ownHelp is --help's list of the options flags, under the heading of
// each group in optionGroups: the synopsis, then the help tag's lines
// from column 32 on.
func ownHelp(flags []*kong.Flag) string {
	var b strings.Builder
	for _, g := range optionGroups {
		b.WriteString(g.Title + "\n")
		for _, f := range flags {
			if f.Group == nil || f.Group.Key != g.Key {
				continue
			}
			lines := strings.Split(f.Help, "\n")
			fmt.Fprintf(&b, "      %-23s  %s\n", synopsis(f), lines[0])
			for _, l := range lines[1:] {
				fmt.Fprintf(&b, "%31s%s\n", "", l)
			}
		}
		b.WriteString("\n")
	}
	return b.String() + helpTail
}

// synopsis is how --help and the man page write the flag f: "-j N,
// --threads=N", "-s, --sort", "--color[=WHEN]" (a value may be left
// out when the flag has a bare one).
func synopsis(f *kong.Flag) string {
	long := "--" + f.Name
	if !f.IsBool() {
		if f.Tag.Has("bare") {
			long += "[=" + f.FormatPlaceHolder() + "]"
		} else {
			long += "=" + f.FormatPlaceHolder()
		}
	}
	if f.Short == 0 {
		return long
	}
	short := "-" + string(f.Short)
	if !f.IsBool() {
		short += " " + f.FormatPlaceHolder()
	}
	return short + ", " + long
}

func printHelp() int {
	fmt.Fprint(os.Stdout, helpText())
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
