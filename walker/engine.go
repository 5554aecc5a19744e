package walker

import (
	"runtime"
	"sync/atomic"
)

// A walk is one scheduler over the shared reader (reader.go) and
// visit step (visit.go): walkImpl picks it from the options, in one
// place: the depth-first walk (depth.go), its owned form (owned.go), or
// the parallel walk (parallel.go).

// walk is the state shared by every worker of one Walk call.
type walk struct {
	opt   Options
	visit func(*Entry) Action
	stop  atomic.Bool // set by a Stop; checked before each entry and each read
	fds   *fds
	// closeLater, when set, takes the descriptors of directories done
	// with, to close off the walk's goroutine (ahead.go).
	closeLater func(fd int)
}

func walkImpl(roots *rootSource, opt Options, visit func(*Entry) Action) error {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	w := &walk{opt: opt, visit: visit}
	// The budget is made for the most workers the walk may grow to.
	fed := 0
	w.fds, fed = newFDs(max(opt.Workers, opt.MaxWorkers))
	workers := min(opt.Workers, fed)
	switch {
	case opt.Ordered != nil && opt.owns(workers):
		// Visits whose only effect is output: workers own subtrees
		// and the output is put back in order. No more workers than
		// Ps: the head's worker must not wait for a CPU (bench/NOTES.md).
		runOwned(w, roots, min(workers, runtime.GOMAXPROCS(0)))
	case opt.Sort || opt.Workers == 1 && opt.MaxWorkers <= 1:
		// One worker that may not grow walks in GNU find's order (one
		// that may, with no -j on a one-CPU machine, walks in
		// parallel); -s in name order, one goroutine visiting in order
		// while the other workers read ahead. No more goroutines than
		// Ps: the visiting one must not wait for a CPU.
		t := newDFS(w, 0, opt.Sort, roots, nil)
		if n := min(workers, runtime.GOMAXPROCS(0)); opt.Sort && n > 1 {
			t.startAhead(n - 1)
			defer t.ahead.stop()
		}
		t.run()
	default:
		runParallel(w, roots, workers, fed)
	}
	return nil
}

// OwnsSubtrees reports whether a walk with these options, given an
// Ordered, has its workers own subtrees (the owned walk): -s with more
// than one worker and P, visits before the directories' contents. It
// is the caller's cue to make an Ordered, and the rule walkImpl goes by.
func (o Options) OwnsSubtrees() bool { return o.owns(o.Workers) }

// owns is OwnsSubtrees with workers workers (0: one per P).
func (o *Options) owns(workers int) bool {
	procs := runtime.GOMAXPROCS(0)
	if workers <= 0 {
		workers = procs
	}
	return o.Sort && !o.PostOrder && min(workers, procs) > 1
}

// Recycling. Everything the walk reuses (directory items, listings,
// read buffers) sits on free lists: slices owned by one
// goroutine, or guarded by one lock, taken from with popLast and given
// to with pushSpare, bounded so that the few big ones of a tree do not
// stay. Unlike a sync.Pool, a free list survives garbage collections.

// popLast takes the last element of a free list, clearing its slot so
// that the list does not keep it alive; ok is false when it is empty.
func popLast[T any](list *[]T) (x T, ok bool) {
	i := len(*list) - 1
	if i < 0 {
		return x, false
	}
	x = (*list)[i]
	clear((*list)[i:])
	*list = (*list)[:i]
	return x, true
}

// pushSpare puts x on a free list unless it holds max already; x is then
// left to the garbage collector.
func pushSpare[T any](list *[]T, x T, max int) {
	if len(*list) < max {
		*list = append(*list, x)
	}
}
