package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
)

// A gnuCase is one row of the differential test: one GNU find behaviour.
type gnuCase struct {
	// args is the argument list after the program name, split on blanks;
	// '...' quotes (no escapes inside, so use Go escapes for odd bytes).
	args string
	// dir is the working directory, relative to the tree's root.
	dir string
	// serialOnly marks output that depends on the order of the walk (for
	// example which file -quit stops at); it is compared in -j1 mode only.
	serialOnly bool
	// gnu411 marks a row where GNU 4.9 differs from the reference, GNU
	// 4.11: it states 4.11's result (compareFinds411).
	gnu411 *gnu411
}

// A gnu411 is the result GNU 4.11 gives where 4.9 differs, stated in
// full: stdout's records in any order, stderr's lines in any order
// (with "find: " as the program name), and the exit status.
type gnu411 struct {
	stdout []string
	stderr []string
	code   int
}

// result returns r as compare takes it.
func (r *gnu411) result() findResult {
	var res findResult
	if len(r.stdout) > 0 {
		res.stdout = joinRecords(r.stdout, "\n")
	}
	if len(r.stderr) > 0 {
		res.stderr = joinRecords(r.stderr, "\n")
	}
	res.code = r.code
	return res
}

// compareCase runs the row c against GNU find, or, for a gnu411 row,
// against the result it states.
func compareCase(t *testing.T, dir string, nobody bool, gnu, gfind string, c gnuCase) {
	args := shellWords(c.args)
	if c.gnu411 != nil {
		compareFinds411(t, dir, nobody, gnu, gfind, args, c.gnu411)
		return
	}
	compareFinds(t, dir, nobody, gnu, gfind, args, c.serialOnly)
}

// compareFinds411 is compareFinds for a row where GNU 4.9 differs from
// GNU 4.11 (compareStated).
func compareFinds411(t *testing.T, dir string, nobody bool, gnu, gfind string, args []string, want *gnu411) {
	compareStated(t, func(prog, name string, args []string) findResult {
		return runFind(t, dir, nobody, prog, name, args)
	}, gnu, gfind, args, want)
}

// A runner runs prog (argv[0] name) with args the way a test table's
// rows are run: in its tree, with its environment.
type runner func(prog, name string, args []string) findResult

// compareStated compares a row that states GNU 4.11's result. With 4.11
// as the reference (testtool.GNURef) the row is an ordinary one, and the
// result it states must be 4.11's too, so that the statements stay
// true; with 4.9, gfind, in parallel mode and with -j1, must give the
// result stated, in any order, and 4.9 must differ from it (a 4.9 that
// agrees means the row needs no mark).
func compareStated(t *testing.T, run runner, gnu, gfind string, args []string, want *gnu411) {
	w := want411(t, run(gnu, "find", args), want)
	ref := testtool.GNURef()
	compare(t, "sorted", w, run(gfind, "gfind", args), true)
	// A stated result has no order; 4.11's own has GNU's.
	compare(t, "-j1", w, run(gfind, "gfind", append([]string{"-j1"}, args...)), !ref)
}

// want411 is the result gfind must give where GNU 4.9 differs from
// 4.11, g being the GNU find's. With 4.11 as the reference that is g,
// which must be the result stated; with 4.9 it is the result stated,
// which 4.9's must not be (a 4.9 that agrees means the row needs no
// mark).
func want411(t *testing.T, g findResult, want *gnu411) findResult {
	t.Helper()
	w := want.result()
	same := slices.Equal(sortedLines(g.stdout), sortedLines(w.stdout)) &&
		slices.Equal(normErr(g.stderr), normErr(w.stderr)) && g.code == w.code
	v := testtool.GNUVersion()
	if testtool.GNURef() {
		if !same {
			t.Errorf("GNU find %s does not give the result the row states: stdout %q, stderr %q, exit status %d", v, g.stdout, g.stderr, g.code)
		}
		return g
	}
	if gnuMode() {
		t.Skipf("GNU find %s differs from %s here", v, testtool.RefVersion)
	}
	if same {
		t.Errorf("GNU find %s gives the GNU %s result stated: the row needs no gnu411 mark", v, testtool.RefVersion)
	} else {
		t.Logf("GNU find %s differs, as expected: stdout %q, stderr %q, exit status %d", v, g.stdout, g.stderr, g.code)
	}
	return w
}

