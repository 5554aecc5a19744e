package walker

import (
	"sync"
)

// Reading ahead, for a depth-first walk by name whose visits one
// goroutine must make in order (-s whose expression does more than
// print, or prints to a terminal, or under -depth): the other workers
// open and read the subdirectories of the directories read, and theirs,
// the most recently queued first (about the order the walk will want
// them), so that the walk mostly finds a directory read when it gets
// there.
//
// What is read ahead is a guess: whether the walk descends is decided
// at the visit. A directory it does not descend into is dropped, with
// what was read below it (descriptors, listings). A read ahead that
// failed (the open, the "." check) is dropped too, and the walk reads
// the directory itself: what it reports then comes in its place, as it
// would without reading ahead.
//
// Bounds: at most maxAhead directories are being read or ready (each
// ready one holds a descriptor); readers wait when that is reached. The
// walk waits only for a directory being read, and meanwhile reads ahead
// itself, or spins a while before it sleeps.
//
// The walk's dirs count on their parents (refs); a reader makes the
// dirs of what it reads with new, and only the walk's goroutine gives
// up counts (dead), so that recycling stays the walk's.
type ahead struct {
	w        *walk
	mu       sync.Mutex
	work     sync.Cond // readers wait here for a directory to read
	ready    sync.Cond // the walk waits here for the one it needs
	stack    []*dir    // queued directories; the top is the next read
	jobs     map[*dir]*aheadJob
	busy     int // directories being read or ready
	maxAhead int
	done     bool
	dead     []*dir       // dropped while read: for the walk to unref
	free     []*aheadJob  // spare jobs
	pool     listPool     // spare listings, the walk's too
	self     *aheadReader // the walk's, reading ahead while it waits
	closeMu  sync.Mutex   // guards closes; a leaf: closeLater runs under dirs' locks
	closes   []int        // descriptors for the readers to close (closeLater)
	wg       sync.WaitGroup
}

// aheadJob is where a directory read ahead is.
type aheadJob struct {
	state aheadState
	lst   *listing // when ready: the records (nil: the read failed)
	err   error    // when ready: a read error after the records
	kids  []*dir   // when ready: its subdirectories, queued
}

// aheadSpin is how many times the walk yields, waiting for a directory
// being read, before it sleeps.
const aheadSpin = 200

type aheadState uint8

const (
	aheadQueued  aheadState = iota
	aheadReading            // claimed by a reader
	aheadReady              // read (or failed): for the walk to take
	aheadDead               // dropped while read: the reader cleans up
)

// startAhead starts n readers ahead of t's walk.
func (t *dfs) startAhead(n int) {
	a := &ahead{w: t.w, jobs: make(map[*dir]*aheadJob)}
	a.work.L, a.ready.L = &a.mu, &a.mu
	a.maxAhead = min(1024, max(1, int(t.w.fds.limit)/4))
	// Before the readers start: their closes read it.
	t.w.closeLater = a.closeLater
	for i := 0; i <= n; i++ {
		r := &aheadReader{a: a, sp: new(spares)}
		r.init(t.w, i)
		if i == 0 {
			a.self = r
			continue
		}
		a.wg.Add(1)
		go r.run()
	}
	t.ahead, t.pool = a, &a.pool
}

// stop ends the readers and closes what they read that the walk did
// not take.
func (a *ahead) stop() {
	a.mu.Lock()
	a.done = true
	a.work.Broadcast()
	a.mu.Unlock()
	a.wg.Wait()
	a.w.closeLater = nil
	a.closeAll(a.closes)
	for d, j := range a.jobs {
		if j.state == aheadReady && j.lst != nil {
			a.w.release(d)
		}
	}
}

