package main

// The documentation tests: --help, the man page gfind.1 and the shell
// completion scripts under completion/ must all know every primary of
// predicate's parse table, the man page must render without a roff
// warning, and the scripts must complete.
//
// The primaries come from predicate's parse table (predicate.Primaries),
// from which --help's expression groups are generated too. gfind's own
// options are kong's model of the cli struct: --help renders them from
// it, and go generate writes them into the man page and the scripts
// (gendoc_test.go), so they are not checked name by name here. The
// tools these tests run (man, groff, bash, zsh, fish) are installed by
// .ci/run; a missing one skips the test off CI and fails it under CI
// (internal/testtool).

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/predicate"
)

const (
	manPage    = "gfind.1"
	bashScript = "completion/gfind.bash"
	zshScript  = "completion/gfind.zsh"
	fishScript = "completion/gfind.fish"
)

// notInHelp are parse table rows that --help's expression groups do not
// list: -help and -version, which --help's "Other common options" list
// as --help and --version (GNU's text does the same).
var notInHelp = []string{"-help", "--help", "-version", "--version"}

// tableNames returns the primaries and word operators of predicate's
// parse table, with their leading '-', sorted. "-newerXY" stands for
// the twenty -newerXY. Operators that are not words ( ! ( ) , ) are
// left out.
func tableNames(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, p := range predicate.Primaries() {
		if strings.HasPrefix(p.Name, "-") {
			names = append(names, p.Name)
		}
	}
	slices.Sort(names)
	if len(names) < 80 {
		t.Fatalf("only %d names found in predicate's parse table: %v", len(names), names)
	}
	return names
}

// helpSection returns the lines of helpText from the line that starts
// with from up to (not including) the line that starts with to.
func helpSection(t *testing.T, from, to string) string {
	t.Helper()
	text := helpText()
	i := strings.Index(text, "\n"+from)
	j := strings.Index(text, "\n"+to)
	if i < 0 || j < i {
		t.Fatalf("--help has no section %q before %q", from, to)
	}
	return text[i+1 : j]
}

// dashWords are the words that start with '-' and a letter: the option
// and primary names in a piece of help text.
var dashWords = regexp.MustCompile(`(?:^|[\s,(\[])(--?[A-Za-z][A-Za-z0-9_-]*)`)

