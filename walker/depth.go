package walker

import (
	"sync"

	"golang.org/x/sys/unix"
)

// The depth-first engine: every walk but the parallel one (parallel.go).
//
// A dfs walks an explicit stack of frames, one per directory being
// visited, as a recursion would: a directory is opened relative to its
// parent, read, its records visited in order (a subdirectory to descend
// into is pushed as a frame and walked before the next record), then it
// is closed and visited in post-order. Two policies vary:
//
//   - the record source (byName): gnulib fts's batches of up to
//     ftsMaxReaddirEntries records in readdir order, sorted by inode
//     when big, so that -j1 visits in GNU find's order; or the whole
//     directory sorted by name (Options.Sort; the sort is listing.go's);
//   - the giver: a worker of an owned walk gives parts of its walk to
//     idle workers (owned.go); the plain walk's gives nothing (noGive);
//   - reading ahead: under -s with several workers, when one goroutine
//     must visit in order, the others read ahead (ahead.go).
//
// Descriptors: the top frame's directory is pinned; a frame's directory
// is unpinned while a subdirectory is walked, so that the budget may
// evict it (dir.go), and pinned again after. A batch read resumes where
// the eviction left it (dir.pos).
//
// Memory: dirs and listings are recycled on free lists (the dfs's own,
// or a pool the goroutines that free each other's share), read buffers
// on readBufs: once warm, the walk allocates nothing per entry, nor per
// directory but for those read ahead (their dirs are made by readers).
type dfs struct {
	wstate
	frames []frame
	roots  *rootSource // nil for a walk of given parts (owned.go)
	byName bool
	give   giver
	visits uint32    // visits that did not descend, for step
	ahead  *ahead    // reads ahead (ahead.go); nil: none
	pool   *listPool // shared listings; nil: the spares' own
	*spares
}

// stepEvery is how many visits that do not descend make a step: an
// owned walk's Ordered wants one every few visits (Ordered.Step), and an
// interface call per visit would cost the plain walk.
const stepEvery = 16

// spares are a walk's scratch space and free lists, which an owned
// walk's worker shares between its walk and those it nests (owned.go):
// a nested walk runs between the reads of the one it suspends.
type spares struct {
	dirs  []*dir     // recycled
	lists []*listing // recycled
	raw   rawList
	bufs  readBufs
	tmp   []sortEnt   // the name sort's scratch space
	itmp  sortScratch // the inode sort's
	kids  [][]*dir    // recycled frame.kids
}

// frame is one directory the walk is in.
type frame struct {
	d        *dir
	parentFD int      // the parent's descriptor (pinned by its frame), AT_FDCWD for a root, -1 for a given part
	fd       int      // d's descriptor, once open
	lst      *listing // the batch being visited
	rd       dirRead  // the read of d
	more     bool     // the read has batches left
	gen      uint32   // d.gen when the batch was read: a reopen loses the read position
	// pos is where the next record of lst to visit is; end where the
	// visits stop: the listing's end, or where the giver cut it.
	pos, end int
	touched  byte // what touch loaded, kept so that its loads are made
	// kids are the subdirectories queued for reading ahead (ahead.go),
	// one per record of type directory, in order; nextKid is the first
	// not taken.
	kids     []*dir
	nextKid  int
	phase    uint8
	opened   bool // d is pinned, with a want, by this frame
	unpinned bool // the parent's pin was given up while d is walked
}

const (
	phaseOpen   = iota // open and read d
	phaseVisit         // visit its records
	phaseFinish        // report, release, post-order visit, pop
)

// A giver is told of a depth-first walk's progress, and may give parts
// of it away (owned.go).
type giver interface {
	// step is called between directories, and every stepEvery visits
	// that do not descend.
	step()
	// reached is called when the top frame's visits reach f.end: true
	// says the giver moved f on (past a record it gave away).
	reached(f *frame) bool
	// leave is called when f is done, before its parent is pinned
	// again and its post-order visit.
	leave(f *frame)
}

