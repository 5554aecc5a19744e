package walker

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash"
	"hash/crc64"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/gfind/gfind/internal/testtool"
	"golang.org/x/sys/unix"
)

// TestMain doubles as the child process of the tests that need a lower
// descriptor limit or another user: see runChild.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(childMain())
	}
	os.Exit(m.Run())
}

const childEnv = "GFIND_WALKER_TEST_CHILD"

// childArgs is what the parent test passes to its child, as JSON.
type childArgs struct {
	Roots  []string
	Opt    Options
	NoFile uint64 // RLIMIT_NOFILE to set first; 0: leave it
	Dir    string // working directory
	// SlowName: visits of files of this name take 200µs, to keep a
	// worker busy while others go on.
	SlowName string
	// Summary: print only a summary (for huge outputs), not every visit.
	Summary bool
	// Ordered (with Summary): the walk is given Options.Ordered, and the
	// summary hashes the paths in the order of the captured output.
	Ordered bool
	// Matrix: make these walks of the engine matrix instead
	// (matrix_test.go).
	Matrix []matrixRun
}

// childSummary is what a child prints with Summary: the number of
// visits, hashes of the paths in visit order and sorted, and the error
// visits.
type childSummary struct {
	N               int
	Ordered, Sorted string
	Errors          []record
}

// pathHash hashes paths in visit order, and as a set (a sum of per-path
// CRCs: sorting ten thousand paths of kilobytes that share long prefixes
// would cost more than the walk).
type pathHash struct {
	n       int
	ordered hash.Hash
	set     uint64
}

func newPathHash() *pathHash { return &pathHash{ordered: sha256.New()} }

func (h *pathHash) add(p []byte) {
	h.n++
	h.ordered.Write(p)
	h.ordered.Write([]byte{0})
	h.set += crc64.Checksum(p, crcTable)
}

func (h *pathHash) summary() childSummary {
	return childSummary{N: h.n, Ordered: hex.EncodeToString(h.ordered.Sum(nil)), Sorted: strconv.FormatUint(h.set, 16)}
}

var crcTable = crc64.MakeTable(crc64.ECMA)

func childMain() int {
	var a childArgs
	if err := json.Unmarshal([]byte(os.Getenv(childEnv)), &a); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if a.NoFile > 0 {
		var rl unix.Rlimit
		setRlim(&rl.Cur, a.NoFile)
		setRlim(&rl.Max, a.NoFile)
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
			fmt.Fprintln(os.Stderr, "setrlimit:", err)
			return 2
		}
	}
	if a.Dir != "" {
		if err := os.Chdir(a.Dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	if a.Matrix != nil {
		return matrixChild(a.Matrix)
	}
	enc := json.NewEncoder(os.Stdout)
	var failed atomic.Bool
	var mu sync.Mutex
	var errs []record
	ph := newPathHash()
	var o *testOrdered
	if a.Ordered {
		o = newTestOrdered(nil, max(1, a.Opt.Workers))
		a.Opt.Ordered = o
	}
	err := Walk(a.Roots, a.Opt, func(e *Entry) Action {
		if a.SlowName != "" && string(e.Name()) == a.SlowName {
			time.Sleep(200 * time.Microsecond)
		}
		if o != nil && e.Err == nil {
			o.output(e, string(e.Path)+"\x00")
			return Continue
		}
		mu.Lock()
		defer mu.Unlock()
		if a.Summary && e.Err == nil {
			ph.add(e.Path)
			return Continue
		}
		r := record{Path: string(e.Path), Type: e.Type, Depth: e.Depth, PostOrder: e.PostOrder}
		if e.Err != nil {
			r.Err = errText(e.Err)
		}
		if a.Summary {
			errs = append(errs, r)
			return Continue
		}
		if err := enc.Encode(r); err != nil {
			failed.Store(true)
			return Stop
		}
		return Continue
	})
	if o != nil {
		if cerr := o.check(); err == nil {
			err = cerr
		}
		for p := range strings.SplitSeq(strings.TrimSuffix(string(o.out), "\x00"), "\x00") {
			ph.add([]byte(p))
		}
	}
	if a.Summary {
		sum := ph.summary()
		sum.Errors = errs
		failed.Store(enc.Encode(sum) != nil)
	}
	if err != nil || failed.Load() {
		fmt.Fprintln(os.Stderr, "walk:", err)
		return 2
	}
	return 0
}

// setRlim sets a limit of a unix.Rlimit: an rlim_t, unsigned but on
// FreeBSD.
func setRlim[T int64 | uint64](lim *T, n uint64) { *lim = T(n) }

// runChildRaw runs the walk described by a in a child process (this test
// binary again), with a descriptor limit and/or as another user, and
// returns its output.
func runChildRaw(t *testing.T, a childArgs, cred *syscall.Credential) []byte {
	t.Helper()
	exe, err := os.Executable()
	must(t, err)
	if cred != nil {
		// The test binary sits in a 0700 build directory: give the
		// other user a copy it can run.
		dir := t.TempDir()
		must(t, os.Chmod(dir, 0o755))
		must(t, os.Chmod(filepath.Dir(dir), 0o755))
		b, err := os.ReadFile(exe)
		must(t, err)
		exe = filepath.Join(dir, "walker.test")
		must(t, os.WriteFile(exe, b, 0o755))
	}
	js, err := json.Marshal(a)
	must(t, err)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(js))
	cmd.SysProcAttr = childAttr(cred)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.String())
	}
	return out
}

