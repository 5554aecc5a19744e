package walker

import (
	"bytes"
	"cmp"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
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
	"testing"

	"github.com/gfind/gfind/internal/seam"
	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
	"golang.org/x/sys/unix"
)

// The engine matrix: every walker option through every scheduler, with
// 1, 2 and 8 workers, compared with the serial walk.
//
// A row is an engine and its policy with a worker count, selected
// through Options as walkImpl selects them:
//
//	serial    Workers 1, no Sort: the depth-first walk by fts batches,
//	          GNU find's order
//	parallel  Workers 2 or 8, no Sort: work stealing, order unspecified
//	sorted    Sort: the depth-first walk by name, one goroutine, name
//	          order for any count
//	owned     Sort and Ordered: workers own subtrees (the depth-first
//	          walk by name with a giver), output captured and written
//	          in name order (with one worker, and under PostOrder,
//	          Ordered is ignored: the sorted walk runs)
//
// What a row must give is derived from the serial walk. For the options
// that only take visits away (Prune, the depth limits, XDev,
// IgnoreReaddirRace, the descriptor budget) it is the serial walk
// without that option, filtered by a model of the option: so the serial
// row is checked too, and breaking one scheduler's handling of an option
// fails that scheduler's rows only. For the others (links followed,
// PostOrder, loops, vanished and swapped directories) it is the serial
// walk's records, which TestSerialOrderGNU and TestSwappedDirectory
// check, and a check of the case states what they must hold.
//
// Records are (path, depth, type, post-order, error kind). The parallel
// rows are compared as sets, the serial row in its order, the sorted and
// owned rows in the serial records' name order (nameOrder), which they
// promise for any number of workers. After a Stop the serial and sorted
// walks must have visited exactly the walk up to the visit that
// returned it; the parallel and owned walks some of the walk's records,
// that visit included, with at most one visit begun after it per other
// worker, and the owned walk's output must be a prefix of the walk up to
// it (captured output not yet written when the walk stops is dropped).

// errKind names an error Entry's error: the operation and errno name,
// a loop and its ancestor, or a changed directory.
func errKind(err error, base string) string {
	var le *LoopError
	var pe *fs.PathError
	var en unix.Errno
	switch {
	case errors.As(err, &le):
		return "loop of " + strings.TrimPrefix(le.Ancestor, base+"/")
	case err == errChanged:
		return "changed"
	case errors.As(err, &pe) && errors.As(pe.Err, &en):
		return pe.Op + " " + unix.ErrnoName(en)
	}
	return "other " + err.Error()
}

// A matrixRow is one scheduler with one worker count.
type matrixRow struct {
	engine  string // serial, parallel, sorted or owned
	workers int
}

func (r matrixRow) String() string { return fmt.Sprintf("%s-j%d", r.engine, r.workers) }

var matrixRows = []matrixRow{
	{"serial", 1}, {"parallel", 2}, {"parallel", 8},
	{"sorted", 1}, {"sorted", 2}, {"sorted", 8},
	{"owned", 1}, {"owned", 2}, {"owned", 8},
}

// matrixRun is one walk of the matrix; it goes to a child process as
// JSON when the walk needs a mount namespace or a descriptor limit.
type matrixRun struct {
	Engine  string
	Workers int
	Opt     Options
	Base    string
	Roots   []string // relative to Base
	Prune   []string // the visits of these (relative) paths return Prune
	StopAt  string   // the visit of this path returns Stop
}

// matrixResult is what a run saw.
type matrixResult struct {
	Recs []record // in the order the visits were made
	// Order (owned runs) is the order of the output: indexes in Recs,
	// one per visit whose captured output was written.
	Order []int
	After int // visits begun after a visit returned Stop (seam.Stopped)
}

