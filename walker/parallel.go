package walker

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gfind/gfind/internal/seam"
	"golang.org/x/sys/unix"
)

// The parallel walk.
//
//	      push (children of the directory just read, per getdents chunk)
//	        │                       steal (oldest item: the biggest subtree)
//	        ▼                         ▲
//	worker 0: [ d1 d2 d3 ... dn ]     │      worker 1: [ ... ]
//	        ▲  (bottom)        (top)──┘
//	        └── pop (newest: depth first)
//
// Each worker owns a LIFO stack of directory items. It pops from the top
// of its own stack (depth first, which keeps few directories open and
// their paths warm in the path buffer), steals from the bottom of
// another's when its own is empty, and sleeps on a condition variable
// when every stack is empty. A directory is read, and its entries
// visited, by the worker that popped it; the subdirectories it finds are
// pushed onto that worker's stack.
//
// Termination: pending counts items pushed and not yet finished (queued
// or being read). The worker that brings it to zero sets done and wakes
// everyone; no one polls or sleeps on a timer.
//
// Wake-ups: a worker that pushes children wakes sleepers only when
// there is more than it will take itself (a directory's children pushed
// while it is still reading, or more than one child at its end), so a
// chain of single subdirectories never wakes anyone.
type pool struct {
	w       *walk
	workers []*worker    // workers[:nmade] are made; the rest may be, when the walk grows
	nmade   atomic.Int32 // workers made (and, once started, running)
	active  atomic.Int32 // workers that may take work; those above park
	nbase   int          // the workers the walk starts with (Options.Workers, or fewer)
	ad      *adapt       // nil: the walk does not adapt
	roots   *rootSource  // the starting points, queued one at a time in order
	pending atomic.Int64 // items pushed and not yet finished
	queued  atomic.Int64 // items sitting in stacks
	nidle   atomic.Int32 // workers asleep (or about to sleep) in waitWork

	mu   sync.Mutex // guards done and the sleep/wake protocol
	cond sync.Cond
	park sync.Cond // parked workers wait on it for the walk to grow
	done bool

	// started says the workers other than the first are running. They
	// start when there is first work to share (startHelpers): a walk of
	// a few entries, or of a chain of single subdirectories, then costs
	// no goroutine and no thread beyond the caller's.
	started atomic.Bool
	helpers sync.WaitGroup
}

// shared holds the free lists the workers share: items flow from the
// worker that makes them to the one that drops them last, chunk buffers
// from a directory's reader to the workers that visit its chunks. It
// outlives a walk, so that the next walk in the process (a library's
// caller, a benchmark) starts with what the last one left.
var shared struct {
	mu    sync.Mutex
	dirs  []*dir
	parts [][]byte
}

type worker struct {
	wstate
	p  *pool
	id int

	mu    sync.Mutex // guards items and head
	items []*dir     // items[head:] are queued; the top is the end
	head  int

	dbuf    []byte  // read buffer
	rd      dirRead // the read of the directory being read
	kids    []*dir  // children of the current chunk, before pushing
	names   []byte  // arena for the items' names
	pathRef *dir    // the path buffer's directory, referenced (refPath)

	spareDirs []*dir // free list of items (allocDir, unref), spilling to the pool's
}

