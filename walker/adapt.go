package walker

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// Adapting the parallel walk to slow calls.
//
// A warm walk is CPU-bound: its calls return in microseconds, and more
// threads than CPUs only cost it. A cold or remote one is latency-bound:
// its calls wait on a disk or a server, and it goes as fast as the
// number of calls it keeps in flight. A goroutine blocked in a system
// call keeps its P until sysmon takes it back, so that number follows
// GOMAXPROCS, not the number of workers.
//
// So the walk watches its own calls. One open or directory read in
// callSample, and one stat in statSample, is probed: it blocked if it
// took longer than slowCall (far above what a cached call costs) and its
// thread slept in it (a voluntary context switch: a thread preempted on
// a busy machine, or by the walk's own extra threads, is slow too but
// did not sleep). Once per window, the worker that notices the window is
// over compares the time spent in blocked calls with the worker time the
// window offered (its length times the Ps): above growAt, with minSlow
// blocked calls and CPUs not saturated (busyAt), the walk doubles its
// Ps (Options.Procs) and its workers, up to the cap
// (Options.MaxWorkers); below shrinkAt for shrinkAfter windows in a
// row, it halves them, down to where it started; in between it holds.
// Workers above the current count finish their own stacks and park;
// they steal nothing. Too few blocked calls to tell extend the window,
// up to maxWindow.
//
// A saturated CPU stops the growth but shrinks nothing. On a cold local
// disk the kernel's work of reading inodes is charged to the walk and
// saturates the CPUs at any level, so halving for it only swung the
// level (each change a GOMAXPROCS stop-the-world) and left fewer reads
// in flight; a walk that turns warm shows few blocked calls and shrinks
// by the low-window rule; and a FUSE daemon's work is not charged to
// the walk, so the rule never saw it (bench/NOTES.md, "the cold gap,
// once more").
type adapt struct {
	base int // Ps at the start of the walk
	cap  int // most Ps and workers
	// procs sets the Ps (Options.Procs), resize the Ps and the workers
	// that take work; started says the walk's workers run (a decision
	// before that would find the first worker's calls alone).
	procs   func(int)
	resize  func(int)
	started *atomic.Bool

	level    atomic.Int32 // current Ps
	slowNs   atomic.Int64 // time in blocked calls in this window (sampled calls weighted)
	nslow    atomic.Int32 // blocked calls in this window (weighted)
	start    atomic.Int64 // nanotime at the start of this window
	cpu      int64        // the process's CPU time at the start of this window
	ncpu     int          // CPUs the process may run on
	deciding sync.Mutex   // one decision at a time (TryLock)
	low      int          // windows in a row that would shrink (under deciding)

	// nprobes is the probes ended in this window, blocked or not. Every
	// probe adds to it, so it has a cache line of its own: the fields
	// above are read by every probe and written once a window.
	_       [64]byte
	nprobes atomic.Int32
	_       [60]byte
}

const (
	slowCall    = 50_000    // ns: a cached open, read or stat of a small directory takes a few µs
	window      = 5_000_000 // ns between decisions
	maxWindow   = 4 * window
	growAt      = 0.25 // fraction of the worker time spent blocked, to grow
	shrinkAt    = 0.05 // ... and below which to shrink
	busyAt      = 0.9  // fraction of the CPUs' time the process used: CPU-bound, more threads cannot help
	minSlow     = 12   // blocked calls (sampled ones, weighted) in a window, to grow
	minProbes   = 4    // probes in a window, to decide anything
	shrinkAfter = 3    // low windows in a row, to shrink
	callSample  = 8    // one open or read in callSample is timed
	statSample  = 64   // one stat in statSample is timed
)

// epoch is the origin of the monotonic clock the probes read: a
// time.Time carries a monotonic reading, and Since subtracts only that.
var epoch = time.Now()

// nanotime returns the monotonic time in ns since epoch.
func nanotime() int64 { return int64(time.Since(epoch)) }

// newAdapt returns the adapter of a parallel walk, or nil when the walk
// cannot grow (no Procs callback, or no room above the start). The
// caller sets resize and started.
func newAdapt(procs func(int), base, cap int) *adapt {
	if procs == nil || cap <= base {
		return nil
	}
	a := &adapt{procs: procs, base: base, cap: cap}
	a.level.Store(int32(base))
	a.start.Store(nanotime())
	a.cpu = processCPU()
	a.ncpu = runtime.NumCPU()
	return a
}

// A probe is one sampled call: when it started, and how many times its
// thread had slept (voluntary context switches) by then, or -1 when the
// call is only timed.
type probe struct{ t0, nvcsw int64 }

// begin starts a probe of a call, full (its thread's sleeps counted)
// when *full is above 0. Counting them costs a system call (getrusage),
// which a warm walk's probes would pay for nothing: its calls are fast,
// and a cold walk's are slow often enough. So a caller's probes are full
// for fullProbes probes after a slow one (end), and only timed
// otherwise.
func (a *adapt) begin(full *uint8) probe {
	pr := probe{t0: nanotime(), nvcsw: -1}
	if *full > 0 {
		*full--
		pr.nvcsw = threadSleeps()
	}
	return pr
}

// fullProbes is how many probes after a slow call count sleeps.
const fullProbes = 64