// walkMatrix makes run's walk. tb may be nil (in a child process: a
// misuse of Ordered panics).
func walkMatrix(tb testing.TB, run matrixRun) (matrixResult, error) {
	opt := run.Opt
	opt.Workers = run.Workers
	opt.Sort = run.Engine == "sorted" || run.Engine == "owned"
	var o *testOrdered
	if run.Engine == "owned" {
		o = newTestOrdered(tb, run.Workers)
		opt.Ordered = o
	}
	roots := make([]string, len(run.Roots))
	for i, r := range run.Roots {
		roots[i] = run.Base + "/" + r
	}
	prune := map[string]bool{}
	for _, p := range run.Prune {
		prune[p] = true
	}
	var (
		mu       sync.Mutex
		res      matrixResult
		stopped  atomic.Bool
		after    atomic.Int32
		badWorks atomic.Int32
	)
	// A visit begun after the walk recorded the Stop counts; those
	// begun between the Stop's return and that (a window as wide as the
	// machine is busy) do not.
	if run.StopAt != "" {
		stopAt := run.Base + "/" + run.StopAt
		defer seam.Stopped.Set(func(p string) {
			if p == stopAt {
				stopped.Store(true)
			}
		})()
	}
	err := Walk(roots, opt, func(e *Entry) Action {
		if stopped.Load() {
			after.Add(1)
		}
		if e.Worker < 0 || e.Worker >= run.Workers {
			badWorks.Add(1)
			return Stop
		}
		r := record{Path: strings.TrimPrefix(string(e.Path), run.Base+"/"), Depth: e.Depth, Type: e.Type, PostOrder: e.PostOrder}
		if e.Err != nil {
			r.Err = errKind(e.Err, run.Base)
		}
		mu.Lock()
		i := len(res.Recs)
		res.Recs = append(res.Recs, r)
		mu.Unlock()
		if o != nil {
			o.output(e, strconv.Itoa(i)+"\n")
		}
		switch {
		case e.Err != nil:
		case r.Path == run.StopAt:
			if o != nil {
				o.stop()
			}
			return Stop
		case prune[r.Path]:
			return Prune
		}
		return Continue
	})
	if err != nil {
		return res, err
	}
	if n := badWorks.Load(); n > 0 {
		return res, fmt.Errorf("%d visits with Entry.Worker out of [0, %d)", n, run.Workers)
	}
	res.After = int(after.Load())
	if o != nil {
		if err := o.check(); err != nil {
			return res, err
		}
		for _, s := range strings.Fields(string(o.out)) {
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(res.Recs) {
				return res, fmt.Errorf("output garbled: %q", s)
			}
			res.Order = append(res.Order, i)
		}
	}
	return res, nil
}