// sortedLines returns the lines of s, sorted.
func sortedLines(s string) []string {
	l := splitRecords(s, "\n")
	slices.Sort(l)
	return l
}

// gnuCases run in a tree made of testtree.Basic, Links, WeirdNames and
// Deep (see internal/testtree for their contents).
var gnuCases = []gnuCase{
	// -name: globs against the base name.
	{args: ". -name a.txt"},
	{args: ". -name *.go"},
	{args: ". -name ?.go"},
	{args: ". -name [xy].go"},
	{args: ". -name [!x].go"},
	{args: ". -name k102[!4]"},
	{args: ". -name [[:upper:]]*"},
	{args: ". -name *[[:digit:]]"},
	{args: ". -name [[:punct:]]"},
	{args: `. -name \*`},   // a backslash quotes: the file named *
	{args: `. -name [*?]`}, // brackets quote too
	{args: `. -name a\*b`},
	{args: ". -name {a,b}"},       // no brace expansion
	{args: ". -name [a-"},         // unterminated bracket: no match, no error
	{args: ". -name [ab]"},        // a and b, not the file [ab]
	{args: `. -name \[ab]`},       // the file [ab]
	{args: ". -name 'new\nline'"}, // a newline in a name
	{args: ". -name new?line -o -name tab?here"},
	{args: ". -name ? -o -name \xff"},     // in the C locale ? matches one byte
	{args: ". -name caf? -o -name caf??"}, // é is two bytes
	{args: ". -name .*"},                  // matches the root '.' too
	{args: ". -name * -maxdepth 1"},       // * matches a leading dot
	{args: ". -name -name -o -name ( -o -name ! -o -name ,"},
	{args: ". -name 'sp ace' -o -name 'trailing '"},
	{args: ". -name a/b"},                  // never true; no warning when stdin is not a tty
	{args: ". -name " + testtree.LongName}, // NAME_MAX bytes
	// -iname, -path, -ipath, -wholename, -iwholename.
	{args: ". -iname a.txt"},
	{args: ". -iname mixed*"},
	{args: ". -iname [a]*.TXT"},
	{args: ". -iname CAF??"},
	{args: ". -path ./basic/a/*"},
	{args: ". -path *c/deep*"}, // * crosses '/'
	{args: ". -path ./basic?a"},
	{args: ". -path ./basic"},
	{args: ". -path ./basic/"}, // warns: ends with '/'
	{args: ". -path ./deep/*/bottom.txt"},
	{args: ". -ipath */A/B/*"},
	{args: ". -wholename ./links/*"},
	{args: ". -iwholename ./WEIRD/SUB*"},
	{args: "basic -path basic/a", dir: ""},
	{args: "a -path a/b/*", dir: "basic"},
	// -type, every letter and lists.
	{args: ". -type f"},
	{args: ". -type d"},
	{args: ". -type l"},
	{args: ". -type p"},
	{args: ". -type s"},
	{args: ". -type b"},
	{args: ". -type c"},
	{args: "/dev/null -type c"},
	{args: ". -type f,l"},
	{args: ". -type d,p,s"},
	{args: ". -type l,b,c,p,s,f,d"},
	{args: ". -type D"},
	{args: ". -type q"},
	{args: ". -type fl"},
	{args: ". -type f,"},
	{args: ". -type ,f"},
	{args: ". -type d,d"},
	{args: ". -type"},
	// -maxdepth and -mindepth.
	{args: ". -maxdepth 0"},
	{args: ". -maxdepth 1"},
	{args: ". -maxdepth 2 -type f"},
	{args: ". -mindepth 1 -maxdepth 1"},
	{args: ". -mindepth 3"},
	{args: ". -mindepth 2 -maxdepth 1"},
	{args: ". -maxdepth 1 -maxdepth 3 -mindepth 3"}, // the last one counts
	{args: ". -maxdepth -1"},
	{args: ". -maxdepth x"},
	{args: ". -mindepth"},
	// -depth.
	{args: ". -depth"},
	{args: ". -depth -maxdepth 2"},
	{args: ". -depth -mindepth 2 -type d"},
	{args: "deep -depth -name d1*"},
	// -prune.
	{args: ". -name a -prune"},
	{args: ". -name a -prune -o -print"},
	{args: ". -path ./deep -prune -o -name *.txt -print"},
	{args: ". -type d -prune"},
	{args: ". -mindepth 1 -type d -prune"},
	{args: ". -depth -name a -prune -o -print"}, // -prune does nothing under -depth
	{args: ". -name b -prune -o -type l -print"},
	// -quit.
	{args: ". -quit"},
	{args: ". -print -quit"},
	{args: ". -name bottom.txt -print -quit"},
	{args: "basic/a/b/c -type f -print -quit"},
	{args: ". -type f -print -quit", serialOnly: true},
	{args: ". -quit -print"},
	{args: "nosuch . -print -quit"},
	// -true, -false, -print, -print0.
	{args: ". -false"},
	{args: ". -maxdepth 1 -true"},
	{args: ". -maxdepth 1 ( -false -o -true )"},
	{args: ". -print0"},
	{args: "weird -print0"},
	{args: ". -name a.txt -print0 -print"},
	{args: ". -maxdepth 1 -print -print"},
	{args: ". -name *.go -print , -name x.go -print"},
	// Operators and precedence.
	{args: ". -name a.txt -o -name b.txt"},
	{args: ". -type f -name *.txt"},
	{args: ". -type f -a -name *.txt"},
	{args: ". -maxdepth 1 ! -type f"},
	{args: ". -maxdepth 1 -not -type d"},
	{args: ". -maxdepth 1 ! ! -type d"},
	{args: ". -name *.go -o -name *.txt -type d"},
	{args: ". ( -name *.go -o -name *.txt ) -type f"},
	{args: ". -maxdepth 1 ( ( -type d ) )"},
	{args: ". -maxdepth 1 -type d -o -type l -print"}, // the implicit -print is not added
	{args: ". -name x.go -o -print"},
	{args: ". -name a.txt , -name b.txt"},
	{args: ". -name a.txt -false , -true -name b.txt"},
	{args: ". ( -name a"},
	{args: ". -name a )"},
	{args: ". ( )"},
	{args: ". !"},
	{args: ". -not"},
	{args: ". -o -name a"},
	{args: ". -name a -o"},
	{args: ". -a"},
	{args: ". -print ,"},
	{args: ". -name a -a ! -o -print"},
	// Other parse errors.
	{args: ". -foo"},
	{args: "-foo"},
	{args: ". -name"},
	{args: "-name a . b"},
	{args: ". -name a b"},
	{args: "( ."},
	{args: ". -follow -H"},
	// Typos, and gfind's own options after the starting points: GNU's
	// message alone off a terminal (TestTypoHintTerminal: on one).
	{args: ". -nmae x"},
	{args: "-nmae"},
	{args: ". --nmae"},
	{args: ". -name x -o -tpye f"},
	{args: ". -j4"},
	{args: ". -j 4"},
	{args: ". --color=always"},
	{args: "--colr=always ."},
	{args: ". --colr=always"},
	{args: "-sort ."},
	// Roots.
	{args: "basic links -maxdepth 1"},
	{args: "nosuch basic -maxdepth 1"},
	{args: "basic nosuch links nosuch2 -maxdepth 0"},
	{args: "'' basic -maxdepth 0"},
	{args: "./ -maxdepth 1"},
	{args: ".// -maxdepth 1"},
	{args: "basic/ -maxdepth 1"},
	{args: "basic// -maxdepth 1"},
	{args: "basic/a/a.txt basic/a/a.txt"},
	{args: "-name a.txt"}, // no root: '.'
	{args: "-maxdepth 1", dir: "basic"},
	{args: "-- . -name a.txt"},
	{args: "- -maxdepth 0"},   // a lone - is a path
	{args: ". , -maxdepth 0"}, // so is ,
	{args: "deep -name bottom.txt"},
	{args: "'weird/sub dir' -name -type"},
	{args: "'weird/sub dir/-type' 'weird/new\nline'"},
	// Symbolic links: -P, -H, -L, -follow.
	{args: "links"},
	{args: "links/to_dir"},
	{args: "links/to_dir/"},
	{args: "-P links -type l"},
	{args: "-H links/to_dir links/to_file links/dangling links/loop links/a"},
	{args: "-H links -maxdepth 1 -type d"},
	{args: "-L links"},
	{args: "-L links -type l"},
	{args: "-L links -type d"},
	{args: "-L links/to_dir -maxdepth 1"},
	{args: "-L basic weird -type f -name *.txt"},
	{args: "-L -P links -maxdepth 1 -type l"},
	{args: "-P -L links -maxdepth 1 -type l"},
	{args: "links -follow"},
	{args: "links -follow -type l"},
	{args: "-H links/to_file -print"},

	// GNU 4.9 options outside the core list.
	{args: ". -context x"},
	{args: "-files0-from /dev/null"},
	{args: ". -files0-from /dev/null"},
	{args: "-files0-from nosuch"},
	{args: "-maxdepth 1 -files0-from /dev/null -files0-from nosuch"},

	// GNU 4.10 and 4.11: a NaN to the time tests is refused, quoted
	// without its sign (4.9 aborted on an assertion, bug 64717).
	{args: ". -mtime NaN", gnu411: &gnu411{stderr: []string{"find: invalid not-a-number argument: `NaN'"}, code: 1}},
	{args: ". -amin -nan", gnu411: &gnu411{stderr: []string{"find: invalid not-a-number argument: `nan'"}, code: 1}},
	{args: ". -ctime +NAN", gnu411: &gnu411{stderr: []string{"find: invalid not-a-number argument: `NAN'"}, code: 1}},
	{args: ". -used NaN", gnu411: &gnu411{stderr: []string{"find: invalid not-a-number argument: `NaN'"}, code: 1}},
	{args: ". -mmin --nan(x)", gnu411: &gnu411{stderr: []string{"find: invalid not-a-number argument: `-nan(x)'"}, code: 1}},
	// GNU 4.10 and 4.11: -gid, -uid, -inum and -links say "missing
	// argument" and "non-numeric argument" (4.9: "invalid argument").
	{args: ". -gid", gnu411: &gnu411{stderr: []string{"find: missing argument to `-gid'"}, code: 1}},
	{args: ". -inum", gnu411: &gnu411{stderr: []string{"find: missing argument to `-inum'"}, code: 1}},
	{args: ". -uid foo", gnu411: &gnu411{stderr: []string{"find: non-numeric argument to -uid: 'foo'"}, code: 1}},
	{args: ". -links ''", gnu411: &gnu411{stderr: []string{"find: non-numeric argument to -links: ''"}, code: 1}},
	{args: ". -gid +-1", gnu411: &gnu411{stderr: []string{"find: non-numeric argument to -gid: '+-1'"}, code: 1}},
	{args: ". -inum 18446744073709551616", gnu411: &gnu411{stderr: []string{"find: non-numeric argument to -inum: '18446744073709551616'"}, code: 1}},
	{args: ". -uid '1 '", gnu411: &gnu411{stderr: []string{"find: non-numeric argument to -uid: '1 '"}, code: 1}},
	{args: ". -maxdepth 0 -links ' +1'"},
	// GNU 4.10 and 4.11: -user and -group take any uid_t or gid_t (4.9
	// stopped at INT_MAX), and say one thing of what is neither a name
	// nor such a number.
	{args: "basic -user 4294967295", gnu411: &gnu411{}},
	{args: "basic -group 2147483648", gnu411: &gnu411{}},
	{args: ". -maxdepth 0 -user ' +0'", gnu411: &gnu411{stdout: []string{"."}}},
	{args: ". -user 4294967296", gnu411: &gnu411{stderr: []string{"find: invalid user name or UID argument to -user: '4294967296'"}, code: 1}},
	{args: ". -group 4294967296", gnu411: &gnu411{stderr: []string{"find: invalid group name or GID argument to -group: '4294967296'"}, code: 1}},
	{args: ". -user ''", gnu411: &gnu411{stderr: []string{"find: invalid user name or UID argument to -user: ''"}, code: 1}},
	{args: ". -group ''", gnu411: &gnu411{stderr: []string{"find: invalid group name or GID argument to -group: ''"}, code: 1}},
	{args: ". -user nosuchuser.gfind", gnu411: &gnu411{stderr: []string{"find: invalid user name or UID argument to -user: 'nosuchuser.gfind'"}, code: 1}},
	{args: ". -group 12x", gnu411: &gnu411{stderr: []string{"find: invalid group name or GID argument to -group: '12x'"}, code: 1}},
	{args: ". -user -1", gnu411: &gnu411{stderr: []string{"find: invalid user name or UID argument to -user: '-1'"}, code: 1}},
	// GNU 4.10 and 4.11: -name / matches the root directory without the
	// "basenames only" warning (bug 62227); other patterns with a '/'
	// still warn, -iname's suggesting -iwholename.
	{args: "/ -maxdepth 0 -warn -name /", gnu411: &gnu411{stdout: []string{"/"}}},
	{args: "/ -maxdepth 0 -warn -iname /", gnu411: &gnu411{stdout: []string{"/"}}},
	{args: "/ -maxdepth 0 -warn -name //"},
	{args: ". -maxdepth 0 -warn -name */"},
	{args: ". -maxdepth 0 -warn -iname a/"},
	// GNU 4.10 and 4.11: -regex without -regextype, and with
	// findutils-default or emacs, has classes and \{ \} intervals (4.11's
	// gnulib RE_SYNTAX_EMACS; 4.9's had neither), and "---" in a list is
	// one '-' (gnulib, where 4.9's glibc said "Invalid range end").
	{args: "basic -regex 'basic/k102[[:digit:]]'", gnu411: &gnu411{stdout: []string{"basic/k1023", "basic/k1024", "basic/k1025"}}},
	{args: `basic -regextype emacs -regex 'basic/k1\{1\}02.*'`, gnu411: &gnu411{stdout: []string{"basic/k1023", "basic/k1024", "basic/k1025"}}},
	{args: `basic -regextype findutils-default -iregex '.*/[[:upper:]]\.txt'`, gnu411: &gnu411{stdout: []string{"basic/a/a.txt", "basic/a/A.TXT", "basic/a/b/b.txt"}}},
	{args: `basic -regex '.*k\{1'`, gnu411: &gnu411{stderr: []string{`find: failed to compile regular expression '.*k\{1': Unmatched \{`}, code: 1}},
	{args: `basic -iregex 'a\{1'`, gnu411: &gnu411{stderr: []string{`find: failed to compile regular expression 'a\{1': Unmatched \{`}, code: 1}},
	{args: "basic -regex '.*[[:nope:]]'", gnu411: &gnu411{stderr: []string{"find: failed to compile regular expression '.*[[:nope:]]': Invalid character class name"}, code: 1}},
	{args: `basic -regextype emacs -regex '.*a\{2,1\}'`, gnu411: &gnu411{stderr: []string{`find: failed to compile regular expression '.*a\{2,1\}': Invalid content of \{\}`}, code: 1}},
	{args: `basic -regex '.*\{'`, gnu411: &gnu411{stderr: []string{`find: failed to compile regular expression '.*\{': Unmatched \{`}, code: 1}},
	{args: `basic -maxdepth 1 -regextype posix-extended -regex 'basic/[y---]\.go'`, gnu411: &gnu411{stdout: []string{"basic/y.go"}}},
	{args: "basic -regex 'basic/k102{1}'"},
	{args: "basic -regextype posix-basic -regex '.*[a--]'"},
	// GNU 4.10 and 4.11: 4.11 warns of each of the operators ( ) ! ,
	// spelled with a leading dash, as it meets it, whatever -nowarn says.
	{args: "basic -maxdepth 0 -! -false", gnu411: &gnu411{stdout: []string{"basic"}, stderr: []string{dashWarning("-!")}}},
	{args: "basic -maxdepth 0 -nowarn -( -true -) -, -false", gnu411: &gnu411{stderr: []string{dashWarning("-("), dashWarning("-)"), dashWarning("-,")}}},
	{args: "basic -maxdepth 0 -warn -name a/b -o -! -name a/b", gnu411: &gnu411{stdout: []string{"basic"}, stderr: []string{nameWarning, dashWarning("-!"), nameWarning}}},
	{args: "basic -warn -! -maxdepth 0 -false", gnu411: &gnu411{stderr: []string{dashWarning("-!"), "find: warning: you have specified the global option -maxdepth after the argument -!, but global options are not positional, i.e., -maxdepth affects tests specified before it as well as those specified after it.  Please specify global options before other arguments."}}},
	{args: "basic -maxdepth 0 -true -o -! -nosuch", gnu411: &gnu411{stderr: []string{dashWarning("-!"), "find: unknown predicate `-nosuch'"}, code: 1}},
	{args: "basic -( -print", gnu411: &gnu411{stderr: []string{dashWarning("-("), "find: invalid expression; I was expecting to find a ')' somewhere but did not see one."}, code: 1}},
	{args: "basic -maxdepth 0 --!"},
	// GNU 4.10 and 4.11, as 4.9: a ")" first, which only -files0-from
	// allows, is "expected expression before closing parentheses".
	{args: "-files0-from /dev/null ) -print"},
	{args: "-files0-from /dev/null )"},
	{args: "-files0-from /dev/null -) -print", gnu411: &gnu411{stderr: []string{dashWarning("-)"), "find: invalid expression: expected expression before closing parentheses '-)'."}, code: 1}},
}

