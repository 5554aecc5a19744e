package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
	"golang.org/x/sys/unix"
)

// The differential test of the output actions: -printf (every
// directive, time letter, flag, width, precision and escape, and GNU's
// warnings and errors), -ls, and the file variants -fprint, -fprint0,
// -fprintf and -fls, whose files are compared too.
//
// The tree is testtree.Basic, Links, WeirdNames and Meta, and times/,
// made here: files with fractional, old, recent, future and pre-1970
// times. Before comparing, one walk reads every directory and link, so
// that relatime has updated their access times once and for all (%a of
// a directory would otherwise differ between the first run and the
// next).

// timesFiles are times/'s files: name, mtime and atime.
var timesFiles = []struct {
	name         string
	mtime, atime time.Time
}{
	{"frac", time.Date(2021, 3, 4, 5, 6, 7, 123456789, time.UTC), time.Date(2022, 12, 31, 23, 59, 59, 999999999, time.UTC)},
	{"old", time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(2000, 2, 29, 12, 0, 0, 1, time.UTC)},
	{"neg", time.Unix(-100, 250000000), time.Unix(-86400*365*30, 0)},
	{"future", time.Now().Add(400 * 24 * time.Hour), time.Now().Add(30 * time.Minute)},
	{"soon", time.Now().Add(30 * time.Minute), time.Now()},
	{"recent", time.Now().Add(-100 * 24 * time.Hour), time.Now().Add(-time.Hour)},
	{"pm", time.Date(2020, 7, 1, 13, 14, 15, 500000000, time.UTC), time.Date(2020, 7, 1, 0, 30, 0, 0, time.UTC)},
	{"midnight", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2021, 1, 3, 12, 0, 0, 0, time.UTC)},
}

func makeTimes(t *testing.T, root string) {
	t.Helper()
	dir := filepath.Join(root, "times")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range timesFiles {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte(f.name), 0o644); err != nil {
			t.Fatal(err)
		}
		ts := []unix.Timespec{unix.NsecToTimespec(f.atime.UnixNano()), unix.NsecToTimespec(f.mtime.UnixNano())}
		if err := unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, 0); err != nil {
			t.Fatal(err)
		}
	}
}

// printfTree builds the tree and settles its access times.
func printfTree(t *testing.T, gnu string) string {
	t.Helper()
	root := testtree.Make(t, testtree.Basic, testtree.Links, testtree.WeirdNames, testtree.Meta)
	makeTimes(t, root)
	cmd := exec.Command(gnu, ".", "-printf", "%l")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("settling the tree: %v\n%s", err, out)
	}
	return root
}

// everyTimeLetter is %T followed by every letter GNU's format_date can
// be given that strftime knows, and a few it does not.
const everyTimeLetter = `%Ta %TA %Tb %TB %Tc %TC %Td %TD %Te %TF %Tg %TG %Th %TH %TI %Tj %Tk %Tl %Tm %TM %Tn %Tp %TP %Tr %TR %Ts %TS %Tt %TT %Tu %TU %TV %Tw %TW %Tx %TX %Ty %TY %Tz %TZ %T+ %T@ %T% %Tq %TE %TO %T: %T0 %T1 %T3 %T9 %T_ %T- %T^ %T# %TJ`