// matrixChild is the child process of the matrix's cases that need a
// descriptor limit or a mount namespace: it makes the runs and writes
// their results, gob-encoded (names need not be UTF-8), to stdout.
func matrixChild(runs []matrixRun) int {
	runtime.GOMAXPROCS(max(8, runtime.GOMAXPROCS(0)))
	var out []matrixResult
	// The runtime makes the netpoller's descriptors (epoll, eventfd)
	// when it first needs them, which may be during a walk (for a
	// timer): have it make them now, with a pipe, which it polls.
	if r, w, err := os.Pipe(); err == nil {
		r.Close()
		w.Close()
	}
	for _, run := range runs {
		before := childFDs()
		res, err := walkMatrix(nil, run)
		if after := childFDs(); err == nil && after != before {
			err = fmt.Errorf("open descriptors: %d before the walk, %d after", before, after)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s-j%d: %v\n", run.Engine, run.Workers, err)
			return 2
		}
		out = append(out, res)
	}
	if err := gob.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

// matrixCase is one line of the matrix: options, and how to derive from
// the serial walk what every row must give.
type matrixCase struct {
	name   string
	opt    Options // Workers, Sort and Ordered are the row's
	roots  []string
	prune  []string
	stopAt string
	// base and model, when set, derive what the rows must give from
	// the serial walk made with base's changes to the run: model
	// filters that walk's records.
	base  func(*matrixRun)
	model func(base []record) []record
	// same says that the option must change nothing: model is the
	// identity.
	same bool
	// check, when set, states what the expected records must hold (so
	// that the case tests what it says).
	check func(want []record) error
	// tree builds the case's own tree (a new one for each run: the walk
	// changes it) and returns its base directory and the hook to
	// install for the walk; nil: the shared tree.
	tree func(t *testing.T) (base string, hook func(string))
	// setup (a sh script; $1 is the base directory) runs in a private
	// mount namespace, in a child process that then makes the runs;
	// nofile, when set, is the child's RLIMIT_NOFILE for the rows (the
	// base walk runs without it).
	setup  string
	nofile uint64
	dir    func(t *testing.T) string // the base directory, when not the shared tree
}

// The shared tree's starting points: ordinary files, links of every
// kind (loops under -L), awkward names, a fan of subdirectories for the
// owned walk to give away, a missing root, and a link to a directory.
var matrixRoots = []string{"basic", "links", "weird", "fan", "nothere", "tolinks"}

func matrixTree(t *testing.T) string {
	base := testtree.Make(t, testtree.Basic, testtree.Links, testtree.WeirdNames)
	for i := range 8 {
		for j := range 6 {
			mk(t, base, fmt.Sprintf("fan/a%02d/b%02d/f1", i, j), fmt.Sprintf("fan/a%02d/b%02d/c/f2", i, j),
				fmt.Sprintf("fan/a%02d/g%d", i, j))
		}
	}
	must(t, os.Symlink("links", filepath.Join(base, "tolinks")))
	return base
}

// Models of the options that take visits away.

// dropBelow drops what lies below the directories dirs.
func dropBelow(dirs ...string) func([]record) []record {
	return func(rs []record) []record {
		return slices.DeleteFunc(slices.Clone(rs), func(r record) bool {
			return slices.ContainsFunc(dirs, func(d string) bool { return strings.HasPrefix(r.Path, d+"/") })
		})
	}
}

// depthModel keeps what MinDepth and MaxDepth let be visited: nothing
// deeper than max, and no visit (but every error) shallower than min.
func depthModel(min, max int) func([]record) []record {
	return func(rs []record) []record {
		return slices.DeleteFunc(slices.Clone(rs), func(r record) bool {
			return max >= 0 && r.Depth > max || r.Err == "" && r.Depth < min
		})
	}
}

// vanishModel is IgnoreReaddirRace: no "open ENOENT" error, and a
// directory that vanished has no post-order visit either, as under GNU
// find 4.11 (consider_visiting returns for an FTS_DNR with ENOENT).
func vanishModel(rs []record) []record {
	gone := map[string]bool{}
	for _, r := range rs {
		if r.Err == "open ENOENT" {
			gone[r.Path] = true
		}
	}
	// Nor is such a directory visited in post-order (GNU 4.11, bug 45930).
	return slices.DeleteFunc(slices.Clone(rs), func(r record) bool { return gone[r.Path] && (r.Err != "" || r.PostOrder) })
}

// prefixTo returns rs up to the (non-error) visit of path, included.
func prefixTo(rs []record, path string) []record {
	i := slices.IndexFunc(rs, func(r record) bool { return r.Path == path && r.Err == "" })
	if i < 0 {
		return rs
	}
	return rs[:i+1]
}

// nameOrder puts rs in the sorted walk's order: starting points in
// command-line order, then depth first with each directory's entries in
// byte order of their names; a directory's post-order visit, and an
// error about a directory, after its contents. The sort is stable: the
// serial walk's order of records of one path is kept.
func nameOrder(rs []record, roots []string) []record {
	type keyed struct {
		r     record
		root  int
		names []string // below the root
		last  bool     // after the records below it
	}
	ks := make([]keyed, len(rs))
	for i, r := range rs {
		k := keyed{r: r, root: len(roots), names: []string{r.Path}, last: r.PostOrder || r.Err != ""}
		for j, root := range roots {
			if r.Path == root {
				k.root, k.names = j, nil
				break
			}
			if rest, ok := strings.CutPrefix(r.Path, root+"/"); ok {
				k.root, k.names = j, strings.Split(rest, "/")
				break
			}
		}
		ks[i] = k
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if a.root != b.root {
			return a.root - b.root
		}
		for i := 0; i < len(a.names) && i < len(b.names); i++ {
			if c := strings.Compare(a.names[i], b.names[i]); c != 0 {
				return c
			}
		}
		switch {
		case len(a.names) == len(b.names):
			return boolInt(a.last) - boolInt(b.last)
		case len(a.names) < len(b.names) && a.last, len(a.names) > len(b.names) && !b.last:
			return 1
		}
		return -1
	})
	out := make([]record, len(ks))
	for i, k := range ks {
		out[i] = k.r
	}
	return out
}