// dashWarning is GNU 4.11's warning about op, an operator spelled with
// a leading dash.
func dashWarning(op string) string {
	return "find: warning: operator '" + op + "' (with leading dash '-') will no longer be accepted in future findutils releases!"
}

// nameWarning is GNU's warning about -name a/b.
const nameWarning = "find: warning: '-name' matches against basenames only, but the given pattern contains a directory separator ('/'), thus the expression will evaluate to false all the time.  Did you mean '-wholename'?"

// TestAgainstGNU runs GNU find and gfind with the same arguments in the
// same tree and requires the same sorted stdout, sorted stderr (after the
// program name) and exit status; then gfind -j1, whose stdout must equal
// GNU find's unsorted.
func TestAgainstGNU(t *testing.T) {
	runGNUCases(t, false, gnuCases, testtree.Basic, testtree.Links, testtree.WeirdNames, testtree.Deep)
}

// runGNUCases runs each row of cases through compareCase, in parallel, in
// a tree made of parts; both programs as nobody when nobody is set.
func runGNUCases(t *testing.T, nobody bool, cases []gnuCase, parts ...testtree.Part) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := testtree.Make(t, parts...)
	for _, c := range cases {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			compareCase(t, filepath.Join(root, c.dir), nobody, gnu, gfind, c)
		})
	}
}

