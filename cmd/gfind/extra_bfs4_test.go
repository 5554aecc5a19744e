package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
)

// The bfs-named extras whose meaning is bfs 4.1's (-noerror, -limit's
// refusal, -j0, the warnings about them) are compared with bfs 4.1
// itself (testtool.BFS4). bfs words its messages differently: what is
// compared is whether there is one, what it means (its key phrase), the
// exit status and standard output.

// makeErrorTree builds a tree where walking meets each kind of error:
//
//	t/ f  d/up -> ..  self -> self  notdir -> f/x
//	   locked/ (mode 000) in/ x
//	   ro/ (mode 555) f
//	list0: "t/f", "", "nosuch", for -files0-from
//
// Under -L, d/up is a file system loop and self a link loop; locked is
// unreadable, ro/f cannot be deleted, f/x is not a directory. The
// permission errors need a user the modes stop: see asUnprivileged.
func makeErrorTree(t *testing.T) string {
	t.Helper()
	root := testtree.Make(t)
	p := func(name string) string { return filepath.Join(root, name) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"t", "t/d", "t/locked", "t/locked/in", "t/ro"} {
		must(os.Mkdir(p(d), 0o755))
	}
	for _, f := range []string{"t/f", "t/locked/in/x", "t/ro/f"} {
		must(os.WriteFile(p(f), nil, 0o644))
	}
	for _, l := range [][2]string{{"..", "t/d/up"}, {"self", "t/self"}, {"f/x", "t/notdir"}} {
		must(os.Symlink(l[0], p(l[1])))
	}
	// -files0-from's list: a file, an empty name, a missing file.
	must(os.WriteFile(p("list0"), []byte("t/f\x00\x00nosuch\x00"), 0o644))
	must(os.Chmod(p("t/locked"), 0))
	must(os.Chmod(p("t/ro"), 0o555))
	t.Cleanup(func() {
		// For a user other than root, who could not remove them.
		_ = os.Chmod(p("t/locked"), 0o755)
		_ = os.Chmod(p("t/ro"), 0o755)
	})
	return root
}

// unprivileged returns the argument words that run a program so that
// permission bits stop it: as root, setpriv(1) with the capabilities
// that override them (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) dropped
// from the bounding set. Not user nobody, as other tests run gfind: bfs
// 4.1 runs through its loader under /root, which nobody cannot read.
// Another user needs nothing.
func unprivileged(t *testing.T) []string {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil
	}
	setpriv := testtool.Need(t, "setpriv", "util-linux")
	pre := []string{setpriv, "--bounding-set=-dac_override,-dac_read_search", "--"}
	if out, err := exec.Command(pre[0], append(pre[1:len(pre):len(pre)], "true")...).CombinedOutput(); err != nil {
		// A container may keep CAP_SETPCAP from root.
		t.Skipf("setpriv cannot drop the capabilities: %v\n%s", err, out)
	}
	return pre
}

// runUnprivileged runs prog with args in dir as unprivileged says.
func runUnprivileged(t *testing.T, dir string, pre []string, prog, name string, args []string) findResult {
	t.Helper()
	if len(pre) == 0 {
		return runFind(t, dir, false, prog, name, args)
	}
	return runFind(t, dir, false, pre[0], name, append(append(pre[1:len(pre):len(pre)], prog), args...))
}

// suppressedRe is bfs's warning at the end of a run in which -noerror
// hid errors, and gfind's, which keeps its words.
var suppressedRe = regexp.MustCompile(`(?m)^(?:bfs|gfind): warning: Suppressed errors: ([0-9]+)$`)

