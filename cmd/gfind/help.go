package main

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/gfind/gfind/predicate"
)

// helpText is the --help text: GNU find 4.9's groups, in GNU's order
// and wording, so that a reader of find --help finds everything where
// GNU puts it. The expression groups are generated from predicate's
// parse table (expressionHelp); the GNU primaries GNU's own text leaves
// out (-ipath, -samefile, -newerXY, -d) are at the end of their groups;
// gfind's extras come in groups of their own after GNU's, so that
// nothing in GNU's groups is gfind-only. The options after them come
// from kong's model of the cli struct (ownHelp). doc_test.go checks that
// the man page and the completion scripts know every name listed here.
func helpText() string {
	return usageHelp + expressionHelp(predicate.Primaries()) + ownHelp(ownFlags())
}

const usageHelp = `Usage: gfind [-H] [-L] [-P] [-Olevel] [-D debugopts] [gfind options] [path...] [expression]

Default path is the current directory; default expression is -print.
Expression may consist of: operators, options, tests, and actions.

`

// helpGroups are the headings of --help's expression groups, in
// order, and what separates the items of a line: GNU's groups flow
// their items in lines, gfind's extras (sep "") have a column of
// descriptions.
var helpGroups = []struct {
	group   predicate.HelpGroup
	heading string
	sep     string
}{
	{predicate.HelpOperators, "Operators (decreasing precedence; -and is implicit where no others are given):", "   "},
	{predicate.HelpPositional, "Positional options (always true):", " "},
	{predicate.HelpNormal, "Normal options (always true, specified before other expressions):", " "},
	{predicate.HelpTests, "Tests (N can be +N or -N or N):", " "},
	{predicate.HelpActions, "Actions:", " "},
	{predicate.HelpExtras, "gfind extras in the expression (not in GNU find):", ""},
}

// helpIndent is where --help's items start; helpColumn is where the
// descriptions in gfind's extras start, after it.
const (
	helpIndent = "      "
	helpColumn = 25
)

// expressionHelp renders the expression groups of --help from the rows
// of the parse table, in their order.
func expressionHelp(rows []predicate.Primary) string {
	var b strings.Builder
	for _, g := range helpGroups {
		b.WriteString(g.heading + "\n")
		var group []predicate.Primary
		for _, p := range rows {
			if p.Group == g.group {
				group = append(group, p)
			}
		}
		if g.sep == "" {
			writeColumns(&b, group)
		} else {
			writeLines(&b, group, g.sep)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// writeLines writes the items of a GNU group one after the other,
// separated by sep or by their own Sep, which may end a line.
func writeLines(b *strings.Builder, group []predicate.Primary, sep string) {
	b.WriteString(helpIndent)
	for i, p := range group {
		b.WriteString(usage(p))
		if p.Desc != "" {
			b.WriteString(" " + p.Desc)
		}
		if i < len(group)-1 {
			b.WriteString(strings.ReplaceAll(cmp.Or(p.Sep, sep), "\n", "\n"+helpIndent))
		}
	}
	b.WriteString("\n")
}

// writeColumns writes the items of gfind's extras each with its
// description in a column after it; an item without one shares the
// next one's line, after its own Sep.
func writeColumns(b *strings.Builder, group []predicate.Primary) {
	item := ""
	for _, p := range group {
		item += usage(p)
		if p.Desc == "" {
			item += p.Sep
			continue
		}
		for l := range strings.SplitSeq(p.Desc, "\n") {
			fmt.Fprintf(b, "%s%-*s %s\n", helpIndent, helpColumn-1, item, l)
			item = ""
		}
	}
}

// usage is a row's item in --help: "-name PATTERN", "EXPR1 -a EXPR2",
// "-exec COMMAND ; -exec COMMAND {} +".
func usage(p predicate.Primary) string {
	s := strings.Join(slices.DeleteFunc([]string{p.Before, p.Name, p.Arg}, func(w string) bool { return w == "" }), " ")
	if p.Alt != "" {
		s += " " + p.Name + " " + p.Alt
	}
	return s
}

// helpTail ends --help, after the options.
const helpTail = `In -newerXY, XY stands for the combination [aBcm][aBcmt]; see find(1).

Valid arguments for -D:
      exec, opt, rates, search, stat, time, tree, all, help
Use '-D help' for a description of the options, or see find(1).

Please see also the manual page gfind(1), and find(1) for the expression
language, which gfind takes unchanged.
Report bugs in gfind at https://github.com/gfind/gfind/issues.
`

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
