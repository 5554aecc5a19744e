package walker

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
	"golang.org/x/sys/unix"
)

// testOrdered is an Ordered as output's Reorder is, kept simple: each
// Seq keeps what its visits output until it is the head, when it goes
// out, in order; the head's output goes straight out. Step reports a
// Seq full once it has captured limit bytes (0: never). It fails the
// test when the walker misuses it: a visit outside a Seq or in one
// reported full, a Seq begun twice, an End without a Begin, a Seq never
// ended (its output lost).
type testOrdered struct {
	t     testing.TB
	limit int
	mu    sync.Mutex // everything below
	head  *testSeq   // the first Seq not written
	cur   [][]*testSeq
	out   []byte
	// stopped: nothing more is written, as output's Sink after a Stop.
	stopped bool
	started bool // the walk uses o (not with one worker, nor PostOrder)
}

// testSeq is a Seq of a testOrdered.
type testSeq struct {
	next        *testSeq
	buf         []byte // captured
	begun, done bool
	full        bool // Step reported it full
	head        atomic.Bool
}

func (s *testSeq) Head() bool { return s.head.Load() }

// testOrderedLimit is the limit of the testOrdereds made from now on.
var testOrderedLimit int

func newTestOrdered(t testing.TB, workers int) *testOrdered {
	return &testOrdered{t: t, limit: testOrderedLimit, cur: make([][]*testSeq, workers)}
}

func (o *testOrdered) Start() Seq {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.started {
		o.errorf("Start twice")
	}
	o.started = true
	o.head = &testSeq{}
	o.head.head.Store(true)
	return o.head
}

func (o *testOrdered) After(s Seq) (Seq, Seq) {
	o.mu.Lock()
	defer o.mu.Unlock()
	p := s.(*testSeq)
	if p.done {
		o.errorf("After an ended Seq")
	}
	a, b := &testSeq{}, &testSeq{}
	a.next, b.next, p.next = b, p.next, a
	return a, b
}

func (o *testOrdered) Begin(w int, s Seq) {
	o.mu.Lock()
	defer o.mu.Unlock()
	x := s.(*testSeq)
	if x.begun {
		o.errorf("worker %d: a Seq begun twice", w)
	}
	x.begun = true
	o.cur[w] = append(o.cur[w], x)
}

func (o *testOrdered) End(w int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := len(o.cur[w])
	if n == 0 {
		o.errorf("worker %d: End without Begin", w)
		return false
	}
	o.cur[w][n-1].done = true
	o.cur[w] = o.cur[w][:n-1]
	moved := false
	for o.head != nil && o.head.done {
		o.head = o.head.next
		moved = true
		if o.head != nil {
			o.write(o.head.buf)
			o.head.buf = nil
			o.head.head.Store(true)
		}
	}
	return moved
}

func (o *testOrdered) Step(w int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := len(o.cur[w])
	if n == 0 {
		o.errorf("worker %d: Step outside a Seq", w)
		return false
	}
	s := o.cur[w][n-1]
	s.full = !s.head.Load() && o.limit > 0 && len(s.buf) >= o.limit
	return s.full
}

// write outputs p unless stopped; o.mu is held.
func (o *testOrdered) write(p []byte) {
	if !o.stopped {
		o.out = append(o.out, p...)
	}
}

// stop makes o write nothing more: a visit that returns Stop calls it
// first, as gfind's visits return Stop once the Sink is stopped.
func (o *testOrdered) stop() {
	o.mu.Lock()
	o.stopped = true
	o.mu.Unlock()
}

// check reports, once the walk is over, a Seq not ended.
func (o *testOrdered) check() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for w, c := range o.cur {
		if len(c) > 0 {
			return fmt.Errorf("worker %d: %d Seqs not ended after the walk", w, len(c))
		}
	}
	if o.head != nil {
		return fmt.Errorf("a Seq not ended after the walk: its output and the rest are lost")
	}
	return nil
}

// errorf fails the test, or (in a child process, t nil) panics.
func (o *testOrdered) errorf(format string, args ...any) {
	if o.t == nil {
		panic(fmt.Sprintf(format, args...))
	}
	o.t.Errorf(format, args...)
}