func names(text string) []string {
	var out []string
	for _, m := range dashWords.FindAllStringSubmatch(text, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// helpPrimaries are the names --help lists in its expression groups,
// GNU's and gfind's extras: every name on their indented lines (the
// headings are not indented; their "-N" is no primary).
func helpPrimaries(t *testing.T) []string {
	var body []string
	for l := range strings.SplitSeq(helpSection(t, "Operators (", "Other common options:"), "\n") {
		if strings.HasPrefix(l, " ") {
			body = append(body, l)
		}
	}
	return names(strings.Join(body, "\n"))
}

// ownOptions are the names of gfind's own options in kong's model:
// --name, and -x for a short one.
func ownOptions() []string {
	var out []string
	for _, f := range ownFlags() {
		out = append(out, "--"+f.Name)
		if f.Short != 0 {
			out = append(out, "-"+string(f.Short))
		}
	}
	return out
}

// expand turns -newerXY into the twenty names it stands for, which is
// what a completion script offers.
func expand(names []string) []string {
	var out []string
	for _, n := range names {
		if n != "-newerXY" {
			out = append(out, n)
			continue
		}
		for _, x := range "aBcm" {
			for _, y := range "aBcmt" {
				out = append(out, "-newer"+string(x)+string(y))
			}
		}
	}
	return out
}

// missing returns the names of want that have is false for.
func missing(want []string, has func(string) bool) []string {
	var out []string
	for _, w := range want {
		if !has(w) {
			out = append(out, w)
		}
	}
	return out
}

// TestHelpListsTable checks that --help's expression groups list exactly
// the primaries of the parse table.
func TestHelpListsTable(t *testing.T) {
	table := tableNames(t)
	help := helpPrimaries(t)
	var want []string
	for _, n := range table {
		if !slices.Contains(notInHelp, n) {
			want = append(want, n)
		}
	}
	if m := missing(want, func(n string) bool { return slices.Contains(help, n) }); m != nil {
		t.Errorf("--help does not list these primaries of the parse table: %v", m)
	}
	if m := missing(help, func(n string) bool { return slices.Contains(want, n) }); m != nil {
		t.Errorf("--help lists primaries that the parse table does not have: %v", m)
	}
}

// TestHelpGNUGroups checks the expression groups --help generates from
// the parse table against GNU find's --help: every line of GNU's from
// "Operators" to "Other common options", byte for byte and in GNU's
// order, with gfind's additions to GNU's groups (-d, -ipath...) on
// lines of their own.
func TestHelpGNUGroups(t *testing.T) {
	cmd := exec.Command(testtool.GNUFind(t), "--help")
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("GNU find --help: %v", err)
	}
	gnuHelp := string(out)
	i := strings.Index(gnuHelp, "\nOperators (")
	j := strings.Index(gnuHelp, "\nOther common options:")
	if i < 0 || j < i {
		t.Fatalf("GNU find --help has no expression groups:\n%s", gnuHelp)
	}
	groups := gnuHelp[i+1 : j]
	if !testtool.GNURef() {
		// GNU 4.9 indents -mount's line by one more blank and lists
		// -newerXY nowhere: compare with 4.11's groups, as stated.
		if groups == gnu411HelpGroups {
			t.Errorf("GNU find %s has GNU %s's groups: gnu411HelpGroups is not needed", testtool.GNUVersion(), testtool.RefVersion)
		}
		groups = gnu411HelpGroups
	}
	got := strings.Split(helpSection(t, "Operators (", "gfind extras in the expression"), "\n")
	k := 0
	for _, want := range strings.Split(groups, "\n") {
		for k < len(got) && got[k] != want {
			if !strings.HasPrefix(got[k], "      -") {
				t.Errorf("--help has %q among GNU's groups, which GNU's --help does not", got[k])
			}
			k++
		}
		if k == len(got) {
			t.Fatalf("--help lacks GNU's line %q, or has it out of GNU's order", want)
		}
		k++
	}
}

// gnu411HelpGroups are the expression groups of GNU find 4.11's --help,
// which TestHelpGNUGroups compares with when the GNU find at hand is
// another release.
const gnu411HelpGroups = `Operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

Positional options (always true):
      -daystart -follow -nowarn -regextype -warn

Normal options (always true, specified before other expressions):
      -depth -files0-from FILE -maxdepth LEVELS -mindepth LEVELS
      -mount -noleaf -xdev -ignore_readdir_race -noignore_readdir_race

Tests (N can be +N or -N or N):
      -amin N -anewer FILE -atime N -cmin N -cnewer FILE -context CONTEXT
      -ctime N -empty -false -fstype TYPE -gid N -group NAME -ilname PATTERN
      -iname PATTERN -inum N -iwholename PATTERN -iregex PATTERN
      -links N -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE
      -newerXY REFERENCE -nouser -nogroup -path PATTERN -perm [-/]MODE
      -regex PATTERN -readable -writable -executable
      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N
      -used N -user NAME -xtype [bcdpfls]

Actions:
      -delete -print0 -printf FORMAT -fprintf FILE FORMAT -print 
      -fprint0 FILE -fprint FILE -ls -fls FILE -prune -quit
      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;
      -execdir COMMAND ; -execdir COMMAND {} + -okdir COMMAND ;
`

// TestHelpGroups checks that --help has GNU's groups in GNU's order, and
// gfind's two groups of its own after GNU's.
func TestHelpGroups(t *testing.T) {
	heads := []string{
		"Usage: gfind ",
		"Default path is the current directory; default expression is -print.",
		"Expression may consist of: operators, options, tests, and actions.",
		"Operators (decreasing precedence; -and is implicit where no others are given):",
		"Positional options (always true):",
		"Normal options (always true, specified before other expressions):",
		"Tests (N can be +N or -N or N):",
		"Actions:",
		"gfind extras in the expression (not in GNU find):",
		"Other common options:",
		"gfind's own options (before the starting points):",
		"Valid arguments for -D:",
		"Use '-D help' for a description of the options, or see find(1)",
		"Please see also the manual page gfind(1)",
		"Report bugs in gfind at ",
	}
	text := helpText()
	at := 0
	for _, h := range heads {
		i := strings.Index(text[at:], h)
		if i < 0 || at+i > 0 && text[at+i-1] != '\n' {
			t.Fatalf("--help lacks a line starting %q after %q", h, text[:at])
		}
		at += i + len(h)
	}
	for i, line := range strings.Split(text, "\n")[1:] {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("--help line %d is %d columns wide: %q", i+2, n, line)
		}
	}
}

