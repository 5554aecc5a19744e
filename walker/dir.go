package walker

import (
	"cmp"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// fileID is a file's identity: device and inode number.
type fileID struct{ dev, ino uint64 }

// idOf returns the identity in a stat result (whose field types vary
// between architectures).
func idOf(st *unix.Stat_t) fileID { return fileID{uint64(st.Dev), uint64(st.Ino)} }

// dir is a directory met by the walk: a work item in parallel mode, one
// recursion level in serial mode. Directories link to their parents, so
// that a path, a descriptor or an ancestor can be found again from any
// descendant without storing full paths.
//
// Descriptor life cycle. fd is opened once, relative to the parent's fd
// (never by path), and closed when nothing wants it any more: want counts
// the reasons to keep it (the worker reading it, each child not yet
// opened, and under PostOrder each child not yet post-visited, since a
// post-order visit runs relative to its parent), pins counts the calls
// using it right now. Under descriptor pressure, an fd that is wanted but
// not pinned may be closed early (evicted), after recording the exact
// identity; the next pin reopens it from the parent and checks that it
// is still the same directory.
type dir struct {
	parent *dir
	name   []byte // NUL-terminated: the name in parent, or the root argument
	depth  int
	// nameOff is where name starts in the path; pathLen the path's
	// length; childOff where a child's name starts (pathLen+1, or pathLen
	// after a root that ends in '/': fts never doubles a slash).
	nameOff, pathLen, childOff int
	// rootLen is the length of the starting point's path, which begins
	// every path below it (Entry.RootLen).
	rootLen      int
	typ          Type // the Type to report for the directory itself
	follow       bool // opened without O_NOFOLLOW (-L, or a root under -H)
	linkFollowed bool // reached through a symbolic link (Entry.follow)
	// id is the directory's identity, for loop checks. Without a stat,
	// ino is the d_ino of its record and dev is inherited from the parent
	// (mount points are caught by the "." check in dotCheck); idExact
	// says it came from a stat. Both are fixed before any child exists,
	// so descendants read them without a lock.
	id      fileID
	idExact bool
	rootDev uint64 // st_dev of the starting point, for XDev
	// vid is the exact identity that a reopened descriptor must match,
	// recorded (under mu) when the descriptor is evicted.
	vid     fileID
	haveVid bool

	mu   sync.Mutex
	fd   int // -1: not open
	want int32
	pins int32
	gen  uint32 // bumped by each reopen, so a reader knows to seek
	// pos is the read position of the descriptor when it was evicted
	// (tellDir), where a read in progress resumes after the reopen.
	// posKept says the descriptor was reopened and not yet set to pos
	// (seekDir): evicted again meanwhile, its own position (the start)
	// is not the read's.
	pos     int64
	posKept bool
	// lastUse is the fds.tick of the last pin, for least-recently-used
	// eviction.
	lastUse uint64
	// lost is set when an evicted descriptor could not be reopened
	// (serial mode): the rest of the directory is skipped.
	lost bool
	// loop is set when the directory turned out to be its own ancestor
	// (a bind mount): it is not read, nor visited in post-order.
	loop bool
	// vanished is set when the directory could not be opened because it
	// is gone (ENOENT) since its parent was read. That was reported (or
	// silenced under IgnoreReaddirRace) once: its post-order visit sees
	// it gone and does not report it again (Entry.markGone).
	vanished bool

	// unfinished counts, under PostOrder, the reasons not to post-visit
	// yet: 1 while the directory is being read, plus its children that are
	// not post-visited.
	unfinished atomic.Int32

	// refs counts what still points at this item; at zero the item is
	// recycled. In a parallel pre-order walk: the item itself until
	// read, each child item, and a worker's path buffer
	// (parallel.go); in a depth-first walk, its frames and children
	// (dfs.newDir).
	refs atomic.Int32

	// chunk, when set, makes this item not a directory but a share of
	// its parent's records for another worker to visit: a big
	// directory's per-entry work (stats above all) is split across
	// workers (parallel.go, splitChunk).
	chunk []byte
}

// reset clears a reused dir (serial mode keeps one per depth), keeping
// its name buffer.
func (d *dir) reset() {
	name := d.name[:0]
	*d = dir{}
	d.name = name
	d.fd = -1
}

// path returns the directory's path as a string (for messages).
func (d *dir) path() string {
	b := make([]byte, d.pathLen)
	for x := d; x != nil; x = x.parent {
		copy(b[x.nameOff:], x.name[:len(x.name)-1])
		if x.parent != nil && x.nameOff > x.parent.pathLen {
			b[x.parent.pathLen] = '/'
		}
	}
	return string(b)
}

// setName sets d's name (copied) and path geometry, for a child of
// parent or (parent nil) a root.
func (d *dir) setName(parent *dir, name []byte) {
	d.name = append(append(d.name[:0], name...), 0)
	d.setPath(parent)
}

// setPath sets d's path geometry from its name, for a child of parent or
// (parent nil) a root.
func (d *dir) setPath(parent *dir) {
	d.parent = parent
	n := len(d.name) - 1
	if parent == nil {
		d.depth = 0
		d.nameOff = 0
		d.pathLen = n
		d.childOff = n + 1
		if n > 0 && d.name[n-1] == '/' {
			d.childOff = n
		}
		d.rootLen = n
		return
	}
	d.rootLen = parent.rootLen
	d.depth = parent.depth + 1
	d.nameOff = parent.childOff
	d.pathLen = d.nameOff + n
	d.childOff = d.pathLen + 1
	d.rootDev = parent.rootDev
}

// fds is the descriptor budget of one walk.
//
// Directories stay open while they have queued children, so a deep tree
// with many siblings could hold thousands of descriptors. The budget is
// derived from RLIMIT_NOFILE, leaving room for the rest of the program
// (output files, -exec pipes); over it, a worker about to open a
// directory closes the least recently used unpinned descriptors among
// its ancestors (makeRoom), and they are reopened on demand (pin). The
// budget is soft: each worker may go a few descriptors over while it
// holds pins, which newFDs leaves room for.
type fds struct {
	open      atomic.Int32
	evictions atomic.Int32  // how many descriptors were evicted (saturating)
	tick      atomic.Uint64 // clock for dir.lastUse
	limit     int32         // evict when open reaches this
	target    int32         // evict down to this
}

// newFDs sets the budget for a walk asking for workers goroutines, and
// says how many of them the budget can feed.
//
// A worker goes over the budget by up to three descriptors of its own
// (the directory it reads, a parent pinned while a child is opened or a
// post-order visit runs, the child), since makeRoom can only evict what is
// not pinned: the budget leaves that much per worker, and a worker count
// the descriptor limit cannot feed is lowered rather than left to evict
// each other's descriptors all day.
func newFDs(workers int) (*fds, int) {
	n := nofileLimit()
	// Reserve for stdin/out/err, the Go runtime, and the caller's own
	// files (-fprint, -exec pipes).
	avail := n - 8 - n/8
	workers = max(1, min(workers, avail/6))
	limit := avail - 3*workers
	// More open directories than this buys nothing: a LIFO walk of real
	// trees rarely needs a tenth of it.
	limit = min(limit, 4096)
	limit = max(limit, 3)
	return &fds{limit: int32(limit), target: int32(limit * 3 / 4)}, workers
}

// errChanged reports a directory that was replaced while its descriptor
// was evicted.
var errChanged = errors.New("directory changed during the walk")

// pin returns d's descriptor, reopening it if it was evicted, and keeps
// it open until unpin.
func (w *walk) pin(d *dir) (int, error) { return w.pinWant(d, 0) }

// pinWant is pin, adding want wants.
func (w *walk) pinWant(d *dir, want int32) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.fd < 0 {
		if err := w.reopen(d); err != nil {
			return -1, err
		}
	}
	d.pins++
	d.want += want
	d.lastUse = w.fds.tick.Add(1)
	return d.fd, nil
}