// output is what a visit prints.
func (o *testOrdered) output(e *Entry, line string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.started {
		o.write([]byte(line)) // the walk visits in order
		return
	}
	n := len(o.cur[e.Worker])
	if n == 0 {
		o.errorf("%s: visited by worker %d outside a Seq", e.Path, e.Worker)
		return
	}
	s := o.cur[e.Worker][n-1]
	switch {
	case s.full:
		o.errorf("%s: visited by worker %d in a Seq reported full", e.Path, e.Worker)
	case s.head.Load():
		o.write([]byte(line))
	default:
		s.buf = append(s.buf, line...)
	}
}

// orderedSlowName: orderedWalk's visits of files of this name take 50µs,
// to keep a worker busy while others ask for work.
var orderedSlowName string

// orderedWalk walks roots with Sort and, if ordered, Options.Ordered,
// and returns the lines output in order (one per visit without error)
// and the errors, sorted.
func orderedWalk(t *testing.T, roots []string, opt Options, ordered bool, prune func(string) bool) (out, errs []string) {
	t.Helper()
	opt.Sort = true
	o := newTestOrdered(t, max(1, opt.Workers))
	if ordered {
		opt.Ordered = o
	}
	var mu sync.Mutex
	err := Walk(roots, opt, func(e *Entry) Action {
		if e.Worker < 0 || e.Worker >= max(1, opt.Workers) {
			t.Errorf("%s: Worker %d of %d", e.Path, e.Worker, opt.Workers)
			return Stop
		}
		if e.Err != nil {
			mu.Lock()
			errs = append(errs, fmt.Sprintf("%q: %s", e.Path, errText(e.Err)))
			mu.Unlock()
			return Continue
		}
		if orderedSlowName != "" && string(e.Name()) == orderedSlowName {
			time.Sleep(50 * time.Microsecond)
		}
		// The descriptor is valid for the visit, also ahead of the
		// walk's order.
		var st unix.Stat_t
		if err := unix.Fstatat(e.DirFD(), string(e.AtName()), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			t.Errorf("%s: fstatat(DirFD, AtName): %v", e.Path, err)
		}
		o.output(e, fmt.Sprintf("%q type=%d depth=%d post=%v\n", e.Path, e.Type, e.Depth, e.PostOrder))
		if prune != nil && !e.PostOrder && prune(string(e.Path)) {
			return Prune
		}
		return Continue
	})
	must(t, err)
	if ordered {
		if err := o.check(); err != nil {
			t.Error(err)
		}
	}
	out = strings.SplitAfter(string(o.out), "\n")
	slices.Sort(errs)
	return out[:len(out)-1], errs
}

// TestSortedOrdered: with Options.Ordered, the visits made ahead of the
// walk's order, on every worker, give the output of the walk that visits
// in order, line for line, and the same errors; for links followed,
// loops, pruning, depth limits and devices.
func TestSortedOrdered(t *testing.T) {
	root := weirdTree(t)
	mk(t, root, "e/up->..", "loop->loop", "tod->a")
	big := testtree.Make(t, testtree.Basic, testtree.WeirdNames, testtree.Wide(2000))
	for i := range 200 {
		mk(t, big, fmt.Sprintf("many/d%03d/sub%d/f", (i*37)%200, i%7), fmt.Sprintf("many/f%d", i))
	}
	// Enough directories for nodes to be recycled many times over
	// while the walk goes on.
	for i := range 30 {
		for j := range 30 {
			mk(t, big, fmt.Sprintf("r%02d/s%02d/t/f", i, j))
		}
	}
	pruned := func(p string) bool {
		return strings.HasSuffix(p, "/a") || strings.HasSuffix(p, "/sub3") || strings.HasSuffix(p, "/d007")
	}
	for _, tc := range []struct {
		name  string
		opt   Options
		prune func(string) bool
	}{
		{"default", Options{MaxDepth: -1}, nil},
		{"follow", Options{MaxDepth: -1, Follow: FollowAll}, nil},
		{"follow-roots", Options{MaxDepth: -1, Follow: FollowRoots}, nil},
		{"xdev", Options{MaxDepth: -1, XDev: true}, nil},
		{"maxdepth2", Options{MaxDepth: 2}, nil},
		{"maxdepth0", Options{MaxDepth: 0}, nil},
		{"mindepth2", Options{MinDepth: 2, MaxDepth: -1}, nil},
		{"prune", Options{MaxDepth: -1}, pruned},
		{"prune-follow", Options{MaxDepth: -1, Follow: FollowAll}, pruned},
		// Ignored under PostOrder: the same visits.
		{"depth", Options{MaxDepth: -1, PostOrder: true}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			roots := []string{root, root + "/links/todir", root + "/nothere", root + "/a/", big}
			opt := tc.opt
			opt.Workers = 2
			want, wantErrs := orderedWalk(t, roots, opt, false, tc.prune)
			if len(want) < 2 && opt.MaxDepth != 0 {
				t.Fatalf("reference has %d visits", len(want))
			}
			for _, workers := range []int{1, 2, 8} {
				for round := range 3 {
					defer checkNoLeak(t)()
					opt.Workers = workers
					got, errs := orderedWalk(t, roots, opt, true, tc.prune)
					what := fmt.Sprintf("workers=%d round=%d", workers, round)
					diffLists(t, what, want, got)
					diffLists(t, what+" errors", wantErrs, errs)
				}
			}
		})
	}
}