// TestNoerrorAgainstBFS runs bfs and gfind with -noerror on each kind
// of error the walk meets: both must be silent, exit 0 and print the same
// files. Without -noerror both must report something (the control case);
// with -warn both must end with the number of errors hidden, which for
// gfind is the number of messages it writes without -noerror.
func TestNoerrorAgainstBFS(t *testing.T) {
	if gnuMode() {
		t.Skip("bfs's -noerror")
	}
	bfs := testtool.BFS4(t)
	gfind := gfindBin(t)
	pre := unprivileged(t)
	root := makeErrorTree(t)
	for _, c := range []struct {
		args string
		// sameCount: bfs and gfind meet the same errors. Under -L
		// gfind also reports notdir (ENOTDIR), as GNU find does; bfs
		// takes it for a broken link.
		sameCount bool
	}{
		{"t", true},                           // EACCES on t/locked
		{"-L t", false},                       // ELOOP, a file system loop, EACCES, ENOTDIR
		{"-L t -type f", false},               // the same with a test
		{"-L t/self", true},                   // a starting point that is a link loop
		{"-L t/d", false},                     // a loop below it
		{"nosuch t/f", true},                  // a starting point that is not there
		{"t/f/x", true},                       // ENOTDIR on a starting point
		{"t/locked/in", true},                 // EACCES on a starting point
		{"t/ro/f -delete", true},              // -delete fails
		{"t/d -exec /nonexistent {} ;", true}, // the command cannot be run
		{"t -name f -print -o -name x", true}, // the error among tests
		{"-H t/f/x t/self t/locked/x", true},  // several missing starting points
		{"t -depth", true},                    // post-order
		{"-files0-from list0", true},          // an empty name and a missing file in the list
	} {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			args := shellWords(c.args)
			run := func(prog, name string, extra ...string) findResult {
				return runUnprivileged(t, root, pre, prog, name, append(args[:len(args):len(args)], extra...))
			}
			wantCtl, gotCtl := run(bfs, "bfs"), run(gfind, "gfind")
			errs := strings.Count(gotCtl.stderr, "\n")
			if wantCtl.stderr == "" || errs == 0 {
				t.Fatalf("the control case has no error: bfs stderr %q, gfind stderr %q", wantCtl.stderr, gotCtl.stderr)
			}
			want, got := run(bfs, "bfs", "-noerror"), run(gfind, "gfind", "-noerror")
			t.Logf("bfs -noerror: stdout %q, stderr %q, exit status %d", want.stdout, want.stderr, want.code)
			if want.stderr != "" || want.code != 0 {
				t.Fatalf("bfs -noerror: stderr %q, exit status %d: not what this test expects of bfs 4.1", want.stderr, want.code)
			}
			if got.stderr != "" || got.code != 0 {
				t.Errorf("gfind -noerror: stderr %q, exit status %d; bfs is silent and exits 0", got.stderr, got.code)
			}
			diffLines(t, "stdout", sortedLines(want.stdout), sortedLines(got.stdout))

			// With -warn (which, like -noerror, acts wherever it stands),
			// the number hidden.
			want, got = run(bfs, "bfs", "-noerror", "-warn"), run(gfind, "gfind", "-warn", "-noerror")
			wm, gm := suppressedRe.FindAllStringSubmatch(want.stderr, -1), suppressedRe.FindAllStringSubmatch(got.stderr, -1)
			if len(wm) != 1 || strings.Count(want.stderr, "\n") != 1 {
				t.Fatalf("bfs -noerror -warn: stderr %q, want one warning", want.stderr)
			}
			if len(gm) != 1 || strings.Count(got.stderr, "\n") != 1 || got.code != 0 {
				t.Fatalf("gfind -warn -noerror: stderr %q, exit status %d; want one warning like bfs's %q", got.stderr, got.code, want.stderr)
			}
			if n, _ := strconv.Atoi(gm[0][1]); n != errs {
				t.Errorf("gfind: %d errors suppressed, but %d reported without -noerror:\n%s", n, errs, gotCtl.stderr)
			}
			if c.sameCount && gm[0][1] != wm[0][1] {
				t.Errorf("gfind: %s errors suppressed, bfs %s", gm[0][1], wm[0][1])
			}
		})
	}
}

// TestRefusedAgainstBFS: what bfs refuses, gfind refuses with the same
// meaning (exit status 1, nothing on stdout, a message saying why), and
// the same commands with what was missing are accepted by both.
func TestRefusedAgainstBFS(t *testing.T) {
	if gnuMode() {
		t.Skip("bfs's -limit and -j")
	}
	bfs := testtool.BFS4(t)
	gfind := gfindBin(t)
	root := makeBFSTree(t)
	const (
		bfsThreads = "0 is not enough threads."
		threads    = "gfind: 0 is not enough threads"
		bfsLimit   = "With -limit, you must specify an action explicitly; for example, -print -limit 3."
		limit      = "gfind: with -limit, you must specify an action explicitly; for example, -print -limit 3"
	)
	for _, c := range []struct {
		args               string
		bfsSays, gfindSays string // "": accepted, and the number of lines printed compared
	}{
		{"-j0 t", bfsThreads, threads},
		{"-j00 t", bfsThreads, threads},
		{"-j1 t", "", ""},
		{"t -limit 3", bfsLimit, limit},
		{"t -type f -limit 3", bfsLimit, limit},
		{"t ( -limit 3 )", bfsLimit, limit},
		{"t -limit 3 -prune", bfsLimit, limit}, // -prune and -quit leave the -print implicit
		{"t -limit 3 -quit", bfsLimit, limit},
		// Accepted with an action. After it only: bfs's -limit is an
		// action that quits when evaluated the Nth time, so "-limit 3
		// -print" prints 2 lines in bfs and 3 (matches) in gfind.
		{"t -print -limit 3", "", ""},
		{"t -ls -limit 3", "", ""},
		{"t -printf %p\\n -limit 3", "", ""},
		{"t -exec echo {} ; -limit 3", "", ""},
		{"t -type f -fprint /dev/null -limit 3", "", ""},
	} {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			args := shellWords(c.args)
			want := runFind(t, root, false, bfs, "bfs", args)
			got := runFind(t, root, false, gfind, "gfind", args)
			t.Logf("bfs: stdout %q, stderr %q, exit status %d", want.stdout, want.stderr, want.code)
			if c.bfsSays == "" {
				if want.code != 0 || got.code != 0 || want.stderr != "" || got.stderr != "" {
					t.Fatalf("bfs exit status %d, stderr %q; gfind exit status %d, stderr %q; want both to run", want.code, want.stderr, got.code, got.stderr)
				}
				if w, g := strings.Count(want.stdout, "\n"), strings.Count(got.stdout, "\n"); w != g {
					t.Errorf("gfind printed %d lines, bfs %d:\n%s", g, w, got.stdout)
				}
				return
			}
			if want.code != 1 || want.stdout != "" || !strings.Contains(want.stderr, c.bfsSays) {
				t.Fatalf("bfs: not what this test expects of bfs 4.1 (%q)", c.bfsSays)
			}
			if got.code != 1 || got.stdout != "" || !slicesContainsLine(got.stderr, c.gfindSays) {
				t.Errorf("gfind: exit status %d, stdout %q, stderr %q; want exit status 1 and the line %q, as bfs says %q",
					got.code, got.stdout, got.stderr, c.gfindSays, c.bfsSays)
			}
		})
	}
}

