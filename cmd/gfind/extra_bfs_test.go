package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
)

// The extras gfind takes from bfs under bfs's names (-hidden, -nohidden,
// -unique, NO_COLOR) are compared with bfs itself (Debian's bfs 2.6.1 has
// them), as GNU find is for the rest: same tree, same arguments.
//
// bfs -S dfs -s walks in gfind -s's order (depth first, each directory's
// entries sorted bytewise), so those runs are compared line for line,
// which also settles which path -unique keeps. bfs's messages are worded
// differently: only their number is compared. bfs -s also sorts the
// starting points, so a row names them in sorted order. The differences gfind
// makes on purpose (a hidden starting point under -nohidden, "./" under
// -hidden) are in extra_hidden.txtar, not here.

// A bfsCase is one row of the comparison with bfs.
type bfsCase struct {
	// args as in gnuCase.
	args string
	// anyPath marks -unique rows where which path to a file is kept
	// depends on the order of the walk: the unsorted parallel run is
	// compared by inode numbers (-printf '%i\n' appended) instead of
	// paths.
	anyPath bool
}

var bfsCases = []bfsCase{
	{args: "t -hidden"},
	{args: "t -nohidden"},
	{args: "t -nohidden -depth"},
	{args: "t -nohidden -mindepth 2"},
	{args: "t -nohidden -maxdepth 1"},
	{args: "t -nohidden -type d"},
	{args: "t -nohidden -name .*"},
	{args: "t -hidden -prune -o -print"},
	{args: "t ! -hidden"},
	{args: "t -nohidden -exclude -name sub"},
	{args: "-L t -nohidden"},
	{args: ". -maxdepth 0 -hidden"},
	{args: ".. -maxdepth 0 -hidden"},
	{args: "t/. t/.. -maxdepth 0 -hidden"},
	{args: "t/.hdir t/.hdir/ t/.hfile -hidden"},
	{args: "t/a/.. -nohidden -maxdepth 1"},

	{args: "t -unique", anyPath: true},
	{args: "t -unique -type f", anyPath: true},
	{args: "-L t -unique", anyPath: true},
	{args: "-L t -unique -depth", anyPath: true},
	{args: "-L t -unique -mindepth 2", anyPath: true},
	{args: "-L t -unique -maxdepth 1", anyPath: true},
	{args: "-L t -unique -nohidden", anyPath: true},
	{args: "-L t -unique -exclude -name sub", anyPath: true},
	{args: "-L t -unique -type l", anyPath: true}, // the links that dangle or loop on themselves
	{args: "-L t -unique -xtype l", anyPath: true},
	{args: "-H t/a/sub t/a/to_sub -unique", anyPath: true},
	{args: "t/a/sub t/a/sub -unique"},
	{args: "-L t/a t/a/to_sub -unique", anyPath: true},
	{args: "-L t/loops -unique"}, // a self-loop still cannot be followed: exit 1
}

// makeBFSTree builds the tree of the comparison with bfs:
//
//	t/ .hfile f hl (a hard link to f) .hl (another) sl -> f
//	   .hdir/ x .inner/ y  a/ .g sub/ c c2 (a hard link to c)
//	   a/sub/deep/ .z z
//	   a/to_sub -> sub  a/up -> ..  a/sub/back -> ../..  a/to_hdir -> ../.hdir
//	   dangling -> nowhere
//	   loops/ self -> self
func makeBFSTree(t *testing.T) string {
	t.Helper()
	root := testtree.Make(t)
	p := func(name string) string { return filepath.Join(root, name) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"t", "t/.hdir", "t/.hdir/.inner", "t/a", "t/a/sub", "t/a/sub/deep", "t/loops"} {
		must(os.Mkdir(p(d), 0o755))
	}
	for _, f := range []string{"t/.hfile", "t/f", "t/.hdir/x", "t/.hdir/.inner/y", "t/a/.g", "t/a/sub/c",
		"t/a/sub/deep/.z", "t/a/sub/deep/z"} {
		must(os.WriteFile(p(f), []byte(f+"\n"), 0o644))
	}
	for _, l := range [][2]string{{"t/f", "t/hl"}, {"t/f", "t/.hl"}, {"t/a/sub/c", "t/a/sub/c2"}} {
		must(os.Link(p(l[0]), p(l[1])))
	}
	for _, l := range [][2]string{{"f", "t/sl"}, {"sub", "t/a/to_sub"}, {"..", "t/a/up"},
		{"../..", "t/a/sub/back"}, {"../.hdir", "t/a/to_hdir"}, {"nowhere", "t/dangling"},
		{"self", "t/loops/self"}} {
		must(os.Symlink(l[0], p(l[1])))
	}
	return root
}