// renderPkg is the Debian package of each program render runs.
var renderPkg = map[string]string{"man": "man-db", "groff": "groff-base", "bash": "bash", "zsh": "zsh", "fish": "fish"}

// render runs prog with args in dir, failing the test if it cannot run,
// does not finish within a minute, or exits non-zero. A prog that is not
// installed ends the test through testtool.Need.
func render(t *testing.T, dir string, env []string, prog string, args ...string) (stdout, stderr string) {
	t.Helper()
	pkg, ok := renderPkg[prog]
	if !ok {
		t.Fatalf("render: no Debian package known for %s", prog)
	}
	path := testtool.Need(t, prog, pkg)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %q: %v\nstderr:\n%s", prog, args, err, errb.String())
	}
	return out.String(), errb.String()
}

// manText is the man page as man -l renders it for an 80-column
// terminal, with hyphens and minus signs made ASCII and any bold or
// underline overstrikes removed.
func manText(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs(manPage)
	if err != nil {
		t.Fatal(err)
	}
	out, errs := render(t, ".", []string{"MANWIDTH=80", "MANPAGER=cat", "PAGER=cat", "GROFF_NO_SGR=1", "LC_ALL=C.UTF-8"},
		"man", "--warnings", "-l", abs)
	if errs != "" {
		t.Errorf("man --warnings -l %s reports:\n%s", manPage, errs)
	}
	out = regexp.MustCompile(".\b").ReplaceAllString(out, "")
	return strings.NewReplacer("\u2010", "-", "\u2212", "-").Replace(out)
}

// TestManPageRenders fails on any roff warning groff gives for the man
// page (-ww: all of them) and on a rendered line wider than 80 columns.
func TestManPageRenders(t *testing.T) {
	_, errs := render(t, ".", []string{"LC_ALL=C.UTF-8"}, "groff", "-man", "-Tutf8", "-ww", "-z", manPage)
	if errs != "" {
		t.Errorf("groff -man -ww %s warns:\n%s", manPage, errs)
	}
	src, err := os.ReadFile(manPage)
	if err != nil {
		t.Fatal(err)
	}
	// The source's footer names no version: make install writes the
	// build's there (TestMakeInstall checks it).
	if th := regexp.MustCompile(`(?m)^\.TH .*$`).FindString(string(src)); !strings.Contains(th, `"gfind"`) {
		t.Errorf("the man page's .TH line %q does not have the field \"gfind\" that make install stamps", th)
	}
	text := manText(t)
	for _, sec := range []string{"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXPRESSION", "GFIND EXTRAS",
		"EXIT STATUS", "ENVIRONMENT", "SAFETY", "DIFFERENCES FROM GNU FIND", "EXAMPLES", "SEE ALSO"} {
		if !regexp.MustCompile(`(?m)^` + sec + `$`).MatchString(text) {
			t.Errorf("the man page has no section %s", sec)
		}
	}
	for _, env := range []string{"LS_COLORS", "LC_ALL", "LC_CTYPE", "LANG", "TZ", "POSIXLY_CORRECT"} {
		if !strings.Contains(text, env) {
			t.Errorf("the man page's ENVIRONMENT does not mention %s", env)
		}
	}
	for i, line := range strings.Split(text, "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("rendered man page line %d is %d columns wide: %q", i+1, n, line)
		}
	}
}