// diffRecs reports the differences between want and got, compared in
// order or, if asSet, sorted. Records are formatted only when they
// differ: the deep paths are long.
func diffRecs(t *testing.T, what string, want, got []record, asSet bool) {
	t.Helper()
	if asSet {
		cmpRec := func(a, b record) int {
			return cmp.Or(strings.Compare(a.Path, b.Path), a.Depth-b.Depth, int(a.Type)-int(b.Type),
				boolInt(a.PostOrder)-boolInt(b.PostOrder), strings.Compare(a.Err, b.Err))
		}
		want, got = slices.Clone(want), slices.Clone(got)
		slices.SortFunc(want, cmpRec)
		slices.SortFunc(got, cmpRec)
	}
	if !slices.Equal(want, got) {
		diffLists(t, what, recStrings(want), recStrings(got))
	}
}

func recStrings(rs []record) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}

// subsetOf reports the first record of rs that is not in want, counting
// duplicates.
func subsetOf(rs, want []record) (record, bool) {
	n := map[record]int{}
	for _, r := range want {
		n[r]++
	}
	for _, r := range rs {
		if n[r]--; n[r] < 0 {
			return r, false
		}
	}
	return record{}, true
}

// matrixCases lists the options, each through every row.
func matrixCases() []matrixCase {
	all := Options{MaxDepth: -1}
	with := func(f func(*Options)) Options { o := all; f(&o); return o }
	pruned := []string{"basic/a", "fan/a03", "fan/a05/b02", "links/dir", "weird"}
	noPrune := func(r *matrixRun) { r.Prune = nil }
	noStop := func(r *matrixRun) { r.StopAt = "" }
	noXDev := func(r *matrixRun) { r.Opt.XDev = false }
	noIgnore := func(r *matrixRun) { r.Opt.IgnoreReaddirRace = false }
	unchanged := func(r *matrixRun) {}
	identity := func(rs []record) []record { return rs }
	xdevSetup := `mount -t tmpfs none "$1/fan/a01" && mkdir -p "$1/fan/a01/in/deeper" && : >"$1/fan/a01/in/f" &&
		mount -t tmpfs none "$1/basic/empty" && mkdir "$1/basic/empty/m"`
	bindSetup := `mount --bind "$1/fan" "$1/fan/a02/b01"`
	// below says that nothing under dir is expected, and dir is.
	below := func(dir string) func([]record) error {
		return func(want []record) error {
			if !slices.ContainsFunc(want, func(r record) bool { return r.Path == dir }) {
				return fmt.Errorf("%s not visited", dir)
			}
			if i := slices.IndexFunc(want, func(r record) bool { return strings.HasPrefix(r.Path, dir+"/") }); i >= 0 {
				return fmt.Errorf("%v visited", want[i])
			}
			return nil
		}
	}
	hasErr := func(path, kind string) func([]record) error {
		return func(want []record) error {
			if !slices.ContainsFunc(want, func(r record) bool { return r.Path == path && r.Err == kind }) {
				return fmt.Errorf("no %q error for %s", kind, path)
			}
			return below(path)(want)
		}
	}
	noErr := func(want []record) error {
		if i := slices.IndexFunc(want, func(r record) bool { return r.Err != "" }); i >= 0 {
			return fmt.Errorf("%v", want[i])
		}
		return nil
	}
	// A directory that vanishes (v, or v2 behind the link lv) between
	// the read of its parent and its open.
	vanish := func(t *testing.T) (string, func(string)) {
		base := fastTempDir(t)
		mk(t, base, "t/d1/f", "t/d1/sub/g", "t/v/in/x", "t/v/y", "t/z/f", "outside/v2/w", "t/lv->../outside/v2")
		var once1, once2 sync.Once
		remove := func(p string) {
			if err := os.RemoveAll(p); err != nil {
				t.Error(err) // from the walk's goroutine: no Fatal
			}
		}
		return base, func(p string) {
			switch p {
			case base + "/t/v":
				once1.Do(func() { remove(p) })
			case base + "/t/lv":
				once2.Do(func() { remove(base + "/outside/v2") })
			}
		}
	}
	// A directory swapped, before its open, for a link to a directory
	// outside the tree, or for that directory (seam_test.go).
	swap := func(link bool) func(t *testing.T) (string, func(string)) {
		return func(t *testing.T) (string, func(string)) {
			base := fastTempDir(t)
			mk(t, base, "t/x/in1", "t/x/sub/in2", "t/y/f", "t/z/zin", "outside/secret", "outside/d/s2", "outside/d/sd/s3")
			var once sync.Once
			return base, func(p string) {
				if p != base+"/t/x" {
					return
				}
				once.Do(func() {
					err := os.Rename(p, base+"/moved")
					if err == nil && link {
						err = os.Symlink(base+"/outside/d", p)
					} else if err == nil {
						err = os.Rename(base+"/outside/d", p)
					}
					if err != nil {
						t.Error(err) // from the walk's goroutine: no Fatal
					}
				})
			}
		}
	}
	deepTree := func(t *testing.T) string {
		base := fastTempDir(t)
		must(t, os.Mkdir(base+"/deep", 0o755))
		mkdeep(t, base+"/deep", 70, strings.Repeat("d", 60))
		for i := range 4 {
			for j := range 6 {
				mk(t, base, fmt.Sprintf("fan/a%d/b%d/c/f", i, j))
			}
		}
		return base
	}
	return []matrixCase{
		{name: "default", opt: all},
		{name: "post", opt: with(func(o *Options) { o.PostOrder = true })},
		{name: "follow", opt: with(func(o *Options) { o.Follow = FollowAll })},
		{name: "follow-post", opt: with(func(o *Options) { o.Follow = FollowAll; o.PostOrder = true })},
		{name: "follow-roots", opt: with(func(o *Options) { o.Follow = FollowRoots })},
		{name: "follow-roots-post", opt: with(func(o *Options) { o.Follow = FollowRoots; o.PostOrder = true })},

		{name: "maxdepth2", opt: with(func(o *Options) { o.MaxDepth = 2 }), base: func(r *matrixRun) { r.Opt.MaxDepth = -1 }, model: depthModel(0, 2)},
		{name: "maxdepth0", opt: with(func(o *Options) { o.MaxDepth = 0 }), base: func(r *matrixRun) { r.Opt.MaxDepth = -1 }, model: depthModel(0, 0)},
		{name: "maxdepth1-post", opt: with(func(o *Options) { o.MaxDepth = 1; o.PostOrder = true }), base: func(r *matrixRun) { r.Opt.MaxDepth = -1 }, model: depthModel(0, 1)},
		{name: "mindepth2", opt: with(func(o *Options) { o.MinDepth = 2 }), base: func(r *matrixRun) { r.Opt.MinDepth = 0 }, model: depthModel(2, -1)},
		{name: "mindepth2-maxdepth3-post", opt: with(func(o *Options) { o.MinDepth, o.MaxDepth, o.PostOrder = 2, 3, true }),
			base: func(r *matrixRun) { r.Opt.MinDepth, r.Opt.MaxDepth = 0, -1 }, model: depthModel(2, 3)},
		{name: "maxdepth2-follow", opt: with(func(o *Options) { o.MaxDepth = 2; o.Follow = FollowAll }), base: func(r *matrixRun) { r.Opt.MaxDepth = -1 }, model: depthModel(0, 2)},

		{name: "prune", opt: all, prune: pruned, base: noPrune, model: dropBelow(pruned...)},
		{name: "prune-follow", opt: with(func(o *Options) { o.Follow = FollowAll }), prune: pruned, base: noPrune, model: dropBelow(pruned...)},
		{name: "prune-mindepth3", opt: with(func(o *Options) { o.MinDepth = 3 }), prune: []string{"fan/a03/b01/c"},
			base: func(r *matrixRun) { r.Prune = nil; r.Opt.MinDepth = 0 }, model: func(rs []record) []record {
				// A directory not visited (above MinDepth) is not
				// pruned: only c, at depth 3, is.
				return depthModel(3, -1)(dropBelow("fan/a03/b01/c")(rs))
			}},
		// Ignored in post-order: the visit comes after the contents.
		{name: "prune-post", opt: with(func(o *Options) { o.PostOrder = true }), prune: pruned, base: noPrune, model: identity, same: true},

		{name: "stop", opt: all, stopAt: "fan/a04/b03/f1", base: noStop},
		{name: "stop-root", opt: all, stopAt: "links", base: noStop},
		{name: "stop-post", opt: with(func(o *Options) { o.PostOrder = true }), stopAt: "fan/a02", base: noStop},

		{name: "xdev", opt: with(func(o *Options) { o.XDev = true }), setup: xdevSetup, base: noXDev,
			model: dropBelow("fan/a01", "basic/empty"), check: below("fan/a01")},
		{name: "xdev-post", opt: with(func(o *Options) { o.XDev = true; o.PostOrder = true }), setup: xdevSetup, base: noXDev,
			model: dropBelow("fan/a01", "basic/empty"), check: below("basic/empty")},
		{name: "xdev-follow", opt: with(func(o *Options) { o.XDev = true; o.Follow = FollowAll }), setup: xdevSetup, base: noXDev,
			model: dropBelow("fan/a01", "basic/empty"), check: below("fan/a01")},

		{name: "xdev-follow-roots", opt: with(func(o *Options) { o.XDev = true; o.Follow = FollowRoots }), setup: xdevSetup, base: noXDev,
			model: dropBelow("fan/a01", "basic/empty"), check: below("basic/empty")},

		// A bind mount of an ancestor: a loop seen by the "." check.
		{name: "bind-loop", opt: all, setup: bindSetup, check: hasErr("fan/a02/b01", "loop of fan")},
		{name: "bind-loop-post", opt: with(func(o *Options) { o.PostOrder = true }), setup: bindSetup, check: hasErr("fan/a02/b01", "loop of fan")},

		{name: "vanish", opt: all, roots: []string{"t"}, tree: vanish, check: hasErr("t/v", "open ENOENT")},
		{name: "vanish-post", opt: with(func(o *Options) { o.PostOrder = true }), roots: []string{"t"}, tree: vanish, check: hasErr("t/v", "open ENOENT")},
		{name: "vanish-follow", opt: with(func(o *Options) { o.Follow = FollowAll }), roots: []string{"t"}, tree: vanish, check: hasErr("t/lv", "open ENOENT")},
		{name: "ignore-readdir-race", opt: with(func(o *Options) { o.IgnoreReaddirRace = true }), roots: []string{"t"}, tree: vanish,
			base: noIgnore, model: vanishModel, check: noErr},
		{name: "ignore-readdir-race-post", opt: with(func(o *Options) { o.IgnoreReaddirRace = true; o.PostOrder = true }), roots: []string{"t"}, tree: vanish,
			base: noIgnore, model: vanishModel, check: noErr},
		{name: "ignore-readdir-race-follow", opt: with(func(o *Options) { o.IgnoreReaddirRace = true; o.Follow = FollowAll }), roots: []string{"t"}, tree: vanish,
			base: noIgnore, model: vanishModel, check: noErr},

		{name: "swap-link", opt: all, roots: []string{"t"}, tree: swap(true), check: hasErr("t/x", "open ENOTDIR")},
		{name: "swap-link-post", opt: with(func(o *Options) { o.PostOrder = true }), roots: []string{"t"}, tree: swap(true), check: hasErr("t/x", "open ENOTDIR")},
		{name: "swap-dir", opt: all, roots: []string{"t"}, tree: swap(false), check: hasErr("t/x", "changed")},
		{name: "swap-dir-post", opt: with(func(o *Options) { o.PostOrder = true }), roots: []string{"t"}, tree: swap(false), check: hasErr("t/x", "changed")},

		// RLIMIT_NOFILE 64 leaves 8 workers a budget of 24 open
		// directories (newFDs) for a chain of 70, whose path is
		// longer than PATH_MAX.
		{name: "few-descriptors", opt: all, roots: []string{"deep", "fan"}, dir: deepTree, nofile: 64, base: unchanged, model: identity, same: true, check: noErr},
		{name: "few-descriptors-post", opt: with(func(o *Options) { o.PostOrder = true }), roots: []string{"deep", "fan"}, dir: deepTree, nofile: 64,
			base: unchanged, model: identity, same: true, check: noErr},
		{name: "few-descriptors-stop", opt: all, roots: []string{"deep", "fan"}, dir: deepTree, nofile: 64, base: noStop,
			stopAt: "deep/" + strings.Repeat(strings.Repeat("d", 60)+"/", 50) + "file"},
	}
}

