package predicate

// The tests here make their race deterministic with the walker's seams
// (internal/seam: BeforeOpen, BeforePiece), which the walker
// defines on Linux only (seam_linux.go): they build where those do.

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gfind/gfind/internal/seam"
)

// TestDeleteExecSwappedDirectory: a directory replaced, after its parent
// was read and before it is opened, by a link to an outside directory or
// by an outside directory renamed in: -delete and -exec touch nothing of
// the outside files, the directory is reported and the exit status is 1.
// The swap is made deterministic with seam.BeforeOpen.
func TestDeleteExecSwappedDirectory(t *testing.T) {
	swaps := []struct {
		name, wantErr string
		swap          func(root, outside string) error
	}{
		{"symlink", "Not a directory", func(root, outside string) error {
			if err := os.Rename(root+"/a/b", root+"/b.moved"); err != nil {
				return err
			}
			return os.Symlink(outside, root+"/a/b")
		}},
		{"rename", "directory changed during the walk", func(root, outside string) error {
			if err := os.Rename(root+"/a/b", root+"/b.moved"); err != nil {
				return err
			}
			return os.Rename(outside+"/x", root+"/a/b")
		}},
	}
	actions := [][]string{
		{"-delete"},
		{"-exec", "echo", "{}", ";"},
		{"-depth", "-exec", "echo", "{}", "+"},
	}
	for _, sw := range swaps {
		for _, act := range actions {
			for _, workers := range []int{1, 4} {
				t.Run(fmt.Sprintf("%s/%s/j%d", sw.name, act[0], workers), func(t *testing.T) {
					root, outside := swapTree(t)
					before := outsideFiles(t, outside)
					var done atomic.Bool
					defer seam.BeforeOpen.Set(func(p string) {
						if p == root+"/a/b" && done.CompareAndSwap(false, true) {
							if err := sw.swap(root, outside); err != nil {
								t.Error(err)
							}
						}
					})()
					r := runCommand(t, workers, "", append([]string{root}, act...)...)
					if !done.Load() {
						t.Fatal("the swap never happened")
					}
					after := outsideFiles(t, outside)
					if sw.name == "rename" {
						// x was moved into the tree, whole.
						before = slices.DeleteFunc(before, func(s string) bool { return strings.HasPrefix(s, "/x") })
					}
					if !slices.Equal(before, after) {
						t.Errorf("outside files %q, want %q", after, before)
					}
					for _, line := range strings.Split(r.stdout, "\n") {
						if strings.HasPrefix(line, root+"/a/b/") {
							t.Errorf("listed %q, below the swapped directory", line)
						}
					}
					if act[0] == "-delete" {
						// Nothing that replaced b lost a file.
						if sw.name == "rename" {
							if _, err := os.Stat(root + "/a/b/f3"); err != nil {
								t.Errorf("f3 of the directory moved in: %v", err)
							}
						}
					}
					if !strings.Contains(r.stderr, "gfind: '"+root+"/a/b': "+sw.wantErr+"\n") || !r.failed {
						t.Errorf("stderr %q, failed %v; want the error %q and exit status 1", r.stderr, r.failed, sw.wantErr)
					}
				})
			}
		}
	}
}
