// Package walker reads directory trees in parallel and hands each file to
// a visit function.
//
// A pool of worker goroutines takes directories from LIFO work stacks,
// reads each one with getdents64 through a single open descriptor, and
// calls the visit function for every entry while that descriptor is still
// open, so that a later fstatat(2) on the entry costs no path lookup.
// Directories are opened with openat(2) relative to their parent's
// descriptor and O_NOFOLLOW, never by full path: paths longer than PATH_MAX
// work, and a directory swapped for a symbolic link is not followed.
// The d_type field of each record decides whether to descend; the walker
// itself calls stat only when d_type is DT_UNKNOWN or when the options
// demand it (-L, -H roots, -xdev).
//
// With one worker the walk is a plain recursive depth-first walk that
// reproduces GNU find's output order exactly, including gnulib fts's
// batches: a directory is read 100,000 records at a time, and a batch of
// more than 10,000 is visited in inode order unless the file system is
// tmpfs, NFS or CIFS (always under -L, where fts cannot tell).
//
// The walker prints nothing. Errors reach the caller as Entries whose Err
// is set, and the caller decides how to report them.
//
// # Parallel walk
//
// Each worker owns a stack of directory items and pops the newest (depth
// first); an idle worker steals the oldest item of another stack (the
// biggest subtree) or sleeps on a condition variable. A worker wakes
// sleepers only when it has more than one item to share. The first
// worker runs in the caller's goroutine and starts the others when it
// first has work to share, so a small walk costs no extra threads. A
// huge directory whose visits make stat calls has its further getdents
// chunks handed to idle workers; one whose visits need no stat is
// visited by its reader, for whom a hand-over costs more than the
// visit. The walk ends
// when the count of pending items (queued or being read) drops to zero;
// nothing polls. Under PostOrder every directory item counts its
// unfinished children and is visited by whichever worker finishes the
// last of them. See parallel_linux.go.
//
// # Sorted walk
//
// Under Options.Sort (-s) each directory is read whole, its records
// sorted by name and packed in that order, ahead of the walk, by
// whichever goroutine is free; one goroutine at a time visits, in depth
// first order, reading itself what no one has read ahead, so the order
// is the same for any number of workers. See sorted_linux.go.
//
// With Options.Ordered (visits whose only effect is output) each worker
// instead walks subtrees of its own, depth first, as one worker would:
// an idle worker is given the next subdirectory of a busy one's
// shallowest directory, and the busy one skips it (or, in a directory
// read in several calls, the second half of the records left to visit,
// and the busy one stops at the half). The output of the
// subtree that comes next is written as it is made; the others' is
// captured, up to a bound, and written when their turn comes. A worker
// that reaches the bound walks, meanwhile, subtrees that come before its
// own. See owned_linux.go.
//
// # Descriptors
//
// A directory's descriptor stays open while queued children still have
// to be opened from it (and, under PostOrder, until its children's
// post-order visits, which run relative to it). Items are reference
// counted for that. The number of open directories is budgeted from
// RLIMIT_NOFILE; over the budget, the least recently used descriptors of
// the current directory's ancestors are closed, and reopened on demand
// from the nearest open ancestor by name (openat, O_NOFOLLOW) or from a
// child by "..", checked against the device and inode recorded when they
// were closed. A 2,000-level tree walks under `ulimit -n 32`. The number
// of workers is lowered when the budget cannot feed them. See
// dir_linux.go.
//
// # System calls and the scheduler
//
// The walker makes its own openat, getdents64, fstatat and close calls,
// with names that are already NUL-terminated in its buffers (nothing is
// allocated per entry). They are ordinary, not raw, system calls, so that
// a call blocked on NFS or FUSE never stalls the garbage collector. What
// made ordinary calls slow was sysmon taking the P from a goroutine that
// had not been rescheduled for 10ms whenever it caught it in a call;
// workers yield every few milliseconds to prevent it. See sys_linux.go
// and maybeYield in walk_linux.go for the measurements.
//
// # Loops
//
// Under -L, a symbolic link to an ancestor is reported as a *LoopError
// and not visited. Without -L, a bind mount of an ancestor is noticed at
// no cost for other directories: the d_ino of a directory's "." record
// differs from the one its parent listed only at a mount point, and only
// then is the directory stat'ed and compared with its ancestors. Unlike
// fts, which stats every directory first, such a directory is visited
// once in pre-order before the loop is reported (not in post-order).
package walker
