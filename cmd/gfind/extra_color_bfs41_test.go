package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/lscolors"
	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
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
	// No colors unless asked (GNU's default; bfs's through a pipe).
	{"not asked", []string{"LS_COLORS=di=31", "LSCOLORS=Ex"}, "t"},
	{"nocolor", []string{"LS_COLORS=di=31"}, "t -color -nocolor"},

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
	{"smart case chain", []string{"LS_COLORS=*.tar=1:*.TAR=1:*.Tar=2"}, "t -color"},
	{"smart case drops", []string{"LS_COLORS=*.GZ=00:*.gz=:*r.gz=3:*z=4"}, "t -color"},
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

	// A link's target (-ls), and the part of a dangling link's target
	// that is not there, in mi or else or.
	{"ls", nil, "lt t -ls -color"},
	{"ls or mi", []string{"LS_COLORS=or=31:mi=05"}, "lt t -ls -color"},
	{"ls mi", []string{"LS_COLORS=mi=05:*.tar=32"}, "lt -ls -color"},
	{"ls or", []string{"LS_COLORS=or=31:ln=36"}, "lt -ls -color"},
	{"ls ln target", []string{"LS_COLORS=ln=target:mi=05"}, "lt -ls -color"},
	{"ls -L", []string{"LS_COLORS=or=31:mi=05"}, "-L t -ls -color"},
	{"ls root", []string{"LS_COLORS=or=31:mi=05"}, "lt/l10 -ls -color"},
	{"ls root up", []string{"LS_COLORS=or=31:mi=05"}, "lt/m6 -ls -color"},

	// -printf's %p %f %h %H %P %l: colored without flags or width.
	{"printf", []string{"LS_COLORS=or=31:mi=05:*.tar=32"}, `lt t -color -printf [%p|%f|%h|%H|%P|%l|%y|%d]\n`},
	{"printf unset", nil, `lt t -color -printf [%p|%f|%h|%H|%P|%l]\n`},
	{"printf width", []string{"LS_COLORS=*.tar=32"}, `t -color -printf [%10f|%-3h|%5p|%3l|%.2P|%-H]\n`},
	{"printf root file", []string{"LS_COLORS=*.tar=32"}, `t/a.tar -color -printf [%p|%f|%h|%H|%P]\n`},
	{"printf -L", []string{"LS_COLORS=or=31:mi=05:*.tar=32"}, `-L t -color -printf [%p|%f|%P|%l]\n`},
	{"printf nocolor", []string{"LS_COLORS=*.tar=32"}, `t -printf [%p|%f|%h|%H|%P|%l]\n`},

	// Names a terminal must not get raw: $'…' through a pipe.
	{"quoted", []string{"LS_COLORS=*.tar=32:mi=05:or=31"}, "w -color"},
	{"quoted ls", []string{"LS_COLORS=*.tar=32:mi=05:or=31"}, "w -ls -color"},
	{"quoted printf", []string{"LS_COLORS=*.tar=32:mi=05:or=31"}, `w -color -printf %p|%f|%h|%H|%P|%l\n`},
	{"quoted utf8", []string{"LC_ALL=C.UTF-8", "LS_COLORS=*.tar=32:mi=05:or=31"}, "w -color"},
	{"quoted utf8 printf", []string{"LC_ALL=C.UTF-8", "LS_COLORS=*.tar=32:mi=05:or=31"}, `w -color -printf %p|%f|%h|%H|%P|%l\n`},

	// Paths longer than PATH_MAX are colored as short ones.
	{"long", []string{"LS_COLORS=or=31:mi=05:*.tar=32:ow=42:ex=33"}, "long -color"},
	{"long ln target", []string{"LS_COLORS=ln=target:or=31:*.tar=32"}, "long -color"},
	{"long ls", []string{"LS_COLORS=or=31:mi=05:*.tar=32:ow=42:ex=33"}, "long -ls -color"},
	{"long printf", []string{"LS_COLORS=or=31:mi=05:*.tar=32:ex=33"}, `long -color -printf %f|%l|%d\n`},
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
	// A device needs root; without it the rows color one kind less.
	_ = mknod(unix.Mknod, p("chr"), unix.S_IFCHR|0o644, unix.Mkdev(1, 3))

	// lt/ holds links whose targets exist in part: a file (f/x/y), a
	// directory (dd/nope/z), nothing (nope/a/b), the root (/nonexist/q),
	// through .. and links.
	lt := func(name string) string { return filepath.Join(root, "lt", name) }
	for _, d := range []string{"lt", "lt/dd"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"f", "g"} {
		if err := os.WriteFile(lt(f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"l1": "f/x/y", "l2": "dd/nope/z", "l3": "nope/a/b", "l4": "dd/zz", "l5": "/nonexist/q",
		"l6": "f/", "l7": "g/.", "l8": "dd/g/", "l9": "../lt/dd/../f/q", "l10": "dd//nope",
		"m1": "./nope", "m2": "../t/lnk/x", "m3": "../t/dlnk/nope", "m4": "../t/x/y",
		"m5": "../t/dlnk/", "m6": "../t/dang/q", "m7": "../t/dang", "m8": "../t/dlnk",
		"m9": "dd/../nope/", "m10": "../t/a.tar", "m11": "dd",
	} {
		if err := os.Symlink(target, lt(name)); err != nil {
			t.Fatal(err)
		}
	}
	makeLongTree(t, filepath.Join(root, "long"))

	// w/ holds names with control characters and bytes that are not
	// UTF-8, which bfs writes $'…'-quoted through a pipe.
	w := func(name string) string { return filepath.Join(root, "w", name) }
	if err := os.MkdirAll(w("d\x01ir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a\x01b", "e\x1b[31mx.tar", "tab\tz", "nl\ny", "caf\xc3\xa9", "bad\xff", "it's", "sp ace", `back\slash`, "d\x01ir/in.tar"} {
		if err := os.WriteFile(w(name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("tgt\x01/x", w("l\x01nk")); err != nil {
		t.Fatal(err)
	}
	return root, caps
}

// makeLongTree makes dir/d…/d…/… 25 levels of 200-byte names deep, past
// PATH_MAX, and at the bottom an executable x, a.tar, an other-writable
// directory ow, and links lnk (to a.tar), dang (nowhere/q), fl (x/y)
// and up (../d…/nope). It works from directory descriptors, as paths
// that long cannot be opened.
func makeLongTree(t *testing.T, dir string) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(dir, 0o755))
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	must(err)
	seg := strings.Repeat("d", 200)
	for i := 0; i < 25; i++ {
		must(unix.Mkdirat(fd, seg, 0o755))
		next, err := unix.Openat(fd, seg, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		must(err)
		unix.Close(fd)
		fd = next
	}
	defer unix.Close(fd)
	for name, mode := range map[string]uint32{"x": 0o755, "a.tar": 0o644} {
		f, err := unix.Openat(fd, name, unix.O_CREAT|unix.O_WRONLY, mode)
		must(err)
		unix.Close(f)
		must(unix.Fchmodat(fd, name, mode, 0))
	}
	must(unix.Mkdirat(fd, "ow", 0o755))
	must(unix.Fchmodat(fd, "ow", 0o777, 0))
	for name, target := range map[string]string{"lnk": "a.tar", "dang": "nowhere/q", "fl": "x/y", "up": "../" + seg + "/nope"} {
		must(unix.Symlinkat(target, fd, name))
	}
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

// TestColorTerminalGNU: on a terminal a colored name shows what cannot
// be printed as GNU find shows it there ('?'; -ls its escapes), not as
// bfs does ($'…'): with the color sequences taken out, gfind -color's
// bytes on a pseudo-terminal are GNU find's without it.
func TestColorTerminalGNU(t *testing.T) {
	if gnuMode() {
		t.Skip("gfind's -color")
	}
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := testtree.Make(t, testtree.ByteNames)
	for _, locale := range []string{"C", "C.UTF-8"} {
		for _, c := range []string{
			"bytes",
			"bytes -printf %p|%f|%h|%H|%P|%l\\n",
			"bytes -ls",
		} {
			t.Run(locale+" "+c, func(t *testing.T) {
				args := shellWords(c)
				env := append(execEnv(), "LC_ALL="+locale, "LS_COLORS=di=01;34:ex=32:*.txt=35:or=31:mi=05")
				want := runOnPTY(t, root, env, gnu, "find", args)
				got := runOnPTY(t, root, env, gfind, "gfind", append([]string{"-j1", "--color=always"}, args...))
				if !sgr.Match(got) {
					t.Errorf("gfind --color=always colored nothing")
				}
				got = sgr.ReplaceAll(got, nil)
				if !bytes.Equal(want, got) {
					diffLines(t, "terminal", quoteAll(strings.Split(string(want), "\n")), quoteAll(strings.Split(string(got), "\n")))
				}
			})
		}
	}
}

// TestColorsRandomAgainstBFS41 compares gfind and bfs 4.1 on LS_COLORS
// values drawn at random (from a fixed seed, so a failure repeats):
// suffixes that differ in case and length, keys set to values bfs
// treats apart ("", "0", "000", "target"), lc, rc, rs and ec, keys it
// does not know; with -print, -L, -ls and -printf.
func TestColorsRandomAgainstBFS41(t *testing.T) {
	if gnuMode() {
		t.Skip("gfind's -color")
	}
	bfs := testtool.BFS4(t)
	gfind := gfindBin(t)
	root, _ := makeColorTree41(t)
	keys := []string{"no", "fi", "di", "ln", "pi", "so", "bd", "cd", "or", "mi", "ex", "su", "sg", "st", "ow", "tw", "ca", "mh", "rs", "lc", "rc", "ec", "do", "cl", "xx"}
	values := []string{"1", "2", "00", "0", "", "target", "000", "3;4"}
	suffixes := []string{".tar", ".TAR", ".Tar", "r", "R", ".gz", ".GZ", "z", "ar.gz", "x", ""}
	argSets := [][]string{{"lt", "t"}, {"-L", "t"}, {"lt", "-ls"}, {"t", "-printf", `%p|%f|%h|%l\n`}, {"lt", "-printf", `%p|%l|%P\n`}}
	rng := rand.New(rand.NewPCG(41, 4))
	for i := 0; i < 60; i++ {
		var parts []string
		for n := 1 + rng.IntN(8); n > 0; n-- {
			if rng.IntN(3) == 0 {
				parts = append(parts, "*"+suffixes[rng.IntN(len(suffixes))]+"="+values[rng.IntN(4)])
				continue
			}
			k := keys[rng.IntN(len(keys))]
			v := values[rng.IntN(len(values))]
			if (k == "lc" || k == "rc" || k == "ec" || k == "rs") && rng.IntN(2) == 0 {
				v = []string{"<", ">", "", "E"}[rng.IntN(4)]
			}
			parts = append(parts, k+"="+v)
		}
		env := []string{"LS_COLORS=" + strings.Join(parts, ":")}
		args := append(append([]string{}, argSets[rng.IntN(len(argSets))]...), "-color")
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			compareBFS41(t, root, bfs, gfind, env, args)
		})
	}
}

// mknod calls x/sys's Mknod, whose device number is a uint64 on FreeBSD
// and an int elsewhere.
func mknod[D int | uint64](mknod func(string, uint32, D) error, path string, mode uint32, dev uint64) error {
	return mknod(path, mode, D(dev))
}
