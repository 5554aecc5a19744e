package walker

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
	"golang.org/x/sys/unix"
)

// sortedWorkers are the worker counts every sorted test runs with: the
// order must not depend on them.
var sortedWorkers = []int{1, 2, 8}

// refOpts is what the reference walk honours.
type refOpts struct {
	post     bool
	min, max int
	prune    func(rel string) bool // pre-order: do not descend
}

// refSorted is the reference for Options.Sort: a plain recursive walk,
// written independently of the walker (descriptor-relative, so that it
// goes past PATH_MAX), that reads each directory whole, sorts its names
// with bytes.Compare and descends into real directories only (no links
// followed). It returns the paths in visit order.
func refSorted(t testing.TB, root string, o refOpts) []string {
	t.Helper()
	var out []string
	var walk func(fd int, path string, depth int)
	walk = func(fd int, path string, depth int) {
		ents := refReadDir(t, fd)
		slices.SortFunc(ents, func(a, b refEnt) int { return bytes.Compare(a.name, b.name) })
		for _, e := range ents {
			p := path + "/" + string(e.name)
			cd := depth + 1
			descend := e.isDir && (o.max < 0 || cd < o.max)
			if !descend || !o.post {
				if cd >= o.min {
					out = append(out, p)
				}
				if descend && !o.post && o.prune != nil && o.prune(p) {
					descend = false
				}
			}
			if descend {
				cfd, err := unix.Openat(fd, string(e.name), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
				must(t, err)
				walk(cfd, p, cd)
				unix.Close(cfd)
				if o.post && cd >= o.min {
					out = append(out, p)
				}
			}
		}
	}
	if !o.post && o.min == 0 {
		out = append(out, root)
	}
	if o.max != 0 && (o.prune == nil || !o.prune(root)) {
		fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		must(t, err)
		walk(fd, root, 0)
		unix.Close(fd)
	}
	if o.post && o.min == 0 {
		out = append(out, root)
	}
	return out
}

// sortedVisits walks root with Sort and returns the paths in visit order,
// failing on error visits, concurrent visits or a bad Worker.
func sortedVisits(t *testing.T, root string, opt Options, prune func(string) bool) []string {
	t.Helper()
	opt.Sort = true
	var out []string
	var busy sync.Mutex
	err := Walk([]string{root}, opt, func(e *Entry) Action {
		if !busy.TryLock() {
			t.Errorf("%s: visits overlap", e.Path)
			return Stop
		}
		defer busy.Unlock()
		if e.Err != nil {
			t.Errorf("%s: %v", e.Path, e.Err)
			return Continue
		}
		if e.Worker < 0 || e.Worker >= max(1, opt.Workers) {
			t.Errorf("%s: Worker %d of %d", e.Path, e.Worker, opt.Workers)
		}
		// The descriptor is valid for the visit: an *at call on it
		// finds the file.
		var st unix.Stat_t
		if err := unix.Fstatat(e.DirFD(), string(e.AtName()), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			t.Errorf("%s: fstatat(DirFD, AtName): %v", e.Path, err)
		}
		out = append(out, string(e.Path))
		if prune != nil && !e.PostOrder && prune(string(e.Path)) {
			return Prune
		}
		return Continue
	})
	must(t, err)
	return out
}

// TestSortedOrder: the sorted walk visits exactly in the reference order,
// for every tree, option and worker count, every time.
func TestSortedOrder(t *testing.T) {
	root := testtree.Make(t, testtree.Basic, testtree.WeirdNames, testtree.Links, testtree.Wide(3000))
	mk(t, root, "many/", "x/y/z/", "x/y/f", "x/Y", "x/_", "x/-", "x/y.z")
	for i := range 300 {
		mk(t, root, fmt.Sprintf("many/d%03d/sub%d/f", (i*37)%300, i%7), fmt.Sprintf("many/f%d", i))
	}
	pruned := func(p string) bool {
		return strings.HasSuffix(p, "/a") || strings.HasSuffix(p, "/sub3") || strings.HasSuffix(p, "/x/y")
	}
	for _, tc := range []struct {
		name  string
		ref   refOpts
		opt   Options
		prune func(string) bool
	}{
		{"default", refOpts{max: -1}, Options{MaxDepth: -1}, nil},
		{"depth", refOpts{post: true, max: -1}, Options{MaxDepth: -1, PostOrder: true}, nil},
		{"maxdepth2", refOpts{max: 2}, Options{MaxDepth: 2}, nil},
		{"maxdepth0", refOpts{max: 0}, Options{MaxDepth: 0}, nil},
		{"mindepth2", refOpts{min: 2, max: -1}, Options{MinDepth: 2, MaxDepth: -1}, nil},
		{"mindepth2-maxdepth3-depth", refOpts{post: true, min: 2, max: 3}, Options{MinDepth: 2, MaxDepth: 3, PostOrder: true}, nil},
		{"prune", refOpts{max: -1, prune: pruned}, Options{MaxDepth: -1}, pruned},
		{"prune-root", refOpts{max: -1, prune: func(p string) bool { return p == root }}, Options{MaxDepth: -1}, func(p string) bool { return p == root }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := refSorted(t, root, tc.ref)
			if len(want) < 2 && tc.ref.max != 0 && tc.prune == nil {
				t.Fatalf("reference has %d paths", len(want))
			}
			for _, workers := range sortedWorkers {
				for round := range 3 {
					defer checkNoLeak(t)()
					tc.opt.Workers = workers
					got := sortedVisits(t, root, tc.opt, tc.prune)
					diffLists(t, fmt.Sprintf("workers=%d round=%d", workers, round), want, got)
				}
			}
		})
	}
}

