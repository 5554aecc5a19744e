package walker

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// TestDirentIno: every walk (serial in fts's batches, parallel, sorted,
// owned; a directory read in several getdents calls too) gives a file
// below a starting point its record's inode number, without a stat, and
// none to a starting point or a directory (whose numbers GNU takes from
// a stat); under -L, none to a link, which is followed.
func TestDirentIno(t *testing.T) {
	root := t.TempDir()
	spec := []string{"t/sub/", "t/sub/f", "t/l->sub/f", "t/dl->nowhere"}
	for i := range 2000 { // more than one 32 KiB getdents call
		spec = append(spec, fmt.Sprintf("t/big/file-with-a-long-name-%04d", i))
	}
	mk(t, root, spec...)
	for _, c := range []struct {
		name string
		opt  Options
	}{
		{"serial", Options{Workers: 1, MaxDepth: -1}},
		{"parallel", Options{Workers: 4, MaxDepth: -1}},
		{"sorted", Options{Workers: 4, MaxDepth: -1, Sort: true}},
		{"sorted-serial", Options{Workers: 1, MaxDepth: -1, Sort: true}},
		{"follow", Options{Workers: 4, MaxDepth: -1, Follow: FollowAll}},
		{"post-order", Options{Workers: 4, MaxDepth: -1, PostOrder: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var errs []string
			fail := func(format string, args ...any) {
				mu.Lock()
				defer mu.Unlock()
				if len(errs) < 10 {
					errs = append(errs, fmt.Sprintf(format, args...))
				}
			}
			err := Walk([]string{filepath.Join(root, "t")}, c.opt, func(e *Entry) Action {
				if e.Err != nil {
					return Continue
				}
				before := e.StatCalls()
				ino, ok := e.DirentIno()
				if e.StatCalls() != before {
					fail("%s: DirentIno made a stat call", e.Path)
				}
				follows := c.opt.Follow == FollowAll && e.Type == TypeSymlink || e.follow
				want := e.Depth > 0 && e.Type != TypeDir && !follows
				if ok != want {
					fail("%s (%v): DirentIno ok %v, want %v", e.Path, e.Type, ok, want)
				}
				if ok {
					var st unix.Stat_t
					if err := unix.Lstat(string(e.Path), &st); err != nil || st.Ino != ino {
						fail("%s: DirentIno %d, lstat %d %v", e.Path, ino, st.Ino, err)
					}
					// Once the status is taken, its number is the
					// one (GNU copies it over the record's).
					if lst, err := e.Lstat(); err != nil {
						fail("%s: %v", e.Path, err)
					} else if n, ok := e.DirentIno(); !ok || n != lst.Ino {
						fail("%s: DirentIno after Lstat %d %v, want %d", e.Path, n, ok, lst.Ino)
					}
				}
				return Continue
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range errs {
				t.Error(e)
			}
		})
	}
	e := Synthetic("a/b", 1, TypeRegular, &unix.Stat_t{Ino: 5}, nil)
	if _, ok := e.DirentIno(); ok {
		t.Error("a Synthetic Entry has a record's inode number")
	}
}
