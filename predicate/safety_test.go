package predicate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
)

// TestPreserveRoot: a -delete that nothing before it can make false, on a
// starting point that is the root directory, is refused at parse time
// unless NoPreserveRoot; everything else parses as before. Nothing here
// walks: the refused commands must never run.
func TestPreserveRoot(t *testing.T) {
	tmp := t.TempDir()
	link := filepath.Join(tmp, "slash")
	if err := os.Symlink("/", link); err != nil {
		t.Fatal(err)
	}
	const hint = "use --no-preserve-root to override this failsafe"
	refused := func(root string) string {
		msg := "it is dangerous to run -delete on every file under '" + root + "'"
		if root != "/" {
			msg += " (same as '/')"
		}
		return msg
	}
	tests := []struct {
		args    []string
		cfg     Config
		refused string // the starting point named, "" when accepted
	}{
		{[]string{"/", "-delete"}, Config{}, "/"},
		{[]string{"//", "-delete"}, Config{}, "//"},
		{[]string{"///", "-delete"}, Config{}, "///"},
		{[]string{"//.", "-delete"}, Config{}, "//."},
		{[]string{".//", "/", "-delete"}, Config{}, "/"},
		{[]string{"/.", "-delete"}, Config{}, "/."},
		{[]string{"/..", "-delete"}, Config{}, "/.."},
		{[]string{"/../.", "-depth", "-delete"}, Config{}, "/../."},
		{[]string{"/", "-print", "-delete"}, Config{}, "/"},
		{[]string{"/", "-true", "-maxdepth", "3", "-delete"}, Config{}, "/"},
		{[]string{"/", "-delete", ",", "-print"}, Config{}, "/"},
		{[]string{"/", "-delete", "-o", "-print"}, Config{}, "/"},
		{[]string{"/", "!", "-delete"}, Config{}, "/"},
		{[]string{"/", "(", "-delete", ")"}, Config{}, "/"},
		{[]string{"/", "-false", ",", "-delete"}, Config{}, "/"},
		{[]string{tmp, "/", "-delete"}, Config{}, "/"}, // any starting point
		{[]string{link, "-delete"}, Config{Follow: walker.FollowAll}, link},
		{[]string{link, "-delete"}, Config{Follow: walker.FollowRoots}, link},
		// Accepted.
		{[]string{link, "-delete"}, Config{}, ""}, // -P: the link itself
		{[]string{"/", "-delete"}, Config{NoPreserveRoot: true}, ""},
		{[]string{"/", "-delete"}, Config{DryRun: true}, ""},
		{[]string{"/", "-delete-dry-run"}, Config{}, ""},
		{[]string{"/", "-name", "x", "-delete"}, Config{}, ""},
		{[]string{"/", "-type", "f", "-delete"}, Config{}, ""},
		{[]string{"/", "-print", "-o", "-delete"}, Config{}, ""},
		{[]string{"/", "-false", "-delete"}, Config{}, ""},
		{[]string{"/", "-print"}, Config{}, ""},
		{[]string{"/tmp", "-delete"}, Config{}, ""},
		{[]string{tmp, "-delete"}, Config{}, ""},
		{[]string{"/nonexistent-gfind-test", "-delete"}, Config{}, ""},
	}
	for _, tt := range tests {
		_, err := Parse(tt.args, tt.cfg)
		name := fmt.Sprintf("%q %+v", tt.args, tt.cfg.NoPreserveRoot)
		if tt.refused == "" {
			if err != nil {
				t.Errorf("%s: %v, want it accepted", name, err)
			}
			continue
		}
		pe, ok := err.(*ParseError)
		if !ok || pe.Msg != refused(tt.refused) || pe.Hint != hint {
			t.Errorf("%s: error %#v, want %q + %q", name, err, refused(tt.refused), hint)
		}
	}
}