// runChild walks in a child process (this test binary again), with a
// descriptor limit and/or as another user, and returns its visits.
func runChild(t *testing.T, a childArgs, cred *syscall.Credential) []record {
	t.Helper()
	out := runChildRaw(t, a, cred)
	var rs []record
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var r record
		must(t, dec.Decode(&r))
		rs = append(rs, r)
	}
	return rs
}

// checkNoLeak fails if a walk left descriptors open.
func checkNoLeak(t *testing.T) func() {
	t.Helper()
	before := openFDs(t)
	return func() {
		t.Helper()
		if after := openFDs(t); after != before {
			t.Errorf("open descriptors: %d before the walk, %d after", before, after)
		}
	}
}

// TestOracleSerialParallel: the parallel walk finds exactly what the
// serial one does, whatever the options.
func TestOracleSerialParallel(t *testing.T) {
	root := weirdTree(t)
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"default", Options{MaxDepth: -1}},
		{"depth", Options{MaxDepth: -1, PostOrder: true}},
		{"L", Options{MaxDepth: -1, Follow: FollowAll}},
		{"L-depth", Options{MaxDepth: -1, Follow: FollowAll, PostOrder: true}},
		{"H", Options{MaxDepth: -1, Follow: FollowRoots}},
		{"maxdepth2", Options{MaxDepth: 2}},
		{"mindepth2", Options{MaxDepth: -1, MinDepth: 2}},
		{"mindepth2-depth", Options{MaxDepth: -1, MinDepth: 2, PostOrder: true}},
		{"xdev", Options{MaxDepth: -1, XDev: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			roots := []string{root, root + "/a/", root + "/links/todir"}
			defer checkNoLeak(t)()
			tc.opt.Workers = 1
			serial := collect(t, roots, tc.opt)
			for _, workers := range []int{2, 4, 16} {
				tc.opt.Workers = workers
				par := collect(t, roots, tc.opt)
				diffLists(t, fmt.Sprintf("workers=%d", workers), sortedRecords(serial), sortedRecords(par))
			}
			if len(serial) < 10 {
				t.Errorf("only %d visits", len(serial))
			}
		})
	}
}

// TestSerialOrderGNU: one worker visits in exactly GNU find's order.
func TestSerialOrderGNU(t *testing.T) {
	find := testtool.GNUFind(t)
	root := weirdTree(t)
	for _, tc := range []struct {
		args  []string // find's options before the roots
		roots []string
		opt   Options
		tail  []string // find's expression
	}{
		{nil, []string{"."}, Options{MaxDepth: -1}, nil},
		{nil, []string{"./"}, Options{MaxDepth: -1}, nil},
		{nil, []string{".//"}, Options{MaxDepth: -1}, nil},
		{nil, []string{"a/", "a", "links/todir", "links/todir/", "nothere", "./-dash"}, Options{MaxDepth: -1}, nil},
		{nil, []string{"."}, Options{MaxDepth: -1, PostOrder: true}, []string{"-depth"}},
		{[]string{"-L"}, []string{"."}, Options{MaxDepth: -1, Follow: FollowAll}, nil},
		{[]string{"-L"}, []string{"."}, Options{MaxDepth: -1, Follow: FollowAll, PostOrder: true}, []string{"-depth"}},
		{[]string{"-H"}, []string{".", "links/todir", "links/nowhere", "links/self"}, Options{MaxDepth: -1, Follow: FollowRoots}, nil},
		{nil, []string{"links/todir", "links/nowhere"}, Options{MaxDepth: -1}, nil},
		{nil, []string{"."}, Options{MaxDepth: 2, MinDepth: 1}, []string{"-mindepth", "1", "-maxdepth", "2"}},
		{nil, []string{"."}, Options{MaxDepth: 0}, []string{"-maxdepth", "0"}},
		{nil, []string{"."}, Options{MaxDepth: -1, PostOrder: true, MinDepth: 3}, []string{"-depth", "-mindepth", "3"}},
	} {
		name := strings.Join(append(append(append([]string{}, tc.args...), tc.roots...), tc.tail...), " ")
		t.Run(name, func(t *testing.T) {
			args := append(append(append([]string{}, tc.args...), tc.roots...), tc.tail...)
			want, _ := runFind(t, find, root, args...)
			tc.opt.Workers = 1
			must(t, os.Chdir(root))
			defer os.Chdir("/")
			got := paths(collect(t, tc.roots, tc.opt))
			diffLists(t, "find "+name, want, got)
		})
	}
}

