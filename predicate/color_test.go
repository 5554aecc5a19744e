package predicate

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/lscolors"
	"github.com/gfind/gfind/internal/testtree"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// tagColors gives every key a readable color (lc and rc empty), so that
// the color a file gets names the key that chose it.
const tagColors = "lc=:rc=:ec=|:no=00:fi=FI:di=DI:ln=LN:pi=PI:so=SO:bd=BD:cd=CD:or=OR:mi=MI:" +
	"ex=EX:su=SU:sg=SG:st=ST:ow=OW:tw=TW:mh=MH:*.go=GO:*.TXT=TXT"

// cheapColors colors no key that needs a file's status.
const cheapColors = "lc=:rc=:ec=|:fi=FI:di=DI:ln=LN:pi=PI:so=SO:or=00:mi=MI:" +
	"ex=00:su=00:sg=00:st=00:ow=00:tw=00:mh=00:ca=00:*.go=GO"

// colorState returns a State for a walk with follow whose output goes
// to a file, and a function returning what was written.
func colorState(t *testing.T, follow walker.Follow) (*State, func() string) {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	diag := output.NewDiagStyle("gfind", io.Discard, output.StyleC)
	sink := output.NewSink(f, diag, output.WithTTY(false))
	s := NewState(&Command{Walk: walker.Options{Follow: follow}}, sink, diag)
	return s, func() string {
		s.Out.Flush()
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

// colorsOf walks root serially and returns the color of every file by
// its path relative to root. before, when set, runs on each entry first.
func colorsOf(t *testing.T, root, lsColors string, follow walker.Follow, before func(*walker.Entry)) map[string]string {
	t.Helper()
	cz, err := newColorizer(lsColors, "")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := colorState(t, follow)
	got := map[string]string{}
	err = walker.Walk([]string{root}, walker.Options{Workers: 1, Follow: follow, MaxDepth: -1}, func(e *walker.Entry) walker.Action {
		if e.Err != nil {
			return walker.Continue
		}
		if before != nil {
			before(e)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(string(e.Path), root), "/")
		got[rel] = string(cz.nameColor(e, s.follows(e)))
		return walker.Continue
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func checkColors(t *testing.T, got map[string]string, want map[string]string) {
	t.Helper()
	for path, w := range want {
		if g, ok := got[path]; !ok {
			t.Errorf("%s: not visited", path)
		} else if g != w {
			t.Errorf("%s: color %q, want %q", path, g, w)
		}
	}
}

func TestColorSelection(t *testing.T) {
	root := testtree.Make(t, testtree.Basic, testtree.Links, testtree.Meta)
	got := colorsOf(t, root, tagColors, walker.FollowNever, nil)
	checkColors(t, got, map[string]string{
		"":                       "DI",
		"basic/a":                "DI",
		"basic/x.go":             "GO",
		"basic/noext":            "FI",
		"basic/exec.sh":          "EX",
		"basic/hard":             "MH", // before the suffix
		"basic/a/a.txt":          "MH",
		"basic/a/A.TXT":          "TXT",
		"basic/a/b/b.txt":        "TXT", // *.TXT is the only entry: any case
		"basic/fifo":             "PI",
		"basic/sock":             "SO",
		"meta/mode/setuid":       "SU",
		"meta/mode/setgid":       "SG",
		"meta/mode/all":          "SU",
		"meta/mode/m0755":        "EX",
		"meta/mode/m0644":        "FI",
		"meta/mode/sticky":       "TW",
		"meta/mode/sgid_dir":     "DI",
		"meta/links/three":       "MH",
		"links/to_file":          "LN",
		"links/to_dir":           "LN",
		"links/dangling":         "OR",
		"links/loop":             "OR",
		"links/a":                "OR",
		"links/dir/up":           "LN",
		"meta/sym/to_d0000":      "LN",
		"meta/mode/d0000":        "DI",
		"meta/size/s0":           "FI",
		"meta/sym/dangling":      "OR",
		"meta/sym/to_empty":      "LN",
		"meta/mode/m0777":        "EX",
		"meta/links/sub/three_c": "MH",
	})

	// Under -L the tests see the targets, and so do the colors.
	got = colorsOf(t, filepath.Join(root, "links"), tagColors, walker.FollowAll, nil)
	checkColors(t, got, map[string]string{
		"to_file":  "FI",
		"to_dir":   "DI",
		"chain":    "FI",
		"dangling": "OR", // loop is an error entry under -L: not visited
	})

	// ln=target: a link as the file it points to, orphans as or.
	got = colorsOf(t, filepath.Join(root, "links"), tagColors+":ln=target", walker.FollowNever, nil)
	checkColors(t, got, map[string]string{
		"to_file":  "FI",
		"to_dir":   "DI",
		"chain":    "FI",
		"dangling": "OR",
		"file":     "FI",
	})

	// With or uncolored a dangling link is a link.
	got = colorsOf(t, filepath.Join(root, "links"), tagColors+":or=00", walker.FollowNever, nil)
	checkColors(t, got, map[string]string{"dangling": "LN", "to_file": "LN"})

	// A key set to "00" or "" is unset, and so is fi= (bfs): nothing;
	// fi's built-in "" is the "no" color.
	got = colorsOf(t, filepath.Join(root, "basic"), tagColors+":no=NO:pi=00:fi=", walker.FollowNever, nil)
	checkColors(t, got, map[string]string{"fifo": "", "noext": "", "x.go": "GO"})
	got = colorsOf(t, filepath.Join(root, "basic"), "lc=:rc=:no=NO:di=DI", walker.FollowNever, nil)
	checkColors(t, got, map[string]string{"noext": "NO", "x.go": "NO", "a": "DI"})
}

// TestColorStats proves which entries coloring stats: a file removed
// after the directory was read colors as missing (mi) exactly when its
// color needed its status.
func TestColorStats(t *testing.T) {
	for _, tt := range []struct {
		name, colors string
		want         map[string]string
	}{
		{"no metadata keys", cheapColors, map[string]string{
			"basic/x.go": "GO", "basic/noext": "FI", "basic/exec.sh": "FI", "basic/empty": "DI",
			"links/to_file": "LN", "links/dangling": "LN", "basic/fifo": "PI",
		}},
		{"ex set", cheapColors + ":ex=EX", map[string]string{
			"basic/x.go": "MI", "basic/noext": "MI", "basic/empty": "DI", "links/to_file": "LN",
		}},
		{"mh set", cheapColors + ":mh=MH", map[string]string{"basic/x.go": "MI", "basic/fifo": "PI"}},
		{"ow set", cheapColors + ":ow=OW", map[string]string{"basic/empty": "MI", "basic/x.go": "GO"}},
		{"or set", cheapColors + ":or=OR", map[string]string{"links/to_file": "OR", "basic/x.go": "GO"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := testtree.Make(t, testtree.Basic, testtree.Links)
			got := colorsOf(t, root, tt.colors, walker.FollowNever, func(e *walker.Entry) {
				if e.Depth < 2 || e.Type == walker.TypeUnknown {
					return
				}
				flags := 0
				if e.Type == walker.TypeDir {
					if string(e.Name()) != "empty" {
						return
					}
					flags = unix.AT_REMOVEDIR
				}
				if err := unix.Unlinkat(e.DirFD(), string(e.AtName()), flags); err != nil {
					t.Fatalf("removing %s: %v", e.Path, err)
				}
			})
			checkColors(t, got, tt.want)
		})
	}
}

func TestColorParse(t *testing.T) {
	defer func(f func(string) string) { lookupEnv = f }(lookupEnv)
	lookupEnv = func(k string) string { return map[string]string{"LS_COLORS": "di=01;34"}[k] }
	for _, tt := range []struct {
		color bool
		args  []string
		want  string // the type of the first print node
	}{
		{false, nil, "*predicate.printNode"},
		{true, nil, "*predicate.colorPrintNode"},
		{true, []string{"-nocolor"}, "*predicate.printNode"},
		{false, []string{"-color"}, "*predicate.colorPrintNode"},
		{false, []string{"-print", "-color"}, "*predicate.colorPrintNode"},
		{true, []string{"-print", "-nocolor"}, "*predicate.printNode"},
		{false, []string{"-color", "-nocolor"}, "*predicate.printNode"},
		{false, []string{"-nocolor", "-color"}, "*predicate.colorPrintNode"},
		{true, []string{"-print0"}, "*predicate.printNode"},
	} {
		cmd, err := Parse(append([]string{"."}, tt.args...), Config{Color: tt.color})
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		var got string
		forEachNode(cmd.Expr, func(n Node) {
			switch n.(type) {
			case *printNode, *colorPrintNode:
				if got == "" {
					got = typeName(n)
				}
			}
		})
		if got != tt.want {
			t.Errorf("Color=%v %q: print node %s, want %s", tt.color, tt.args, got, tt.want)
		}
		if a := strings.Join(cmd.Expr.Args(), " "); strings.Contains(a, "colorPrint") {
			t.Errorf("Args() = %q", a)
		}
	}

	// -ls on standard output is colored, -fls is not.
	cmd, err := Parse([]string{".", "-ls", "-fls", filepath.Join(t.TempDir(), "f")}, Config{Color: true})
	if err != nil {
		t.Fatal(err)
	}
	var colored, plain int
	forEachNode(cmd.Expr, func(n Node) {
		if ls, ok := n.(*lsNode); ok {
			if ls.color != nil {
				colored++
			} else {
				plain++
			}
		}
	})
	cmd.Close()
	if colored != 1 || plain != 1 {
		t.Errorf("%d colored and %d plain -ls/-fls, want 1 and 1", colored, plain)
	}
}

func typeName(n Node) string {
	switch n.(type) {
	case *printNode:
		return "*predicate.printNode"
	case *colorPrintNode:
		return "*predicate.colorPrintNode"
	}
	return "?"
}

func TestColorUnparsable(t *testing.T) {
	defer func(f func(string) string) { lookupEnv = f }(lookupEnv)
	for _, tt := range []struct {
		value string
		warns []string
	}{
		{"di=1:zz=2", nil}, // bfs ignores a key it does not know
		{"di=^", []string{"unparsable value for LS_COLORS environment variable"}},
		{"*.go:di=1", nil},
		{"*.go", []string{"unparsable value for LS_COLORS environment variable"}},
		{"di=1", nil},
	} {
		lookupEnv = func(k string) string { return map[string]string{"LS_COLORS": tt.value}[k] }
		var warns []string
		cmd, err := Parse([]string{"."}, Config{Color: true, Warn: func(m string) { warns = append(warns, m) }})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(warns, "\n") != strings.Join(tt.warns, "\n") {
			t.Errorf("LS_COLORS=%q: warnings %q, want %q", tt.value, warns, tt.warns)
		}
		_, colored := cmd.Expr.(*colorPrintNode)
		if colored != (tt.warns == nil) {
			t.Errorf("LS_COLORS=%q: colored %v", tt.value, colored)
		}
	}
}

func TestColorPrintEval(t *testing.T) {
	cz, err := newColorizer("di=34:*.go=32", "")
	if err != nil {
		t.Fatal(err)
	}
	s, contents := colorState(t, walker.FollowNever)
	n := &colorPrintNode{op: "-print", cz: cz}
	reg := &unix.Stat_t{Mode: unix.S_IFREG | 0o755, Nlink: 1}
	dir := &unix.Stat_t{Mode: unix.S_IFDIR | 0o755, Nlink: 2}
	n.Eval(walker.Synthetic("./src/main.go", 2, walker.TypeRegular, reg, nil), s)
	n.Eval(walker.Synthetic("./src", 1, walker.TypeDir, dir, nil), s)
	n.Eval(walker.Synthetic(".", 0, walker.TypeDir, dir, nil), s)
	want := "\033[34m./src/\033[0m\033[01;32mmain.go\033[0m\n" + // ex from ls's built-ins
		"\033[34m./src\033[0m\n" +
		"\033[34m.\033[0m\n"
	if got := contents(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestColorPrintNoAllocs: a colored -print of a regular file with no
// suffix match, when no key needs the status, allocates nothing.
func TestColorPrintNoAllocs(t *testing.T) {
	cz, err := newColorizer(lscolors.Dircolors+"ex=00:su=00:sg=00", "")
	if err != nil {
		t.Fatal(err)
	}
	if cz.regStat {
		t.Fatal("regular files need a stat")
	}
	s, _ := colorState(t, walker.FollowNever)
	n := &colorPrintNode{op: "-print", cz: cz}
	e := walker.Synthetic("./some/dir/Makefile", 3, walker.TypeRegular, &unix.Stat_t{Mode: unix.S_IFREG | 0o644}, nil)
	if a := testing.AllocsPerRun(1000, func() { n.Eval(e, s) }); a != 0 {
		t.Errorf("%v allocations per colored -print", a)
	}
}

func BenchmarkColorPrint(b *testing.B) {
	cz, err := newColorizer(lscolors.Dircolors+"ex=00:su=00:sg=00", "")
	if err != nil {
		b.Fatal(err)
	}
	devnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	diag := output.NewDiagStyle("gfind", io.Discard, output.StyleC)
	s := NewState(&Command{}, output.NewSink(devnull, diag, output.WithTTY(false)), diag)
	st := &unix.Stat_t{Mode: unix.S_IFREG | 0o644}
	for _, name := range []string{"Makefile", "main.go", "archive.tar.gz"} {
		e := walker.Synthetic("./some/dir/"+name, 3, walker.TypeRegular, st, nil)
		b.Run(name, func(b *testing.B) {
			n := &colorPrintNode{op: "-print", cz: cz}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				n.Eval(e, s)
			}
		})
	}
}

// TestColorLinkTarget: a link's target is colored as a path to what it
// leads to; a dangling one as far as it exists, the rest in mi (bfs
// 4.1, whose bytes cmd/gfind's TestColorsAgainstBFS41 compares).
func TestColorLinkTarget(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(dir, "dd"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "f"), nil, 0o644))
	must(os.WriteFile(filepath.Join(dir, "x"), nil, 0o755))
	want := map[string]string{
		"f/x/y":         "FIf|MI/x/y|",
		"dd/nope/z":     "DIdd/|MInope/z|",
		"nope/a/b":      "MInope/a/b|",
		"/nonexistent/": "DI/|MInonexistent/|",
		"dd//nope":      "DIdd//|MInope|",
		"dd/../f/q":     "DIdd/../|FIf|MI/q|",
		"x/":            "EXx|MI/|",
		"f":             "FIf|",
		"dd":            "DIdd|",
		"./dd/":         "DI./dd/|",
	}
	i := 0
	names := map[string]string{}
	for target := range want {
		name := "l" + strconv.Itoa(i)
		i++
		names[name] = target
		must(os.Symlink(target, filepath.Join(dir, name)))
	}
	cz, err := newColorizer("lc=:rc=:ec=|:di=DI:fi=FI:ex=EX:mi=MI:or=OR", "")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	err = walker.Walk([]string{dir}, walker.Options{Workers: 1, MaxDepth: -1}, func(e *walker.Entry) walker.Action {
		target, ok := names[string(e.Name())]
		if !ok || e.Err != nil {
			return walker.Continue
		}
		seen++
		got := cz.appendTarget(nil, e, []byte(target), func(dst, text []byte) []byte { return append(dst, text...) })
		if string(got) != want[target] {
			t.Errorf("-> %s: %q, want %q", target, got, want[target])
		}
		return walker.Continue
	})
	must(err)
	if seen != len(want) {
		t.Errorf("%d links seen, want %d", seen, len(want))
	}
}