// gnuNobodyCases run as user nobody in a tree made of testtree.Perms.
var gnuNobodyCases = []gnuCase{
	{args: "perms"},
	{args: "."},
	{args: "perms -depth"},
	{args: "perms -maxdepth 1"}, // nothing unreadable is opened: no error
	{args: "perms -mindepth 2"},
	{args: "perms -type f"},
	{args: "perms -name f.txt"},
	{args: "perms -name noperm -prune -o -print"},
	{args: "perms -print -quit"},
	{args: "perms/noperm"},
	{args: "perms/noperm/ perms/searchonly"},
	{args: "perms/searchonly/known.txt perms/noperm/secret.txt perms/listonly/f.txt"},
	{args: "-L perms"},
	{args: "perms/open -maxdepth 0 -name *"},
}

// TestAgainstGNUAsNobody is TestAgainstGNU for permission errors: both
// programs run as nobody (when the tests run as root) in the Perms tree.
func TestAgainstGNUAsNobody(t *testing.T) {
	runGNUCases(t, true, gnuNobodyCases, testtree.Perms)
}

// compareFinds runs GNU find and gfind, in parallel mode and with -j1,
// and reports every difference.
func compareFinds(t *testing.T, dir string, nobody bool, gnu, gfind string, args []string, serialOnly bool) {
	compareRuns(t, func(prog, name string, args []string) findResult {
		return runFind(t, dir, nobody, prog, name, args)
	}, gnu, gfind, args, serialOnly)
}

