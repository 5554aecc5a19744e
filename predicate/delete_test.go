package predicate

import (
	"os"
	"path/filepath"
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
	if f := cmd.Expr.Facts(); f.Pure || !f.Prints || strings.Join(cmd.Expr.Args(), " ") != "-delete" {
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