// TestSortedDeep: a chain past PATH_MAX, and the same in post-order.
func TestSortedDeep(t *testing.T) {
	root := testtree.Make(t, testtree.Deep)
	for _, post := range []bool{false, true} {
		want := refSorted(t, root, refOpts{post: post, max: -1})
		for _, workers := range sortedWorkers {
			got := sortedVisits(t, root, Options{Workers: workers, MaxDepth: -1, PostOrder: post}, nil)
			diffLists(t, fmt.Sprintf("workers=%d post=%v", workers, post), want, got)
		}
	}
}

// TestSortedSameAsUnsorted: with links followed (-L, -H) and loops, the
// sorted walk visits what the unsorted one does, errors included, and in
// the same order whatever the number of workers.
func TestSortedSameAsUnsorted(t *testing.T) {
	root := weirdTree(t)
	mk(t, root, "e/up->..", "loop->loop", "tod->a")
	for _, opt := range []Options{
		{MaxDepth: -1, Follow: FollowAll},
		{MaxDepth: -1, Follow: FollowAll, PostOrder: true},
		{MaxDepth: -1, Follow: FollowRoots},
		{MaxDepth: -1, XDev: true},
		{MaxDepth: -1, IgnoreReaddirRace: true},
	} {
		t.Run(fmt.Sprintf("%+v", opt), func(t *testing.T) {
			roots := []string{root, root + "/links/todir", root + "/nothere", root + "/a/"}
			opt.Workers = 1
			unsorted := collect(t, roots, opt)
			opt.Sort = true
			var first []string
			for _, workers := range sortedWorkers {
				opt.Workers = workers
				rs := collect(t, roots, opt)
				diffLists(t, fmt.Sprintf("workers=%d: set", workers), sortedRecords(unsorted), sortedRecords(rs))
				var order []string
				for _, r := range rs {
					order = append(order, r.String())
				}
				if first == nil {
					first = order
					// The roots come in command-line order, and each
					// root's visits are sorted by path.
					checkRootsSorted(t, root, rs)
				} else {
					diffLists(t, fmt.Sprintf("workers=%d: order", workers), first, order)
				}
			}
		})
	}
}

// checkRootsSorted checks that within each starting point's part of rs,
// the pre-order visits of a directory's entries come in name order.
func checkRootsSorted(t *testing.T, root string, rs []record) {
	t.Helper()
	last := map[string]string{} // directory -> last name visited in it
	for _, r := range rs {
		if r.Depth == 0 {
			clear(last)
			continue
		}
		if r.Err != "" || r.PostOrder {
			continue
		}
		dir, name := filepath.Dir(r.Path), filepath.Base(r.Path)
		if prev, ok := last[dir]; ok && prev >= name {
			t.Errorf("%s visited after %s", r.Path, prev)
		}
		last[dir] = name
	}
}

// TestSortedStop: nothing is visited after Stop, the visits before it are
// the reference's first ones, and nothing leaks.
func TestSortedStop(t *testing.T) {
	root := testtree.Make(t, testtree.Basic, testtree.Wide(500))
	for i := range 50 {
		mk(t, root, fmt.Sprintf("d%02d/e/f/g/file", i), fmt.Sprintf("d%02d/x", i))
	}
	for _, post := range []bool{false, true} {
		want := refSorted(t, root, refOpts{post: post, max: -1})
		for _, stopAt := range []int{1, 5, 200, len(want) - 1} {
			for _, workers := range sortedWorkers {
				defer checkNoLeak(t)()
				var got []string
				n := 0
				Walk([]string{root}, Options{Workers: workers, MaxDepth: -1, PostOrder: post, Sort: true}, func(e *Entry) Action {
					got = append(got, string(e.Path))
					if n++; n == stopAt {
						return Stop
					}
					return Continue
				})
				diffLists(t, fmt.Sprintf("post=%v stop=%d workers=%d", post, stopAt, workers), want[:stopAt], got)
			}
		}
	}
}