// noGive is the plain walk's giver: it gives nothing away.
type noGive struct{}

func (noGive) step()                 {}
func (noGive) reached(f *frame) bool { return false }
func (noGive) leave(f *frame)        {}

func newDFS(w *walk, id int, byName bool, roots *rootSource, sp *spares) *dfs {
	if sp == nil {
		sp = new(spares)
	}
	t := &dfs{roots: roots, byName: byName, give: noGive{}, spares: sp}
	t.init(w, id)
	return t
}

// run walks until the stack is empty and, if it has roots, none is left.
func (t *dfs) run() {
	for {
		t.give.step()
		if len(t.frames) == 0 {
			if t.roots == nil || t.w.stop.Load() {
				return
			}
			root, ok := t.roots.take()
			if !ok {
				return
			}
			t.startRoot(root)
			continue
		}
		f := &t.frames[len(t.frames)-1]
		switch f.phase {
		case phaseOpen:
			if t.w.stop.Load() {
				t.pop()
				continue
			}
			t.open(f)
		case phaseVisit:
			t.visit(f)
		default:
			t.finish(f)
		}
	}
}

// startRoot visits the starting point root and, if it is a directory to
// read, pushes its frame.
func (t *dfs) startRoot(root string) {
	d := t.newDir(nil, []byte(root))
	if !t.visitRoot(d) {
		t.unref(d)
		return
	}
	t.frames = append(t.frames, frame{d: d, parentFD: unix.AT_FDCWD, fd: -1})
}

// parent returns the frame below the top one, or nil.
func (t *dfs) parent() *frame {
	if len(t.frames) < 2 {
		return nil
	}
	return &t.frames[len(t.frames)-2]
}

// open opens the top frame f's directory and reads its first batch, or
// takes what was read ahead (f.lst set).
func (t *dfs) open(f *frame) {
	w := t.w
	d := f.d
	f.phase = phaseFinish
	if f.lst != nil {
		if fd, err := w.pin(d); err == nil {
			f.fd, f.opened = fd, true
			t.unpinParent(f)
			t.ready(f)
			f.phase = phaseVisit
			return
		}
		// Evicted since and not the same any more, or gone: the walk's
		// own open says so.
		w.release(d)
		t.putListing(f.lst)
		f.lst, f.rd.end.err = nil, nil
		t.dropKids(f)
	}
	if err := w.openChild(d, &t.scratch, false); err != nil {
		t.openFailed(d, f.parentFD, err) // and visited in post-order (finish)
		return
	}
	f.fd, f.opened = d.fd, true
	t.unpinParent(f)
	f.rd.start(d, f.fd, nil)
	f.lst = t.newListing()
	if t.read(f) {
		f.phase = phaseVisit
	}
}

// unpinParent gives up the parent's pin while f's directory is walked:
// its descriptor may then be evicted.
func (t *dfs) unpinParent(f *frame) {
	if p := t.parent(); p != nil {
		t.w.unpin(p.d, false)
		f.unpinned = true
	}
}

// read reads f's next batch into f.lst, in the order it is to be
// visited. It returns false, f.lst given up, when the "." check refused
// the directory (which is reported).
func (t *dfs) read(f *frame) bool {
	f.more = t.fill(t.spares, &f.rd, f.lst, t.byName)
	f.gen = f.d.gen
	if f.rd.end.refused() {
		t.putListing(f.lst)
		f.lst = nil
		t.refuse(f.d, &f.rd.end)
		return false
	}
	t.ready(f)
	if t.ahead != nil {
		t.queueKids(f)
	}
	return true
}

// ready starts the visits of f's batch.
func (t *dfs) ready(f *frame) {
	f.pos, f.end = 0, f.lst.end()
	t.pb.setDir(f.d)
}

