package main

import (
	"slices"
	"sync/atomic"
	"time"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// --stats: one line on standard error at the end of the run,
//
//	gfind: stats: 12 directories, 345 files, 42 matches, 17 stat calls, 0 errors, 0.123s
//
// (always these words, in this order, plural or not):
//
//   - directories, files: the files handed to the expression, by type:
//     a directory is counted once (under -depth too), and "files" is
//     everything else, so the two are what "find ... -type d" and
//     "find ... ! -type d" print (the status the tests see decides, so
//     under -L a link to a directory is a directory). Entries that only
//     report a failure are not counted; after -quit or -limit each worker
//     may count the one entry it had in hand.
//   - matches: entries for which the whole expression was true (as
//     -limit counts them).
//   - stat calls: the fstatat(2) calls of the walk and of the tests and
//     actions (not -newerXY B's statx, nor the stats of reference files
//     at parse time).
//   - errors: the failing diagnostics written (hidden permission
//     errors, -noerror, do not count).
//   - the wall time since the command started, in seconds.
//
// With --stats off nothing is counted: the visit function is not
// wrapped, and the only costs left are one increment per stat in the
// walker's Entry and one per match in predicate.State. -status and
// --progress wrap it too, for the same counts, which their status line
// samples while the walk goes (status.go).

// runStats collects what --stats reports, and what the status line of
// -status and --progress shows (status.go). A nil *runStats is off.
type runStats struct {
	start   time.Time
	follow  walker.Follow
	workers []workerStats
	report  bool                   // --stats: the line at the end
	matches func(worker int) int64 // the worker's matches so far, when live
}

// workerStats is one worker's counts, written only by that worker and
// read once the walk is over; the padding keeps workers off each
// other's cache lines.
//
// The status line reads them while the walk goes, and the counting
// stays plain all the same: the worker copies its counts to pub every
// publishEvery visits, and its directory when the sampler asks (want),
// which costs it one atomic load per visit, a plain load on amd64 and
// arm64. A worker held up (in a write to a full pipe) thus shows counts
// at most publishEvery visits old.
type workerStats struct {
	e *walker.Entry // the Entry of the worker's last visit
	// entries are all the Entries the worker visited through, for their
	// stat counts: under -s with output-only visits a worker has one per
	// task it suspends for another (walker's owned walk).
	entries     []*walker.Entry
	dirs, files int64
	want        atomic.Bool
	pub         struct{ dirs, files, matches atomic.Int64 }
	pubDir      atomic.Pointer[[]byte]
	_           [16]byte
}

// publishEvery is how many visits a worker goes between two copies of
// its counts for the status line: a power of two.
const publishEvery = 64

// sample is what the workers published for the status line: their
// counts and the directory one of them was in.
type sample struct {
	dirs, files, matches int64
	dir                  []byte
}

// startStats starts the clock when --stats (report) or the status line
// (live) is on; it returns nil when both are off.
func startStats(report, live bool) *runStats {
	if !report && !live {
		return nil
	}
	return &runStats{start: time.Now(), report: report}
}

// wrap returns visit counting the entries it is handed for the given
// number of workers, or visit itself when st is off.
func (st *runStats) wrap(workers int, follow walker.Follow, visit func(*walker.Entry) walker.Action) func(*walker.Entry) walker.Action {
	if st == nil {
		return visit
	}
	st.follow = follow
	st.workers = make([]workerStats, workers)
	if st.matches != nil {
		for i := range st.workers {
			st.workers[i].want.Store(true) // a first sample at the first visit
		}
	}
	return func(e *walker.Entry) walker.Action {
		w := &st.workers[e.Worker]
		if w.e != e {
			w.e = e
			if !slices.Contains(w.entries, e) {
				w.entries = append(w.entries, e)
			}
		}
		a := visit(e)
		if e.Err == nil {
			if st.isDir(e) {
				w.dirs++
			} else {
				w.files++
			}
		}
		if st.matches != nil {
			st.publish(w, e)
		}
		return a
	}
}

// dirOf returns a copy of the directory e is in, or e itself when it is
// a directory: where the walk is, for the status line.
func (st *runStats) dirOf(e *walker.Entry) []byte {
	p := e.Path
	if e.Err == nil && !st.isDir(e) && e.NameOff > 0 {
		p = p[:e.NameOff]
		if len(p) > 1 && p[len(p)-1] == '/' {
			p = p[:len(p)-1]
		}
	}
	return slices.Clone(p)
}

// publish copies w's counts for the status line every publishEvery
// visits and when the sampler asks, with e's directory then.
func (st *runStats) publish(w *workerStats, e *walker.Entry) {
	want := w.want.Load()
	if !want && (w.dirs+w.files)&(publishEvery-1) != 0 {
		return
	}
	w.pub.dirs.Store(w.dirs)
	w.pub.files.Store(w.files)
	w.pub.matches.Store(st.matches(e.Worker))
	if want {
		w.want.Store(false)
		dir := st.dirOf(e)
		w.pubDir.Store(&dir)
	}
}

// sample sums what the workers published, and asks each for its
// directory again; dir is that of the first worker that has published
// one.
func (st *runStats) sample() sample {
	var sum sample
	for i := range st.workers {
		w := &st.workers[i]
		sum.dirs += w.pub.dirs.Load()
		sum.files += w.pub.files.Load()
		sum.matches += w.pub.matches.Load()
		if p := w.pubDir.Load(); p != nil && sum.dir == nil {
			sum.dir = *p
		}
		w.want.Store(true)
	}
	return sum
}

// isDir reports whether e is a directory as the tests see it. The type
// is known from d_type or the walker's stat nearly always; otherwise,
// as -type does, it stats (usually answered from the Entry's cache).
func (st *runStats) isDir(e *walker.Entry) bool {
	if e.Type != walker.TypeUnknown {
		return e.Type == walker.TypeDir
	}
	var s *unix.Stat_t
	var err error
	if st.follow.Follows(e.Depth) {
		s, err = e.Stat()
	} else {
		s, err = e.Lstat()
	}
	return err == nil && s.Mode&unix.S_IFMT == unix.S_IFDIR
}

// writeReport writes the line, once the walk and every -exec are done.
// matches is the files the expression matched (predicate.Run.Matches).
func (st *runStats) writeReport(diag *output.Diag, matches int64) {
	if st == nil || !st.report {
		return
	}
	var dirs, files, stats int64
	for i := range st.workers {
		w := &st.workers[i]
		dirs += w.dirs
		files += w.files
		for _, e := range w.entries { // an Entry visits for one worker only
			stats += e.StatCalls()
		}
	}
	diag.Notef("stats: %d directories, %d files, %d matches, %d stat calls, %d errors, %.3fs",
		dirs, files, matches, stats, diag.Errors(), time.Since(st.start).Seconds())
}