// TestEngineMatrix runs every case of matrixCases through every row of
// matrixRows. See the comment at the top of this file.
func TestEngineMatrix(t *testing.T) {
	// The sorted and owned walks run no more goroutines than Ps: let
	// there be 8, so that 8 workers are 8.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(8, runtime.GOMAXPROCS(0))))
	shared := matrixTree(t)
	gives := countOwned(t)
	for _, c := range matrixCases() {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != "" && !privateMounts {
				t.Skip("no private mount namespaces on " + runtime.GOOS)
			}
			base := ""
			switch {
			case c.dir != nil:
				base = c.dir(t)
			case c.tree == nil:
				base = shared
			}
			roots := c.roots
			if roots == nil {
				roots = matrixRoots
			}
			runs := make([]matrixRun, len(matrixRows))
			for i, row := range matrixRows {
				runs[i] = matrixRun{Engine: row.engine, Workers: row.workers, Opt: c.opt, Base: base,
					Roots: roots, Prune: c.prune, StopAt: c.stopAt}
			}
			var baseRun *matrixRun
			if c.base != nil {
				r := runs[0]
				c.base(&r)
				baseRun = &r
			}
			results, baseRes := c.execute(t, runs, baseRun)
			if t.Failed() {
				return
			}
			// want: what the rows must give, in the serial walk's order
			// (before a Stop: the whole walk).
			want := results[0].Recs
			if baseRun != nil {
				want = baseRes.Recs
				if c.model != nil {
					want = c.model(want)
					if !c.same && len(want) == len(baseRes.Recs) {
						t.Errorf("the model takes nothing away: the case tests nothing")
					}
				}
			}
			if c.check != nil {
				if err := c.check(want); err != nil {
					t.Errorf("expected records: %v", err)
				}
			}
			if len(want) < 5 && c.opt.MaxDepth != 0 {
				t.Fatalf("only %d records expected", len(want))
			}
			if c.stopAt != "" && len(prefixTo(want, c.stopAt)) == len(want) {
				t.Fatalf("%s is not visited, or last: the Stop stops nothing", c.stopAt)
			}
			for i, row := range matrixRows {
				t.Run(row.String(), func(t *testing.T) {
					c.checkRow(t, row, roots, results[i], want)
				})
			}
		})
	}
	t.Logf("owned walk: %d subdirectories given away", gives["give"].Load())
}

