package walker

import (
	"golang.org/x/sys/unix"
)

// Type is a file's type as the directory entry (d_type) or a stat reports it.
type Type uint8

const (
	TypeUnknown Type = iota // the file system did not say; ask Lstat
	TypeRegular
	TypeDir
	TypeSymlink
	TypeFIFO
	TypeSocket
	TypeChar
	TypeBlock
)

// typeModes maps each Type to its S_IFMT bits (0 for TypeUnknown).
var typeModes = [...]uint32{
	TypeRegular: unix.S_IFREG, TypeDir: unix.S_IFDIR, TypeSymlink: unix.S_IFLNK,
	TypeFIFO: unix.S_IFIFO, TypeSocket: unix.S_IFSOCK, TypeChar: unix.S_IFCHR,
	TypeBlock: unix.S_IFBLK,
}

// TypeOf maps the S_IFMT bits of a stat mode to a Type.
func TypeOf(mode uint32) Type {
	for t, m := range typeModes {
		if m != 0 && m == mode&unix.S_IFMT {
			return Type(t)
		}
	}
	return TypeUnknown
}

// Mode returns the S_IFMT bits of t, or 0 for TypeUnknown.
func (t Type) Mode() uint32 {
	if int(t) < len(typeModes) {
		return typeModes[t]
	}
	return 0
}

// Action is what the visit function asks the walker to do next.
type Action int

const (
	Continue Action = iota // go on; descend if this is a directory
	Prune                  // do not descend into this directory (ignored in post-order)
	Stop                   // end the whole walk as soon as possible (-quit)
)

// Follow says which symbolic links the walk follows.
type Follow int

const (
	FollowNever Follow = iota // -P: never follow (the default)
	FollowRoots               // -H: follow links named as starting points only
	FollowAll                 // -L: follow every link
)

// Follows reports whether links are followed for a file at depth: under
// -L always, under -H for a starting point only.
func (f Follow) Follows(depth int) bool {
	return f == FollowAll || (f == FollowRoots && depth == 0)
}

// Options control a walk.
type Options struct {
	// Workers is the number of goroutines reading directories; 0 means
	// GOMAXPROCS. With 1 (and MaxWorkers at most 1) the walk is serial
	// and in GNU find's order.
	Workers int
	// MaxWorkers is the most workers the parallel walk grows to while
	// its calls block (a cold cache, a remote file system), with Procs;
	// no more than Workers when 0. Entry.Worker is below the larger of
	// Workers and MaxWorkers.
	MaxWorkers int
	// Procs, when set, is called to set the number of Ps
	// (runtime.GOMAXPROCS) the process runs: the parallel walk raises it
	// while its calls block, up to the larger of Workers and MaxWorkers,
	// and sets it back when they are fast again and at its end. The
	// walker never changes it itself.
	Procs  func(n int) `json:"-"`
	Follow Follow
	// MaxDepth < 0 means no limit. Entries deeper than MaxDepth are not
	// visited and directories at MaxDepth are not read.
	MaxDepth int
	// MinDepth: entries shallower than this are not visited (but are
	// still descended into).
	MinDepth int
	// PostOrder (-depth) visits a directory after its contents instead of
	// before them.
	PostOrder bool
	// XDev (-xdev) does not descend into directories on other devices
	// than their starting point; they are still visited.
	XDev bool
	// Mount (-mount, since GNU find 4.11 and POSIX 2024 no longer -xdev)
	// neither visits nor descends into a file on another device than its
	// starting point, as fts's FTS_MOUNT: a mount point below a starting
	// point is not visited at all. It costs a stat of every file.
	Mount bool
	// IgnoreReaddirRace silently skips files that vanish between the
	// directory read and a later stat or open.
	IgnoreReaddirRace bool
	// RootsInTurn walks each starting point to its end before the next
	// is started, its contents still in parallel: then a Stop in one
	// starting point's walk leaves the next unstarted, as in GNU find,
	// whatever the workers' timing (gfind sets it for -quit). Without
	// it several workers start the next starting point as soon as the
	// previous one was visited, and walk them together.
	RootsInTurn bool
	// Sort (gfind -s) visits each directory's entries sorted by name in
	// byte order, depth first, while directories are still read in
	// parallel.
	Sort bool
	// Exclude, when set, is asked about every file before anything else
	// (before MinDepth, the visit and descending): a file it reports is
	// neither visited nor descended into (bfs's -exclude). It runs on the
	// worker goroutines, like the visit function.
	Exclude func(*Entry) bool `json:"-"`
	// Ordered, under Sort, says that the visits' only effect is their
	// output, and puts it back in order: each worker then walks subtrees
	// of its own, out of walk order, tagging what it visits with the Seq
	// of its place in the walk's order, and Ordered writes the output in
	// that order. Ignored with one worker, and under PostOrder.
	Ordered Ordered `json:"-"`
	// PieceOut, when set, is told when the parallel walk hands a piece
	// of a big directory's records to another worker (one getdents
	// chunk; see "The parallel walk" in the package doc): PieceOut(worker,
	// dir, true) on the reader's goroutine before the piece can be
	// visited, and PieceOut(worker, dir, false) on the goroutine that
	// took the piece,
	// after its last visit (or after a Stop, with none). dir is the
	// directory as its files' Paths begin (their Path[:NameOff]), valid
	// only during the call. A visitor that keeps something per directory
	// until the workers visiting it move on (gfind's -execdir ... +
	// batches) keeps it while a piece is out, which no worker may have
	// begun to visit yet. It is called as often as directories are
	// split, never per entry.
	PieceOut func(worker int, dir []byte, out bool) `json:"-"`
}