// A sampler is a worker's probe of its calls, which its Entry shares
// for the stats: one call of a kind in so many is probed.
type sampler struct {
	a            *adapt
	calls, stats uint32 // calls of each kind, for sampling
	full         uint8  // probes left that count sleeps (adapt.begin)
}

// sample starts a probe of one call in every, counted in *n; ok is
// false for the calls not probed.
func (s *sampler) sample(n *uint32, every uint32) (pr probe, ok bool) {
	if *n++; *n%every != 0 {
		return pr, false
	}
	return s.a.begin(&s.full), true
}

// sampled ends a probe begun by sample, which stands for weight calls.
func (s *sampler) sampled(pr probe, weight int64) { s.a.end(pr, weight, &s.full) }

// end records a sampled call, which stands for weight calls, and decides
// when the window is over; a slow call makes the caller's next
// fullProbes probes full. A call blocked when it was slow and its thread
// slept in it: a thread preempted (a busy machine, or more threads than
// CPUs) is slow too, but did not sleep.
func (a *adapt) end(pr probe, weight int64, full *uint8) {
	now := nanotime()
	d := now - pr.t0
	a.nprobes.Add(1)
	if d > slowCall {
		*full = fullProbes
		if pr.nvcsw >= 0 && threadSleeps() > pr.nvcsw {
			a.slowNs.Add(d * weight)
			a.nslow.Add(int32(weight))
		}
	}
	if now-a.start.Load() >= window {
		a.decide(now)
	}
}

func (a *adapt) decide(now int64) {
	if !a.deciding.TryLock() {
		return
	}
	defer a.deciding.Unlock()
	elapsed := now - a.start.Load()
	if elapsed < window || !a.started.Load() {
		return
	}
	slow, n, probes := a.slowNs.Load(), a.nslow.Load(), a.nprobes.Load()
	level := int(a.level.Load())
	frac := float64(slow) / float64(elapsed*int64(level))
	if (probes < minProbes || frac > growAt && n < minSlow) && elapsed < maxWindow {
		// Too few calls to tell yet: a few long ones, or few samples
		// (a cold walk's first workers make a call or two a
		// millisecond, and one in callSample is probed). The window
		// is extended: a window without a probe says nothing about
		// the calls, and must not count as one whose calls were fast.
		return
	}
	a.start.Store(now)
	a.slowNs.Add(-slow)
	a.nslow.Add(-n)
	a.nprobes.Add(-probes)
	cpu := processCPU()
	busy := float64(cpu-a.cpu) / float64(elapsed*int64(a.ncpu))
	a.cpu = cpu
	blocked := looksBlocked(frac, n)
	var next int
	next, a.low = nextLevel(vote{blocked: blocked, busy: busy, frac: frac, probes: probes, level: level, base: a.base, cap: a.cap, low: a.low})
	if f := adaptDecided.Load(); f != nil {
		(*f)(adaptWindow{elapsed: elapsed, probes: probes, nslow: n, frac: frac, busy: busy, blocked: blocked, level: level, next: next})
	}
	if next != level {
		a.level.Store(int32(next))
		a.resize(next)
	}
}

// vote is what one window says, with the walk's bounds: what nextLevel
// decides from.
type vote struct {
	blocked          bool    // looksBlocked
	busy, frac       float64 // the CPUs' time used, the worker time blocked
	probes           int32
	level, base, cap int
	low              int // low windows in a row before this one
}

// nextLevel is the rule of growth: the level after window v, and the
// low windows in a row counted with it.
func nextLevel(v vote) (next, low int) {
	switch {
	case v.blocked && v.busy < busyAt && v.level < v.cap:
		return min(v.cap, 2*v.level), 0
	case v.probes < minProbes:
		// Still too few at maxWindow: no vote either way.
		return v.level, v.low
	case v.frac < shrinkAt && v.level > v.base:
		// A window's figure rests on a few sampled calls: one without
		// a slow sample is common in the middle of a cold walk, and
		// halving for it would leave the disk short of requests for
		// the windows it takes to grow back. So it takes shrinkAfter
		// low windows in a row; a walk that turns warm pays a few
		// windows of extra threads.
		if v.low+1 >= shrinkAfter {
			return max(v.base, v.level/2), 0
		}
		return v.level, v.low + 1
	}
	return v.level, 0
}

// looksBlocked reports whether a window whose blocked calls took frac of
// the worker time, n of them (weighted), is one of a walk waiting on its
// calls: the condition of growth, before the CPUs and the cap are asked.
func looksBlocked(frac float64, n int32) bool { return frac > growAt && n >= minSlow }

// adaptWindow is the figures of one decision (adapt.decide), for tests.
type adaptWindow struct {
	elapsed       int64
	probes, nslow int32
	frac, busy    float64
	blocked       bool // looksBlocked
	level, next   int
}

// adaptDecided is the test seam after each decision: nil outside tests.
var adaptDecided atomic.Pointer[func(adaptWindow)]

// done gives the process back the Ps it had before the walk.
func (a *adapt) done() {
	if a != nil && int(a.level.Load()) != a.base {
		a.procs(a.base)
	}
}

// processCPU returns the CPU time the process has used, in ns.
func processCPU() int64 {
	var ts unix.Timespec
	if unix.ClockGettime(clockProcessCPU, &ts) != nil {
		return 0
	}
	return ts.Nano()
}