// hasWord reports whether name occurs in text as a whole word.
func hasWord(text, name string) bool {
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])` + regexp.QuoteMeta(name) + `(?:$|[^A-Za-z0-9_-])`).MatchString(text)
}

// TestManPageNames checks that the rendered man page names every
// primary of the parse table.
func TestManPageNames(t *testing.T) {
	text := manText(t)
	if m := missing(tableNames(t), func(n string) bool { return hasWord(text, n) }); m != nil {
		t.Errorf("the man page does not name: %v", m)
	}
}

// completionWants are every name a completion script must offer: every
// primary (with -newerXY expanded), and gfind's own options, which the
// scripts' own logic must offer before the starting points only.
func completionWants(t *testing.T) (primaries, options []string) {
	var ps []string
	for _, n := range tableNames(t) {
		if !slices.Contains(notInHelp, n) {
			ps = append(ps, n)
		}
	}
	return expand(ps), ownOptions()
}

// offers reports whether the candidates include name, or name followed
// by '=' (--threads=, which takes its value in the same word).
func offers(cands []string, name string) bool {
	return slices.Contains(cands, name) || slices.Contains(cands, name+"=")
}

// complTree is a directory to complete file names in.
func complTree(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "afile"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// complCase is one completion query: the command line up to the cursor
// (which is at its end), and candidates that must and must not be
// offered.
type complCase struct {
	line     string
	want     []string
	dontWant []string
}

// complCases hold for every shell. Each shell's own test adds the
// checks of the whole list of names.
var complCases = []complCase{
	{line: "gfind . -na", want: []string{"-name"}, dontWant: []string{"-newer", "-iname"}},
	{line: "gfind . -newer-t", want: []string{"-newer-than"}},
	{line: "gfind . -type ", want: []string{"f", "d", "l", "D"}},
	{line: "gfind . -xtype ", want: []string{"f", "l"}},
	{line: "gfind . -type f,", want: []string{"f,d", "f,l"}},
	{line: "gfind . -regextype posix-e", want: []string{"posix-egrep", "posix-extended"}, dontWant: []string{"posix-basic"}},
	{line: "gfind . -newer a", want: []string{"afile", "adir/"}},
	{line: "gfind . -fprint a", want: []string{"afile"}},
	{line: "gfind . -files0-from a", want: []string{"afile"}},
	{line: "gfind --so", want: []string{"--sort"}},
	{line: "gfind --no-p", want: []string{"--no-preserve-root"}},
	{line: "gfind . -del", want: []string{"-delete", "-delete-dry-run"}},
	{line: "gfind a", want: []string{"adir/"}, dontWant: []string{"afile"}},
	// gfind's own options, the value of -j too, leave a starting point next.
	{line: "gfind -j 2 --color -s --threads=2 a", want: []string{"adir/"}, dontWant: []string{"afile"}},
}

// checkCase compares the candidates for c, ignoring a trailing '/' that
// some shells do not add to directory names (want "adir/" accepts
// "adir").
func checkCase(t *testing.T, shell string, c complCase, cands []string) {
	t.Helper()
	for _, w := range c.want {
		if !slices.Contains(cands, w) && !(strings.HasSuffix(w, "/") && slices.Contains(cands, strings.TrimSuffix(w, "/"))) {
			t.Errorf("%s: %q offers %q, which lacks %q", shell, c.line, cands, w)
		}
	}
	for _, w := range c.dontWant {
		if slices.Contains(cands, w) {
			t.Errorf("%s: %q offers %q, which should not include %q", shell, c.line, cands, w)
		}
	}
}

// bashComplete returns what the bash script's _gfind puts in COMPREPLY
// for the command line line, completing its last word (line ending in
// a space: an empty word).
func bashComplete(t *testing.T, dir, line string) []string {
	t.Helper()
	return bashCompleteWith(t, dir, []string{"GFIND_SCRIPT=" + mustAbs(t, bashScript)}, `source "$GFIND_SCRIPT" || exit 1`, line)
}

// bashCompleteWith is bashComplete with _gfind defined by the bash code
// load, run with env added.
func bashCompleteWith(t *testing.T, dir string, env []string, load, line string) []string {
	t.Helper()
	words := strings.Fields(line)
	if strings.HasSuffix(line, " ") {
		words = append(words, "")
	}
	var q []string
	for _, w := range words {
		q = append(q, strconv.Quote(w)) // a bash double-quoted word, for these words
	}
	prog := load + `