// A Seq is a position in the walk's depth-first order, made by an
// Ordered: the output of the visits made in a Seq comes after that of
// every Seq before it and before that of every Seq after it. Only the
// Ordered that made it knows what it is.
type Seq interface {
	// Head reports whether the output of every Seq before this one
	// has been written: what is visited in it now goes straight out.
	// Once true it stays true. Any goroutine may call it, at any time.
	Head() bool
}

// Ordered is the reorder buffer of an owned walk (Options.Ordered): the
// walker decides who visits what and when; Ordered captures the output
// of the visits made ahead of the walk's order, bounds it, and writes it
// in order.
//
// Each worker has at most one current Seq, which its visits output to;
// Begin and End nest like calls, so a worker can suspend its Seq to walk
// one that comes before it. Start is called once, before the workers
// start; After by any goroutine, with the walker's locks held (an
// Ordered never calls the walker); Begin, End and Step only by the
// worker's own goroutine (as its visits are), between visits. A worker
// visits in its current Seq only after Begin made it current or Step
// reported it not full. Begin, End and Step may write, and block.
//
// A visit that returns Stop ends the walk: the Ordered must by then
// refuse to write more (gfind's visits return Stop once its output
// stopped), so that what was written is a prefix of the walk's output.
// The walker still Ends every Seq it began.
type Ordered interface {
	// Start returns the first Seq of a new walk: the head.
	Start() Seq
	// After makes two Seqs that come right after s, first then second,
	// between s and the Seq that came after it: s's worker gives away
	// a subdirectory ahead of it (first) and goes on past it (second).
	After(s Seq) (first, second Seq)
	// Begin makes s worker's current Seq, suspending the one it had
	// until the matching End. s must not have been begun before.
	Begin(worker int, s Seq)
	// End ends worker's current Seq: nothing more is visited in it.
	// The Seq suspended by its Begin, if any, is current again. moved
	// reports that the head moved on: a worker waiting for its Seq to
	// be the head should look again.
	End(worker int) (moved bool)
	// Step is called often (every few visits) by worker between visits:
	// it moves the output captured since the last Step out of the way,
	// or out, once worker's Seq is the head. full reports that the Seq
	// is not the head and has captured all it may: the worker must not
	// visit in it until Step reports false again, which it does once
	// the Seq is the head (meanwhile it may Begin a Seq before it).
	Step(worker int) (full bool)
}

