package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/lscolors"
	"github.com/gfind/gfind/internal/testtool"
	"golang.org/x/sys/unix"
)

// colorBFS41Cases are (environment, arguments) rows on which gfind's
// colored output must be bfs 4.1's, byte for byte: gfind runs with -s
// and bfs with -S dfs -s, so both list the tree in the same order. The
// environment has neither LS_COLORS nor LSCOLORS unless a row sets it.
// Where bfs and GNU differ and GNU has a say, the rows stay off it:
// gfind colors nothing unless asked (bfs colors a terminal by default),
// and an LS_COLORS bfs cannot parse is a warning (bfs stops).
var colorBFS41Cases = []struct {
	name string
	env  []string
	args string
}{
	// LS_COLORS unset or empty: GNU ls's built-in colors, no suffixes.
	{"unset", nil, "t -color"},
	{"empty", []string{"LS_COLORS="}, "t -color"},
	{"unset -L", nil, "-L t -color"},
	{"dircolors", []string{"LS_COLORS=" + lscolors.Dircolors}, "t -color"},
	{"dircolors -L", []string{"LS_COLORS=" + lscolors.Dircolors}, "-L t -color"},

	// A set LS_COLORS alone decides, over the built-in kinds.
	{"one suffix", []string{"LS_COLORS=di=01;34:*.tar=31"}, "t -color"},
	{"case same color", []string{"LS_COLORS=*.tar=31:*.TAR=31"}, "t -color"},
	{"case differs", []string{"LS_COLORS=*.tar=31:*.TAR=32"}, "t -color"},
	{"later suffix wins", []string{"LS_COLORS=*.gz=33:*.tar.gz=34"}, "t -color"},
	{"later shorter wins", []string{"LS_COLORS=*.tar.gz=34:*.gz=33"}, "t -color"},
	{"zeros unset", []string{"LS_COLORS=ex=000:su=0:sg=:*.tar=00"}, "t -color"},
	{"empty suffix is no", []string{"LS_COLORS=no=35:*.tar="}, "t -color"},
	{"fi unset", []string{"LS_COLORS=no=35:fi=00"}, "t -color"},
	{"no for fi", []string{"LS_COLORS=no=01:fi=02:*.tar=03"}, "t -color"},
	{"or mi", []string{"LS_COLORS=or=31:mi=05"}, "t -color"},
	{"or mi -L", []string{"LS_COLORS=or=31:mi=05"}, "-L t -color"},
	{"or 00", []string{"LS_COLORS=ln=01;36:or=00"}, "t -color"},
	{"ln target", []string{"LS_COLORS=ln=target"}, "t -color"},
	{"ln target or", []string{"LS_COLORS=ln=target:or=31"}, "t -color"},
	{"ln target -L", []string{"LS_COLORS=ln=target:or=31"}, "-L t -color"},
	{"modes", []string{"LS_COLORS=su=1:sg=2:ex=3:mh=4"}, "t -color"},
	{"modes fall through", []string{"LS_COLORS=su=00:sg=00:ex=3:mh=4"}, "t -color"},
	{"caps", []string{"LS_COLORS=ca=1:ex=3"}, "t -color"},
	{"dirs", []string{"LS_COLORS=tw=1:ow=2:st=3"}, "t -color"},
	{"dirs fall through", []string{"LS_COLORS=tw=00:ow=2:st=3"}, "t -color"},
	{"di unset", []string{"LS_COLORS=di=00"}, "t -color"},
	{"lc rc rs", []string{"LS_COLORS=rs=7:lc=<:rc=>"}, "t -color"},
	{"ec", []string{"LS_COLORS=ec=E:di=31"}, "t -color"},
	{"rs empty", []string{"LS_COLORS=rs=:di=31"}, "t -color"},
	{"unknown key", []string{"LS_COLORS=di=1:zz=2:*.tar=4"}, "t -color"},
	{"key across colon", []string{"LS_COLORS=di=32:ex:fi=33:ln=35"}, "t -color"},
	{"no equals stops", []string{"LS_COLORS=*.tar=32:ex"}, "t -color"},
	{"escapes", []string{`LS_COLORS=di=\x33\061:*.tar=^[[1m`}, "t -color"},

	// BSD's LSCOLORS, when LS_COLORS is unset or empty.
	{"bsd default", []string{"LSCOLORS=" + lscolors.BSDDefault}, "t -color"},
	{"bsd bold", []string{"LSCOLORS=ExFxCxDxBxEGEDABAGACAD"}, "t -color"},
	{"bsd short", []string{"LSCOLORS=Gx"}, "t -color"},
	{"bsd odd", []string{"LSCOLORS=zzXe1x"}, "t -color"},
	{"bsd empty LS_COLORS", []string{"LS_COLORS=", "LSCOLORS=Ex"}, "t -color"},
	{"bsd under LS_COLORS", []string{"LS_COLORS=di=32", "LSCOLORS=Ex"}, "t -color"},
	{"bsd empty", []string{"LSCOLORS="}, "t -color"},
}

// makeColorTree41 is makeColorTree with a socket and a character
// device besides.
func makeColorTree41(t *testing.T) (root string, caps bool) {
	t.Helper()
	root, caps = makeColorTree(t)
	p := func(name string) string { return filepath.Join(root, "t", name) }
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrUnix{Name: p("sock")}); err != nil {
		t.Fatal(err)
	}
	// A device needs root; without it the row colors one kind less.
	_ = unix.Mknod(p("chr"), unix.S_IFCHR|0o644, int(unix.Mkdev(1, 3)))
	return root, caps
}

// TestColorsAgainstBFS41 runs colorBFS41Cases through gfind and bfs 4.1
// and compares standard output and error byte for byte.
func TestColorsAgainstBFS41(t *testing.T) {
	if gnuMode() {
		t.Skip("gfind's -color")
	}
	bfs := testtool.BFS4(t)
	gfind := gfindBin(t)
	root, _ := makeColorTree41(t)
	for _, tt := range colorBFS41Cases {
		t.Run(tt.name, func(t *testing.T) {
			compareBFS41(t, root, bfs, gfind, tt.env, strings.Fields(tt.args))
		})
	}
}

// compareBFS41 runs gfind -s ARGS and bfs -S dfs -s ARGS in dir with
// env and reports any difference.
func compareBFS41(t *testing.T, dir, bfs, gfind string, env, args []string) {
	t.Helper()
	want := runFindEnv(t, dir, env, bfs, "bfs", append([]string{"-S", "dfs", "-s"}, args...))
	got := runFindEnv(t, dir, env, gfind, "gfind", append([]string{"-s"}, args...))
	if want.code != got.code || want.stderr != got.stderr {
		t.Errorf("%q %q: gfind exits %d, %q; bfs %d, %q", env, args, got.code, got.stderr, want.code, want.stderr)
	}
	if want.stdout != got.stdout {
		diffLines(t, strings.Join(env, " ")+" "+strings.Join(args, " "),
			quoteAll(strings.Split(want.stdout, "\n")), quoteAll(strings.Split(got.stdout, "\n")))
	}
}