// queueKidsLocked queues the subdirectories of d, listed in lst,
// appending them to *kids, each made by newDir (the walk's free list,
// or a reader's newKid). The records of type directory only: a link
// under -L, or a DT_UNKNOWN record that turns out to be a directory, is
// read when the walk gets there. None below MaxDepth. a.mu is held.
func (a *ahead) queueKidsLocked(d *dir, lst *listing, kids *[]*dir, newDir func(parent *dir, name []byte) *dir) {
	opt := &a.w.opt
	if opt.MaxDepth >= 0 && d.depth+1 >= opt.MaxDepth || lst.end() == 0 {
		return
	}
	first := len(*kids)
	for pos, end := 0, lst.lastDir; pos <= end; {
		var de dirent
		de, pos = lst.next(pos)
		if de.typ == TypeDir {
			kid := newDir(d, de.name)
			kid.follow = opt.Follow == FollowAll
			kid.id = fileID{d.id.dev, de.ino}
			*kids = append(*kids, kid)
		}
	}
	for i := len(*kids) - 1; i >= first; i-- {
		j, ok := popLast(&a.free)
		if !ok {
			j = new(aheadJob)
		}
		*j = aheadJob{}
		a.jobs[(*kids)[i]] = j
		a.stack = append(a.stack, (*kids)[i])
	}
	if len(*kids) > first {
		a.work.Broadcast()
	}
}

// closeLater takes the descriptor of a directory the walk is done with,
// for a reader to close: on ext4 a close frees the tree of names the
// read built, long out of the walk's cache (bench/NOTES.md), and the
// walk is the goroutine the others wait for.
//
// Past maxLateCloses waiting, or when the descriptor budget is tight
// (the descriptors waiting count in it), it closes fd itself.
func (a *ahead) closeLater(fd int) {
	a.closeMu.Lock()
	if len(a.closes) < maxLateCloses && a.w.fds.open.Load() < a.w.fds.target {
		a.closes = append(a.closes, fd)
		a.closeMu.Unlock()
		return
	}
	a.closeMu.Unlock()
	closeFD(fd)
	a.w.fds.open.Add(-1)
}

// maxLateCloses bounds the descriptors waiting for a reader to close
// them.
const maxLateCloses = 64

// closeAll closes fds (closeLater's).
func (a *ahead) closeAll(fds []int) {
	for _, fd := range fds {
		closeFD(fd)
	}
	a.w.fds.open.Add(-int32(len(fds)))
}

// newKid makes, for a reader, the dir of the subdirectory name of
// parent, with the walk's count, counting on parent.
func newKid(parent *dir, name []byte) *dir {
	d := &dir{fd: -1}
	d.setName(parent, name)
	d.typ = TypeDir
	d.refs.Store(1)
	parent.refs.Add(1)
	return d
}

// queueKids queues the subdirectories of f, which the walk read itself.
func (t *dfs) queueKids(f *frame) {
	if f.kids == nil {
		f.kids, _ = popLast(&t.spares.kids)
	}
	a := t.ahead
	a.mu.Lock()
	t.unrefDeadLocked()
	a.queueKidsLocked(f.d, f.lst, &f.kids, t.newDir)
	a.mu.Unlock()
}

// takeKid returns the next subdirectory of f read ahead (f's records
// of type directory each have one, in order), waiting while it is
// being read, with its listing, read error and queued subdirectories;
// lst is nil when it was not read ahead, or the read failed. With keep
// false the walk does not descend into it: it is dropped, and nil is
// returned.
func (t *dfs) takeKid(f *frame, keep bool) (kid *dir, j aheadJob) {
	if f.nextKid == len(f.kids) {
		return nil, j // at MaxDepth: nothing was queued
	}
	kid = f.kids[f.nextKid]
	f.kids[f.nextKid] = nil
	f.nextKid++
	a := t.ahead
	a.mu.Lock()
	defer a.mu.Unlock()
	if !keep {
		t.dropLocked(kid)
		return nil, j
	}
	jp := a.jobs[kid]
	for i := 0; jp.state == aheadReading; i++ {
		if a.self.readOneLocked() {
			continue // another directory read ahead meanwhile
		}
		if i < aheadSpin {
			// A read takes microseconds, a wake-up from a futex far
			// longer (bench/NOTES.md, "The owned walk").
			a.mu.Unlock()
			osYield()
			a.mu.Lock()
			continue
		}
		a.ready.Wait()
	}
	delete(a.jobs, kid)
	if jp.state == aheadReady {
		a.busy--
		a.work.Signal()
	}
	j = *jp
	a.free = append(a.free, jp)
	return kid, j
}