// execute makes the runs (the rows, and the base walk if not nil) in
// this process or, for a mount namespace or a descriptor limit, in a
// child.
func (c *matrixCase) execute(t *testing.T, runs []matrixRun, baseRun *matrixRun) ([]matrixResult, matrixResult) {
	t.Helper()
	one := func(run matrixRun) matrixResult {
		if c.tree != nil {
			base, hook := c.tree(t)
			run.Base = base
			defer seam.BeforeOpen.Set(hook)()
		}
		defer checkNoLeak(t)()
		res, err := walkMatrix(t, run)
		if err != nil {
			t.Errorf("%s-j%d: %v", run.Engine, run.Workers, err)
		}
		return res
	}
	var baseRes matrixResult
	switch {
	case c.setup != "":
		all := runs
		if baseRun != nil {
			all = append(slices.Clone(runs), *baseRun)
		}
		out := c.child(t, all, 0)
		if baseRun != nil {
			baseRes = out[len(runs)]
		}
		return out[:len(runs)], baseRes
	case c.nofile > 0:
		if baseRun != nil {
			baseRes = one(*baseRun)
		}
		return c.child(t, runs, c.nofile), baseRes
	}
	if baseRun != nil {
		baseRes = one(*baseRun)
	}
	out := make([]matrixResult, len(runs))
	for i, run := range runs {
		out[i] = one(run)
	}
	return out, baseRes
}