// Entry is one file met by the walk.
//
// The walker reuses Entries and their Path buffers: an Entry is valid
// only until the visit function returns. Copy what you keep.
type Entry struct {
	Path    []byte // as find prints it: the root argument, then "/"-joined names
	NameOff int    // Path[NameOff:] is the base name
	// RootLen is the length of the starting point's path: Path[:RootLen]
	// is the starting point as given ("a/" for a/'s files, whose paths
	// are "a/x": fts does not double the slash). 0 in an Entry made by
	// other code than the walker.
	RootLen int
	Depth   int // 0 for a starting point
	// Type comes from d_type, or from a stat the walker had to make. Under
	// -L (and for -H starting points) it is the type of the link's target,
	// or TypeSymlink for a dangling link. TypeUnknown means "ask Lstat".
	Type Type
	// Err non-nil means this Entry only reports a failure: a starting
	// point that cannot be reached, a directory that could not be opened
	// or read (the directory itself was visited without Err), a file that
	// vanished, or a file system loop (*LoopError). Do not evaluate it.
	Err error
	// PostOrder is set for the visit of a directory after its contents
	// under Options.PostOrder.
	PostOrder bool
	// Worker is the index (0 <= Worker < Options.Workers) of the goroutine
	// making this call, so callers can keep lock-free per-worker state.
	Worker int

	// dirfd is the open parent directory (unix.AT_FDCWD for a root; -1
	// for a Synthetic Entry). The walker keeps it open, and pinned against
	// the descriptor budget, for the whole visit.
	dirfd int
	// atOff is where the name to give the *at calls with dirfd starts in
	// Path: NameOff, or 0 for a root. The walker keeps a NUL byte just past
	// the end of Path (beyond its capacity, so that an append by a caller
	// cannot overwrite it), which lets the calls use Path in place.
	atOff int
	// dino is the inode number of the file's directory record (d_ino),
	// or 0: for a starting point, a directory's own visits and a
	// Synthetic Entry (DirentIno).
	dino uint64
	// follow is set when Type describes a link's target (-L, or a root
	// under -H).
	follow   bool
	haveL    bool
	haveS    bool
	haveLink bool
	reported bool // ReportOnce was called for this file
	lstat    unix.Stat_t
	stat     unix.Stat_t
	lstatErr error
	statErr  error
	link     []byte // Readlink's result, in linkBuf
	linkBuf  []byte
	linkErr  error
	// nstat counts the fstatat calls made through this Entry. Each
	// worker has one Entry for its whole walk, so this is a per-worker
	// count that costs one increment and no atomic (for --stats).
	nstat int64
	// smp, in a parallel walk that adapts, times some stats and, for
	// the worker whose Entry this is, some opens and reads (adapt.go).
	// In the Entry, by value: its counters are then in the cache lines
	// every stat touches anyway.
	smp sampler
}

// StatCalls returns the number of stat system calls made through e, by
// the walker and by callers, since the walk started; e is the worker's
// Entry, reused for every file it visits, so this counts all of that
// worker's calls. Read it during a visit, or once Walk has returned.
func (e *Entry) StatCalls() int64 { return e.nstat }

// Name returns the base name, Path[NameOff:].
func (e *Entry) Name() []byte { return e.Path[e.NameOff:] }

// DirFD returns the descriptor of the directory that holds the file
// (unix.AT_FDCWD for a starting point); give it with AtName to *at
// system calls (unlinkat for -delete, openat for -execdir). It is valid
// only during the visit, and the caller must not close it.
func (e *Entry) DirFD() int {
	return e.dirfd
}

// AtName returns the name to use with DirFD: the base name, or the whole
// path for a starting point. It aliases Path.
func (e *Entry) AtName() []byte { return e.Path[e.atOff:] }

// Lstat returns the status of the file itself, not following a final
// symbolic link. The first call costs one fstatat(2) relative to the
// parent directory's descriptor; later calls return the cached result.
func (e *Entry) Lstat() (*unix.Stat_t, error) {
	if !e.haveL {
		e.lstatErr = e.fstatat(&e.lstat, unix.AT_SYMLINK_NOFOLLOW)
		e.haveL = true
	}
	return &e.lstat, e.lstatErr
}

// Stat returns the status of the file, following a final symbolic link
// (what find's -L sees). For a file that is not a link it is Lstat, at no
// extra cost. A dangling link gives its Lstat result and the error.
func (e *Entry) Stat() (*unix.Stat_t, error) {
	if !e.haveS {
		if e.Type != TypeUnknown && e.Type != TypeSymlink && !e.follow {
			st, err := e.Lstat()
			e.stat, e.statErr = *st, err
		} else if st, err := e.Lstat(); err == nil && st.Mode&unix.S_IFMT != unix.S_IFLNK {
			e.stat, e.statErr = *st, nil
		} else {
			e.statErr = e.fstatat(&e.stat, 0)
			if e.statErr != nil {
				// The kernel left e.stat alone: give the link's own
				// status rather than a previous Entry's.
				e.stat = *st
			}
		}
		e.haveS = true
	}
	return &e.stat, e.statErr
}