// TestSortedOrderedStop: a Stop made ahead of the walk's order ends the
// walk soon, with nothing leaked, and what was output is a prefix of the
// full output.
func TestSortedOrderedStop(t *testing.T) {
	root := testtree.Make(t, testtree.Basic, testtree.Wide(500))
	for i := range 50 {
		mk(t, root, fmt.Sprintf("d%02d/e/f/g/file", i), fmt.Sprintf("d%02d/x", i))
	}
	full, _ := orderedWalk(t, []string{root}, Options{Workers: 2, MaxDepth: -1}, false, nil)
	for _, stopAt := range []int{1, 50, 400} {
		for _, workers := range []int{2, 8} {
			defer checkNoLeak(t)()
			o := newTestOrdered(t, workers)
			var mu sync.Mutex
			n := 0
			Walk([]string{root}, Options{Workers: workers, MaxDepth: -1, Sort: true, Ordered: o}, func(e *Entry) Action {
				o.output(e, fmt.Sprintf("%q type=%d depth=%d post=%v\n", e.Path, e.Type, e.Depth, e.PostOrder))
				mu.Lock()
				defer mu.Unlock()
				if n++; n >= stopAt {
					o.stop()
					return Stop
				}
				return Continue
			})
			if err := o.check(); err != nil {
				t.Errorf("stop=%d workers=%d: %v", stopAt, workers, err)
			}
			got := strings.SplitAfter(string(o.out), "\n")
			got = got[:len(got)-1]
			if len(got) >= len(full) {
				t.Errorf("stop=%d workers=%d: %d lines output, of %d: the walk did not stop", stopAt, workers, len(got), len(full))
				continue
			}
			diffLists(t, fmt.Sprintf("stop=%d workers=%d prefix", stopAt, workers), full[:len(got)], got)
		}
	}
}

// TestSortedOrderedRecycled: in a tree of 1,364 directories, nodes are
// recycled many times over while goroutines read ahead; a reader's path
// must never lean on the directory it read last (which may have been
// recycled as another), or paths come out wrong.
func TestSortedOrderedRecycled(t *testing.T) {
	root := t.TempDir()
	var mkd func(p string, depth int)
	mkd = func(p string, depth int) {
		for i := range 4 {
			q := filepath.Join(p, fmt.Sprintf("d%d", i))
			must(t, os.Mkdir(q, 0o755))
			for j := range 3 {
				must(t, os.WriteFile(filepath.Join(q, fmt.Sprintf("f%d", j)), nil, 0o644))
			}
			if depth > 1 {
				mkd(q, depth-1)
			}
		}
	}
	mkd(root, 5)
	want, _ := orderedWalk(t, []string{root}, Options{Workers: 2, MaxDepth: -1}, false, nil)
	// The bug this guards against showed in about half the rounds.
	for round := range 5 {
		got, _ := orderedWalk(t, []string{root}, Options{Workers: 2, MaxDepth: -1}, true, nil)
		diffLists(t, fmt.Sprint("round ", round), want, got)
	}
}