// fill reads the next batch of rd into lst, in the order it is to be
// visited: fts's batch, in inode order when it is big, or (byName) the
// whole directory by name. It returns whether the directory has records
// left. A read the "." check refused leaves lst as it was (rd.end says
// why).
func (s *wstate) fill(sp *spares, rd *dirRead, lst *listing, byName bool) (more bool) {
	limit := ftsMaxReaddirEntries
	if byName {
		limit = 0
	}
	b, more := s.collect(rd, &sp.raw, &sp.bufs, limit, byName)
	if rd.end.refused() {
		sp.raw.recycle(&sp.bufs)
		return false
	}
	if byName {
		sp.raw.sort(&sp.tmp)
	} else if len(sp.raw.ents) > ftsInodeSortThreshold && s.w.inodeSortUseful(rd.fd) {
		sp.raw.sortByInode(&sp.itmp)
	}
	lst.big = nil
	if len(sp.raw.chunks) > 1 {
		lst.keepBig(&sp.raw)
	} else {
		lst.pack(&sp.raw, b)
	}
	sp.raw.recycle(&sp.bufs) // before the subdirectories need it
	return more
}

// next reads f's next batch once the last was visited, going back to
// where the read was if the descriptor was evicted and reopened while a
// subdirectory was walked.
func (t *dfs) next(f *frame) bool {
	d := f.d
	if d.gen != f.gen {
		f.rd.fd = f.fd
		if err := seekDir(f.fd, d.pos); err != nil {
			f.rd.end.err = err
			return false
		}
		d.mu.Lock()
		d.posKept = false
		d.mu.Unlock()
	}
	return t.read(f)
}

// visit visits the records of the top frame f in order, until one is a
// directory to descend into (its frame is pushed) or f is done.
func (t *dfs) visit(f *frame) {
	w := t.w
	d := f.d
	for !w.stop.Load() && !d.lost {
		if f.pos >= f.end {
			if t.give.reached(f) || f.more && t.next(f) {
				continue
			}
			break
		}
		lst := f.lst
		var de dirent
		if lst.big == nil {
			de, f.pos = packed(lst.recs, f.pos) // inlined: the common case
		} else {
			if f.pos%touchAhead == 0 {
				f.touched += lst.big.touch(f.pos+touchAhead, min(f.pos+2*touchAhead, f.end))
			}
			de, f.pos = lst.nextBig(f.pos)
		}
		descend, c := t.entry(d, f.fd, &de)
		var kid *dir
		var pre aheadJob
		if t.ahead != nil && de.typ == TypeDir {
			kid, pre = t.takeKid(f, descend)
		}
		if !descend {
			if t.visits++; t.visits%stepEvery == 0 {
				t.give.step()
			}
			continue
		}
		if kid == nil {
			kid = t.newDir(d, de.name)
			kid.follow = w.opt.Follow == FollowAll
			kid.linkFollowed = c.linkFollowed
			kid.id, kid.idExact = c.id, c.exact
		} else if c.exact {
			// A stat's identity; else the read ahead's (its "." check
			// may have made it exact).
			kid.id, kid.idExact = c.id, true
		}
		t.frames = append(t.frames, frame{d: kid, parentFD: f.fd, fd: -1, lst: pre.lst, kids: pre.kids, rd: dirRead{end: readEnd{err: pre.err}}}) // f is stale now
		return
	}
	f.phase = phaseFinish
}

// finish ends the top frame f: it reports a read error, gives up d, pins
// the parent again, makes d's post-order visit and pops f.
func (t *dfs) finish(f *frame) {
	w := t.w
	d := f.d
	if lst := f.lst; lst != nil {
		f.lst = nil
		t.putListing(lst)
		if !d.lost {
			t.readFailed(d, f.rd.end.err)
		}
	}
	if f.kids != nil {
		t.dropKids(f)
		pushSpare(&t.spares.kids, f.kids, maxSpareLists)
		f.kids = nil
	}
	if f.rd.carry != nil {
		t.bufs.give(f.rd.carry)
		f.rd.carry = nil
	}
	if f.opened {
		if d.lost {
			w.release(d)
		} else {
			w.unpin(d, true) // closes d, reopening an evicted parent by ".."
		}
	}
	t.give.leave(f)
	parentFD := f.parentFD
	if f.unpinned {
		p := t.parent()
		pfd, err := w.pin(p.d)
		if err != nil {
			// The parent cannot be reopened, so neither can its
			// remaining entries be visited.
			t.lost(p.d, err)
			t.pop()
			return
		}
		parentFD, p.fd = pfd, pfd
	}
	t.postVisit(d, parentFD)
	t.pop()
}