// Readlink returns the target of a symbolic link (for -lname and %l).
// The first call costs one readlinkat(2); the result is cached and, like
// Path, valid only during the visit.
func (e *Entry) Readlink() ([]byte, error) {
	if !e.haveLink {
		e.link, e.linkErr = e.readlink()
		e.haveLink = true
	}
	return e.link, e.linkErr
}

func (e *Entry) readlink() ([]byte, error) {
	if e.linkBuf == nil {
		e.linkBuf = make([]byte, 256)
	}
	for {
		n, err := e.readlinkat(e.linkBuf)
		if err != nil {
			return nil, err
		}
		if n < len(e.linkBuf) {
			return e.linkBuf[:n], nil
		}
		// Possibly truncated: readlink does not say. Grow and retry.
		e.linkBuf = make([]byte, 2*len(e.linkBuf))
	}
}

// DirentIno returns the file's inode number without a stat where GNU
// find takes it without one (for -inum and %i): from the directory
// record (fts's d_ino), for a file below a starting point that is not a
// directory (a mount point's record holds the inode number of the
// directory under the mount) and whose type the record gave (under -L,
// not a link: those are followed). When the file's status was taken
// already, its number is the status's, as in GNU, which copies the stat
// over the record's number. ok is false when the caller must stat.
func (e *Entry) DirentIno() (ino uint64, ok bool) {
	if e.dino == 0 || e.Type == TypeDir || e.follow {
		return 0, false
	}
	if e.haveL && e.lstatErr == nil {
		return e.lstat.Ino, true
	}
	return e.dino, true
}

// reset prepares a reused Entry for the next file.
func (e *Entry) reset() {
	e.dino = 0
	e.Err = nil
	e.PostOrder = false
	e.follow = false
	e.haveL, e.haveS, e.haveLink = false, false, false
	e.reported = false
}

// raceIgnored reports whether err says that a file vanished since its
// directory was read (ENOENT) and IgnoreReaddirRace asks for silence
// about it. Every place where the walk meets a vanished file decides
// through it.
func (o *Options) raceIgnored(err error) bool {
	return err == unix.ENOENT && o.IgnoreReaddirRace
}

// gone reports whether the visit found the file gone: a stat of it
// failed with ENOENT, and the failure was reported (or silenced under
// IgnoreReaddirRace). The walk does not try to read such a directory,
// which would report it a second time: GNU reports it once.
func (e *Entry) gone() bool {
	return e.reported && e.haveL && e.lstatErr == unix.ENOENT
}

// markGone records on the Entry of a directory that vanished before it
// could be opened (dir.vanished) that it is gone and already reported,
// so that its post-order visit does not stat it again and tests that
// need its status are just false, reported once as GNU does.
func (e *Entry) markGone() {
	e.lstatErr, e.haveL = unix.ENOENT, true
	e.statErr, e.haveS = unix.ENOENT, true
	e.reported = true
}

// ReportOnce reports whether it is the first call for the current file.
// A failed stat is reported once per file (GNU's
// already_issued_stat_error_msg) however many tests need the status,
// including -exclude's, which are evaluated before the visit.
func (e *Entry) ReportOnce() bool {
	first := !e.reported
	e.reported = true
	return first
}

// Synthetic builds an Entry with status already known, for tests of code
// that evaluates Entries without a file system. lst is what Lstat returns
// and st what Stat returns (nil: the same as lst); neither is copied
// lazily, so the Entry never touches the disk.
func Synthetic(path string, depth int, t Type, lst, st *unix.Stat_t) *Entry {
	e := &Entry{Path: []byte(path), Depth: depth, Type: t, dirfd: -1}
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' && i < len(path)-1 {
			e.NameOff = i + 1
			break
		}
	}
	if lst != nil {
		e.lstat, e.haveL = *lst, true
		if st == nil {
			st = lst
		}
	} else {
		e.lstatErr, e.haveL = unix.ENOENT, true
	}
	if st != nil {
		e.stat, e.haveS = *st, true
	} else {
		e.statErr, e.haveS = unix.ENOENT, true
	}
	return e
}