COMP_WORDS=(` + strings.Join(q, " ") + `)
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}
_gfind
printf '%s\n' "${COMPREPLY[@]}"`
	out, errs := render(t, dir, env, "bash", "--norc", "--noprofile", "-c", prog, "bash", line)
	if errs != "" {
		t.Errorf("bash: %q: stderr: %s", line, errs)
	}
	return strings.Fields(out)
}

func TestCompletionBash(t *testing.T) {
	dir := complTree(t)
	if _, errs := render(t, dir, nil, "bash", "-n", mustAbs(t, bashScript)); errs != "" {
		t.Errorf("bash -n: %s", errs)
	}
	for _, c := range complCases {
		cands := bashComplete(t, dir, c.line)
		// bash adds the '/' of a directory itself (compopt -o filenames).
		checkCase(t, "bash", c, cands)
	}
	prims, opts := completionWants(t)
	after := bashComplete(t, dir, "gfind . -")
	if m := missing(prims, func(n string) bool { return offers(after, n) }); m != nil {
		t.Errorf("bash: after a starting point, - does not offer %v", m)
	}
	if m := missing(opts, func(n string) bool { return !offers(after, n) }); m != nil {
		t.Errorf("bash: after a starting point, - offers the leading options %v", m)
	}
	lead := bashComplete(t, dir, "gfind -j 2 -")
	if m := missing(append(prims, opts...), func(n string) bool { return offers(lead, n) }); m != nil {
		t.Errorf("bash: before the starting points, - does not offer %v", m)
	}
	for _, c := range []complCase{
		{line: "gfind --color=", want: []string{"--color=auto", "--color=always", "--color=never"}},
		{line: "gfind --color = al", want: []string{"always"}}, // COMP_WORDBREAKS split it
		{line: "gfind -D tree,o", want: []string{"tree,opt"}},
	} {
		checkCase(t, "bash", c, bashComplete(t, dir, c.line))
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// fishComplete returns the candidates fish's complete -C gives for line
// (without their descriptions).
func fishComplete(t *testing.T, dir, line string) []string {
	t.Helper()
	return fishCompleteWith(t, dir, nil, []string{"--no-config", "-c", `source $argv[1]; or exit 1; complete -C $argv[2]`, mustAbs(t, fishScript), line})
}

// fishCompleteWith is fishComplete for fish run with args (its
// candidates on stdout), with env added, in an empty home.
func fishCompleteWith(t *testing.T, dir string, env, args []string) []string {
	t.Helper()
	home := t.TempDir()
	env = append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_DATA_HOME=" + home}, env...)
	out, errs := render(t, dir, env, "fish", args...)
	if errs != "" {
		t.Errorf("fish %q: stderr: %s", args, errs)
	}
	var cands []string
	for l := range strings.SplitSeq(strings.TrimRight(out, "\n"), "\n") {
		c, _, _ := strings.Cut(l, "\t")
		cands = append(cands, c)
	}
	return cands
}

func TestCompletionFish(t *testing.T) {
	dir := complTree(t)
	if _, errs := render(t, dir, nil, "fish", "--no-config", "-n", mustAbs(t, fishScript)); errs != "" {
		t.Errorf("fish -n: %s", errs)
	}
	for _, c := range complCases {
		checkCase(t, "fish", c, fishComplete(t, dir, c.line))
	}
	prims, opts := completionWants(t)
	dash := fishComplete(t, dir, "gfind . -")
	if m := missing(prims, func(n string) bool { return offers(dash, n) }); m != nil {
		t.Errorf("fish: - does not offer %v", m)
	}
	// fish offers short options for "-" and long ones for "--".
	long := fishComplete(t, dir, "gfind --")
	if m := missing(opts, func(n string) bool { return offers(dash, n) || offers(long, n) }); m != nil {
		t.Errorf("fish: - and -- do not offer %v", m)
	}
	checkCase(t, "fish", complCase{line: "gfind --color=", want: []string{"--color=auto", "--color=always", "--color=never"}},
		fishComplete(t, dir, "gfind --color="))
}

// zshCapture drives an interactive zsh in a pseudo-terminal (zsh/zpty),
// as zsh-capture-completion does: it loads the completion system with
// the directory of _gfind first in fpath, wraps compadd in a function
// that also prints each candidate, then for each command line types it
// and a TAB, prints what was offered (between the two NUL lines that the
// completion hooks write) and a \x01 line, and clears the line.
// Arguments: FPATHDIR DUMPFILE LINE...
const zshCapture = `zmodload zsh/zpty || exit 2
fdir=$1 dump=$2
shift 2
init=$(mktemp) || exit 2
cat > $init <<INIT
PROMPT=
fpath=($fdir \$fpath)
autoload -U compinit
compinit -u -d $dump
bindkey -e
null-line () { echo -E - \$'\\0' }
# compprefuncs and comppostfuncs are emptied after each use.
capture-complete () { compprefuncs=( null-line ); comppostfuncs=( null-line ); zle complete-word }
zle -N capture-complete
bindkey '^I' capture-complete
compadd () {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then
    builtin compadd "\$@"; return \$?
  fi
  typeset -a __hits
  builtin compadd -A __hits "\$@"
  local h
  for h in \$__hits; do echo -E - "\$IPREFIX\$h"; done
  builtin compadd "\$@"
}
echo ok
INIT
zpty z zsh -f -i
zpty -w z "source $init"
repeat 20; do
  zpty -r z l || break
  [[ $l == ok* ]] && break
