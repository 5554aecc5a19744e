package walker

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/seam"
)

// TestAdaptToBlockingReads proves the mechanism of adapt.go, not
// its speed: while every directory read blocks in a system call (a
// nanosleep, as a read of a cold disk or a remote server would), the
// walk grows until more reads are in flight than there are CPUs; once
// the reads stop blocking (they spin instead, as a CPU-bound read
// would: slow, but never sleeping), the Ps drop back to where they
// were, during the same walk. Nothing is timed but by generous
// deadlines: the phases are switched by what the hook observes.
//
// The trees are on tmpfs where there is one: a tree on a disk, evicted
// by a cache drop (another process's cold benchmark), blocks for real.
func TestAdaptToBlockingReads(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "netbsd" {
		// threadSleeps is 0 there: the walk cannot tell a blocked
		// call, and keeps its workers (sys_darwin.go, sys_netbsd.go).
		t.Skip("no per-thread count of sleeps on " + runtime.GOOS)
	}
	root := fastTempDir(t)
	// Enough directories that the second phase outlasts a few decision
	// windows however the first one went.
	for i := range 40 {
		for j := range 50 {
			must(t, os.MkdirAll(filepath.Join(root, fmt.Sprint(i), fmt.Sprint(j)), 0o755))
		}
	}
	ncpu := runtime.NumCPU()
	base := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(base)
	// One worker that may grow (no -j on a one-CPU machine) walks in
	// parallel and grows as more do.
	for _, workers := range []int{base, 1} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			adaptToBlockingReads(t, root, workers, base, ncpu)
		})
	}
}

func adaptToBlockingReads(t *testing.T, root string, workers, base, ncpu int) {
	var (
		level    atomic.Int32 // the Ps the walk asked for last
		inflight atomic.Int32 // reads in the hook now
		most     atomic.Int32 // the most reads in flight, while blocking
		blocking atomic.Bool  // phase one: reads block
		dropped  atomic.Bool  // phase two saw the Ps back at base
	)
	level.Store(int32(base))
	blocking.Store(true)
	deadline := time.Now().Add(30 * time.Second)
	restore := seam.BeforeRead.Set(func(path string) {
		if !strings.HasPrefix(path, root) {
			return
		}
		if blocking.Load() {
			n := inflight.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			sleepThread(3 * time.Millisecond)
			inflight.Add(-1)
			if int(most.Load()) > ncpu || time.Now().After(deadline) {
				blocking.Store(false)
			}
			return
		}
		if int(level.Load()) == base {
			dropped.Store(true)
			return
		}
		for start := time.Now(); time.Since(start) < 200*time.Microsecond; {
		}
	})
	defer restore()
	var seen []int
	opt := Options{
		Workers:    workers,
		MaxWorkers: max(32, 4*ncpu),
		MaxDepth:   -1,
		Procs: func(n int) {
			seen = append(seen, n) // one call at a time (adapt.decide, then the walk's end)
			level.Store(int32(n))
			runtime.GOMAXPROCS(n)
		},
	}
	var visited atomic.Int64
	if err := Walk([]string{root}, opt, func(e *Entry) Action {
		visited.Add(1)
		return Continue
	}); err != nil {
		t.Fatal(err)
	}
	if want := int64(1 + 40 + 40*50); visited.Load() != want {
		t.Errorf("visited %d entries, want %d", visited.Load(), want)
	}
	if m := int(most.Load()); m <= ncpu {
		t.Errorf("at most %d reads in flight while they blocked, want more than the %d CPUs (Procs calls: %v)", m, ncpu, seen)
	}
	if !dropped.Load() {
		t.Errorf("the Ps did not drop back to %d once reads stopped blocking (Procs calls: %v)", base, seen)
	}
	if got := runtime.GOMAXPROCS(0); got != base {
		t.Errorf("GOMAXPROCS is %d after the walk, want %d", got, base)
	}
}

// TestAdaptWarm: a walk whose calls never sleep (every read spins a
// while, as a slow CPU-bound read would) does not grow. The rule under
// test is that a slow call whose thread did not sleep is not blocked;
// but a GC or scheduler pause can put a spinning worker's thread to
// sleep in the middle of a probe, and one window of such probes grows
// the walk once (and the GOMAXPROCS change that follows is a pause of
// its own). So the test judges the windows the walk recorded
// (adaptDecided), not a single growth: it fails when more than a third
// of them looked blocked (looksBlocked), or when the walk stayed above
// its start for more than half of them (a spurious growth shrinks back
// after shrinkAfter low windows), which a rule that took spinning reads
// for blocked ones does in every run, whether the CPUs are saturated or
// not.
func TestAdaptWarm(t *testing.T) {
	root := fastTempDir(t)
	// Enough directories for a few dozen windows (two reads each).
	for i := range 30 {
		for j := range 20 {
			must(t, os.MkdirAll(filepath.Join(root, fmt.Sprint(i), fmt.Sprint(j)), 0o755))
		}
	}
	// "a pause" stands for the pause the rule cannot tell from a
	// blocked call, made to happen: for 30ms a third into the walk,
	// every read sleeps instead of spinning, which makes a window or two
	// look blocked (and the walk grow, on a machine whose CPUs are not
	// saturated).
	for _, c := range []struct {
		name  string
		pause time.Duration
	}{{"no pause", 0}, {"a pause", 30 * time.Millisecond}} {
		t.Run(c.name, func(t *testing.T) {
			var reads atomic.Int64
			var pauseEnd atomic.Int64 // nanotime
			restore := seam.BeforeRead.Set(func(path string) {
				if !strings.HasPrefix(path, root) {
					return
				}
				if n := reads.Add(1); c.pause > 0 && n == 400 {
					pauseEnd.Store(nanotime() + int64(c.pause))
				}
				if nanotime() < pauseEnd.Load() {
					sleepThread(2 * time.Millisecond)
					return
				}
				for start := time.Now(); time.Since(start) < 200*time.Microsecond; {
				}
			})
			defer restore()
			adaptWarm(t, root)
		})
	}
}

