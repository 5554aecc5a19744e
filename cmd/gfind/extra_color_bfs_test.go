package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/lscolors"
	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
	"golang.org/x/sys/unix"
)

// colorBFSCases are LS_COLORS values on whose meaning Debian's bfs
// 2.6.1, bfs 4.1 (the specification) and GNU ls agree, so that bfs 2.6.1
// can be the oracle. Left out, where 2.6.1 is older than both: suffixes
// that differ only in case (ls 9.2 and bfs 3.0 match them exactly;
// internal/lscolors' tests), keys set to 00 or empty, where 2.6.1 and
// 4.1 differ (4.1 is extra_color_bfs41_test.go's oracle), and names
// with control characters, which 2.6.1 writes raw (bfs 3.0 quotes them:
// output's TestAppendShell, extra_color_quote.txtar).
var colorBFSCases = []string{
	lscolors.Dircolors, // what a shell's `eval "$(dircolors -b)"` sets
	"di=01;34:*.tar=31",
	"*.tar=31:*.TAR=31",   // same color in two cases: any case
	"*.gz=33:*.tar.gz=34", // the last matching suffix wins...
	"*.tar.gz=34:*.gz=33", // ...whichever is longer
	"or=31:mi=05",         // a dangling link
	"ln=01;36:or=00",      // or uncolored: a dangling link is a link
	"ln=target",           // a link as what it points to
	"ln=target:or=31",
	"su=1:sg=2:ex=3:mh=4",   // su before sg before ex before mh
	"su=00:sg=00:ex=3:mh=4", // uncolored keys fall through
	"ca=1:ex=3",             // capabilities before ex
	"ca=00:ex=3",
	"su=1:ca=7",
	"tw=1:ow=2:st=3",
	"tw=00:ow=2:st=3",
	"di=00",
	"rs=7:lc=<:rc=>",
	"ec=E",
	"no=01:fi=02:*.tar=03", // fi set: no "no"
}

// makeColorTree builds a tree with a file of each kind the keys tell
// apart: t/ d/ st/ (sticky) ow/ (other-writable) tw/ (both) a.tar A.TAR
// b.tar.gz c.GZ "sp ace.tar" e.txt su sg x (executable) hl hl2 (hard
// links) lnk -> a.tar dlnk -> d dang -> nowhere fifo, and, when setcap
// is there, capf and capx (executable) with file capabilities.
func makeColorTree(t *testing.T) (root string, caps bool) {
	t.Helper()
	root = testtree.Make(t)
	p := func(name string) string { return filepath.Join(root, "t", name) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(root, "t"), 0o755))
	for name, mode := range map[string]os.FileMode{"d": 0o755, "st": 0o755 | os.ModeSticky, "ow": 0o777, "tw": 0o777 | os.ModeSticky} {
		must(os.Mkdir(p(name), 0o755))
		must(os.Chmod(p(name), mode)) // past the umask
	}
	for name, mode := range map[string]os.FileMode{"a.tar": 0o644, "A.TAR": 0o644, "b.tar.gz": 0o644, "c.GZ": 0o644,
		"sp ace.tar": 0o644, "e.txt": 0o644, "su": 0o755 | os.ModeSetuid, "sg": 0o755 | os.ModeSetgid, "x": 0o755, "hl": 0o644} {
		must(os.WriteFile(p(name), nil, 0o644))
		must(os.Chmod(p(name), mode))
	}
	must(os.Link(p("hl"), p("hl2")))
	for l, target := range map[string]string{"lnk": "a.tar", "dlnk": "d", "dang": "nowhere"} {
		must(os.Symlink(target, p(l)))
	}
	must(unix.Mkfifo(p("fifo"), 0o644))
	if setcap, ok := testtool.Want(t, "setcap", "libcap2-bin"); ok {
		must(os.WriteFile(p("capf"), nil, 0o644))
		must(os.WriteFile(p("capx"), nil, 0o755))
		if out, err := exec.Command(setcap, "cap_net_raw+ep", p("capf"), "cap_net_raw+ep", p("capx")).CombinedOutput(); err != nil {
			t.Fatalf("setcap: %v\n%s", err, out)
		}
		caps = true
	}
	return root, caps
}

// TestColorsAgainstBFS compares gfind -s -color with bfs -S dfs -s
// -color (the same order) on colorBFSCases, with and without -L. bfs
// 2.6.1 writes a directory's path as two runs of the same color (t/,
// then d); bfs 4.1 and gfind write one: "reset, then the directory
// color" is taken out of both before comparing.
func TestColorsAgainstBFS(t *testing.T) {
	if gnuMode() {
		t.Skip("gfind's -color")
	}
	bfs := testtool.Need(t, "bfs", "bfs")
	gfind := gfindBin(t)
	root, caps := makeColorTree(t)
	for _, value := range colorBFSCases {
		c, err := lscolors.Parse(value)
		if err != nil {
			t.Fatalf("LS_COLORS=%q: %v", value, err)
		}
		split := ""
		if dir := c.Color(lscolors.IndDir); dir != nil {
			split = string(c.Reset()) + string(dir)
		}
		norm := func(s string) []string {
			if split != "" {
				s = strings.ReplaceAll(s, split, "")
			}
			return strings.Split(s, "\n")
		}
		for _, follow := range [][]string{nil, {"-L"}} {
			env := []string{"LS_COLORS=" + value}
			args := append(append([]string{}, follow...), "t", "-color")
			want := runFindEnv(t, root, env, bfs, "bfs", append([]string{"-S", "dfs", "-s"}, args...))
			got := runFindEnv(t, root, env, gfind, "gfind", append([]string{"-s"}, args...))
			if want.code != got.code || want.stderr != got.stderr {
				t.Errorf("LS_COLORS=%q %q: gfind exits %d, %q; bfs %d, %q", value, follow, got.code, got.stderr, want.code, want.stderr)
			}
			if !strings.Contains(want.stdout, "\x1b[") && !strings.Contains(want.stdout, "<") {
				t.Errorf("LS_COLORS=%q %q: bfs colored nothing: %q", value, follow, want.stdout)
			}
			if caps && value == "ca=1:ex=3" && !strings.Contains(want.stdout, "\x1b[1mcapx") {
				t.Errorf("bfs does not color capx by its capabilities: %q", want.stdout)
			}
			if w, g := norm(want.stdout), norm(got.stdout); strings.Join(w, "\n") != strings.Join(g, "\n") {
				diffLines(t, "LS_COLORS="+value+" "+strings.Join(follow, " "), quoteAll(w), quoteAll(g))
			}
		}
	}
}
