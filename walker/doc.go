// Package walker reads directory trees, in parallel, and hands each file
// to a visit function: the first stage of gfind's pipeline, whose visits
// evaluate predicate's expression, whose actions write through output.
// It imports none of them.
//
// The walk is one directory reader and one visit step, driven by one of
// two engines, the depth-first walk and the parallel walk, that decide
// only who reads and visits what, and when; walkImpl picks one from the
// options, in one place (engine.go).
// The walker prints nothing: errors reach the caller as Entries whose
// Err is set, and the caller decides how to report them.
//
// # The reader
//
// A directory is opened with openat(2) relative to its parent's
// descriptor, with O_DIRECTORY and O_NOFOLLOW, never by full path: paths
// longer than PATH_MAX work, and a directory swapped for a symbolic link
// is not followed. It is read a chunk at a time (dirRead.next, the walk's
// one read loop, over the OS's getdents: getdents64 on Linux, getdents
// on the BSDs, a libSystem stream on macOS whose records are copied into
// the chunk), and its records are parsed in place (nextDirent, the OS's
// one record parser, dirent.go). The d_type of each record decides
// whether to descend; the walker itself calls stat only when d_type is
// DT_UNKNOWN or when the options demand it (-L, -H roots, -xdev). Before
// the first chunk is handed out, the directory is checked: by its "."
// record, whose inode number is compared with the one the parent listed
// (dotCheck: only at a mount point do they differ, and only then is the
// directory stat'ed), or, when the chunk has no "." record, by its own
// fstat (statCheck); either finds a bind mount of an ancestor or a
// directory swapped in since its parent was read. How a read ended (a
// loop, a swap, a read error) is classified in one place (readEnd,
// refuse, readFailed, openFailed), -ignore_readdir_race included
// (wstate.fail). The order in which a directory's records are handed out
// is a policy: a chunk at a time in readdir order; gnulib fts's batches
// of up to 100,000 records, a batch of more than 10,000 in inode order
// unless the file system is tmpfs, NFS or CIFS (always under -L, where
// fts cannot tell); or the whole directory by name. The batch policies
// share one collector (collect) and one format of a listing (pack). See
// reader.go.
//
// # The visit step
//
// Every scheduler visits through the same steps (visit.go): a
// starting point's visit (visitRoot), a directory's visit before its
// contents (preVisit), each record's (entry: its type, -L, Exclude,
// loops under -L, XDev, Prune) and a directory's after its contents
// under PostOrder (postVisit).
//
// # The depth-first walk
//
// With one worker, and under Options.Sort (-s), one goroutine walks an
// explicit stack of frames, one per directory being visited, as a
// recursion would: a directory is opened, read, its records visited in
// order, a subdirectory pushed as a frame when its record is visited;
// then it is closed and visited in post-order. The record source is its
// policy: fts's batches, which reproduce GNU find's output exactly, or
// the whole directory sorted by name, so that -s gives the same order
// for any number of workers. See depth.go; the sort is in listing.go.
// Under -s with several workers, the other workers read ahead: they
// open and read the subdirectories of what was read, the most recently
// queued first, and the walk takes what is ready and drops what it does
// not descend into (ahead.go).
//
// # The parallel walk
//
// Each worker owns a stack of directory items and pops the newest (depth
// first); an idle worker steals the oldest item of another stack (the
// biggest subtree) or sleeps on a condition variable. A directory is read
// and its records visited, a chunk at a time in readdir order, by the
// worker that popped it. A worker wakes sleepers only when it has more
// than one item to share. The first worker runs in the caller's
// goroutine and starts the others when it first has work to share, so a
// small walk costs no extra threads. A huge directory whose visits make
// stat calls has its further chunks handed to idle workers (Options.PieceOut
// is told of each, for a visitor that keeps something per directory);
// one whose visits need no stat is visited by its reader, for whom a
// hand-over costs more than the visit. The walk ends when the count of pending
// items (queued or being read) drops to zero; nothing polls. Under
// PostOrder every directory item counts its unfinished children and is
// visited by whichever worker finishes the last of them. See
// parallel.go.
//
// # Adapting to slow calls
//
// A warm walk is CPU-bound: more threads than CPUs only cost it. A cold
// or remote one waits on a disk or a server and goes as fast as the
// calls it keeps in flight, and a goroutine blocked in a call keeps its
// P, so that number follows GOMAXPROCS more than the workers. The
// parallel walk therefore probes one open or read in 8 and one stat in
// 64: a probe blocked if it was slow and its thread slept in it (one
// only preempted did not). Each few milliseconds (longer while too few
// probes have ended to tell), over a quarter of the worker time in
// blocked calls, with the CPUs not saturated, doubles the Ps
// (Options.Procs) and the workers, up to Options.MaxWorkers; under a
// twentieth for three windows in a row halves them back. A saturated
// CPU stops the growth but shrinks nothing: a cold disk's kernel work
// saturates it at any level. Workers above the count finish their own
// stacks and park. The depth-first walks do not adapt. The rule is a
// pure function of a window's figures (nextLevel), and a worker's probe
// of its calls, which its Entry shares, a small sampler. See adapt.go.
//
// # The owned walk
//
// With Options.Ordered (-s whose visits' only effect is output) each
// worker instead walks subtrees of its own with a depth-first walk by
// name, whose giver it is: an idle worker is given the next
// subdirectory of a busy one's shallowest directory, and the busy one
// skips it (or, in a directory read in several calls, the second half
// of the records left to visit, and the busy one stops at the half).
// Each piece of work is tagged with a Seq, its place in the
// depth-first order; the Ordered
// (output.Reorder in gfind) writes the output of the Seq that comes next
// as it is made, captures the others', up to a bound, and writes it when
// their turn comes. A worker whose Seq is full walks, meanwhile,
// subtrees that come before its own. See owned.go.
//
// # Lifetimes
//
//   - A directory's descriptor stays open while the directory is wanted:
//     while it is read, while a child still has to be opened from it,
//     and under PostOrder until its children's post-order visits, which
//     run relative to it (dir.want); over the descriptor budget, one that
//     no call is using (dir.pins) may be closed and is reopened on demand.
//   - A directory item is freed by whoever drops the last of its users
//     (dir.refs): its walk, its children, a path buffer that holds its
//     path.
//   - Whatever the walk reuses (items, listings, read buffers) goes back
//     to a free list (popLast, pushSpare), owned by one goroutine or
//     guarded by one lock, and bounded.
//
// The number of open directories is budgeted from RLIMIT_NOFILE; over the
// budget, the least recently used descriptors of the current directory's
// ancestors are closed, and reopened on demand from the nearest open
// ancestor by name (openat, O_NOFOLLOW) or from a child by "..", checked
// against the device and inode recorded when they were closed. A
// 2,000-level tree walks under `ulimit -n 32`. The number of workers is
// lowered when the budget cannot feed them. See dir.go.
//
// # System calls and the scheduler
//
// On Linux the walker makes its own openat, getdents64, fstatat and
// close calls, with names that are already NUL-terminated in its
// buffers (nothing is allocated per entry). They are ordinary, not raw,
// system calls, so that a call blocked on NFS or FUSE never stalls the
// garbage collector. What made ordinary calls slow was sysmon taking the
// P from a goroutine that had not been rescheduled for 10ms whenever it
// caught it in a call; workers yield every few milliseconds to prevent
// it. See sys_linux_raw.go and maybeYield in visit.go; the measurements
// are in bench/NOTES.md.
//
// # The OS boundary
//
// Everything the walk asks of the OS is in the files named sys_*.go:
// the directory calls (sys_linux_raw.go; sys_bsd.go; sys_stream.go over
// sys_darwin.go's libSystem stream), the per-file calls off Linux
// (sys_portable.go, through x/sys's wrappers), and per OS the record
// layout, the file system types fts skips the inode sort on, whether a
// directory is a mount's root, the per-thread sleep count the adaptive
// walk probes with, and the yield of a spinning worker. The rest builds
// everywhere. A read resumed on a reopened descriptor starts where the
// evicted one was (tellDir, seekDir): a kernel offset, or on macOS a
// count of records, since a stream gives no cookie to seek to. The
// gfind_portable tag builds the macOS reader on Linux (its stream made
// of getdents, sys_stream_linux.go), and gfind_macshim makes that stream
// behave as the worst macOS one may, so that it is tested here.
//
// # Loops
//
// Under -L, a symbolic link to an ancestor is reported as a *LoopError
// and not visited. Without -L, a bind mount of an ancestor is noticed at
// no cost for other directories (the "." check above). Unlike fts, which
// stats every directory first, such a directory is visited once in
// pre-order before the loop is reported (not in post-order), except
// under XDev and Mount, which stat each directory before its visit
// anyway: there it is refused unvisited, as by fts.
package walker