// child makes the runs in a child process (this test binary again),
// with RLIMIT_NOFILE nofile if not 0, after c.setup in a private mount
// namespace if set.
func (c *matrixCase) child(t *testing.T, runs []matrixRun, nofile uint64) []matrixResult {
	t.Helper()
	exe, err := os.Executable()
	must(t, err)
	js, err := json.Marshal(childArgs{Matrix: runs, NoFile: nofile})
	must(t, err)
	cmd := exec.Command(exe, "-test.run=^$")
	if c.setup != "" {
		if os.Getuid() != 0 {
			t.Fatal("this case needs root (CI runs the tests as root)")
		}
		testtool.Need(t, "unshare", "util-linux")
		script := c.setup + ` && exec "$2" -test.run='^$'`
		cmd = exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", runs[0].Base, exe)
	}
	// The race detector makes a process sleep a second at exit, unless
	// told not to.
	cmd.Env = append(os.Environ(), childEnv+"="+string(js), "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.String())
	}
	var res []matrixResult
	must(t, gob.NewDecoder(bytes.NewReader(out)).Decode(&res))
	if len(res) != len(runs) {
		t.Fatalf("child: %d results for %d runs", len(res), len(runs))
	}
	return res
}

// checkRow compares what row gave with want, in the way the row's
// scheduler promises.
func (c *matrixCase) checkRow(t *testing.T, row matrixRow, roots []string, res matrixResult, want []record) {
	got := res.Recs
	if row.engine == "owned" {
		got = make([]record, len(res.Order))
		for i, j := range res.Order {
			got[i] = res.Recs[j]
		}
	}
	if row.engine == "sorted" || row.engine == "owned" {
		want = nameOrder(want, roots)
	}
	if c.stopAt == "" {
		switch row.engine {
		case "parallel":
			diffRecs(t, "visits, sorted", want, got, true)
		case "owned":
			if len(res.Order) != len(res.Recs) {
				t.Errorf("%d visits made, %d output", len(res.Recs), len(res.Order))
			}
			fallthrough
		default:
			diffRecs(t, "visits in order", want, got, false)
		}
		return
	}
	// After a Stop: the serial and the sorted walk visit exactly what
	// comes up to it. The owned walk outputs a prefix of that; its
	// visits, and the parallel walk's, are some of the walk's, and
	// workers already in a visit may finish it.
	upTo := prefixTo(want, c.stopAt)
	switch row.engine {
	case "serial", "sorted":
		diffRecs(t, "visits up to the Stop", upTo, got, false)
		return
	case "owned":
		if len(got) > len(upTo) || !slices.Equal(got, upTo[:len(got)]) {
			t.Errorf("the output is not a prefix of the walk up to the Stop")
			diffRecs(t, "output", upTo[:min(len(got), len(upTo))], got, false)
		}
	}
	if r, ok := subsetOf(res.Recs, want); !ok {
		t.Errorf("visited %v, which the walk does not visit (or not so often)", r)
	}
	if !slices.ContainsFunc(res.Recs, func(r record) bool { return r.Path == c.stopAt && r.Err == "" }) {
		t.Errorf("%s, whose visit returns Stop, not visited", c.stopAt)
	}
	if res.After >= row.workers {
		t.Errorf("%d visits begun after the Stop, with %d workers", res.After, row.workers)
	}
}