// TestPreserveRootFiles0: the starting points of -files0-from's list are
// refused as they are read, like the command line's: the names before
// the root directory are handed to the walk, the root directory and the
// names after it are not. Nothing here walks.
func TestPreserveRootFiles0(t *testing.T) {
	list := filepath.Join(t.TempDir(), "list")
	if err := os.WriteFile(list, []byte("a\x00///\x00b\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args    []string
		cfg     Config
		roots   []string
		refused bool
	}{
		{[]string{"-files0-from", list, "-delete"}, Config{}, []string{"a"}, true},
		{[]string{"-files0-from", list, "-print", "-delete"}, Config{}, []string{"a"}, true},
		{[]string{"-files0-from", list, "-name", "x", "-delete"}, Config{}, []string{"a", "///", "b"}, false},
		{[]string{"-files0-from", list, "-delete"}, Config{NoPreserveRoot: true}, []string{"a", "///", "b"}, false},
		{[]string{"-files0-from", list, "-delete-dry-run"}, Config{}, []string{"a", "///", "b"}, false},
		{[]string{"-files0-from", list, "-print"}, Config{}, []string{"a", "///", "b"}, false},
	}
	for _, tt := range tests {
		cmd, err := Parse(tt.args, tt.cfg)
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		var stderr strings.Builder
		diag := output.NewDiagStyle("gfind", &stderr, output.StyleC)
		next := cmd.NextRoot(diag)
		var roots []string
		for r, ok := next(); ok; r, ok = next() {
			roots = append(roots, r)
		}
		cmd.Close()
		if !slices.Equal(roots, tt.roots) {
			t.Errorf("%q %+v: roots %q, want %q", tt.args, tt.cfg.NoPreserveRoot, roots, tt.roots)
		}
		want := ""
		if tt.refused {
			want = "gfind: it is dangerous to run -delete on every file under '///' (same as '/')\n" +
				"gfind: use --no-preserve-root to override this failsafe\n"
		}
		if stderr.String() != want || diag.Failed() != tt.refused {
			t.Errorf("%q %+v: stderr %q (failed %v), want %q", tt.args, tt.cfg.NoPreserveRoot, stderr.String(), diag.Failed(), want)
		}
	}
}

// swapTree makes root/a/b/{f1,f2}, root/keep and
// outside/{f1,f2,x/f3,b/f1,b/f2}: the names a redirected -delete or
// -exec would reach through a link from root/a or root/a/b.
func swapTree(t *testing.T) (root, outside string) {
	root, outside = t.TempDir(), t.TempDir()
	for _, d := range []string{root + "/a/b", outside + "/x", outside + "/b"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{root + "/a/b/f1", root + "/a/b/f2", root + "/keep", outside + "/f1", outside + "/f2", outside + "/x/f3", outside + "/b/f1", outside + "/b/f2"} {
		if err := os.WriteFile(f, []byte("data"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

// outsideFiles lists what is left under outside.
func outsideFiles(t *testing.T, outside string) []string {
	var got []string
	filepath.Walk(outside, func(p string, _ os.FileInfo, err error) error {
		if err == nil {
			got = append(got, strings.TrimPrefix(p, outside))
		}
		return nil
	})
	return got
}

// TestDeleteSwappedAncestor: an ancestor renamed away and replaced by a
// link to a directory outside the tree, between the visit of a parent
// (its read) and the deletion of its children, cannot redirect -delete:
// it unlinks relative to the descriptor of the directory it read, so
// the files that go are the real ones (now in the renamed directory) and
// the outside files stay.
func TestDeleteSwappedAncestor(t *testing.T) {
	for _, workers := range []int{1, 4} {
		root, outside := swapTree(t)
		before := outsideFiles(t, outside)
		cmd, err := Parse([]string{root, "-path", "*/a/b/*", "-delete"}, Config{})
		if err != nil {
			t.Fatal(err)
		}
		var msg strings.Builder
		diag := output.NewDiagStyle("gfind", &msg, output.StyleC)
		devnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		sink := output.NewSink(devnull, diag, output.WithTTY(false))
		var swapped atomic.Bool
		_, err = walkStates(cmd, sink, diag, workers, func(e *walker.Entry) {
			if strings.HasPrefix(string(e.Path), root+"/a/b/") && swapped.CompareAndSwap(false, true) {
				// root/a/b is read; its children are about to go.
				if err := os.Rename(root+"/a", root+"/a.moved"); err != nil {
					t.Error(err)
				}
				if err := os.Symlink(outside, root+"/a"); err != nil {
					t.Error(err)
				}
			}
		})
		devnull.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !swapped.Load() {
			t.Fatal("the swap never happened")
		}
		if after := outsideFiles(t, outside); !slices.Equal(before, after) {
			t.Errorf("workers=%d: outside files %q, want %q untouched", workers, after, before)
		}
		if left, _ := os.ReadDir(root + "/a.moved/b"); len(left) != 0 {
			t.Errorf("workers=%d: %v left in the real directory, want f1 and f2 deleted", workers, left)
		}
		if msg.String() != "" {
			t.Errorf("workers=%d: stderr %q", workers, msg.String())
		}
	}
}