// runParallel walks with n workers (n <= w.opt.Workers: the descriptor
// budget may allow fewer), growing to up to fed while calls block.
func runParallel(w *walk, roots *rootSource, n, fed int) {
	p := &pool{w: w}
	p.cond.L = &p.mu
	p.park.L = &p.mu
	p.ad = newAdapt(w.opt.Procs, runtime.GOMAXPROCS(0), max(n, fed))
	if p.ad != nil {
		p.ad.resize, p.ad.started = p.resize, &p.started
	}
	p.workers = make([]*worker, n, max(n, fed))
	if p.ad != nil {
		p.workers = p.workers[:cap(p.workers)]
	}
	for i := range n {
		p.workers[i] = p.newWorker(i)
	}
	p.nbase = n
	p.nmade.Store(int32(n))
	p.active.Store(int32(n))
	defer p.ad.done()
	first, ok := roots.take()
	if !ok {
		return
	}
	// Starting points are visited in command-line order, as GNU does:
	// only the first is queued now, and each root's worker queues the
	// next once it has visited (or failed to reach) its own. So
	// "gfind nosuch . -quit" reports nosuch before -quit can end the
	// walk, and -quit at a starting point never skips an earlier one.
	// The roots' contents are still walked in parallel. Under
	// RootsInTurn the next is queued only once the walk of the one
	// before is over (nextRootInTurn).
	p.roots = roots
	p.pending.Add(1)
	p.workers[0].push([]*dir{rootItem(first)}, false)
	// The first worker runs in the caller's goroutine; the others are
	// started by the first push with work to share.
	p.workers[0].run()
	p.helpers.Wait()
	for _, k := range p.workers[:p.nmade.Load()] {
		k.spill(0)
	}
}

func (p *pool) newWorker(i int) *worker {
	k := &worker{p: p, id: i, dbuf: make([]byte, direntBufSize)}
	k.init(p.w, i)
	if p.ad != nil {
		k.e.smp.a = p.ad
	}
	return k
}

// resize sets the Ps to level and lets the workers that many (or
// Workers, whichever is more) take work, making and starting those not
// made yet. Called by adapt.decide, one call at a time, once the
// helpers run.
func (p *pool) resize(level int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	p.w.opt.Procs(level)
	n := max(min(level, len(p.workers)), p.nbase)
	for i := int(p.nmade.Load()); i < n; i++ {
		k := p.newWorker(i)
		p.workers[i] = k
		p.nmade.Store(int32(i + 1))
		p.helpers.Add(1)
		go func() {
			defer p.helpers.Done()
			k.run()
		}()
	}
	p.active.Store(int32(n))
	p.park.Broadcast()
	if p.queued.Load() > 0 {
		p.cond.Broadcast()
	}
}

// startHelpers starts the workers other than the first, unless they
// run already. Only the first worker calls it before they run, so no
// lock is needed. Starting them lazily saves a tiny walk the start-up
// of threads and stacks.
func (p *pool) startHelpers() {
	if p.started.Load() {
		return
	}
	p.started.Store(true)
	for _, k := range p.workers[1:p.nbase] {
		p.helpers.Add(1)
		go func() {
			defer p.helpers.Done()
			k.run()
		}()
	}
}

// rootItem makes the work item for a starting point.
func rootItem(root string) *dir {
	d := &dir{fd: -1}
	d.setName(nil, []byte(root))
	d.refs.Store(1)
	return d
}

// pushNextRoot queues the starting point after d's, if any. Only the
// worker of the latest starting point calls it, once, so the roots are
// taken one at a time.
func (k *worker) pushNextRoot(d *dir) {
	p := k.p
	if p.w.stop.Load() {
		return
	}
	root, ok := p.roots.take()
	if !ok {
		return
	}
	p.pending.Add(1)
	k.push([]*dir{rootItem(root)}, true)
}

// nextRootInTurn queues the next starting point under RootsInTurn, if
// there is one and no Stop came, and reports whether it did. k has just
// brought pending to zero: the walk of the starting point before is
// over, every visit of it made, and no other worker holds work, so k
// alone takes the next. The other workers sleep in waitWork until the
// new root's contents are pushed, as they did while it was being read.
func (k *worker) nextRootInTurn() bool {
	p := k.p
	if !p.w.opt.RootsInTurn || p.w.stop.Load() {
		return false
	}
	root, ok := p.roots.take()
	if !ok {
		return false
	}
	p.pending.Add(1)
	k.push([]*dir{rootItem(root)}, false)
	return true
}