// countOwned counts the owned walk's events (hookOwned) until the test
// ends.
func countOwned(t *testing.T) map[string]*atomic.Int64 {
	n := map[string]*atomic.Int64{"give": new(atomic.Int64), "range": new(atomic.Int64), "ask": new(atomic.Int64), "nest": new(atomic.Int64), "wait": new(atomic.Int64)}
	hookOwned = func(event string) { n[event].Add(1) }
	t.Cleanup(func() { hookOwned = nil })
	return n
}

// ownedTree makes a tree with many subdirectories at every level, for
// the owned walk to give away.
func ownedTree(t *testing.T) string {
	root := t.TempDir()
	for i := range 12 {
		for j := range 12 {
			for k := range 4 {
				mk(t, root, fmt.Sprintf("a%02d/b%02d/c%d/f1", i, j, k), fmt.Sprintf("a%02d/b%02d/c%d/f2", i, j, k),
					fmt.Sprintf("a%02d/b%02d/g%d", i, j, k), fmt.Sprintf("a%02d/h%d", i, j))
			}
		}
	}
	return root
}

// TestOwnedNest: with captured output bounded to a few hundred bytes, the
// workers of the owned walk nest all the time (walk subdirectories that
// come before their own while theirs waits), and the output is still the
// walk's, in order; likewise with the last resort (waiting) past
// ownedMaxNest levels.
func TestOwnedNest(t *testing.T) {
	root := ownedTree(t)
	want, _ := orderedWalk(t, []string{root}, Options{Workers: 2, MaxDepth: -1}, false, nil)
	nest := ownedMaxNest
	t.Cleanup(func() { ownedMaxNest, testOrderedLimit = nest, 0 })
	testOrderedLimit = 1024
	// The sorted walk runs no more goroutines than Ps: let there be 8.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	n := countOwned(t)
	for _, maxNest := range []int{16, 1} {
		ownedMaxNest = maxNest
		for _, workers := range []int{2, 3, 8} {
			for round := range 3 {
				defer checkNoLeak(t)()
				got, errs := orderedWalk(t, []string{root}, Options{Workers: workers, MaxDepth: -1}, true, nil)
				diffLists(t, fmt.Sprintf("maxNest=%d workers=%d round=%d", maxNest, workers, round), want, got)
				if len(errs) > 0 {
					t.Errorf("errors: %q", errs)
				}
			}
		}
	}
	if n["give"].Load() == 0 || n["nest"].Load() == 0 || n["wait"].Load() == 0 {
		t.Errorf("%d subdirectories given away, %d nested tasks, %d waits: the test does not test nesting", n["give"].Load(), n["nest"].Load(), n["wait"].Load())
	}
}

// TestOwnedGives: the owned walk gives subdirectories away (so that the
// other tests compare its output with something), and, in a chain of
// single subdirectories, none: the walk would change hands at every
// level.
func TestOwnedGives(t *testing.T) {
	n := countOwned(t)
	root := ownedTree(t)
	orderedSlowName = "f1"
	t.Cleanup(func() { orderedSlowName = "" })
	orderedWalk(t, []string{root}, Options{Workers: 2, MaxDepth: -1}, true, nil)
	if n["give"].Load() == 0 {
		t.Errorf("no subdirectory given away in %s", root)
	}
	chain := t.TempDir()
	p := chain
	for i := range 200 {
		p = filepath.Join(p, fmt.Sprintf("d%d", i))
		mk(t, p, "f1", "f2", "f3")
	}
	n["give"].Store(0)
	want, _ := orderedWalk(t, []string{chain}, Options{Workers: 2, MaxDepth: -1}, false, nil)
	got, _ := orderedWalk(t, []string{chain}, Options{Workers: 2, MaxDepth: -1}, true, nil)
	diffLists(t, "chain", want, got)
	if g := n["give"].Load(); g != 0 {
		t.Errorf("%d subdirectories of a chain given away, want 0", g)
	}
}