// slicesContainsLine reports whether text has line as one of its lines.
func slicesContainsLine(text, line string) bool {
	for l := range strings.Lines(text) {
		if strings.TrimSuffix(l, "\n") == line {
			return true
		}
	}
	return false
}

// TestWarningsAgainstBFS: bfs's warnings about -noerror (how many
// errors it hid) and about a path given to -exclude (which takes a
// test, so the path excludes nothing) come where bfs gives them: with
// -warn, or by default when standard input is a terminal (GNU's rule
// too), and not after -nowarn. What is compared is whether the warning
// is there, by its key phrase; bfs's run on a terminal is colored.
func TestWarningsAgainstBFS(t *testing.T) {
	if gnuMode() {
		t.Skip("bfs's warnings")
	}
	bfs := testtool.BFS4(t)
	scriptBin := testtool.Need(t, "script", "bsdutils")
	gfind := gfindBin(t)
	root := makeBFSTree(t)
	const (
		suppressed = "suppressed errors: 1"
		notExcl    = "this path will not be excluded."
	)
	for _, c := range []struct {
		args   string
		tty    bool   // standard input (and output) a terminal
		phrase string // in lower case
		warns  bool   // what bfs does
	}{
		{"-L t/loops -noerror", false, suppressed, false},
		{"-L t/loops -noerror -warn", false, suppressed, true},
		{"-L t/loops -warn -noerror", false, suppressed, true},
		{"-L t/loops -warn -noerror -nowarn", false, suppressed, false},
		{"-L t/loops -noerror", true, suppressed, true},
		{"-L t/loops -noerror -nowarn", true, suppressed, false},
		{"t -warn -noerror", false, "suppressed errors", false}, // nothing hidden
		{"t -noerror", true, "suppressed errors", false},

		{"t -exclude t/a", false, notExcl, false},
		{"t -warn -exclude t/a", false, notExcl, true},
		{"t -warn -exclude ./t/a", false, notExcl, true},
		{"t -warn -exclude t/nosuch -print", false, notExcl, true},
		{"t -exclude t/a", true, notExcl, true},
		{"t -nowarn -exclude t/a", true, notExcl, false},
		{"t -warn -exclude -name t/a", false, notExcl, false}, // a test, even one that never matches
		{"t -warn -exclude -path t/a", false, notExcl, false},
		{"t -warn -exclude ( -name a )", false, notExcl, false},
	} {
		name := c.args
		if c.tty {
			name += " on a terminal"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := shellWords(c.args)
			stderr := func(prog, argv0 string) string {
				if c.tty {
					out, _ := onTerminal(t, scriptBin, root, testEnv(), "exec "+shellLine(prog, args)+" >/dev/null")
					return out
				}
				return runFind(t, root, false, prog, argv0, args).stderr
			}
			want, got := stderr(bfs, "bfs"), stderr(gfind, "gfind")
			if w := strings.Contains(strings.ToLower(want), c.phrase); w != c.warns {
				t.Fatalf("bfs warns %v, this test expects %v of bfs 4.1: stderr %q", w, c.warns, want)
			}
			if g := strings.Contains(strings.ToLower(got), c.phrase); g != c.warns {
				t.Errorf("gfind warns %v, bfs %v (%q): stderr %q", g, c.warns, c.phrase, got)
			}
		})
	}
}