func (k *worker) run() {
	p := k.p
	for {
		d := k.pop()
		if d == nil && k.id >= int(p.active.Load()) {
			if !k.parkWait() {
				return
			}
			continue
		}
		if d == nil {
			d = k.steal()
		}
		if d == nil {
			if !k.waitWork() {
				return
			}
			continue
		}
		k.process(d)
		k.refPath()
		if !p.w.opt.PostOrder {
			k.unref(d)
		}
		if p.pending.Add(-1) == 0 {
			if k.nextRootInTurn() {
				continue
			}
			p.mu.Lock()
			p.done = true
			p.cond.Broadcast()
			p.park.Broadcast()
			p.mu.Unlock()
			return
		}
	}
}

// push puts items on k's stack and wakes sleepers if there is work to
// share. more says that k is still reading the directory and will not
// pop soon.
func (k *worker) push(items []*dir, more bool) {
	p := k.p
	k.mu.Lock()
	k.items = append(k.items, items...)
	n := len(k.items) - k.head
	k.mu.Unlock()
	p.queued.Add(int64(len(items)))
	share := n - 1
	if more {
		share = n
	}
	if share > 0 {
		p.startHelpers()
	}
	if share > 0 && p.nidle.Load() > 0 {
		p.mu.Lock()
		for i := int32(0); i < int32(share) && i < p.nidle.Load(); i++ {
			p.cond.Signal()
		}
		p.mu.Unlock()
	}
}

func (k *worker) pop() *dir {
	k.mu.Lock()
	var d *dir
	if n := len(k.items); n > k.head {
		d = k.items[n-1]
		k.items[n-1] = nil
		k.items = k.items[:n-1]
		if len(k.items) == k.head {
			k.items, k.head = k.items[:0], 0
		}
	}
	k.mu.Unlock()
	if d != nil {
		k.p.queued.Add(-1)
	}
	return d
}

// steal takes the oldest item of another worker's stack: the shallowest,
// so the largest piece of work.
func (k *worker) steal() *dir {
	p := k.p
	if p.queued.Load() == 0 {
		return nil
	}
	n := int(p.nmade.Load())
	for i := 1; i < n; i++ {
		v := p.workers[(k.id+i)%n]
		v.mu.Lock()
		var d *dir
		if v.head < len(v.items) {
			d = v.items[v.head]
			v.items[v.head] = nil
			v.head++
			if v.head == len(v.items) {
				v.items, v.head = v.items[:0], 0
			} else if v.head > 1024 && v.head > len(v.items)/2 {
				v.items = v.items[:copy(v.items, v.items[v.head:])]
				v.head = 0
			}
		}
		v.mu.Unlock()
		if d != nil {
			p.queued.Add(-1)
			return d
		}
	}
	return nil
}

// waitWork sleeps until an item is queued or the walk is over; it returns
// false at the end of the walk.
func (k *worker) waitWork() bool {
	p := k.p
	p.mu.Lock()
	defer p.mu.Unlock()
	// nidle is raised before queued is checked, and push raises queued
	// before it reads nidle: one of the two sees the other, so a push
	// cannot slip between the check and the Wait unnoticed.
	p.nidle.Add(1)
	for p.queued.Load() == 0 && !p.done {
		p.cond.Wait()
	}
	p.nidle.Add(-1)
	return !p.done
}

// sample starts a probe of one open or read in callSample, when the
// walk adapts; t0 < 0 says the call is not probed.
func (k *worker) sample() probe {
	if s := &k.e.smp; s.a != nil {
		if pr, ok := s.sample(&s.calls, callSample); ok {
			return pr
		}
	}
	return probe{t0: -1}
}

// sampled ends a probe begun by sample.
func (k *worker) sampled(pr probe) {
	if pr.t0 >= 0 {
		k.e.smp.sampled(pr, callSample)
	}
}

// parkWait sleeps while k is above the workers that may take work; it
// returns false at the end of the walk.
func (k *worker) parkWait() bool {
	p := k.p
	p.mu.Lock()
	defer p.mu.Unlock()
	for k.id >= int(p.active.Load()) && !p.done {
		p.park.Wait()
	}
	return !p.done
}