// adaptWarm walks root, whose reads the caller's hook makes slow, and
// judges the windows the walk recorded.
func adaptWarm(t *testing.T, root string) {
	var windows []adaptWindow // one decision at a time (adapt.deciding)
	record := func(w adaptWindow) { windows = append(windows, w) }
	adaptDecided.Store(&record)
	defer adaptDecided.Store(nil)
	base := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(base)
	opt := Options{
		Workers:    base,
		MaxWorkers: max(32, 4*runtime.NumCPU()),
		MaxDepth:   -1,
		Procs: func(n int) {
			// As gfind does: with fewer Ps than workers, a worker
			// back from a call waits for a P, asleep.
			runtime.GOMAXPROCS(n)
		},
	}
	if err := Walk([]string{root}, opt, func(e *Entry) Action { return Continue }); err != nil {
		t.Fatal(err)
	}
	adaptDecided.Store(nil)
	if len(windows) < 8 {
		t.Fatalf("only %d decision windows: the walk is too short to judge", len(windows))
	}
	blocked, grown := 0, 0
	for _, w := range windows {
		if w.blocked {
			blocked++
		}
		if w.level > base {
			grown++
		}
	}
	t.Logf("%d windows, %d looked blocked, %d above %d Ps", len(windows), blocked, grown, base)
	if blocked*3 > len(windows) || grown*2 > len(windows) {
		var b strings.Builder
		for _, w := range windows {
			fmt.Fprintf(&b, "\n  %5.2fms probes %d blocked %d (%.2f of the time) busy %.2f: %d -> %d", float64(w.elapsed)/1e6, w.probes, w.nslow, w.frac, w.busy, w.level, w.next)
		}
		t.Errorf("of %d windows, %d looked blocked and %d were above %d Ps, though no call slept:%s", len(windows), blocked, grown, base, b.String())
	}
}

// TestAdaptDecide checks adapt.decide's rules on windows made up by the
// test: a window with too few probes is extended and, at its longest,
// changes nothing; one low window does not shrink, shrinkAfter in a row
// do; a blocked window grows at once, unless the CPUs are saturated,
// which stops the growth and shrinks nothing.
func TestAdaptDecide(t *testing.T) {
	var started atomic.Bool
	started.Store(true)
	a := &adapt{base: 2, cap: 32, ncpu: runtime.NumCPU(), started: &started, resize: func(int) {}}
	a.level.Store(8)
	// end ends a window of elapsed ns with probes probes, of which
	// nslow (weighted) blocked for slowFrac of the worker time, the
	// process having used at least busy of the CPUs' time, and returns
	// the level and whether a new window began.
	end := func(elapsed int64, probes, nslow int, slowFrac, busy float64) (int, bool) {
		now := int64(1 << 40)
		start := now - elapsed
		a.start.Store(start)
		a.nprobes.Store(int32(probes))
		a.nslow.Store(int32(nslow))
		a.slowNs.Store(int64(slowFrac * float64(elapsed) * float64(a.level.Load())))
		// The CPU time the window began with, so that decide's own
		// reading finds at least busy of the CPUs' time used.
		a.cpu = processCPU() - int64(busy*float64(elapsed)*float64(a.ncpu))
		a.decide(now)
		return int(a.level.Load()), a.start.Load() != start
	}
	const idle, saturated = 0, 1
	steps := []struct {
		name     string
		elapsed  int64
		probes   int
		nslow    int
		slowFrac float64
		busy     float64
		level    int
		newWin   bool
	}{
		{"too few probes: extended", window, minProbes - 1, 0, 0, idle, 8, false},
		{"too few at the longest: no vote", maxWindow, minProbes - 1, 0, 0, idle, 8, true},
		{"no vote again", maxWindow, 0, 0, 0, idle, 8, true},
		{"low 1", window, 20, 0, 0, idle, 8, true},
		{"low 2", window, 20, 0, 0, idle, 8, true},
		{"blocked: resets the low count, grows", window, 20, 40, 0.5, idle, 16, true},
		{"low 1 after growing", window, 20, 0, 0, idle, 16, true},
		{"low 2 after growing", window, 20, 0, 0, idle, 16, true},
		{"low 3: halves", window, 20, 0, 0, idle, 8, true},
		{"blocked by too few calls: extended", window, 20, minSlow - 1, 0.5, idle, 8, false},
		{"between the marks: holds", window, 20, 4, 0.1, idle, 8, true},
		// A saturated CPU stops the growth and shrinks nothing: a cold
		// disk's kernel work saturates it at any level.
		{"blocked, CPUs saturated: holds", window, 20, 40, 0.5, saturated, 8, true},
		{"between the marks, CPUs saturated: holds", window, 20, 4, 0.1, saturated, 8, true},
		{"low 1, CPUs saturated", window, 20, 0, 0, saturated, 8, true},
		{"blocked again: resets the low count", window, 20, 40, 0.5, saturated, 8, true},
		{"low 1 again", window, 20, 0, 0, saturated, 8, true},
		{"low 2", window, 20, 0, 0, saturated, 8, true},
		{"low 3: halves", window, 20, 0, 0, saturated, 4, true},
	}
	for _, s := range steps {
		level, newWin := end(s.elapsed, s.probes, s.nslow, s.slowFrac, s.busy)
		if level != s.level || newWin != s.newWin {
			t.Fatalf("%s: level %d, new window %v; want %d, %v", s.name, level, newWin, s.level, s.newWin)
		}
	}
}