// unpin ends a pin; drop also gives up one want.
func (w *walk) unpin(d *dir, drop bool) {
	d.mu.Lock()
	d.pins--
	if drop {
		d.want--
	}
	w.closeIfUnwanted(d)
	d.mu.Unlock()
}

// release gives up one want on d.
func (w *walk) release(d *dir) {
	d.mu.Lock()
	d.want--
	w.closeIfUnwanted(d)
	d.mu.Unlock()
}

// closeIfUnwanted closes d's descriptor once nothing needs it. d.mu is
// held.
//
// Before closing, if d's parent is still wanted but was evicted, it is
// reopened through d's "..": the walk is about to go back up to it (its
// next child, or its post-order visit), and ".." costs one openat where a
// reopen by names costs one per level down from the nearest open
// ancestor, which can be the root when a deep chain was walked down. fts
// climbs with ".." for the same reason. ".." is checked against the
// identity recorded at eviction, so a moved directory is noticed.
func (w *walk) closeIfUnwanted(d *dir) {
	if d.pins != 0 || d.want > 0 || d.fd < 0 {
		return
	}
	if p := d.parent; p != nil && !d.linkFollowed && w.fds.evictions.Load() > 0 {
		p.mu.Lock()
		if p.fd < 0 && p.want > 0 && p.haveVid {
			if fd, err := openDir(d.fd, &dotdot[0], false); err == nil {
				var st unix.Stat_t
				if fstat(fd, &st) == nil && idOf(&st) == p.vid {
					p.fd = fd
					p.gen++
					p.posKept = true
					w.fds.open.Add(1)
				} else {
					closeFD(fd)
				}
			}
		}
		p.mu.Unlock()
	}
	if w.closeLater != nil {
		w.closeLater(d.fd)
	} else {
		closeFD(d.fd)
		w.fds.open.Add(-1)
	}
	d.fd = -1
}