var gnuPrintfCases = []gnuCase{
	// Names and depth.
	{args: `. -printf [%p][%f][%h][%H][%P][%d]\n`},
	{args: `basic/ basic// ./basic links/./dir -printf [%p][%f][%h][%H][%P][%d]\n`},
	{args: `/ // . .. -maxdepth 0 -printf [%p][%f][%h][%H][%P]\n`},
	{args: `weird -printf %f\0`},
	{args: `weird -printf '%-12f|%12f|%.3f|%6.2f|%.f|'\n`},
	// Types and links.
	{args: `. -printf '%y %Y [%l] %p\n'`},
	{args: `-L links -printf '%y %Y [%l] %p\n'`},
	{args: `-H links/to_dir links/dangling links/loop links/chain links/a -printf '%y %Y [%l] %d %p\n'`},
	{args: `links -follow -printf '%y %Y [%l] %p\n'`},
	// Status.
	{args: `meta basic -printf '%s %b %k %n %i %D %p\n'`},
	{args: `meta basic -printf '%S %.2S %#S %12S| %-12.3S| %+S %09S %p\n'`},
	{args: `meta -printf '%m %#m %05m %-6m| %#o %M %10M| %.4M %p\n'`},
	{args: `meta -printf '%u %g %U %G|%-10u|%10g|%5U| %p\n'`},
	{args: `meta/size -printf %F\n`},
	{args: `meta -printf '[%B@][%BT][%5Bc][%BY] %p\n'`},
	{args: `basic -maxdepth 1 -printf '%Z|%p\n'`},
	{args: `-L meta/sym -printf '%s %m %y %Y %u %p\n'`},
	// Times: every letter, and the ctime forms.
	{args: `times -printf '%a|%c|%t %p\n'`},
	{args: `times -printf '%A@ %C@ %T@ %A+ %T+ %p\n'`},
	{args: `times -printf '` + everyTimeLetter + `\n'`},
	{args: `times -printf '` + strings.ReplaceAll(everyTimeLetter, "%T", "%A") + `\n'`},
	{args: `times/frac -printf '%Ca %CY %CS %C+ %C@\n'`},
	{args: `times -printf '%-30t|%30T+|%.10A@|%8TH|%-8Tb|\n'`},
	// Flags, widths and precisions.
	{args: `basic -printf '%-20p|%20f|%.3h|%5.2P|%05s|%-8k|%+d|% d|%05d|%-5d|%.3d|%+.0d|%#d|\n'`},
	{args: `basic -printf '%-+ #0123.456p|%+-5d|%-05d|%00d|%0.2d|%#.0m|%#.3m|%.p|%.5f|\n'`},
	{args: `basic -printf '%0-5d|%0#6m|%lx|%5%|%-5%|%%|%%p\n'`}, // GNU's odd parses
	// Escapes.
	{args: `basic -maxdepth 1 -printf '\a\b\f\r\v\\\101\0\12345\400\q\8|%p\n'`},
	{args: `basic -printf '%p\n\cignored%s'`},
	{args: `basic -maxdepth 0 -printf 'x\'`},
	{args: `basic -maxdepth 0 -printf '%T\n'`},
	// Warnings and errors.
	{args: `basic -maxdepth 0 -printf '%Q%!%-%#o%\n\n'`},
	{args: `basic -maxdepth 0 -printf ab%A`},
	{args: `basic -maxdepth 0 -printf %5T`},
	{args: `basic -maxdepth 0 -printf %`},
	{args: `basic -maxdepth 0 -printf x%{`},
	{args: `basic -maxdepth 0 -printf %[`},
	{args: `basic -maxdepth 0 -printf %(`},
	{args: `basic -maxdepth 0 -printf a%-`},
	{args: `basic -maxdepth 0 -printf %5.`},
	{args: `basic -maxdepth 0 -printf '%Q%'`},
	{args: `basic -maxdepth 0 -printf`},
	{args: `basic -maxdepth 0 -printf ab%2147483648p|\n`},
	{args: `basic -printf %p\n -printf %Q\n`},
	// With other primaries.
	{args: `basic -name *.txt -printf '%f\n' -o -printf 'other %f\n'`},
	{args: `basic -printf '%p\n' -quit`, serialOnly: true},
	{args: `basic -printf '' -print`},
	// -ls.
	{args: `basic -ls`},
	{args: `links -ls`},
	{args: `-L links -ls`},
	{args: `weird -ls`},
	{args: `times -ls`},
	{args: `meta -ls`, serialOnly: true}, // an unknown owner widens a column
	{args: `meta/owner -ls`, serialOnly: true},
	{args: `meta/size meta/mode -ls`},
	{args: `basic -name *.txt -ls -o -ls`},
	{args: `basic -ls -ls`},
	{args: `nosuch -ls`},
}

// TestAgainstGNUPrintf runs gnuPrintfCases in the printf tree.
func TestAgainstGNUPrintf(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := printfTree(t, gnu)
	for _, c := range gnuPrintfCases {
		args := shellWords(c.args)
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			compareFinds(t, filepath.Join(root, c.dir), false, gnu, gfind, args, c.serialOnly)
		})
	}
}