// TestSortedDelete: removing every file in post-order through DirFD and
// AtName (as -delete does) empties the tree.
func TestSortedDelete(t *testing.T) {
	for _, workers := range sortedWorkers {
		root := testtree.Make(t, testtree.Basic, testtree.WeirdNames, testtree.Deep, testtree.Wide(1000))
		defer checkNoLeak(t)()
		want := refSorted(t, root, refOpts{post: true, min: 1, max: -1})
		var got []string
		Walk([]string{root}, Options{Workers: workers, MinDepth: 1, MaxDepth: -1, PostOrder: true, Sort: true}, func(e *Entry) Action {
			if e.Err != nil {
				t.Errorf("%s: %v", e.Path, e.Err)
				return Continue
			}
			got = append(got, string(e.Path))
			flags := 0
			if e.Type == TypeDir {
				flags = unix.AT_REMOVEDIR
			}
			if err := unix.Unlinkat(e.DirFD(), string(e.AtName()), flags); err != nil {
				t.Errorf("unlinkat %s: %v", e.Path, err)
			}
			return Continue
		})
		diffLists(t, fmt.Sprintf("workers=%d", workers), want, got)
		if ents, err := os.ReadDir(root); err != nil || len(ents) != 0 {
			t.Errorf("workers=%d: left %d entries (%v)", workers, len(ents), err)
		}
	}
}

// TestSortedPermissionDenied: as nobody, an unreadable directory is
// visited, then reported, in its place in the order, and the rest goes
// on; the same for every worker count.
func TestSortedPermissionDenied(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to switch to uid 65534")
	}
	root := t.TempDir()
	must(t, os.Chmod(root, 0o755))
	mk(t, root, "a/f", "b/secret/f", "b/z", "c/f", "c/no/x/y", "d")
	must(t, os.Chmod(filepath.Join(root, "b/secret"), 0o000))
	must(t, os.Chmod(filepath.Join(root, "c/no"), 0o311))
	for _, post := range []bool{false, true} {
		var first []record
		for _, workers := range sortedWorkers {
			rs := runChild(t, childArgs{Roots: []string{root}, Opt: Options{Workers: workers, MaxDepth: -1, PostOrder: post, Sort: true}}, asNobody)
			if first == nil {
				first = rs
				want := []string{".", "a", "a/f", "b", "b/secret", "ERR b/secret", "b/z", "c", "c/f", "c/no", "ERR c/no", "d"}
				if post {
					want = []string{"a/f", "a", "ERR b/secret", "b/secret", "b/z", "b", "c/f", "ERR c/no", "c/no", "c", "d", "."}
				}
				var got []string
				for _, r := range rs {
					rel, _ := filepath.Rel(root, r.Path)
					if r.Err != "" {
						rel = "ERR " + rel
						if r.Err != "Permission denied" {
							t.Errorf("%v: want EACCES", r)
						}
					}
					got = append(got, rel)
				}
				diffLists(t, fmt.Sprintf("post=%v", post), want, got)
				continue
			}
			a, _ := json.Marshal(first)
			b, _ := json.Marshal(rs)
			if !bytes.Equal(a, b) {
				t.Errorf("post=%v workers=%d: visits differ from one worker's:\n%s\n%s", post, workers, a, b)
			}
		}
	}
}