var dotdot = []byte("..\x00")

// reopen opens an evicted d again, relative to its parent (which is
// reopened first if need be: the walk goes down from the nearest open
// ancestor, by name, with O_NOFOLLOW), and checks that it is the same
// directory. d.mu is held; locks are only ever taken child before parent.
func (w *walk) reopen(d *dir) error {
	var fd int
	var err error
	if d.parent == nil {
		fd, err = openDir(unix.AT_FDCWD, &d.name[0], d.follow)
	} else {
		pfd, perr := w.pin(d.parent)
		if perr != nil {
			return perr
		}
		fd, err = openDir(pfd, &d.name[0], d.follow)
		w.unpin(d.parent, false)
	}
	if err != nil {
		return err
	}
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		closeFD(fd)
		return err
	}
	if d.haveVid && idOf(&st) != d.vid {
		closeFD(fd)
		return errChanged
	}
	d.vid, d.haveVid = idOf(&st), true
	d.fd = fd
	d.gen++
	d.posKept = true
	w.fds.open.Add(1)
	// A reopen that went down several evicted levels must not keep one
	// descriptor per level.
	var scratch []candidate
	w.makeRoom(d, &scratch, false)
	return nil
}

// evict closes d's descriptor if it is open and unpinned, first
// recording its exact identity for the check on reopening.
func (w *walk) evict(d *dir) {
	d.mu.Lock()
	if d.fd >= 0 && d.pins == 0 {
		ok := true
		var err error
		if !d.haveVid {
			var st unix.Stat_t
			if fstat(d.fd, &st) == nil {
				d.vid, d.haveVid = idOf(&st), true
			} else {
				ok = false // a reopen could not be checked: keep it
			}
		}
		if ok {
			// A read in progress resumes here after a reopen; a
			// descriptor that cannot say where it is stays open.
			if !d.posKept {
				d.pos, err = tellDir(d.fd)
				ok = err == nil
			}
		}
		if ok {
			closeFD(d.fd)
			d.fd = -1
			w.fds.open.Add(-1)
			if w.fds.evictions.Load() < 1<<30 {
				w.fds.evictions.Add(1)
			}
		}
	}
	d.mu.Unlock()
}

// makeRoom evicts the least recently used unpinned descriptors among
// from's ancestors (not from itself, which the caller is about to use)
// when the budget is spent, down to the target; with force, down to
// nothing. Least recently used rather than farthest: in a parallel walk
// the shallow ancestors of one worker's deep chain are where thieves
// work, and evicting them would make every thief reopen its chain from
// the root.
func (w *walk) makeRoom(from *dir, scratch *[]candidate, force bool) {
	target := w.fds.target
	if force {
		target = 0
	} else if w.fds.open.Load() < w.fds.limit {
		return
	}
	s := (*scratch)[:0]
	if from != nil {
		for x := from.parent; x != nil; x = x.parent {
			x.mu.Lock()
			if x.fd >= 0 && x.pins == 0 {
				s = append(s, candidate{x, x.lastUse})
			}
			x.mu.Unlock()
		}
	}
	slices.SortFunc(s, func(a, b candidate) int { return cmp.Compare(a.lastUse, b.lastUse) })
	for i := 0; i < len(s) && w.fds.open.Load() > target; i++ {
		w.evict(s[i].d)
	}
	clear(s)
	*scratch = s[:0]
}

// candidate is a descriptor that makeRoom may evict.
type candidate struct {
	d       *dir
	lastUse uint64
}

// fstat stats an open descriptor (rarely: identities at mount points and
// evictions), so unix.Fstat, which needs no name, will do.
func fstat(fd int, st *unix.Stat_t) error {
	for {
		err := unix.Fstat(fd, st)
		if err != unix.EINTR {
			return err
		}
	}
}

// nofileLimit returns the soft RLIMIT_NOFILE. The Go runtime has already
// raised the soft limit to the hard one at start-up, so this is the real
// ceiling for the process.
func nofileLimit() int {
	var rl unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &rl) != nil || rl.Cur > 1<<20 {
		return 1 << 20
	}
	return int(rl.Cur)
}