// compareRuns is compareFinds with the rows' own runner.
func compareRuns(t *testing.T, run runner, gnu, gfind string, args []string, serialOnly bool) {
	want := run(gnu, "find", args)
	t.Logf("GNU find: %d bytes of stdout, stderr %q, exit status %d", len(want.stdout), want.stderr, want.code)
	if !serialOnly {
		got := run(gfind, "gfind", args)
		compare(t, "sorted", want, got, true)
	}
	got := run(gfind, "gfind", append([]string{"-j1"}, args...))
	compare(t, "-j1", want, got, false)
}

// A findResult is what one run of a find printed and returned.
type findResult struct {
	stdout, stderr string
	code           int
}

// runFind runs prog (argv[0] name) with args in dir, in the test
// environment (LC_ALL=C, TZ=UTC), with stdin from /dev/null.
func runFind(t *testing.T, dir string, nobody bool, prog, name string, args []string) findResult {
	t.Helper()
	return runProg(t, runOpts{dir: dir, env: testEnv(), nobody: nobody}, prog, name, args)
}

// runOpts say how runProg starts a program.
type runOpts struct {
	dir    string
	env    []string // the whole environment
	stdin  string   // empty: /dev/null
	nobody bool     // as uid 65534
	// stdinFile, when set, is the file (relative to dir) standard input
	// is redirected from, instead of stdin: the file itself, not a pipe.
	stdinFile string
}