// TestBigDirectoryOrder: fts visits a directory of more than 10,000
// entries in inode order (except on tmpfs, NFS and CIFS), in batches of
// 100,000. The serial walk must do the same: on 10,001 entries, and with
// GFIND_SOAK=1 also on 100,001 (two batches).
func TestBigDirectoryOrder(t *testing.T) {
	find := testtool.GNUFind(t)
	sizes := []int{10001}
	if testtool.Soak() { // more than one batch
		sizes = append(sizes, 100001)
	}
	bases := append([]string{t.TempDir()}, moreBigDirBases(t)...)
	for _, base := range bases {
		kind := fsKind(t, base)
		for _, n := range sizes {
			dir := filepath.Join(base, strconv.Itoa(n))
			must(t, os.Mkdir(dir, 0o755))
			dfd := mustOpen(t, dir)
			for i := range n {
				// Names in an order unrelated to creation (and so to
				// inode numbers); some subdirectories.
				name := fmt.Sprintf("f%06d", (i*7919)%n)
				if i%1000 == 0 {
					must(t, unix.Mkdirat(dfd, name, 0o755))
					continue
				}
				fd, err := unix.Openat(dfd, name, unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
				must(t, err)
				unix.Close(fd)
			}
			// n entries, then n-1: the sort starts above 10,000.
			for _, drop := range []bool{false, true} {
				if drop {
					must(t, unix.Unlinkat(dfd, "f000001", 0))
				}
				t.Run(fmt.Sprintf("%s/%d", kind, n-boolInt(drop)), func(t *testing.T) {
					for _, post := range []bool{false, true} {
						args := []string{"."}
						if post {
							args = append(args, "-depth")
						}
						want, _ := runFind(t, find, dir, args...)
						must(t, os.Chdir(dir))
						got := paths(collect(t, []string{"."}, Options{Workers: 1, MaxDepth: -1, PostOrder: post}))
						must(t, os.Chdir("/"))
						diffLists(t, fmt.Sprintf("PostOrder=%v", post), want, got)
					}
				})
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func mustOpen(t testing.TB, path string) int {
	t.Helper()
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	must(t, err)
	t.Cleanup(func() { unix.Close(fd) })
	return fd
}

// mkdeep builds a chain of levels directories with long names (the
// deepest path is far beyond PATH_MAX), working relative to descriptors
// as the walker must. Each level also holds a file and two side
// directories with a file each, named so that they are listed before the
// chain: a parallel walk (LIFO) goes down the chain first while the side
// directories wait, and their parents' descriptors with them.
func mkdeep(t testing.TB, root string, levels int, chain string) (entries int) {
	t.Helper()
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	must(t, err)
	entries = 1
	for i := 0; i < levels; i++ {
		must(t, unix.Mkdirat(fd, chain, 0o755))
		// Readdir order is the file system's (hash order on ext4):
		// try side names until both come before the chain.
		for try := 0; ; try++ {
			sides := []string{fmt.Sprintf("a%d.%d", i, try), fmt.Sprintf("b%d.%d", i, try)}
			for _, n := range sides {
				must(t, unix.Mkdirat(fd, n, 0o755))
			}
			order := readdirOrder(t, fd)
			if slices.Index(order, chain) > max(slices.Index(order, sides[0]), slices.Index(order, sides[1])) || try == 100 {
				for _, n := range sides {
					f, err := unix.Openat(fd, n+"/f", unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
					must(t, err)
					unix.Close(f)
				}
				break
			}
			for _, n := range sides {
				must(t, unix.Unlinkat(fd, n, unix.AT_REMOVEDIR))
			}
		}
		f, err := unix.Openat(fd, "file", unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
		must(t, err)
		unix.Close(f)
		entries += 6
		nfd, err := unix.Openat(fd, chain, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		must(t, err)
		unix.Close(fd)
		fd = nfd
	}
	unix.Close(fd)
	return entries
}

// TestDeepTreeFewDescriptors: a tree deeper than PATH_MAX is walked
// completely with RLIMIT_NOFILE 32, in both modes and both orders.
func TestDeepTreeFewDescriptors(t *testing.T) {
	root := fastTempDir(t)
	levels, name := 2000, "dddd"
	if !testtool.Soak() { // still deeper than PATH_MAX and RLIMIT_NOFILE
		levels, name = 300, strings.Repeat("d", 50)
	}
	entries := mkdeep(t, root, levels, name)
	var gnu, gnuDepth childSummary
	if p, err := testtool.GNUFindErr(); err != nil {
		testtool.Lacking(t, "GNU find", "findutils", err)
	} else {
		summarize := func(paths []string) childSummary {
			h := newPathHash()
			for _, p := range paths {
				h.add([]byte(p))
			}
			return h.summary()
		}
		paths, _ := runFind(t, p, root, ".")
		gnu = summarize(paths)
		paths, _ = runFind(t, p, root, ".", "-depth")
		gnuDepth = summarize(paths)
		if gnu.N != entries {
			t.Fatalf("GNU find lists %d files, want %d", gnu.N, entries)
		}
	}
	for _, workers := range []int{1, 2, 4} {
		for _, post := range []bool{false, true} {
			t.Run(fmt.Sprintf("workers=%d/depth=%v", workers, post), func(t *testing.T) {
				var sum childSummary
				a := childArgs{
					Roots:  []string{"."},
					Opt:    Options{Workers: workers, MaxDepth: -1, PostOrder: post},
					NoFile: 32,
					Dir:    root,
					// Keep the thieves busy in side directories, so
					// that the chain's descriptors pile up.
					SlowName: slowIf(workers > 1, "f"),
					Summary:  true,
				}
				out := runChildRaw(t, a, nil)
				must(t, json.Unmarshal(out, &sum))
				if len(sum.Errors) > 0 {
					t.Fatalf("error entry: %v", sum.Errors[0])
				}
				if sum.N != entries {
					t.Fatalf("%d visits, want %d", sum.N, entries)
				}
				want := gnu
				if post {
					want = gnuDepth
				}
				if want.N == 0 {
					return // no GNU find to compare with
				}
				if sum.Sorted != want.Sorted {
					t.Errorf("the paths differ from GNU find's")
				}
				if workers == 1 && sum.Ordered != want.Ordered {
					t.Errorf("the order differs from GNU find's")
				}
			})
		}
	}
}

func slowIf(b bool, name string) string {
	if b {
		return name
	}
	return ""
}

// asNobody is the credential of the tests that need EACCES (root
// bypasses permissions).
var asNobody = &syscall.Credential{Uid: 65534, Gid: 65534, Groups: []uint32{}}

// TestPermissionDenied: an unreadable directory is visited, then reported
// (before its post-order visit under PostOrder), as GNU find does.
func TestPermissionDenied(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to switch to uid 65534")
	}
	root := t.TempDir()
	must(t, os.Chmod(root, 0o755))
	must(t, os.Chmod(filepath.Dir(root), 0o755))
	mk(t, root, "e/", "d/f", "d/u/x", "loop->loop", "e/up->..", "dangle->nowhere")
	must(t, os.Chmod(filepath.Join(root, "d/u"), 0o700))

	// What GNU find printed for this tree in the order of one file
	// system; the order is checked against GNU find itself when it can
	// be run here, and otherwise only the set.
	pre := []string{".", "./e", "./e/up", "./loop", "./dangle", "./d", "./d/f", "./d/u", "ERR ./d/u: Permission denied"}
	post := []string{"./e/up", "./e", "./loop", "./dangle", "./d/f", "ERR ./d/u: Permission denied", "./d/u", "./d", "."}
	ordered := false
	find, err := testtool.GNUFindErr()
	if err != nil {
		testtool.Lacking(t, "GNU find", "findutils", err)
	} else if stdbuf, ok := testtool.Want(t, "stdbuf", "coreutils"); ok {
		pre, post, ordered = findAs(t, stdbuf, find, root), findAs(t, stdbuf, find, root, "-depth"), true
	}
	for _, workers := range []int{1, 3} {
		for _, depth := range []bool{false, true} {
			t.Run(fmt.Sprintf("workers=%d/depth=%v", workers, depth), func(t *testing.T) {
				rs := runChild(t, childArgs{Roots: []string{"."}, Opt: Options{Workers: workers, MaxDepth: -1, PostOrder: depth}, Dir: root}, asNobody)
				var got []string
				for _, r := range rs {
					if r.Err != "" {
						got = append(got, "ERR "+r.Path+": "+r.Err)
					} else {
						got = append(got, r.Path)
					}
				}
				want := pre
				if depth {
					want = post
				}
				if workers > 1 || !ordered {
					want, got = slices.Sorted(slices.Values(want)), slices.Sorted(slices.Values(got))
					// Only the relative order of the error and the
					// post-order visit is fixed.
					if depth {
						i, j := slices.Index(rsPaths(rs), "./d/u"), slices.IndexFunc(rs, func(r record) bool { return r.Err != "" })
						if j < 0 || i < j {
							t.Errorf("post-order visit of ./d/u at %d, error at %d", i, j)
						}
					}
				}
				diffLists(t, "walk", want, got)
			})
		}
	}
}

func rsPaths(rs []record) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		if r.Err == "" {
			out[i] = r.Path
		}
	}
	return out
}

// findAs runs GNU find as uid 65534, with an unbuffered stdout (stdbuf)
// so that its error lines keep their place among the paths, and returns
// its lines in the form the test uses.
func findAs(t *testing.T, stdbuf, find, dir string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(stdbuf, append([]string{"-o0", find, "."}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: asNobody}
	var out strings.Builder
	cmd.Stdout = &out
	cmd.Stderr = &out
	_ = cmd.Run() // exit status 1: the error
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if i := strings.Index(l, "find: '"); i >= 0 {
			// /usr/bin/find: './d/u': Permission denied
			l = l[i+len("find: '"):]
			j := strings.Index(l, "': ")
			l = "ERR " + l[:j] + ": " + l[j+3:]
		}
		lines = append(lines, l)
	}
	return lines
}

// TestMissingRoot: a root that cannot be reached is one error entry.
func TestMissingRoot(t *testing.T) {
	for _, workers := range []int{1, 2} {
		var got []record
		var err error
		for _, follow := range []Follow{FollowNever, FollowAll} {
			got = collect(t, []string{"/nonexistent/nothere", ""}, Options{Workers: workers, MaxDepth: -1, Follow: follow})
			if len(got) != 2 {
				t.Fatalf("visits %v, want two errors", got)
			}
			for _, r := range got {
				if r.Err != "No such file or directory" {
					t.Errorf("%v: want ENOENT", r)
				}
			}
		}
		// The error is an *fs.PathError that unwraps to the errno.
		Walk([]string{"/nonexistent"}, Options{Workers: workers, MaxDepth: -1}, func(e *Entry) Action {
			err = e.Err
			return Continue
		})
		var pe *fs.PathError
		if !errors.As(err, &pe) || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Err = %#v, want a *fs.PathError for ENOENT", err)
		}
	}
}

// TestFollowLoops: under -L, a link to an ancestor is a LoopError, a link
// to itself is ELOOP, a dangling link is visited as a link.
func TestFollowLoops(t *testing.T) {
	root := t.TempDir()
	mk(t, root, "e/up->..", "loop->loop", "dangle->nowhere", "d/f", "tod->d")
	must(t, os.Chdir(root))
	defer os.Chdir("/")
	for _, workers := range []int{1, 2} {
		for _, post := range []bool{false, true} {
			rs := collect(t, []string{"."}, Options{Workers: workers, MaxDepth: -1, Follow: FollowAll, PostOrder: post})
			want := []string{
				`"." type=2 depth=0`,
				`"./d" type=2 depth=1`,
				`"./d/f" type=1 depth=2`,
				`"./dangle" type=3 depth=1`,
				`"./e" type=2 depth=1`,
				`"./e/up" type=0 depth=2 err=File system loop detected; the following directory is part of the cycle: ./e/up`,
				`"./loop" type=0 depth=1 err=Too many levels of symbolic links`,
				`"./tod" type=2 depth=1`,
				`"./tod/f" type=1 depth=2`,
			}
			if post {
				for i, w := range want {
					if strings.Contains(w, "type=2") {
						want[i] = w + " post"
					}
				}
				slices.Sort(want)
			}
			for i := range rs {
				if rs[i].Err != "" {
					rs[i].Type = 0 // an error Entry's Type means nothing
				}
			}
			diffLists(t, fmt.Sprintf("workers=%d depth=%v", workers, post), want, sortedRecords(rs))
		}
	}
}

// TestStop: after Stop, no more visits, in any mode, and nothing leaks.
func TestStop(t *testing.T) {
	root := t.TempDir()
	for i := range 20 {
		mk(t, root, fmt.Sprintf("d%d/e/f/g/file", i), fmt.Sprintf("d%d/x", i))
	}
	for _, workers := range []int{1, 2, 8} {
		for _, post := range []bool{false, true} {
			defer checkNoLeak(t)()
			var n, after atomic.Int32
			var stopped atomic.Bool
			Walk([]string{root}, Options{Workers: workers, MaxDepth: -1, PostOrder: post}, func(e *Entry) Action {
				if stopped.Load() {
					after.Add(1)
				}
				if n.Add(1) == 5 {
					stopped.Store(true)
					return Stop
				}
				return Continue
			})
			// Workers already inside visit may finish their call.
			if a := after.Load(); a >= int32(workers) {
				t.Errorf("workers=%d depth=%v: %d visits after Stop", workers, post, a)
			}
		}
	}
}

// TestPrune: a pruned directory is visited but not read.
func TestPrune(t *testing.T) {
	root := t.TempDir()
	mk(t, root, "a/b/c", "a/x", "p/q/r", "p/s", "z")
	for _, workers := range []int{1, 4} {
		rs := collect(t, []string{root}, Options{Workers: workers, MaxDepth: -1})
		if len(rs) != 10 {
			t.Fatalf("%d visits, want 10", len(rs))
		}
		var mu sync.Mutex
		var got []string
		Walk([]string{root}, Options{Workers: workers, MaxDepth: -1}, func(e *Entry) Action {
			rel, _ := filepath.Rel(root, string(e.Path))
			mu.Lock()
			got = append(got, rel)
			mu.Unlock()
			if rel == "p" || rel == "a/b" {
				return Prune
			}
			return Continue
		})
		slices.Sort(got)
		diffLists(t, "prune", []string{".", "a", "a/b", "a/x", "p", "z"}, got)
	}
}

// TestDepthLimits: MaxDepth stops reading, MinDepth only hides.
func TestDepthLimits(t *testing.T) {
	root := t.TempDir()
	mk(t, root, "1/2/3/4/5", "1/f")
	for _, workers := range []int{1, 3} {
		for _, tc := range []struct{ min, max, n int }{
			{0, -1, 7}, {0, 0, 1}, {0, 2, 4}, {2, -1, 5}, {2, 3, 3}, {4, 3, 0}, {6, -1, 0},
		} {
			for _, post := range []bool{false, true} {
				rs := collect(t, []string{root}, Options{Workers: workers, MinDepth: tc.min, MaxDepth: tc.max, PostOrder: post})
				if len(rs) != tc.n {
					t.Errorf("workers=%d min=%d max=%d depth=%v: %d visits, want %d: %v", workers, tc.min, tc.max, post, len(rs), tc.n, rs)
				}
				for _, r := range rs {
					if r.Depth < tc.min || tc.max >= 0 && r.Depth > tc.max {
						t.Errorf("visit at depth %d outside [%d, %d]", r.Depth, tc.min, tc.max)
					}
					if r.PostOrder != (post && r.Type == TypeDir) {
						t.Errorf("%v: PostOrder = %v", r, r.PostOrder)
					}
				}
			}
		}
	}
}

// relPaths gives the visits' paths relative to root, sorted, errors
// marked.
func relPaths(root string, rs []record) []string {
	out := orderedRel(root, rs)
	slices.Sort(out)
	return out
}

// orderedRel is relPaths in visit order.
func orderedRel(root string, rs []record) []string {
	var out []string
	for _, r := range rs {
		rel, _ := filepath.Rel(root, r.Path)
		if r.Err != "" {
			rel = "ERR " + rel + ": " + strings.ReplaceAll(r.Err, root, "ROOT")
		}
		out = append(out, rel)
	}
	return out
}

// TestIgnoreReaddirRace: a directory removed between the read of its
// parent and its own open is reported, or silently skipped with
// IgnoreReaddirRace.
func TestIgnoreReaddirRace(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		root := t.TempDir()
		mk(t, root, "a/", "b/", "c/")
		var got []string
		// Serial mode reads the whole directory before visiting: the
		// first visit removes its siblings, which were read already.
		Walk([]string{root}, Options{Workers: 1, MaxDepth: -1, IgnoreReaddirRace: ignore}, func(e *Entry) Action {
			if e.Depth == 1 && len(got) == 1 {
				for _, n := range []string{"a", "b", "c"} {
					if n != string(e.Name()) {
						os.Remove(filepath.Join(root, n))
					}
				}
			}
			s := string(e.Name())
			if e.Err != nil {
				s = "ERR " + s + ": " + errText(e.Err)
			}
			got = append(got, s)
			return Continue
		})
		// The removed siblings were read, so they are still visited
		// (their names came from the read), but cannot be opened.
		errs := 0
		for _, g := range got {
			if strings.HasPrefix(g, "ERR") {
				errs++
				if !strings.HasSuffix(g, "No such file or directory") {
					t.Errorf("%s", g)
				}
			}
		}
		want := 2
		if ignore {
			want = 0
		}
		if errs != want || len(got) != 4+errs {
			t.Errorf("IgnoreReaddirRace=%v: %q", ignore, got)
		}
	}
}

// TestEntryMethods: the lazy stats, Readlink, DirFD and AtName.
func TestEntryMethods(t *testing.T) {
	root := t.TempDir()
	mk(t, root, "f=hello", "l->f", "dl->nothere", "d/")
	for _, follow := range []Follow{FollowNever, FollowAll} {
		seen := 0
		Walk([]string{root}, Options{Workers: 1, MaxDepth: -1, Follow: follow}, func(e *Entry) Action {
			if e.Err != nil {
				t.Errorf("%s: %v", e.Path, e.Err)
				return Continue
			}
			seen++
			lst, lerr := e.Lstat()
			st, serr := e.Stat()
			name := string(e.Name())
			if e.Depth == 0 {
				if e.DirFD() != unix.AT_FDCWD || string(e.AtName()) != root {
					t.Errorf("root: DirFD %d AtName %q", e.DirFD(), e.AtName())
				}
				return Continue
			}
			if string(e.AtName()) != name {
				t.Errorf("AtName %q, want %q", e.AtName(), name)
			}
			var st2 unix.Stat_t
			if err := unix.Fstatat(e.DirFD(), name, &st2, unix.AT_SYMLINK_NOFOLLOW); err != nil || st2.Ino != lst.Ino {
				t.Errorf("%s: fstatat(DirFD, AtName) = %v, ino %d, want %d", name, err, st2.Ino, lst.Ino)
			}
			if lerr != nil {
				t.Errorf("%s: Lstat: %v", name, lerr)
			}
			switch name {
			case "f":
				if serr != nil || st.Size != 5 || e.Type != TypeRegular {
					t.Errorf("f: %v %d %v", serr, st.Size, e.Type)
				}
			case "l":
				if lst.Mode&unix.S_IFMT != unix.S_IFLNK || serr != nil || st.Size != 5 {
					t.Errorf("l: Lstat mode %o, Stat %v size %d", lst.Mode, serr, st.Size)
				}
				want := TypeSymlink
				if follow == FollowAll {
					want = TypeRegular
				}
				if e.Type != want {
					t.Errorf("l: Type %v, want %v", e.Type, want)
				}
				if target, err := e.Readlink(); err != nil || string(target) != "f" {
					t.Errorf("l: Readlink %q %v", target, err)
				}
			case "dl":
				if e.Type != TypeSymlink || !errors.Is(serr, fs.ErrNotExist) || st.Mode&unix.S_IFMT != unix.S_IFLNK {
					t.Errorf("dl: Type %v Stat %v mode %o", e.Type, serr, st.Mode)
				}
				if target, err := e.Readlink(); err != nil || string(target) != "nothere" {
					t.Errorf("dl: Readlink %q %v", target, err)
				}
			case "d":
				if e.Type != TypeDir || st.Mode&unix.S_IFMT != unix.S_IFDIR {
					t.Errorf("d: %v %o", e.Type, st.Mode)
				}
			}
			return Continue
		})
		if seen != 5 {
			t.Errorf("follow=%v: %d visits", follow, seen)
		}
	}
}

// TestSynthetic: Entries for tests of other packages never touch the
// disk.
func TestSynthetic(t *testing.T) {
	st := &unix.Stat_t{Size: 42, Mode: unix.S_IFREG}
	e := Synthetic("a/b/c.txt", 2, TypeRegular, st, nil)
	if string(e.Name()) != "c.txt" || e.Depth != 2 {
		t.Errorf("Name %q Depth %d", e.Name(), e.Depth)
	}
	if s, err := e.Lstat(); err != nil || s.Size != 42 {
		t.Errorf("Lstat %v %v", s, err)
	}
	if s, err := e.Stat(); err != nil || s.Size != 42 {
		t.Errorf("Stat %v %v", s, err)
	}
	if _, err := e.Readlink(); err == nil {
		t.Error("Readlink of a Synthetic Entry did not fail")
	}
	e = Synthetic("gone", 0, TypeUnknown, nil, nil)
	if _, err := e.Lstat(); err != unix.ENOENT {
		t.Errorf("Lstat err %v", err)
	}
}

var benchDir = flag.String("benchdir", runtime.GOROOT(), "directory tree to walk in benchmarks")

func BenchmarkWalk(b *testing.B) {
	for _, workers := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.ReportAllocs()
			var files atomic.Int64
			count := func(*Entry) Action { files.Add(1); return Continue }
			for b.Loop() {
				if err := Walk([]string{*benchDir}, Options{Workers: workers, MaxDepth: -1}, count); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(files.Load())/float64(b.N), "files/op")
		})
	}
}