// TestSortedFewDescriptors: a tree deeper than PATH_MAX, with side
// directories at every level, is walked completely and in order with
// RLIMIT_NOFILE 32.
func TestSortedFewDescriptors(t *testing.T) {
	root := fastTempDir(t)
	levels, name := 2000, "dddd"
	if !testtool.Soak() { // still deeper than PATH_MAX and RLIMIT_NOFILE
		levels, name = 300, strings.Repeat("d", 50)
	}
	entries := mkdeep(t, root, levels, name)
	for _, post := range []bool{false, true} {
		h := newPathHash()
		must(t, os.Chdir(root))
		for _, p := range refSorted(t, ".", refOpts{post: post, max: -1}) {
			h.add([]byte(p))
		}
		must(t, os.Chdir("/"))
		want := h.summary()
		if want.N != entries {
			t.Fatalf("reference: %d paths, want %d", want.N, entries)
		}
		for _, workers := range []int{1, 2, 4} {
			for _, ordered := range []bool{false, true} {
				if ordered && (post || workers == 1) {
					continue // Options.Ordered is ignored
				}
				var sum childSummary
				out := runChildRaw(t, childArgs{
					Roots:    []string{"."},
					Opt:      Options{Workers: workers, MaxDepth: -1, PostOrder: post, Sort: true},
					NoFile:   32,
					Dir:      root,
					SlowName: slowIf(workers > 1, "f"),
					Summary:  true,
					Ordered:  ordered,
				}, nil)
				must(t, json.Unmarshal(out, &sum))
				if len(sum.Errors) > 0 {
					t.Fatalf("workers=%d post=%v ordered=%v: error entry: %v", workers, post, ordered, sum.Errors[0])
				}
				if sum.N != entries || sum.Ordered != want.Ordered {
					t.Errorf("workers=%d post=%v ordered=%v: %d visits (want %d), same order: %v", workers, post, ordered, sum.N, entries, sum.Ordered == want.Ordered)
				}
			}
		}
	}
}

// TestSortedExclude: the Exclude hook works under Sort as without it.
func TestSortedExclude(t *testing.T) {
	root := t.TempDir()
	mk(t, root, "a/skip/f", "a/g", "skip", "b/c/skip/x", "b/c/y")
	excl := func(e *Entry) bool { return string(e.Name()) == "skip" }
	want := refSorted(t, root, refOpts{max: -1})
	want = slices.DeleteFunc(want, func(p string) bool { return strings.Contains(p, "/skip") })
	for _, workers := range sortedWorkers {
		got := sortedVisits(t, root, Options{Workers: workers, MaxDepth: -1, Exclude: excl}, nil)
		diffLists(t, fmt.Sprintf("workers=%d", workers), want, got)
	}
}

// TestSortedListing checks the sort of a listing against bytes.Compare,
// for names that share long prefixes (the keys are taken after the
// common prefix), names that are prefixes of others, bytes >= 0x80, the
// insertion and the merge sort, and records in one chunk or in many.
func TestSortedListing(t *testing.T) {
	many := func(format string, n int) []string {
		var s []string
		for i := range n {
			s = append(s, fmt.Sprintf(format, (i*7919)%n))
		}
		return s
	}
	tests := []struct {
		name  string
		names []string
	}{
		{"one", []string{"x"}},
		{"prefixes", []string{"abc", "ab", "abd", "a", "abcdefghijk", "abcdefghij", "abcdefgh", "abcdefghi"}},
		{"high bytes", []string{"\xff", "a\x80", "a", "\x01", "a\x7f", "\xfe\xff"}},
		{"shared 8", many("file%06d.txt", 500)},
		{"shared 20", many("IMG_2024_0101_12345_%05d", 300)},
		{"all share a name", append(many("samesamesame%d", 40), "samesamesame")},
		{"short", many("%d", 1000)},
		// Past radixMin: the radix sort, split in place and by passes,
		// with passes skipped and runs of equal keys.
		{"radix shared 8", many("file%06d.txt", 5000)},
		{"radix shared 20", many("IMG_2024_0101_12345_%05d", 6000)},
		{"radix same keys", append(append(many("a_samesame%d", 2500), many("b_samesame%d", 2500)...), "a_samesame", "b")},
		{"radix short", many("%d", 5000)},
		{"radix big bucket", append(many("aX%05d", 4500), many("b%d", 500)...)},
	}
	for _, tc := range tests {
		for _, chunked := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/chunked=%v", tc.name, chunked), func(t *testing.T) {
				l := &rawList{}
				var first []byte
				lcp := 0
				for i, name := range tc.names {
					reclen := (int(direntName) + len(name) + 1 + 7) &^ 7
					// Chunked: few records a chunk, so many chunks;
					// else as many as a read buffer holds.
					limit := direntBufSize
					if chunked {
						limit = 256
					}
					if len(l.chunks) == 0 || len(l.chunks[len(l.chunks)-1])+reclen > limit {
						l.chunks = append(l.chunks, make([]byte, 0, direntBufSize))
					}
					ci := len(l.chunks) - 1
					buf := &l.chunks[ci]
					off := len(*buf)
					rec := make([]byte, reclen)
					*(*uint64)(unsafe.Pointer(&rec[direntIno])) = uint64(i + 1)
					copy(rec[direntName:], name)
					*buf = append(*buf, rec...)
					if i == 0 {
						first, lcp = []byte(name), len(name)
					} else {
						lcp = commonPrefix(first[:lcp], []byte(name))
					}
					l.ents = append(l.ents, sortEnt{key: nameKey([]byte(name)), off: uint32(ci<<chunkShift | off), nlen: uint16(len(name))})
				}
				if len(l.ents) > 1 {
					l.lcp = lcp
				}
				var tmp []sortEnt
				l.sort(&tmp)
				var got []string
				for i := range l.ents {
					de := l.dirent(&l.ents[i])
					if want := tc.names[de.ino-1]; string(de.name) != want {
						t.Fatalf("record %d: name %q, want %q", de.ino, de.name, want)
					}
					got = append(got, string(de.name))
				}
				want := slices.Clone(tc.names)
				slices.SortFunc(want, func(a, b string) int { return bytes.Compare([]byte(a), []byte(b)) })
				if !slices.Equal(got, want) {
					t.Errorf("sorted:\n%q\nwant:\n%q", got, want)
				}
			})
		}
	}
}

