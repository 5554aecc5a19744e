package main

import (
	"slices"
	"time"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/predicate"
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
// walker's Entry and one per match in predicate.State.

// runStats collects what --stats reports. A nil *runStats is off.
type runStats struct {
	start   time.Time
	follow  walker.Follow
	workers []workerStats
}

// workerStats is one worker's counts, written only by that worker and
// read once the walk is over; the padding keeps workers off each
// other's cache lines.
type workerStats struct {
	e *walker.Entry // the Entry of the worker's last visit
	// entries are all the Entries the worker visited through, for their
	// stat counts: under -s with output-only visits a worker has one per
	// task it suspends for another (walker's owned walk).
	entries     []*walker.Entry
	dirs, files int64
	_           [16]byte
}

// startStats starts the clock when on; it returns nil when off.
func startStats(on bool) *runStats {
	if !on {
		return nil
	}
	return &runStats{start: time.Now()}
}

// wrap returns visit counting the entries it is handed for the given
// number of workers, or visit itself when st is off.
func (st *runStats) wrap(workers int, follow walker.Follow, visit func(*walker.Entry) walker.Action) func(*walker.Entry) walker.Action {
	if st == nil {
		return visit
	}
	st.follow = follow
	st.workers = make([]workerStats, workers)
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
		return a
	}
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

// report writes the line, once the walk and every -exec are done.
func (st *runStats) report(diag *output.Diag, states []*predicate.State) {
	if st == nil {
		return
	}
	var dirs, files, matches, stats int64
	for _, w := range st.workers {
		dirs += w.dirs
		files += w.files
		for _, e := range w.entries { // an Entry visits for one worker only
			stats += e.StatCalls()
		}
	}
	for _, s := range states {
		matches += s.Matches()
	}
	diag.Notef("stats: %d directories, %d files, %d matches, %d stat calls, %d errors, %.3fs",
		dirs, files, matches, stats, diag.Errors(), time.Since(st.start).Seconds())
}