// runProg runs prog (argv[0] name) with args as o says, with a timeout,
// and returns what it printed and its exit status.
func runProg(t *testing.T, o runOpts, prog, name string, args []string) findResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Args[0] = name
	cmd.Dir = o.dir
	cmd.Env = o.env
	if o.stdin != "" {
		cmd.Stdin = strings.NewReader(o.stdin)
	}
	if o.stdinFile != "" {
		f, err := os.Open(filepath.Join(o.dir, o.stdinFile))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if o.nobody {
		testtree.AsNobody(cmd)
	}
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %q timed out", name, args)
	}
	return resultOf(t, name, stdout.String(), stderr.String(), err)
}

// resultOf is what a run of the program called name left: its output
// and exit status. An error other than a non-zero exit (the program
// could not start) fails t.
func resultOf(t *testing.T, name, stdout, stderr string, err error) findResult {
	t.Helper()
	r := findResult{stdout: stdout, stderr: stderr}
	if name == "find" && !testtool.GNURef() {
		r.stderr = loop411(r.stderr)
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running %s: %v", name, err)
	}
	return r
}

// loop49 is GNU 4.9's file system loop sentence, which names the
// ancestor the directory leads back to too.
var loop49 = regexp.MustCompile(`(?m)^(find: File system loop detected; )(.*) is part of the same file system loop as .*\.$`)