// TestAgainstBFS compares gfind with bfs on bfsCases: gfind -s (with
// several workers and with -j1) with bfs -S dfs -s line for line, then
// the unsorted runs of both, sorted.
func TestAgainstBFS(t *testing.T) {
	if gnuMode() {
		t.Skip("bfs's extras")
	}
	bfs := testtool.Need(t, "bfs", "bfs")
	gfind := gfindBin(t)
	root := makeBFSTree(t)
	for _, c := range bfsCases {
		args := shellWords(c.args)
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			want := runFind(t, root, false, bfs, "bfs", append([]string{"-S", "dfs", "-s"}, args...))
			t.Logf("bfs: stdout %q, stderr %q, exit status %d", want.stdout, want.stderr, want.code)
			for _, opts := range [][]string{{"-s"}, {"-s", "-j1"}} {
				got := runFind(t, root, false, gfind, "gfind", append(opts, args...))
				compareBFS(t, strings.Join(opts, " "), want, got, false)
			}
			if c.anyPath {
				args = append(args, "-printf", `%i\n`)
			}
			want = runFind(t, root, false, bfs, "bfs", args)
			compareBFS(t, "unsorted", want, runFind(t, root, false, gfind, "gfind", args), true)
		})
	}
}

// compareBFS reports how gfind's result got differs from bfs's want:
// stdout (sorted, or as is), the number of lines on stderr, the exit
// status.
func compareBFS(t *testing.T, mode string, want, got findResult, sorted bool) {
	t.Helper()
	w, g := splitRecords(want.stdout, "\n"), splitRecords(got.stdout, "\n")
	if sorted {
		slices.Sort(w)
		slices.Sort(g)
	}
	diffLines(t, mode+" stdout", w, g)
	if nw, ng := strings.Count(want.stderr, "\n"), strings.Count(got.stderr, "\n"); nw != ng {
		t.Errorf("%s: %d lines on stderr, bfs %d:\n%s", mode, ng, nw, got.stderr)
	}
	if want.code != got.code {
		t.Errorf("%s: exit status %d, bfs %d", mode, got.code, want.code)
	}
}

// TestDeleteNohiddenAgainstBFS runs -nohidden with -delete, which
// implies -depth, in fresh copies of the tree: the same files must be
// left, with the same exit status.
func TestDeleteNohiddenAgainstBFS(t *testing.T) {
	if gnuMode() {
		t.Skip("bfs's extras")
	}
	bfs := testtool.Need(t, "bfs", "bfs")
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	for _, args := range []string{"t -nohidden -delete", "t -nohidden -type f -delete", "t/.hdir -nohidden -delete"} {
		t.Run(args, func(t *testing.T) {
			t.Parallel()
			run := func(prog, name string, extra ...string) (findResult, []string) {
				root := makeBFSTree(t)
				r := runFind(t, root, false, prog, name, append(extra, shellWords(args)...))
				return r, listTree(t, gnu, root)
			}
			want, wantTree := run(bfs, "bfs")
			if strings.HasPrefix(args, "t/.hdir") {
				// bfs leaves a hidden starting point out; gfind walks it, as
				// if it were not hidden: compare with bfs on a visible name.
				want, wantTree = runRenamed(t, bfs, gnu, args)
			}
			for _, opts := range [][]string{nil, {"-j1"}} {
				got, gotTree := run(gfind, "gfind", opts...)
				compareBFS(t, fmt.Sprint(opts), want, got, true)
				diffLines(t, fmt.Sprint(opts)+" remaining tree", wantTree, gotTree)
			}
		})
	}
}

// runRenamed runs bfs with args whose hidden starting point t/.hdir is
// renamed t/.hdir's visible twin first: bfs then walks it as gfind walks
// the hidden one, and the tree left is renamed back for the comparison.
func runRenamed(t *testing.T, bfs, gnu, args string) (findResult, []string) {
	t.Helper()
	root := makeBFSTree(t)
	if err := os.Rename(filepath.Join(root, "t/.hdir"), filepath.Join(root, "t/hdir")); err != nil {
		t.Fatal(err)
	}
	r := runFind(t, root, false, bfs, "bfs", shellWords(strings.Replace(args, "t/.hdir", "t/hdir", 1)))
	if err := os.Rename(filepath.Join(root, "t/hdir"), filepath.Join(root, "t/.hdir")); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	r.stdout = strings.ReplaceAll(r.stdout, "t/hdir", "t/.hdir")
	return r, listTree(t, gnu, root)
}