// TestOwnedRanges: a big leaf directory (read in many getdents calls) is
// shared among the workers by ranges of its records, and the output is
// still the walk's, line for line: with the default bounds, with captured
// output bounded to a few hundred bytes (the workers nest, and are given
// ranges that come before their own), and with a Stop in the middle of
// the directory (what was output is a prefix). A big directory with
// subdirectories among its files is shared by both ranges and
// subdirectories.
func TestOwnedRanges(t *testing.T) {
	root := t.TempDir()
	var spec []string
	for i := range 10000 {
		spec = append(spec, fmt.Sprintf("leaf/f%05d", (i*7919)%10000))
	}
	for i := range 6000 {
		spec = append(spec, fmt.Sprintf("mixed/f%05d", (i*7919)%6000))
		if i%40 == 20 {
			spec = append(spec, fmt.Sprintf("mixed/f%05dd/g1", i), fmt.Sprintf("mixed/f%05dd/g2", i))
		}
	}
	mk(t, root, spec...)
	roots := []string{root + "/leaf", root + "/mixed"}
	want, _ := orderedWalk(t, roots, Options{Workers: 2, MaxDepth: -1}, false, nil)
	if len(want) != 1+10000+1+6000+150*3 {
		t.Fatalf("reference has %d visits", len(want))
	}
	n := countOwned(t)
	// rangeWalk walks roots with the owned walk, each root's visit
	// waiting until a worker has asked for work, so that there is a
	// worker to share the directory with; it returns the output, in
	// lines, and stops at the visit of stopName.
	rangeWalk := func(workers int, stopName string) []string {
		o := newTestOrdered(t, workers)
		err := Walk(roots, Options{Workers: workers, MaxDepth: -1, Sort: true, Ordered: o}, func(e *Entry) Action {
			if e.Depth == 0 && !testtool.Poll(func() bool { return n["ask"].Load() > 0 }) {
				t.Errorf("waited %v for a worker to ask for work", testtool.WaitLimit)
			}
			o.output(e, fmt.Sprintf("%q type=%d depth=%d post=%v\n", e.Path, e.Type, e.Depth, e.PostOrder))
			if string(e.Name()) == stopName {
				o.stop()
				return Stop
			}
			return Continue
		})
		must(t, err)
		got := strings.SplitAfter(string(o.out), "\n")
		return got[:len(got)-1]
	}
	check := func(what string, workers int) {
		for round := range 3 {
			defer checkNoLeak(t)()
			diffLists(t, fmt.Sprintf("%s workers=%d round=%d", what, workers, round), want, rangeWalk(workers, ""))
			// Stops in the first and in the second half of leaf.
			for _, stop := range []string{"f02000", "f07000"} {
				got := rangeWalk(workers, stop)
				if len(got) >= len(want) {
					t.Errorf("%s workers=%d stop at %s: %d lines output, of %d: the walk did not stop", what, workers, stop, len(got), len(want))
					continue
				}
				diffLists(t, fmt.Sprintf("%s workers=%d stop at %s: prefix", what, workers, stop), want[:len(got)], got)
			}
		}
	}
	check("default", 2)
	if n["range"].Load() == 0 {
		t.Fatalf("no range given away: the test does not test sharing")
	}

	minRange := ownedMinRange
	t.Cleanup(func() { ownedMinRange, testOrderedLimit = minRange, 0 })
	testOrderedLimit, ownedMinRange = 1024, 64
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	n["range"].Store(0)
	n["nest"].Store(0)
	for _, workers := range []int{2, 3, 8} {
		check("small bounds", workers)
	}
	if n["range"].Load() == 0 || n["nest"].Load() == 0 {
		t.Errorf("%d ranges given away, %d nested tasks: the test does not test nested ranges", n["range"].Load(), n["nest"].Load())
	}
}

// TestOwnsSubtrees: the rule the engine is chosen by, and the caller
// makes its Ordered by: -s, visits before contents, more than one
// worker and P.
func TestOwnsSubtrees(t *testing.T) {
	multi := runtime.GOMAXPROCS(0) > 1
	for _, tt := range []struct {
		name string
		opt  Options
		want bool
	}{
		{"sorted, two workers", Options{Sort: true, Workers: 2}, multi},
		{"sorted, a worker per P", Options{Sort: true}, multi},
		{"sorted, one worker", Options{Sort: true, Workers: 1, MaxWorkers: 4}, false},
		{"unsorted", Options{Workers: 2}, false},
		{"post-order", Options{Sort: true, Workers: 2, PostOrder: true}, false},
	} {
		if got := tt.opt.OwnsSubtrees(); got != tt.want {
			t.Errorf("%s: OwnsSubtrees() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
