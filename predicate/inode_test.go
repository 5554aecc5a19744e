package predicate

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

func TestLinksInumEval(t *testing.T) {
	s := newTestState()
	for _, tt := range []struct {
		args       []string
		nlink, ino uint64
		want       bool
	}{
		{[]string{"-links", "1"}, 1, 5, true},
		{[]string{"-links", "1"}, 2, 5, false},
		{[]string{"-links", "+1"}, 2, 5, true},
		{[]string{"-links", "-2"}, 1, 5, true},
		{[]string{"-links", "-2"}, 2, 5, false},
		{[]string{"-links", "-1"}, 1, 5, false},
		{[]string{"-inum", "5"}, 1, 5, true},
		{[]string{"-inum", "+5"}, 1, 5, false},
		{[]string{"-inum", "-6"}, 1, 5, true},
		{[]string{"-inum", "18446744073709551615"}, 1, 1<<64 - 1, true},
	} {
		n := parseOne(t, tt.args...)
		st := &unix.Stat_t{Mode: reg | 0o644, Ino: tt.ino}
		reflect.ValueOf(&st.Nlink).Elem().SetUint(tt.nlink) // uint64 or uint32, by platform
		if got := n.Eval(walker.Synthetic("f", 1, walker.TypeRegular, st, nil), s); got != tt.want {
			t.Errorf("%q on nlink %d, ino %d = %v, want %v", tt.args, tt.nlink, tt.ino, got, tt.want)
		}
	}
}

// walkNames walks dir (depth 1 only) with the follow mode and returns
// the names for which n is true, and whether an error was reported.
func walkNames(t *testing.T, dir string, follow walker.Follow, n Node) ([]string, bool) {
	t.Helper()
	s := newTestState()
	s.follow = follow
	var got []string
	err := walker.Walk([]string{dir}, walker.Options{Workers: 1, MinDepth: 1, MaxDepth: 1, Follow: follow}, func(e *walker.Entry) walker.Action {
		if e.Err == nil {
			if n.Eval(e, s) {
				got = append(got, string(e.Name()))
			}
		}
		return walker.Continue
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got, s.Diag.Failed()
}

func TestSamefile(t *testing.T) {
	tmp := t.TempDir()
	p := func(name string) string { return filepath.Join(tmp, name) }
	if err := os.WriteFile(p("f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		os.Link(p("f"), p("hard")),
		os.Symlink("f", p("sym")),
		os.Symlink("nowhere", p("dangling")),
		os.Symlink("loop", p("loop")),
		os.WriteFile(p("other"), nil, 0o644),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		follow walker.Follow
		args   []string
		want   []string
		err    string
	}{
		{walker.FollowNever, []string{"-samefile", p("f")}, []string{"f", "hard"}, ""},
		{walker.FollowNever, []string{"-samefile", p("sym")}, []string{"sym"}, ""},
		{walker.FollowAll, []string{"-samefile", p("f")}, []string{"f", "hard", "sym"}, ""},
		{walker.FollowAll, []string{"-samefile", p("sym")}, []string{"f", "hard", "sym"}, ""},
		{walker.FollowRoots, []string{"-samefile", p("sym")}, []string{"f", "hard"}, ""},
		// -follow is positional for the parse-time stat: before it, sym
		// is the link itself, which no file is once links are followed
		// (GNU prints nothing either).
		{walker.FollowNever, []string{"-samefile", p("sym"), "-follow"}, nil, ""},
		{walker.FollowNever, []string{"-follow", "-samefile", p("sym")}, []string{"f", "hard", "sym"}, ""},
		// A dangling link is itself under -L, at parse time too.
		{walker.FollowAll, []string{"-samefile", p("dangling")}, []string{"dangling"}, ""},
		{walker.FollowNever, []string{"-samefile", p("nosuch")}, nil, "'" + p("nosuch") + "': No such file or directory"},
		{walker.FollowNever, []string{"-samefile", ""}, nil, "'': No such file or directory"},
		{walker.FollowAll, []string{"-samefile", p("loop")}, nil, "'" + p("loop") + "': Too many levels of symbolic links"},
		{walker.FollowNever, []string{"-samefile"}, nil, "missing argument to `-samefile'"},
	} {
		cmd, err := Parse(append([]string{"."}, tt.args...), Config{Follow: tt.follow, Quote: output.StyleC.Quote})
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%v %q: error %v, want %q", tt.follow, tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		// The expression without its -print, which would write.
		kids := cmd.Expr.(*andNode).kids
		expr := &andNode{kids: kids[:len(kids)-1]}
		got, failed := walkNames(t, tmp, cmd.Walk.Follow, expr)
		if tt.follow == walker.FollowAll {
			// loop cannot be followed: reported, and not the same file.
			failed = false
		}
		if !slices.Equal(got, tt.want) || failed {
			t.Errorf("%v %q: %q (failed %v), want %q", tt.follow, tt.args, got, failed, tt.want)
		}
	}
}

func TestLinksOnDisk(t *testing.T) {
	tmp := t.TempDir()
	p := func(name string) string { return filepath.Join(tmp, name) }
	if err := os.WriteFile(p("a"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{os.Link(p("a"), p("b")), os.Link(p("a"), p("c")), os.WriteFile(p("one"), nil, 0o644), os.Mkdir(p("d"), 0o755)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var st unix.Stat_t
	if err := unix.Stat(p("one"), &st); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"-links", "3"}, []string{"a", "b", "c"}},
		{[]string{"-links", "+1"}, []string{"a", "b", "c", "d"}},
		{[]string{"-links", "1"}, []string{"one"}},
		{[]string{"-inum", strconv.FormatUint(st.Ino, 10)}, []string{"one"}},
	} {
		got, _ := walkNames(t, tmp, walker.FollowNever, parseOne(t, tt.args...))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.args, got, tt.want)
		}
	}
}