// BenchmarkWalkStat is the stat-heavy workload (find -type f -size +0):
// one Lstat per regular file, relative to the open parent.
func BenchmarkWalkStat(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.ReportAllocs()
			var files atomic.Int64
			count := func(e *Entry) Action {
				if e.Type == TypeRegular {
					if st, err := e.Lstat(); err == nil && st.Size > 0 {
						files.Add(1)
					}
				}
				return Continue
			}
			for b.Loop() {
				if err := Walk([]string{*benchDir}, Options{Workers: workers, MaxDepth: -1}, count); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(files.Load())/float64(b.N), "files/op")
		})
	}
}

// Compare: go test ./walker -run '^$' -bench Walk -count 10 > new.txt && benchstat old.txt new.txt

// TestSortByInode checks both ways of the inode sort (packed keys, and
// the comparison sort for inode numbers of 2^40 and more) against a
// stable sort, ties included.
func TestSortByInode(t *testing.T) {
	for _, big := range []bool{false, true} {
		var raw rawList
		var inos []uint64
		for i := range 5000 {
			ino := uint64((i * 7919) % 1000) // many ties: hard links
			if big {
				ino += 1 << 50
			}
			name := fmt.Sprintf("n%d", i)
			reclen := (int(direntName) + len(name) + 1 + 7) &^ 7
			if len(raw.chunks) == 0 || len(raw.chunks[len(raw.chunks)-1])+reclen > direntBufSize {
				raw.chunks = append(raw.chunks, make([]byte, 0, direntBufSize))
			}
			ci := len(raw.chunks) - 1
			rec := make([]byte, reclen)
			*(*uint64)(unsafe.Pointer(&rec[direntIno])) = ino
			*(*uint16)(unsafe.Pointer(&rec[d64Reclen])) = uint16(reclen)
			copy(rec[direntName:], name)
			raw.ents = append(raw.ents, sortEnt{off: uint32(ci<<chunkShift | len(raw.chunks[ci])), nlen: uint16(len(name))})
			raw.chunks[ci] = append(raw.chunks[ci], rec...)
			inos = append(inos, ino)
		}
		// Each record's inode, by its offset (unique): a lookup, not a
		// search of the list per comparison.
		inoOf := make(map[uint32]uint64, len(raw.ents))
		for i, e := range raw.ents {
			inoOf[e.off] = inos[i]
		}
		want := slices.Clone(raw.ents)
		slices.SortStableFunc(want, func(a, b sortEnt) int {
			return cmp.Compare(inoOf[a.off], inoOf[b.off])
		})
		raw.sortByInode(&sortScratch{})
		if !slices.Equal(raw.ents, want) {
			t.Errorf("big=%v: order differs from a stable sort by inode", big)
		}
	}
}

