package walker

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gfind/gfind/internal/seam"
	"golang.org/x/sys/unix"
)

// swapOnce returns a hook that runs swap the first time the walk is about
// to open path.
func swapOnce(path string, swap func()) func(string) {
	var done atomic.Bool
	return func(p string) {
		if p == path && done.CompareAndSwap(false, true) {
			swap()
		}
	}
}

// swapCases replace root/x, after root was read and before x is opened,
// by something holding files from outside the tree.
var swapCases = []struct {
	name string
	swap func(t *testing.T, root, outside string)
	// errText is the error reported for x; post is whether x still gets
	// its post-order visit (as GNU's FTS_DNR does for a failed open).
	errText string
	post    bool
}{
	{"symlink to an outside directory", func(t *testing.T, root, outside string) {
		must(t, os.Rename(filepath.Join(root, "x"), filepath.Join(root, "x.moved")))
		must(t, os.Symlink(filepath.Join(outside, "d"), filepath.Join(root, "x")))
	}, "Not a directory", true},
	{"outside directory renamed in", func(t *testing.T, root, outside string) {
		must(t, os.Rename(filepath.Join(root, "x"), filepath.Join(root, "x.moved")))
		must(t, os.Rename(filepath.Join(outside, "d"), filepath.Join(root, "x")))
	}, errChanged.Error(), false},
	{"sibling directory renamed over it", func(t *testing.T, root, outside string) {
		must(t, os.Rename(filepath.Join(root, "x"), filepath.Join(root, "x.moved")))
		must(t, os.Rename(filepath.Join(root, "z"), filepath.Join(root, "x")))
	}, errChanged.Error(), false},
}

// TestSwappedDirectory: a directory replaced between the read of its
// parent and its open is reported, and nothing under what replaced it is
// visited, in serial and parallel walks, pre- and post-order. The first
// case is refused by O_NOFOLLOW, the others by the identity check of
// dotCheck/replaced.
func TestSwappedDirectory(t *testing.T) {
	for _, tc := range swapCases {
		for _, workers := range []int{1, 4} {
			for _, post := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/j%d/post=%v", tc.name, workers, post), func(t *testing.T) {
					root, outside := t.TempDir(), t.TempDir()
					mk(t, root, "x/in1", "x/sub/in2", "y/f", "z/zin")
					mk(t, outside, "secret", "d/s2", "d/sd/s3")
					defer seam.BeforeOpen.Set(swapOnce(filepath.Join(root, "x"), func() { tc.swap(t, root, outside) }))()
					rs := collect(t, []string{root}, Options{Workers: workers, MaxDepth: -1, PostOrder: post})
					want := []string{".", "ERR x: " + tc.errText, "x", "y", "y/f", "z", "z/zin"}
					if post && !tc.post {
						want = []string{".", "ERR x: " + tc.errText, "y", "y/f", "z", "z/zin"}
					}
					if tc.name == "sibling directory renamed over it" {
						// z is gone by the time the walk gets to it, or
						// was read before: either way nothing of it is
						// visited under the name x.
						rs = dropZ(root, rs)
						want = dropZRel(want)
					}
					diffLists(t, "visits", want, relPaths(root, rs))
					for _, r := range rs {
						if strings.HasPrefix(r.Path, filepath.Join(root, "x")+"/") {
							t.Errorf("visited %s, below the swapped directory", r.Path)
						}
					}
				})
			}
		}
	}
}

// dropZ and dropZRel remove z and its contents, whose fate depends on
// the order of the walk (z may be walked, or reported gone, before x).
func dropZ(root string, rs []record) []record {
	var out []record
	for _, r := range rs {
		rel, _ := filepath.Rel(root, r.Path)
		if rel != "z" && !strings.HasPrefix(rel, "z/") {
			out = append(out, r)
		}
	}
	return out
}

func dropZRel(want []string) []string {
	var out []string
	for _, w := range want {
		if w != "z" && !strings.HasPrefix(w, "z/") {
			out = append(out, w)
		}
	}
	return out
}

// TestVanishedDirectory: a directory that is gone (ENOENT) when the walk
// comes to open it, after its parent was read, is reported once (or not
// at all under IgnoreReaddirRace, nor visited then, as GNU 4.11) and,
// under PostOrder, still visited after, as GNU visits an FTS_DNR under
// -depth: gone (Lstat says ENOENT)
// and already reported (ReportOnce is false), so that its tests do not
// report it again. A directory that its own visit found gone (a stat
// failed with ENOENT, reported) is not opened, which would report it a
// second time. In every walk mode, deterministically through the hook.
func TestVanishedDirectory(t *testing.T) {
	for _, o := range []Options{{Workers: 1}, {Workers: 4}, {Workers: 1, Sort: true}, {Workers: 4, Sort: true}} {
		for _, post := range []bool{false, true} {
			for _, ignore := range []bool{false, true} {
				for _, inVisit := range []bool{false, true} {
					if inVisit && post {
						continue // no visit comes before the open
					}
					name := fmt.Sprintf("workers=%d,sort=%v,post=%v,ignore=%v,inVisit=%v", o.Workers, o.Sort, post, ignore, inVisit)
					t.Run(name, func(t *testing.T) {
						root := t.TempDir()
						mk(t, root, "v/x", "w/y")
						victim := filepath.Join(root, "v")
						if !inVisit {
							defer seam.BeforeOpen.Set(func(path string) {
								if path == victim {
									os.RemoveAll(victim)
								}
							})()
						}
						opt := o
						opt.MaxDepth, opt.PostOrder, opt.IgnoreReaddirRace = -1, post, ignore
						var mu sync.Mutex
						var got []string
						Walk([]string{root}, opt, func(e *Entry) Action {
							mu.Lock()
							defer mu.Unlock()
							if e.Depth == 0 {
								return Continue
							}
							s := string(e.Path[len(root)+1:])
							switch {
							case e.Err != nil:
								s = "ERR " + s + ": " + errText(e.Err)
							case s == "v" && inVisit:
								os.RemoveAll(victim)
								if _, err := e.Lstat(); err != unix.ENOENT {
									t.Errorf("Lstat of the removed v: %v", err)
								}
								e.ReportOnce() // as the predicate's report does
							case s == "v" && !e.PostOrder:
								s += " pre"
							case s == "v":
								_, err := e.Lstat()
								s += fmt.Sprintf(" post, lstat %v, first report %v", err, e.ReportOnce())
							}
							got = append(got, s)
							return Continue
						})
						slices.Sort(got)
						var want []string
						if !post {
							want = append(want, "v pre")
						}
						if !ignore && !inVisit {
							want = append(want, "ERR v: No such file or directory")
						}
						if post && !ignore {
							// Under IgnoreReaddirRace GNU 4.11 does not visit it (bug 45930).
							want = append(want, "v post, lstat no such file or directory, first report false")
						}
						if inVisit {
							want = []string{"v"}
						}
						want = append(want, "w", "w/y")
						slices.Sort(want)
						if !slices.Equal(got, want) {
							t.Errorf("got %q\nwant %q", got, want)
						}
					})
				}
			}
		}
	}
}