// loop411 rewrites GNU 4.9's file system loop diagnostics in stderr as
// GNU 4.11 words them, naming only the directory met again. The two
// differ in nothing else where a loop is met, so the rows that meet one
// (-L over a tree with links to ancestors) need no gnu411 mark.
func loop411(stderr string) string {
	return loop49.ReplaceAllString(stderr, "${1}the following directory is part of the cycle: $2")
}

// compare reports how got differs from want: stdout (sorted, or as is),
// stderr lines (sorted, with the program name replaced) and exit status.
func compare(t *testing.T, mode string, want, got findResult, sorted bool) {
	t.Helper()
	sep := "\n"
	if strings.Contains(want.stdout, "\x00") || strings.Contains(got.stdout, "\x00") {
		sep = "\x00"
	}
	wantOut, gotOut := splitRecords(want.stdout, sep), splitRecords(got.stdout, sep)
	if sorted {
		slices.Sort(wantOut)
		slices.Sort(gotOut)
	}
	wantErr, gotErr := normErr(want.stderr), normErr(got.stderr)
	diffLines(t, mode+" stdout", wantOut, gotOut)
	diffLines(t, mode+" stderr", wantErr, gotErr)
	if want.code != got.code {
		t.Errorf("%s: exit status %d, GNU find %d", mode, got.code, want.code)
	}
}

