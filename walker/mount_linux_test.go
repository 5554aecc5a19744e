package walker

// The tests of what a walk does at mount points, which they make in a
// private mount namespace (unshare(2) or unshare(1) and mount(8)): a
// Linux feature. The engine matrix's mount cases are in
// matrix_test.go, run on Linux only (privateMounts).

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/seam"
	"github.com/gfind/gfind/internal/testtool"
	"golang.org/x/sys/unix"
)

// TestXDev: a directory on another device than its starting point is
// visited but not read. The other device is a tmpfs mounted inside the
// tree (in a private mount namespace), or /dev/shm reached through a
// link under -L.
func TestXDev(t *testing.T) {
	t.Run("mount", func(t *testing.T) {
		root := t.TempDir()
		mk(t, root, "local/f", "mnt/")
		for _, workers := range []int{1, 2} {
			for _, xdev := range []bool{false, true} {
				rs := runInNamespace(t, `mount -t tmpfs none "$1/mnt" && mkdir -p "$1/mnt/in/deeper"`,
					childArgs{Roots: []string{root}, Opt: Options{Workers: workers, MaxDepth: -1, XDev: xdev}})
				want := []string{".", "local", "local/f", "mnt", "mnt/in", "mnt/in/deeper"}
				if xdev {
					want = want[:4]
				}
				diffLists(t, fmt.Sprintf("workers=%d xdev=%v", workers, xdev), want, relPaths(root, rs))
			}
		}
	})
	t.Run("link", func(t *testing.T) {
		shm, err := os.MkdirTemp("/dev/shm", "walkertest")
		if err != nil {
			t.Skip("no /dev/shm")
		}
		defer os.RemoveAll(shm)
		mk(t, shm, "inside/deeper/")
		root := t.TempDir()
		var rst, sst unix.Stat_t
		must(t, unix.Stat(root, &rst))
		must(t, unix.Stat(shm, &sst))
		if rst.Dev == sst.Dev {
			t.Skip("/dev/shm is on the same device as the temporary directory")
		}
		mk(t, root, "local/f", "other->"+shm)
		for _, workers := range []int{1, 2} {
			for _, xdev := range []bool{false, true} {
				rs := collect(t, []string{root}, Options{Workers: workers, MaxDepth: -1, Follow: FollowAll, XDev: xdev})
				want := []string{".", "local", "local/f", "other", "other/inside", "other/inside/deeper"}
				if xdev {
					want = want[:4]
				}
				diffLists(t, fmt.Sprintf("workers=%d xdev=%v", workers, xdev), want, relPaths(root, rs))
			}
		}
	})
}

// runInNamespace runs setup (a sh script; $1 is the first root) and then
// the walk a in a child process inside a private mount namespace, and
// returns its visits. It skips the test where that is not allowed.
func runInNamespace(t *testing.T, setup string, a childArgs) []record {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root")
	}
	unshare := testtool.Need(t, "unshare", "util-linux")
	exe, err := os.Executable()
	must(t, err)
	js, err := json.Marshal(a)
	must(t, err)
	script := setup + ` && exec "$2" -test.run='^$'`
	cmd := exec.Command(unshare, "--mount", "--propagation", "private", "sh", "-c", script, "sh", a.Roots[0], exe)
	cmd.Env = append(os.Environ(), childEnv+"="+string(js))
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("cannot mount in a private namespace: %v", err)
	}
	var rs []record
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var r record
		must(t, dec.Decode(&r))
		rs = append(rs, r)
	}
	return rs
}

// TestBindMountLoop: a directory bind-mounted inside itself is detected
// without -L (as fts's FTS_DC), through the "." record check.
func TestBindMountLoop(t *testing.T) {
	root := t.TempDir()
	mk(t, root, "a/b/", "a/f")
	for _, workers := range []int{1, 2} {
		for _, post := range []bool{false, true} {
			rs := runInNamespace(t, `mount --bind "$1" "$1/a/b"`,
				childArgs{Roots: []string{root}, Opt: Options{Workers: workers, MaxDepth: -1, PostOrder: post}})
			// Pre-order visits the mount point once before reading it
			// (fts stats it first and does not); post-order does not,
			// nor a walk that learns types by stat (a stream without
			// d_type: the shim), which refuses it unvisited, as fts.
			want := []string{".", "ERR a/b: File system loop detected; the following directory is part of the cycle: ROOT/a/b", "a", "a/b", "a/f"}
			if post || macShim {
				want = slices.Delete(want, 3, 4)
			}
			diffLists(t, fmt.Sprintf("workers=%d depth=%v", workers, post), want, relPaths(root, rs))
		}
	}
}