// TestUniqueParallel has many workers share -unique's set over a tree
// where every file has several paths (hard links, and under -L links to
// directories and loops back): each file is printed once, and the files
// are those bfs finds, on every run.
func TestUniqueParallel(t *testing.T) {
	if gnuMode() {
		t.Skip("bfs's -unique")
	}
	bfs := testtool.Need(t, "bfs", "bfs")
	gfind := gfindBin(t)
	root := testtree.Make(t)
	p := func(name string) string { return filepath.Join(root, name) }
	for d := range 20 {
		if err := os.MkdirAll(p(fmt.Sprintf("d%02d/sub", d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for d := range 20 {
		dir := p(fmt.Sprintf("d%02d", d))
		for f := range 30 {
			name := filepath.Join(dir, fmt.Sprintf("f%02d", f))
			if err := os.WriteFile(name, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			// A hard link in the next directory and one below.
			for _, l := range []string{fmt.Sprintf("d%02d/l%02d-%02d", (d+1)%20, d, f), fmt.Sprintf("d%02d/sub/m%02d", d, f)} {
				if err := os.Link(name, p(l)); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, l := range [][2]string{{fmt.Sprintf("../d%02d", (d+7)%20), "to"}, {"../..", "sub/up"}} {
			if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := []string{"-L", ".", "-unique", "-printf", `%i\n`}
	want := runFind(t, root, false, bfs, "bfs", args)
	wantIno := sortedLines(want.stdout)
	if want.code != 0 || want.stderr != "" || len(wantIno) < 600 {
		t.Fatalf("bfs: exit status %d, stderr %q, %d files", want.code, want.stderr, len(wantIno))
	}
	for run := range 10 {
		for _, j := range []string{"-j2", "-j8"} {
			got := runFind(t, root, false, gfind, "gfind", append([]string{j}, args...))
			if got.code != 0 || got.stderr != "" {
				t.Fatalf("run %d %s: exit status %d, stderr %q", run, j, got.code, got.stderr)
			}
			diffLines(t, fmt.Sprintf("run %d %s", run, j), wantIno, sortedLines(got.stdout))
		}
	}
}

// TestNoColorTTY runs bfs and gfind on a terminal (script(1)) with and
// without NO_COLOR: NO_COLOR turns off the colors a terminal gets by
// default (bfs's default, gfind's --color=auto), and an explicit -color
// still colors. Whether the output has an escape sequence is compared.
func TestNoColorTTY(t *testing.T) {
	if gnuMode() {
		t.Skip("gfind's --color")
	}
	bfs := testtool.Need(t, "bfs", "bfs")
	scriptBin := testtool.Need(t, "script", "bsdutils")
	gfind := gfindBin(t)
	root := makeBFSTree(t)
	onTTY := func(env []string, prog string, args ...string) bool {
		t.Helper()
		var line strings.Builder
		line.WriteString("exec " + prog)
		for _, a := range args {
			line.WriteString(" '" + a + "'")
		}
		cmd := exec.Command(scriptBin, "-qec", line.String(), "/dev/null")
		cmd.Dir = root
		cmd.Env = append(testEnv(), append(env, "SHELL=/bin/sh")...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %q: %v", prog, args, err)
		}
		if !strings.Contains(string(out), "t/a") {
			t.Fatalf("%s %q printed no tree: %q", prog, args, out)
		}
		return strings.Contains(string(out), "\x1b[")
	}
	for _, c := range []struct {
		bfs, gfind []string
		colors     bool // what bfs does without NO_COLOR
	}{
		{[]string{"t"}, []string{"--color=auto", "t"}, true},
		{[]string{"t", "-color"}, []string{"t", "-color"}, true},
		{[]string{"t", "-nocolor"}, []string{"--color=auto", "t", "-nocolor"}, false},
	} {
		// NO_COLOR= (empty) is left out: bfs 2.6.1 takes it as set, bfs
		// 4.1 (and no-color.org) as unset, as gfind does (below).
		for _, env := range [][]string{nil, {"NO_COLOR=1"}} {
			b, g := onTTY(env, bfs, c.bfs...), onTTY(env, gfind, c.gfind...)
			if b != g {
				t.Errorf("%q, bfs %q: gfind %q colors %v, bfs %v", env, c.bfs, c.gfind, g, b)
			}
			if len(env) == 0 && b != c.colors {
				t.Errorf("bfs %q on a terminal: colors %v, want %v (the control case)", c.bfs, b, c.colors)
			}
		}
	}
	if !onTTY([]string{"NO_COLOR="}, gfind, "--color=auto", "t") {
		t.Errorf("--color=auto under an empty NO_COLOR: no colors")
	}
	// --color=always colors whatever NO_COLOR says; the default never.
	if !onTTY([]string{"NO_COLOR=1"}, gfind, "--color=always", "t") {
		t.Errorf("--color=always under NO_COLOR=1: no colors")
	}
	if onTTY(nil, gfind, "t") {
		t.Errorf("no --color on a terminal: colors, want none (GNU find's default)")
	}
}