// TestRootOrderParallel checks that the starting points are visited in
// command-line order even with several workers, errors included, as GNU
// find visits them: "nosuch . -quit" must report nosuch first.
func TestRootOrderParallel(t *testing.T) {
	dir := t.TempDir()
	var roots []string
	for i := 0; i < 6; i++ {
		r := filepath.Join(dir, fmt.Sprintf("r%d", i))
		if i%3 == 1 {
			r += "-missing"
		} else {
			for j := 0; j < 50; j++ {
				if err := os.MkdirAll(filepath.Join(r, fmt.Sprintf("d%d", j)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
		}
		roots = append(roots, r)
	}
	for round := 0; round < 20; round++ {
		var mu sync.Mutex
		var got []string
		err := Walk(roots, Options{Workers: 4, MaxDepth: -1}, func(e *Entry) Action {
			if e.Depth == 0 {
				mu.Lock()
				got = append(got, string(e.Path))
				mu.Unlock()
			}
			return Continue
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, roots) {
			t.Fatalf("round %d: starting points visited in order %q, want %q", round, got, roots)
		}
	}
}

// TestResumeAfterEviction: the serial walk reads a directory of more
// than one of fts's batches (ftsMaxReaddirEntries), walks the
// subdirectories of the first batch, chains deep enough to evict the
// big directory's descriptor under RLIMIT_NOFILE 32, and then reads the
// rest of it on a reopened descriptor, from where the evicted one was
// (tellDir, seekDir: a kernel offset, or a count of records under the
// portable stream reader). Every file must be visited once, in GNU
// find's order.
func TestResumeAfterEviction(t *testing.T) {
	root := fastTempDir(t)
	big := filepath.Join(root, "big")
	must(t, os.Mkdir(big, 0o755))
	fd, err := unix.Open(big, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	must(t, err)
	files := ftsMaxReaddirEntries + 300
	for i := range files {
		f, err := unix.Openat(fd, fmt.Sprintf("f%06d", i), unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
		must(t, err)
		unix.Close(f)
	}
	unix.Close(fd)
	// Chains in several places of the readdir order, so that some are
	// in the first batch whatever the file system's order.
	entries := 2 + files
	const chains, levels = 8, 40
	for c := range chains {
		p := filepath.Join(big, fmt.Sprintf("c%d", c))
		must(t, os.MkdirAll(p+strings.Repeat("/d", levels-1), 0o755))
		entries += levels
	}
	p, err := testtool.GNUFindErr()
	if err != nil {
		testtool.Lacking(t, "GNU find", "findutils", err)
	}
	h := newPathHash()
	paths, _ := runFind(t, p, root, ".")
	for _, p := range paths {
		h.add([]byte(p))
	}
	gnu := h.summary()
	if gnu.N != entries {
		t.Fatalf("GNU find lists %d files, want %d", gnu.N, entries)
	}
	var sum childSummary
	out := runChildRaw(t, childArgs{Roots: []string{"."}, Opt: Options{Workers: 1, MaxDepth: -1}, NoFile: 32, Dir: root, Summary: true}, nil)
	must(t, json.Unmarshal(out, &sum))
	if len(sum.Errors) > 0 {
		t.Fatalf("error entry: %v", sum.Errors[0])
	}
	if sum.N != entries || sum.Sorted != gnu.Sorted {
		t.Fatalf("%d visits, want %d (the same paths as GNU find's: %v)", sum.N, entries, sum.Sorted == gnu.Sorted)
	}
	if sum.Ordered != gnu.Ordered {
		t.Errorf("the order differs from GNU find's")
	}
}