// process handles one item: a root (stat and visit it first) or a
// directory whose pre-order visit was made by its parent's reader.
func (k *worker) process(d *dir) {
	w := k.w
	opt := &w.opt
	if d.chunk != nil {
		k.processChunk(d)
		return
	}
	if w.stop.Load() {
		k.abandon(d)
		return
	}
	if d.parent == nil {
		read := k.visitRoot(d)
		if !opt.RootsInTurn {
			k.pushNextRoot(d)
		}
		if !read {
			return
		}
	}
	if opt.PostOrder {
		d.unfinished.Store(1) // for the reading itself
	}
	// Pre-order: once open, d needs nothing from its parent. Post-order:
	// d's own visit will need the parent's descriptor.
	pr := k.sample()
	err := w.openChild(d, &k.scratch, !opt.PostOrder)
	k.sampled(pr)
	if err != nil {
		k.openFailed(d, -1, err) // before complete reads d.vanished
	} else {
		k.readDir(d)
		w.unpin(d, true)
	}
	if opt.PostOrder && d.unfinished.Add(-1) == 0 {
		k.complete(d, true)
	}
}

// complete is called under PostOrder when d and all its contents are
// done: it post-visits d (if visitSelf), gives up d's hold on its parent,
// and goes on with the parent if d was its last unfinished child.
func (k *worker) complete(d *dir, visitSelf bool) {
	w := k.w
	for {
		p := d.parent
		if visitSelf && d.depth >= w.opt.MinDepth && !d.loop && !w.stop.Load() {
			pfd := unix.AT_FDCWD
			var err error
			if p != nil {
				pfd, err = w.pin(p)
			}
			if err != nil {
				k.setDirEntry(d, -1)
				k.report("open", err)
			} else {
				k.postVisit(d, pfd)
				if p != nil {
					w.unpin(p, false)
				}
			}
		}
		if p == nil {
			return
		}
		w.release(p)
		if p.unfinished.Add(-1) != 0 {
			return
		}
		d, visitSelf = p, true
	}
}

// abandon drops an item after a Stop, giving back what it holds.
func (k *worker) abandon(d *dir) {
	if k.w.opt.PostOrder {
		k.complete(d, false)
	} else if d.parent != nil {
		k.w.release(d.parent)
	}
}

// readDir reads the open, pinned directory d chunk by chunk, visits its
// entries and pushes its subdirectories.
func (k *worker) readDir(d *dir) {
	w := k.w
	k.pb.setDir(d)
	fd := d.fd
	rd := &k.rd
	rd.start(d, fd, k.dbuf)
	follow := w.opt.Follow == FollowAll
	// costly says the visits of the last chunk this worker visited made
	// stat calls: only then are further chunks worth handing to idle
	// workers. Visiting a record that needs no stat takes a fraction of
	// what reading it took, so handing it over (a copy, a wake-up, a
	// thread) costs more than it saves (bench/NOTES.md).
	costly := false
	for !w.stop.Load() {
		pr := k.sample()
		if f := seam.BeforeRead.Load(); f != nil {
			f(d.path())
		}
		buf := rd.next()
		k.sampled(pr)
		if len(k.kids) > 0 {
			// The last chunk's children go out now that it is known
			// whether more will follow: if not, this worker will pop
			// one of them itself. Other workers read d.id from now on,
			// which a late "." check could set: it is given up.
			if !rd.end.refused() {
				k.pushKids(d, buf != nil)
			}
			rd.dot = true
		}
		if buf == nil {
			if rd.end.refused() {
				k.dropKids()
				k.refuse(d, &rd.end)
			}
			k.readFailed(d, rd.end.err)
			return
		}
		if costly && rd.dot && len(buf) >= splitMinBytes {
			// A big directory, perhaps in a walk that has had nothing
			// to share yet: the other workers take the next chunks.
			k.p.startHelpers()
			if k.p.nidle.Load() > 0 {
				// A big directory and an idle worker: hand it this
				// chunk and read on. Only once "." is checked: from
				// then on, d.id is read by other workers.
				k.splitChunk(d, buf)
				continue
			}
		}
		stats := k.e.nstat
		k.visitChunk(d, fd, buf, follow)
		costly = k.e.nstat != stats
		if w.stop.Load() {
			k.dropKids()
			return
		}
	}
	k.dropKids()
}

