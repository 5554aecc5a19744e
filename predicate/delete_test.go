package predicate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
)

func TestDeleteParse(t *testing.T) {
	const refused = "The -delete action automatically turns on -depth, but -prune does nothing when -depth is in effect.  If you want to carry on anyway, just explicitly use the -depth option."
	tests := []struct{ args, wantErr string }{
		{"-delete", ""},
		{"-name a -prune -o -delete", refused},
		{"-delete -prune", refused},
		{"-prune , -delete", refused},
		{"-depth -name a -prune -o -delete", ""},
		{"-delete -prune -depth", ""},
		{"-delete -prune )", refused}, // before the expression is built, as GNU
		{"-delete ( -prune", refused},
		{"-delete -prune -foo", "unknown predicate `-foo'"},
	}
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, parseArgs(tt.args)...), Config{})
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr) {
			t.Errorf("%s: error %v, want %q", tt.args, err, tt.wantErr)
			continue
		}
		if err == nil && !cmd.Walk.PostOrder {
			t.Errorf("%s: -delete did not turn -depth on", tt.args)
		}
	}
	cmd, err := Parse([]string{".", "-delete"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if f := cmd.Expr.Facts(); f.Pure() || !f.Prints() || strings.Join(cmd.Expr.Args(), " ") != "-delete" {
		t.Errorf("-delete: %+v, %q", f, cmd.Expr.Args())
	}
}

func TestDelete(t *testing.T) {
	root := smallTree(t)
	if err := os.Symlink("a", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	// A non-empty directory: one message, false, and the walk goes on.
	r := runCommand(t, 2, "", root, "-name", "[ab]", "-delete", "-o", "-print")
	if want := "gfind: cannot delete '" + root + "/a': Directory not empty\ngfind: cannot delete '" + root + "/b': Directory not empty\n"; strings.Join(sortedLines(r.stderr), "\n")+"\n" != want || !r.failed {
		t.Errorf("stderr %q, failed %v", r.stderr, r.failed)
	}
	if got := sortedLines(r.stdout); len(got) != 8 {
		t.Errorf("stdout %q: want the 8 files, the two directories that could not be deleted among them", got)
	}
	// The rest goes, the link itself (not its target) too.
	r = runCommand(t, 2, "", filepath.Join(root, "a"), filepath.Join(root, "link"), filepath.Join(root, "b"), "-delete")
	if r.stderr != "" || r.failed {
		t.Errorf("stderr %q", r.stderr)
	}
	left, _ := os.ReadDir(root)
	if len(left) != 1 || left[0].Name() != "4" {
		t.Errorf("left %v, want only 4", left)
	}
}

// TestDeleteVanished: a file that is gone when -delete comes to it is an
// error, unless -ignore_readdir_race is given.
func TestDeleteVanished(t *testing.T) {
	for _, race := range []bool{false, true} {
		root := smallTree(t)
		args := []string{root, "-name", "3", "-delete"}
		if race {
			args = append(args, "-ignore_readdir_race")
		}
		cmd, err := Parse(args, Config{})
		if err != nil {
			t.Fatal(err)
		}
		var msg strings.Builder
		diag := output.NewDiagStyle("gfind", &msg, output.StyleC)
		devnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		s := NewState(cmd, output.NewSink(devnull, diag), diag)
		var result []bool
		err = walker.Walk(cmd.Roots, cmd.Walk, func(e *walker.Entry) walker.Action {
			if string(e.Name()) == "3" {
				os.Remove(string(e.Path)) // someone else was faster
				result = append(result, cmd.Expr.Eval(e, s))
			}
			return walker.Continue
		})
		devnull.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := "gfind: cannot delete '" + root + "/b/3': No such file or directory\n"
		if race {
			want = ""
		}
		if len(result) != 1 || result[0] != race || msg.String() != want {
			t.Errorf("-ignore_readdir_race %v: %v, %q; want %v, %q", race, result, msg.String(), race, want)
		}
	}
}

// dryTree makes a tree where some directories empty out under -delete
// and some do not, depending on the expression.
func dryTree(t *testing.T) string {
	root := t.TempDir()
	for _, d := range []string{"a/b/c", "a/e", "keep/sub", "empty"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a/b/c/x.o", "a/b/y.o", "a/e/z.c", "keep/sub/w.o", "keep/v.c", "top.o"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a", filepath.Join(root, "link.o")); err != nil {
		t.Fatal(err)
	}
	return root
}

// listTree returns root and every path under it, sorted.
func listTree(root string) []string {
	var out []string
	filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err == nil {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// TestDeleteDryRun: -delete-dry-run prints exactly the files -delete
// removes on the same tree, with the same messages and exit status for
// the directories that would not be empty, and removes nothing.
func TestDeleteDryRun(t *testing.T) {
	exprs := [][]string{
		{"-delete"},
		{"-name", "*.o", "-delete"},
		{"-name", "[abcy]*", "-delete"}, // a and b keep contents: Directory not empty
		{"-type", "f", "-delete", "-o", "-type", "d", "-name", "*e*", "-delete"},
		{"-path", "*/keep*", "-prune", "-o", "-depth", "-delete"},
		{"-mindepth", "2", "-delete"},
	}
	for _, expr := range exprs {
		for _, workers := range []int{1, 4} {
			name := fmt.Sprintf("%q/j%d", expr, workers)
			real, dry := dryTree(t), dryTree(t)
			before := listTree(real)
			rr := runCommand(t, workers, "", append([]string{real}, expr...)...)
			var removed []string
			for _, p := range before {
				if _, err := os.Lstat(p); err != nil {
					removed = append(removed, strings.TrimPrefix(p, real))
				}
			}
			dexpr := slices.Clone(expr)
			for i, a := range dexpr {
				if a == "-delete" {
					dexpr[i] = "-delete-dry-run"
				}
			}
			dbefore := listTree(dry)
			dr := runCommand(t, workers, "", append([]string{dry}, dexpr...)...)
			if after := listTree(dry); !slices.Equal(after, dbefore) {
				t.Errorf("%s: the dry run changed the tree: %q", name, after)
			}
			var printed []string
			for _, l := range strings.Split(strings.TrimSuffix(dr.stdout, "\n"), "\n") {
				if l != "" {
					printed = append(printed, strings.TrimPrefix(l, dry))
				}
			}
			slices.Sort(printed)
			if !slices.Equal(printed, removed) {
				t.Errorf("%s: dry run printed %q, -delete removed %q", name, printed, removed)
			}
			if len(removed) == 0 {
				t.Errorf("%s: nothing removed: a useless case", name)
			}
			rmsg := sortedLines(strings.ReplaceAll(rr.stderr, real, "ROOT"))
			dmsg := sortedLines(strings.ReplaceAll(dr.stderr, dry, "ROOT"))
			if !slices.Equal(rmsg, dmsg) || rr.failed != dr.failed {
				t.Errorf("%s: dry run stderr %q (failed %v), -delete %q (%v)", name, dmsg, dr.failed, rmsg, rr.failed)
			}
		}
	}
}

// TestDryRunConfig: --dry-run (Config.DryRun) turns every -delete into
// -delete-dry-run, which keeps -delete's parse rules (-depth, -prune).
func TestDryRunConfig(t *testing.T) {
	for _, tt := range []struct {
		args []string
		cfg  Config
		want string
	}{
		{[]string{".", "-delete"}, Config{}, "-delete"},
		{[]string{".", "-delete"}, Config{DryRun: true}, "-delete-dry-run"},
		{[]string{".", "-delete-dry-run"}, Config{}, "-delete-dry-run"},
	} {
		cmd, err := Parse(tt.args, tt.cfg)
		if err != nil {
			t.Fatal(err)
		}
		n := cmd.Expr.(*deleteNode)
		if got := (n.dry != nil); got != (tt.want == "-delete-dry-run") || !cmd.Walk.PostOrder {
			t.Errorf("%q %+v: dry %v, PostOrder %v", tt.args, tt.cfg.DryRun, got, cmd.Walk.PostOrder)
		}
	}
	if _, err := Parse([]string{".", "-prune", "-delete-dry-run"}, Config{}); err == nil {
		t.Error("-prune -delete-dry-run accepted, want -delete's refusal")
	}
	root := dryTree(t)
	before := listTree(root)
	r := runCommand(t, 1, "", root, "-name", "*.o", "-delete-dry-run")
	if after := listTree(root); !slices.Equal(before, after) || !strings.Contains(r.stdout, root+"/top.o\n") {
		t.Errorf("stdout %q; tree %q", r.stdout, after)
	}
}