// TestMountPointsAreNotSwaps: at a mount point the parent's record
// carries the covered directory's inode, so the "." check always sees a
// mismatch there; neither a mount of another file system nor a bind
// mount from the same one is a replaced directory.
func TestMountPointsAreNotSwaps(t *testing.T) {
	for _, tc := range []struct{ name, setup string }{
		{"tmpfs", `mount -t tmpfs none "$1/m" && mkdir -p "$1/m/in/deeper"`},
		{"bind from the same file system", `mount --bind "$1/src" "$1/m"`},
	} {
		for _, workers := range []int{1, 2} {
			for _, post := range []bool{false, true} {
				root := t.TempDir()
				mk(t, root, "m/", "src/in/deeper/")
				rs := runInNamespace(t, tc.setup, childArgs{Roots: []string{root},
					Opt: Options{Workers: workers, MaxDepth: -1, PostOrder: post}})
				want := []string{".", "m", "m/in", "m/in/deeper", "src", "src/in", "src/in/deeper"}
				diffLists(t, fmt.Sprintf("%s workers=%d post=%v", tc.name, workers, post), want, relPaths(root, rs))
			}
		}
	}
}

// TestMountDuringWalk: a directory that becomes a mount point between the
// read of its parent and its open (an automount does that) is walked,
// not reported. The mount is made in a mount namespace private to this
// test's OS thread, so the walk is serial (it runs on that thread).
func TestMountDuringWalk(t *testing.T) {
	if os.Getuid() != 0 {
		t.Fatal("this test needs root (CI runs the tests as root)")
	}
	for _, tc := range []struct {
		name  string
		mount func(root string) error
	}{
		{"tmpfs", func(root string) error {
			if err := unix.Mount("none", filepath.Join(root, "m"), "tmpfs", 0, ""); err != nil {
				return err
			}
			return os.MkdirAll(filepath.Join(root, "m/in"), 0o755)
		}},
		{"bind", func(root string) error {
			return unix.Mount(filepath.Join(root, "src"), filepath.Join(root, "m"), "", unix.MS_BIND, "")
		}},
	} {
		for _, exact := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/lstat=%v", tc.name, exact), func(t *testing.T) {
				done := make(chan []string)
				go func() {
					// The thread is never unlocked: it ends with this
					// goroutine, and its mount namespace with it.
					runtime.LockOSThread()
					root := t.TempDir()
					mk(t, root, "m/", "src/in/")
					if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
						t.Errorf("unshare: %v", err)
						close(done)
						return
					}
					if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
						t.Errorf("make private: %v", err)
						close(done)
						return
					}
					m := filepath.Join(root, "m")
					restore := seam.BeforeOpen.Set(swapOnce(m, func() {
						if err := tc.mount(root); err != nil {
							t.Errorf("mount: %v", err)
						}
					}))
					var rs []record
					err := Walk([]string{root}, Options{Workers: 1, MaxDepth: -1}, func(e *Entry) Action {
						if exact {
							e.Lstat() // the identity the walk keeps is then exact
						}
						r := record{Path: string(e.Path)}
						if e.Err != nil {
							r.Err = errText(e.Err)
						}
						rs = append(rs, r)
						return Continue
					})
					restore()
					if err != nil {
						t.Errorf("Walk: %v", err)
					}
					if err := unix.Unmount(m, unix.MNT_DETACH); err != nil {
						t.Errorf("unmount: %v", err)
					}
					done <- relPaths(root, rs)
				}()
				got, ok := <-done
				if !ok {
					return
				}
				diffLists(t, "visits", []string{".", "m", "m/in", "src", "src/in"}, got)
			})
		}
	}
}

// TestSortedMounts: a bind mount of an ancestor (a loop seen through the
// "." record while reading ahead) and, under XDev, a directory on another
// device (not read ahead below it) come out as in the serial walk, in
// sorted order.
func TestSortedMounts(t *testing.T) {
	root := t.TempDir()
	mk(t, root, "a/b/", "a/f", "local/f", "mnt/", "z")
	for _, workers := range sortedWorkers {
		for _, post := range []bool{false, true} {
			rs := runInNamespace(t, `mount --bind "$1" "$1/a/b"`,
				childArgs{Roots: []string{root}, Opt: Options{Workers: workers, MaxDepth: -1, PostOrder: post, Sort: true}})
			want := []string{".", "a", "a/b", "ERR a/b: File system loop detected; the following directory is part of the cycle: ROOT/a/b", "a/f", "local", "local/f", "mnt", "z"}
			if post {
				want = []string{"ERR a/b: File system loop detected; the following directory is part of the cycle: ROOT/a/b", "a/f", "a", "local/f", "local", "mnt", "z", "."}
			}
			diffLists(t, fmt.Sprintf("loop workers=%d depth=%v", workers, post), want, orderedRel(root, rs))
		}
		rs := runInNamespace(t, `mount -t tmpfs none "$1/mnt" && mkdir -p "$1/mnt/in/deeper"`,
			childArgs{Roots: []string{root}, Opt: Options{Workers: workers, MaxDepth: -1, XDev: true, Sort: true}})
		want := []string{".", "a", "a/b", "a/f", "local", "local/f", "mnt", "z"}
		diffLists(t, fmt.Sprintf("xdev workers=%d", workers), want, orderedRel(root, rs))
	}
}