// visitChunk visits the records in buf, a getdents chunk of d, and
// collects d's subdirectories in k.kids. The reader has checked "."
// (readDir) before any chunk gets here.
func (k *worker) visitChunk(d *dir, fd int, buf []byte, follow bool) {
	w := k.w
	for pos := 0; ; {
		var de dirent
		next, ok := nextDirent(buf, pos, &de)
		if !ok {
			return
		}
		pos = next
		if de.ino == 0 || isDots(de.name) {
			continue
		}
		if w.stop.Load() {
			return
		}
		descend, c := k.entry(d, fd, &de)
		if descend {
			k.kids = append(k.kids, k.newChild(d, de.name, c, follow))
		}
	}
}

// dropKids forgets children not pushed (after a Stop or a loop).
func (k *worker) dropKids() {
	for _, x := range k.kids {
		k.unref(x)
	}
	clear(k.kids)
	k.kids = k.kids[:0]
}

// pushKids queues the children found in the last chunk. Each holds a
// want on d (its descriptor, to be opened from) and, under PostOrder, an
// unfinished count.
func (k *worker) pushKids(d *dir, more bool) {
	p := k.p
	n := len(k.kids)
	d.mu.Lock()
	d.want += int32(n)
	d.mu.Unlock()
	if p.w.opt.PostOrder {
		d.unfinished.Add(int32(n))
	}
	p.pending.Add(int64(n))
	k.push(k.kids, more)
	clear(k.kids) // pushed: the references went with them
	k.kids = k.kids[:0]
}

// newChild makes the directory item for the Entry's file, a child of d.
func (k *worker) newChild(d *dir, name []byte, c child, follow bool) *dir {
	// Names are cut from a shared chunk: one allocation per directory
	// (the item) rather than two.
	n := len(name) + 1
	if len(k.names)+n > cap(k.names) {
		k.names = make([]byte, 0, max(16<<10, n))
	}
	start := len(k.names)
	k.names = append(append(k.names, name...), 0)
	x := k.allocDir()
	x.name = k.names[start : start+n : start+n]
	x.setPath(d)
	x.refs.Store(1)
	d.refs.Add(1)
	x.typ = TypeDir
	x.follow = follow
	x.linkFollowed = c.linkFollowed
	x.id, x.idExact = c.id, c.exact
	return x
}

// Directory items are recycled in a pre-order walk: allocating one per
// directory was the walk's only steady garbage, and the heap it grew a
// third of the peak RSS. Under PostOrder items are left to the garbage
// collector: their lifetimes (unfinished counts, post-order visits
// relative to the parent) are longer and rarer.
//
// An item is recycled, onto the free list of the worker that drops the
// last reference, when its refs fall to zero: the item's own reference
// is dropped once it is processed, each child holds one on its parent
// until recycled itself, and each worker holds one on the directory
// whose path its path buffer holds (setDir walks that chain). Dropping
// too few references only leaves an item to the collector; only
// dropping too many would be wrong.

// Free list bounds: a worker's list of items spills spareBatch items to
// the pool's when it holds 2*spareBatch, and takes spareBatch back when
// empty, so that the lock is taken once per many items; the pool's
// lists are bounded too.
const (
	spareBatch    = 32
	maxSharedDirs = 128
	maxSpareParts = 16
)

// allocDir returns a cleared item.
func (k *worker) allocDir() *dir {
	if len(k.spareDirs) == 0 {
		shared.mu.Lock()
		i := max(0, len(shared.dirs)-spareBatch)
		k.spareDirs = append(k.spareDirs, shared.dirs[i:]...)
		clear(shared.dirs[i:])
		shared.dirs = shared.dirs[:i]
		shared.mu.Unlock()
	}
	x, ok := popLast(&k.spareDirs)
	if !ok {
		x = new(dir)
	}
	x.fd = -1
	return x
}