done
for line; do
  zpty -w -n z "$line"$'\t'
  integer tog=0
  while zpty -r z l; do
    if [[ $l == *$'\0'* ]]; then
      (( tog++ )) && break || continue
    fi
    (( tog )) && print -r -- ${l%$'\r'}
  done
  (( tog == 2 )) || { print -u2 "no completion output from zsh for: $line"; exit 1 }
  print -r -- $'\1'
  zpty -w -n z $'\C-e\C-u'
done
zpty -d z
rm -f $init
`

// zshComplete returns the candidates zsh's completion system offers for
// each of lines, with gfind.zsh installed as _gfind.
func zshComplete(t *testing.T, dir string, lines []string) [][]string {
	t.Helper()
	src, err := os.ReadFile(zshScript)
	if err != nil {
		t.Fatal(err)
	}
	fdir := t.TempDir()
	if err := os.WriteFile(filepath.Join(fdir, "_gfind"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	return zshCompleteFrom(t, dir, fdir, lines)
}

// zshCompleteFrom is zshComplete with fdir, holding _gfind, first in
// fpath.
func zshCompleteFrom(t *testing.T, dir, fdir string, lines []string) [][]string {
	t.Helper()
	home := t.TempDir()
	args := append([]string{"-f", "-c", zshCapture, "zsh", fdir, filepath.Join(home, "zcompdump")}, lines...)
	out, errs := render(t, dir, []string{"HOME=" + home, "ZDOTDIR=" + home}, "zsh", args...)
	if errs != "" {
		t.Errorf("zsh: stderr: %s", errs)
	}
	var all [][]string
	var cands []string
	for l := range strings.SplitSeq(out, "\n") {
		switch l = strings.TrimSpace(l); l {
		case "":
		case "\x01":
			all = append(all, cands)
			cands = nil
		default:
			if !slices.Contains(cands, l) {
				cands = append(cands, l)
			}
		}
	}
	if len(all) != len(lines) {
		t.Fatalf("zsh: %d completions for %d command lines; output:\n%s", len(all), len(lines), out)
	}
	return all
}

func TestCompletionZsh(t *testing.T) {
	dir := complTree(t)
	if _, errs := render(t, dir, nil, "zsh", "-n", mustAbs(t, zshScript)); errs != "" {
		t.Errorf("zsh -n: %s", errs)
	}
	lines := []string{"gfind -"}
	for _, c := range complCases {
		lines = append(lines, c.line)
	}
	got := zshComplete(t, dir, lines)
	prims, opts := completionWants(t)
	if m := missing(append(prims, opts...), func(n string) bool { return offers(got[0], n) }); m != nil {
		t.Errorf("zsh: - does not offer %v", m)
	}
	for i, c := range complCases {
		checkCase(t, "zsh", c, got[i+1])
	}
}

// TestRawCalls holds README.md's claim (Safety, "NFS, FUSE and other
// slow file systems") that gfind's only raw system calls are the
// sched_yield of the sorted walk's spin and the two calls that give a
// signal back its default action: a raw call that blocks in the kernel
// holds its processor and stalls the garbage collector. It lists every
// unix.RawSyscall* and syscall.RawSyscall* call in the module's
// non-test files, with the call number it makes.
func TestRawCalls(t *testing.T) {
	want := []string{
		"internal/die/die_linux.go SYS_RT_SIGACTION",
		"internal/die/die_linux.go SYS_RT_SIGPROCMASK",
		"walker/sys_linux.go SYS_SCHED_YIELD",
	}
	root := mustAbs(t, "../..")
	var got []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !strings.HasPrefix(sel.Sel.Name, "RawSyscall") {
				return true
			}
			num := "?"
			if len(call.Args) > 0 {
				if s, ok := call.Args[0].(*ast.SelectorExpr); ok {
					num = s.Sel.Name
				}
			}
			got = append(got, filepath.ToSlash(rel)+" "+num)
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("raw system calls:\n%s\nwant (README.md says so):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