// normErr returns the sorted lines of stderr with a leading "find: " or
// "gfind: " replaced by "PROG: ".
func normErr(s string) []string {
	lines := splitRecords(s, "\n")
	for i, l := range lines {
		for _, p := range []string{"find: ", "gfind: "} {
			if rest, ok := strings.CutPrefix(l, p); ok {
				lines[i] = "PROG: " + rest
				break
			}
		}
	}
	slices.Sort(lines)
	return lines
}

// diffLines reports the first line where got differs from want, and both
// around it.
func diffLines(t *testing.T, what string, want, got []string) {
	t.Helper()
	if slices.Equal(want, got) {
		return
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s differs at line %d:\n  GNU find: %s\n  gfind:    %s\n", what, i+1, lineAt(want, i), lineAt(got, i))
	from := max(0, i-3)
	for _, side := range []struct {
		name  string
		lines []string
	}{{"GNU find", want}, {"gfind", got}} {
		fmt.Fprintf(&b, "--- %s (%d lines) ---\n", side.name, len(side.lines))
		to := min(len(side.lines), from+20)
		if from > 0 {
			fmt.Fprintf(&b, "  ...\n")
		}
		for j := from; j < to; j++ {
			fmt.Fprintf(&b, "%4d %s\n", j+1, showLine(side.lines[j]))
		}
		if to < len(side.lines) {
			fmt.Fprintf(&b, "  ... %d more\n", len(side.lines)-to)
		}
	}
	t.Error(b.String())
}

func lineAt(lines []string, i int) string {
	if i >= len(lines) {
		return "(end of output)"
	}
	return showLine(lines[i])
}

// showLine quotes a line holding control or non-UTF-8 bytes and shortens
// a very long one (the Deep tree's paths run to 6000 bytes).
func showLine(s string) string {
	n := len(s)
	if n > 150 {
		s = s[:70] + "…" + s[n-70:]
	}
	if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		s = strconv.Quote(s)
	}
	if n > 150 {
		s += fmt.Sprintf(" (%d bytes)", n)
	}
	return s
}

// shellWords splits s on blanks; '...' quotes blanks (with no escapes).
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			w.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}