// freeDir keeps x, reset, for reuse.
func (k *worker) freeDir(x *dir) {
	k.spareDirs = append(k.spareDirs, x)
	if len(k.spareDirs) >= 2*spareBatch {
		k.spill(spareBatch)
	}
}

// spill moves k's spare items past the first keep to the shared list.
func (k *worker) spill(keep int) {
	shared.mu.Lock()
	for _, y := range k.spareDirs[keep:] {
		pushSpare(&shared.dirs, y, maxSharedDirs)
	}
	shared.mu.Unlock()
	clear(k.spareDirs[keep:])
	k.spareDirs = k.spareDirs[:keep]
}

// unref drops one reference to d, recycling it (and, in turn, ancestors
// that were held only by it) at zero.
func (k *worker) unref(d *dir) {
	for d != nil && d.refs.Add(-1) == 0 {
		p := d.parent
		if d.fd >= 0 { // not expected: the last want closes it
			closeFD(d.fd)
			k.w.fds.open.Add(-1)
		}
		*d = dir{}
		k.freeDir(d)
		d = p
	}
}

// refPath moves the worker's reference to the directory its path buffer
// holds, after process may have changed it.
func (k *worker) refPath() {
	if cur := k.pb.cur; cur != k.pathRef {
		if cur != nil {
			cur.refs.Add(1)
		}
		if k.pathRef != nil {
			k.unref(k.pathRef)
		}
		k.pathRef = cur
	}
}

// Splitting a big directory. One worker reads a directory; when another
// is idle, the reader copies each further getdents chunk into a chunk
// item and pushes it, so the idle worker visits those records (and
// makes their stats) while the reader goes on reading. A chunk item
// holds, like a child, a want on the directory's descriptor, a
// reference, and under PostOrder an unfinished count.

// splitMinBytes is the smallest chunk worth handing over: a full
// getdents buffer of short names is about a thousand records.
const splitMinBytes = direntBufSize / 2

// splitChunk pushes a copy of buf, a chunk of d's records, as an item.
func (k *worker) splitChunk(d *dir, buf []byte) {
	p := k.p
	shared.mu.Lock()
	b, ok := popLast(&shared.parts)
	shared.mu.Unlock()
	if !ok {
		b = make([]byte, 0, direntBufSize)
	}
	b = append(b[:0], buf...)
	x := k.allocDir()
	x.chunk = b
	x.parent = d
	x.depth = d.depth
	x.refs.Store(1)
	d.refs.Add(1)
	d.mu.Lock()
	d.want++
	d.mu.Unlock()
	if p.w.opt.PostOrder {
		d.unfinished.Add(1)
	}
	if out := p.w.opt.PieceOut; out != nil {
		out(k.id, k.dirPrefix(d), true)
	}
	p.pending.Add(1)
	k.push([]*dir{x}, true)
}

// processChunk visits a chunk item's records, then gives back what the
// item held on its directory.
func (k *worker) processChunk(x *dir) {
	w := k.w
	d := x.parent
	b := x.chunk
	if f := seam.BeforePiece.Load(); f != nil {
		f(d.path())
	}
	if !w.stop.Load() {
		fd, err := w.pin(d)
		if err != nil {
			k.setDirEntry(d, -1)
			k.report("open", err)
		} else {
			k.pb.setDir(d)
			k.visitChunk(d, fd, b, w.opt.Follow == FollowAll)
			if len(k.kids) > 0 {
				if w.stop.Load() {
					k.dropKids()
				} else {
					k.pushKids(d, false)
				}
			}
			w.unpin(d, false)
		}
	}
	if out := w.opt.PieceOut; out != nil {
		out(k.id, k.dirPrefix(d), false)
	}
	x.chunk = nil
	shared.mu.Lock()
	pushSpare(&shared.parts, b, maxSpareParts)
	shared.mu.Unlock()
	w.release(d)
	if w.opt.PostOrder && d.unfinished.Add(-1) == 0 {
		k.complete(d, true)
	}
}