// TestAgainstGNUPrintfZones runs the time directives in other time
// zones, named or given as POSIX rules, and with POSIXLY_CORRECT
// (512-byte blocks in -ls).
func TestAgainstGNUPrintfZones(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := printfTree(t, gnu)
	for _, env := range [][]string{
		{"TZ=America/New_York"}, {"TZ=Asia/Kolkata"}, {"TZ=Europe/London"}, {"TZ=NZ"},
		{"TZ=EST5EDT,M3.2.0,M11.1.0"}, {"TZ=<+03>-3"}, // POSIX rules (internal/tz)
		{"POSIXLY_CORRECT=1"},
	} {
		for _, args := range []string{
			`times -printf '%a|%c|%t|%T+|%Tz %TZ|%Ak|%Cs %p\n'`,
			`times -printf '` + everyTimeLetter + `\n'`,
			`times basic -ls`,
		} {
			t.Run(strings.Join(env, " ")+" "+args, func(t *testing.T) {
				t.Parallel()
				a := shellWords(args)
				want := runFindEnv(t, root, env, gnu, "find", a)
				got := runFindEnv(t, root, env, gfind, "gfind", append([]string{"-j1"}, a...))
				compare(t, "-j1", want, got, false)
			})
		}
	}
}

// runFindEnv is runFind with more environment.
func runFindEnv(t *testing.T, dir string, env []string, prog, name string, args []string) findResult {
	t.Helper()
	return runProg(t, runOpts{dir: dir, env: append(testEnv(), env...)}, prog, name, args)
}

// gnuFileCases name files under OUT/, a directory made afresh for each
// run (holding a file "pre" with old contents, and nothing else); the
// files left there are compared too.
var gnuFileCases = []gnuCase{
	{args: `. -fprint OUT/a`},
	{args: `. -fprint0 OUT/a`},
	{args: `. -fprint OUT/a -fprint0 OUT/a`},
	{args: `. -fprint OUT/a -fprint OUT/./a -fprintf OUT/b %p\n`},
	{args: `basic links weird -fls OUT/ls`},
	{args: `basic -fls OUT/ls -ls`},
	{args: `basic -fprintf OUT/p '%p %s %m\n' -fprint /dev/stdout`},
	{args: `basic -fprintf /dev/stdout '%p %s\n' -print`},
	{args: `basic -maxdepth 1 -fprint /dev/stderr`},
	{args: `basic -maxdepth 1 -fprintf /dev/stderr [%f]\n -fls /dev/stderr`},
	{args: `basic -name nothing -fprint OUT/pre`}, // truncated, left empty
	{args: `basic -fprint OUT/pre -quit`},
	{args: `basic -fprint OUT/nodir/x`},
	{args: `basic -fprint OUT`},
	{args: `basic -fprintf OUT/a`},
	{args: `basic -fprintf OUT/nodir/a %p`},
	{args: `basic -fls OUT/nodir/a`},
	{args: `basic -fprint OUT/a -printf %`},
	{args: `basic -printf % -fprint OUT/a`},
	{args: `basic -fprint`},
	{args: `basic -fprint0`},
	{args: `basic -fls`},
	{args: `basic -fprintf`},
	{args: `weird -fprintf OUT/w '%f\0' -fprint0 OUT/w`},
	{args: `basic -fprintf OUT/c 'x%p\n\cy'`},
}

// TestAgainstGNUFiles runs gnuFileCases and compares the files written
// as well as the output.
func TestAgainstGNUFiles(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := testtree.Make(t, testtree.Basic, testtree.Links, testtree.WeirdNames)
	for _, c := range gnuFileCases {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			want, wantFiles := runWithOut(t, root, gnu, "find", c.args)
			if !c.serialOnly {
				got, gotFiles := runWithOut(t, root, gfind, "gfind", c.args)
				compare(t, "sorted", want, got, true)
				compareFiles(t, "sorted", wantFiles, gotFiles, true)
			}
			got, gotFiles := runWithOut(t, root, gfind, "gfind", "-j1 "+c.args)
			compare(t, "-j1", want, got, false)
			compareFiles(t, "-j1", wantFiles, gotFiles, false)
		})
	}
}