// dropLocked drops d, which the walk will not enter, and what was read
// ahead below it. a.mu is held.
func (t *dfs) dropLocked(d *dir) {
	a := t.ahead
	j := a.jobs[d]
	switch j.state {
	case aheadReading:
		j.state = aheadDead // its reader cleans up, and leaves d to the walk
		return
	case aheadReady:
		a.busy--
		a.work.Signal()
		if j.lst != nil {
			t.w.release(d)
			a.pool.put(j.lst)
		}
		for _, k := range j.kids {
			t.dropLocked(k)
		}
	}
	delete(a.jobs, d)
	a.free = append(a.free, j)
	t.unref(d)
}

// dropKids drops the subdirectories of f not taken (a Stop, or f lost).
func (t *dfs) dropKids(f *frame) {
	for f.nextKid < len(f.kids) {
		t.takeKid(f, false)
	}
	clear(f.kids)
	f.kids, f.nextKid = f.kids[:0], 0
}

// unrefDeadLocked gives up the walk's count on the directories dropped
// while they were read. a.mu is held.
func (t *dfs) unrefDeadLocked() {
	for _, d := range t.ahead.dead {
		t.unref(d)
	}
	clear(t.ahead.dead)
	t.ahead.dead = t.ahead.dead[:0]
}

// aheadReader is one goroutine reading ahead.
type aheadReader struct {
	wstate
	closing []int // closeLater's, swapped with ahead.closes
	a       *ahead
	sp      *spares
	rd      dirRead
}

func (r *aheadReader) run() {
	defer r.a.wg.Done()
	a := r.a
	a.mu.Lock()
	defer a.mu.Unlock()
	for !a.done && !r.w.stop.Load() {
		if !r.readOneLocked() {
			a.work.Wait()
		}
	}
}

// readOneLocked reads the directory on top of the stack, if one may be
// read; it returns false when none may. a.mu is held, and released
// while reading.
func (r *aheadReader) readOneLocked() bool {
	a := r.a
	a.closeMu.Lock()
	fds := a.closes
	if len(fds) > 0 {
		// Swapped, so that the walk appends to the other slice while
		// these are closed.
		a.closes = r.closing[:0]
	}
	a.closeMu.Unlock()
	if len(fds) > 0 {
		a.mu.Unlock()
		a.closeAll(fds)
		r.closing = fds
		a.mu.Lock()
		return true
	}
	for len(a.stack) > 0 && a.busy < a.maxAhead {
		d, _ := popLast(&a.stack)
		j := a.jobs[d]
		if j == nil || j.state != aheadQueued {
			continue // taken by the walk, or dropped
		}
		j.state = aheadReading
		a.busy++
		a.mu.Unlock()
		lst := a.pool.get()
		lst, err := r.read(d, lst)
		a.mu.Lock()
		if j.state == aheadDead {
			if lst != nil {
				r.w.release(d)
				a.pool.put(lst)
			}
			delete(a.jobs, d)
			a.free = append(a.free, j)
			a.busy--
			a.dead = append(a.dead, d)
			return true
		}
		j.state, j.lst, j.err = aheadReady, lst, err
		if lst != nil {
			a.queueKidsLocked(d, lst, &j.kids, newKid)
		}
		a.ready.Broadcast()
		return true
	}
	return false
}

// read opens d and reads it whole, sorted, into lst; on success d is
// open, with one want and no pin. It returns nil when the open or the
// "." check failed, lst then being put back.
func (r *aheadReader) read(d *dir, lst *listing) (*listing, error) {
	w := r.w
	if err := w.openChild(d, &r.scratch, false); err != nil {
		r.a.pool.put(lst)
		return nil, nil
	}
	r.rd.start(d, d.fd, nil)
	r.fill(r.sp, &r.rd, lst, true)
	if r.rd.end.refused() {
		w.unpin(d, true)
		r.a.pool.put(lst)
		return nil, nil
	}
	w.unpin(d, false)
	return lst, r.rd.end.err
}