// TestSortedCommonPrefix checks commonPrefix across its eight-byte steps.
func TestSortedCommonPrefix(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"a", "", 0},
		{"abc", "abd", 2},
		{"abcdefgh", "abcdefgh", 8},
		{"abcdefghi", "abcdefgh", 8},
		{"abcdefghijklmnopq", "abcdefghijklmnopr", 16},
		{"abcdefgXijklmnop", "abcdefghijklmnop", 7},
		{"x", "y", 0},
	}
	for _, tc := range tests {
		if got := commonPrefix([]byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("commonPrefix(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestRecordNames: the record parser (nextDirent: the name's end found
// from the record length) gives every name whole, for
// every name length, in records short enough for the header to share
// the last word, and for bytes that the zero-byte test must not take for
// a NUL.
func TestRecordNames(t *testing.T) {
	root := t.TempDir()
	var names []string
	for n := 1; n <= 255; n++ {
		for _, c := range []byte{'a', 0x01, 0x80, 0xff} {
			b := bytes.Repeat([]byte{c}, n)
			if c == 'a' && n > 1 {
				b[n-1] = 0x01 // a byte 1 just before the NUL
			}
			names = append(names, string(b))
		}
	}
	for _, n := range names {
		f, err := os.Create(filepath.Join(root, n))
		must(t, err)
		f.Close()
	}
	want := []string{root}
	slices.Sort(names)
	for _, n := range names {
		want = append(want, root+"/"+n)
	}
	for _, workers := range sortedWorkers {
		got := sortedVisits(t, root, Options{Workers: workers, MaxDepth: -1}, nil)
		diffLists(t, fmt.Sprintf("workers=%d", workers), want, got)
	}
}

// TestSortedPruneRecycle prunes pseudo-random directories of a tree,
// so that the walk kills nodes in every state (queued, being read, read)
// and recycles them: the visits stay those of the reference, every run.
func TestSortedPruneRecycle(t *testing.T) {
	root := t.TempDir()
	var spec []string
	for i := range 6 {
		for j := range 6 {
			for k := range 4 {
				spec = append(spec, fmt.Sprintf("a%d/b%d/c%d/f", i, j, k), fmt.Sprintf("a%d/b%d/g%d", i, j, k))
			}
		}
	}
	mk(t, root, spec...)
	for seed := range 4 {
		prune := func(p string) bool {
			h := uint32(seed)
			for _, c := range []byte(p) {
				h = h*31 + uint32(c)
			}
			return h%5 == 0
		}
		want := refSorted(t, root, refOpts{max: -1, prune: prune})
		for _, workers := range sortedWorkers {
			for range 3 {
				got := sortedVisits(t, root, Options{Workers: workers, MaxDepth: -1}, prune)
				diffLists(t, fmt.Sprintf("seed=%d workers=%d", seed, workers), want, got)
			}
		}
	}
}

// TestNameKey: the key of a name read in place, with other bytes after
// it in its buffer, is that of the name alone: its first eight bytes,
// big-endian, zero-padded.
func TestNameKey(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for _, garbage := range []byte{0, 0x01, 0xff} {
			name := bytes.Repeat([]byte{'a' + byte(n)}, n)
			name[0] = 0x80
			buf := append(append([]byte{}, name...), bytes.Repeat([]byte{garbage}, 16)...)
			var want uint64
			for i := range min(n, 8) {
				want |= uint64(name[i]) << (56 - 8*i)
			}
			if got := nameKey(buf[:n]); got != want {
				t.Errorf("len %d, then %#x: key %#016x, want %#016x", n, garbage, got, want)
			}
			if got := nameKey(name[:n:n]); got != want {
				t.Errorf("len %d alone: key %#016x, want %#016x", n, got, want)
			}
		}
	}
}