// pop pops the top frame, once the path buffer no longer points at its
// directory.
func (t *dfs) pop() {
	i := len(t.frames) - 1
	d := t.frames[i].d
	t.frames[i] = frame{}
	t.frames = t.frames[:i]
	if i > 0 {
		t.pb.setDir(t.frames[i-1].d)
	} else {
		t.pb.cur = nil
	}
	t.unref(d)
}

// newDir returns a dir for the subdirectory name of parent (or a root),
// with one count: its frame's. It counts on parent, whose path it needs.
//
// Dirs are recycled once nothing points at them: refs counts the frames
// on the dir (two, when owned.go gives a part of it away) and its
// children, the path buffer being set past it before its frame is
// popped. The count is atomic, so that a dir goes to the free list of
// whichever worker drops it last.
func (t *dfs) newDir(parent *dir, name []byte) *dir {
	d, ok := popLast(&t.dirs)
	if !ok {
		d = new(dir)
	}
	d.reset()
	d.setName(parent, name)
	d.typ = TypeDir
	d.refs.Store(1)
	if parent != nil {
		parent.refs.Add(1)
	}
	return d
}

// unref gives up one count on d, recycling it (and, in turn, its
// ancestors) when that was the last.
func (t *dfs) unref(d *dir) {
	for d != nil && d.refs.Add(-1) == 0 {
		p := d.parent
		d.parent = nil
		pushSpare(&t.dirs, d, maxSpareDirs)
		d = p
	}
}

// Listings kept for reuse: a reused listing keeps the biggest buffer it
// ever had, so only small ones are kept, and a few: about as many as a
// walk is deep, or, in a pool that goroutines share, the old sorted
// walk's 128.
const (
	maxSpareLists  = 32
	maxSharedLists = 128
	maxSpareRecs   = 8 << 10
	maxSpareDirs   = 256 // dirs, small, as many as a deep walk holds at once
)

// A listPool is a free list of listings that goroutines share, each
// freeing what others made: the owned walk's workers (a listing given
// away is freed by the thief), or the readers ahead and their walk.
type listPool struct {
	mu   sync.Mutex
	free []*listing
}

func (t *dfs) newListing() *listing {
	if t.pool != nil {
		return t.pool.get()
	}
	if l, ok := popLast(&t.lists); ok {
		return l
	}
	return new(listing)
}

// putListing keeps l for reuse if it is small. A big listing is not kept:
// it may be shared by frames of two walks (owned.go), and lives until the
// last drops it.
func (t *dfs) putListing(l *listing) {
	if t.pool != nil {
		t.pool.put(l)
	} else if spareListing(l) {
		pushSpare(&t.lists, l, maxSpareLists)
	}
}

// spareListing says whether l is worth keeping for reuse (not grown for
// a huge directory), and empties it for that.
func spareListing(l *listing) bool {
	if l.big != nil || cap(l.recs) > maxSpareRecs {
		return false
	}
	*l = listing{recs: l.recs[:0]}
	return true
}

func (p *listPool) get() *listing {
	p.mu.Lock()
	l, ok := popLast(&p.free)
	p.mu.Unlock()
	if !ok {
		l = new(listing)
	}
	return l
}

// put keeps l for reuse, if it is worth it (spareListing).
func (p *listPool) put(l *listing) {
	if spareListing(l) {
		p.mu.Lock()
		pushSpare(&p.free, l, maxSharedLists)
		p.mu.Unlock()
	}
}