// runWithOut runs prog with args, OUT replaced by a new directory, and
// returns its result (OUT put back in the messages) and the files left
// in the directory.
func runWithOut(t *testing.T, root, prog, name, args string) (findResult, map[string]string) {
	t.Helper()
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "pre"), []byte("old contents\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var argv []string
	for _, a := range shellWords(args) {
		if a == "OUT" || strings.HasPrefix(a, "OUT/") {
			a = out + a[3:]
		}
		argv = append(argv, a)
	}
	r := runFind(t, root, false, prog, name, argv)
	r.stdout = strings.ReplaceAll(r.stdout, out, "OUT")
	r.stderr = strings.ReplaceAll(r.stderr, out, "OUT")
	files := map[string]string{}
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = fi.Mode().String() + "\n" + string(b)
	}
	return r, files
}

// compareFiles compares the files two runs left, by name, mode and
// contents; sorted compares their records (each ending in a newline or
// a NUL) in sorted order.
func compareFiles(t *testing.T, mode string, want, got map[string]string, sorted bool) {
	t.Helper()
	var names []string
	for n := range want {
		names = append(names, n)
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		w, inW := want[n]
		g, inG := got[n]
		if !inW || !inG {
			t.Errorf("%s: file %s: GNU find left it %v, gfind %v", mode, n, inW, inG)
			continue
		}
		wr, gr := fileRecords(w), fileRecords(g)
		if sorted {
			slices.Sort(wr)
			slices.Sort(gr)
		}
		diffLines(t, mode+" file "+n, wr, gr)
	}
}

func fileRecords(s string) []string {
	var recs []string
	for len(s) > 0 {
		i := strings.IndexAny(s, "\n\x00")
		if i < 0 {
			recs = append(recs, s)
			break
		}
		recs = append(recs, s[:i+1])
		s = s[i+1:]
	}
	return recs
}

// TestAgainstGNUPrintfTTY runs both programs on a terminal (through
// script(1), which gives them a pseudo-terminal), where %p, %f, %h, %P,
// %l and -print show unprintable characters as '?'. Only standard output
// is compared: script(1) mixes standard error into it.
func TestAgainstGNUPrintfTTY(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	scriptBin := testtool.Need(t, "script", "bsdutils")
	root := testtree.Make(t, testtree.WeirdNames, testtree.Links)
	if err := os.Symlink("t\x01gt\xff", filepath.Join(root, "links", "odd\ttarget")); err != nil {
		t.Fatal(err)
	}
	for _, locale := range []string{"C", "C.UTF-8"} {
		for _, args := range []string{
			`weird links -printf '[%p][%f][%h][%P][%l][%H][%-12f][%.3p]\n'`,
			`weird links -print -fprint /dev/stdout -ls`,
			`weird -print0`,
		} {
			t.Run(locale+" "+args, func(t *testing.T) {
				t.Parallel()
				run := func(prog, name string, extra ...string) string {
					out, code := onTerminal(t, scriptBin, root, append(testEnv(), "LC_ALL="+locale),
						"exec "+shellLine(prog, append(extra, shellWords(args)...)))
					if code != 0 {
						t.Fatalf("%s: exit status %d", name, code)
					}
					return out
				}
				want := run(gnu, "find")
				got := run(gfind, "gfind", "-j1")
				diffLines(t, "terminal output", strings.Split(want, "\n"), strings.Split(got, "\n"))
			})
		}
	}
}

// onTerminal runs the shell command line through script(1), which gives
// it a pseudo-terminal as standard input, output and error (but what
// line redirects), in dir with env and SHELL=/bin/sh, and returns what
// the terminal showed ("\r\n" at the ends of lines) and the exit status.
func onTerminal(t *testing.T, scriptBin, dir string, env []string, line string) (string, int) {
	t.Helper()
	cmd := exec.Command(scriptBin, "-qec", line, "/dev/null")
	cmd.Dir = dir
	cmd.Env = append(env, "SHELL=/bin/sh")
	out, err := cmd.Output()
	r := resultOf(t, "script", string(out), "", err)
	return r.stdout, r.code
}

// shellLine is the words prog and args quoted for the shell.
func shellLine(prog string, args []string) string {
	var line strings.Builder
	line.WriteString(prog)
	for _, a := range args {
		line.WriteString(" '" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return line.String()
}
