package walker

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The sorted walk (Options.Sort, gfind -s).
//
// Every visit is made in exactly the order of a serial depth-first walk
// whose directories were each read whole and sorted by name (byte order),
// one visit at a time: so the order is the same for any number of workers
// and any timing. The directories are still read in parallel:
//
//	goroutines:  one holds the emit token and visits; the others read
//	             ahead: pop the most recently queued directory node
//	             (LIFO, close to the order the visits will need them),
//	             open it, read it whole (listing), sort the
//	             records, publish the listing, queue its subdirectories
//	listings:    [root] [a] [a/b] [a/c] ... ready, sorted (the window)
//
// The token holder walks an explicit stack of frames (one per directory
// being visited, as the serial walk recurses). Entering a directory, it
// takes the listing if it is ready, and reads the directory itself if no
// one has claimed it yet. If another goroutine is reading it, the holder
// parks the walk on that node and goes to read ahead like the others; the
// goroutine that publishes the node takes the token and goes on with the
// walk, from the listing still in its cache. So no goroutine waits while
// there is reading to do, and there are no more goroutines than workers.
//
// Reading ahead is speculative: whether to descend is only decided at the
// directory's visit (Prune, Exclude, XDev, a vanished file). A node the walk
// does not descend into is killed, with whatever was read below it
// (descriptors released, listings recycled); a node being read is cleaned up
// by its reader when it finishes. Errors met while reading ahead (EACCES,
// a loop) are kept in the node and reported in order, when the walk gets
// there, and not at all for a pruned directory.
//
// Descriptors. A ready node keeps its directory open, so that the walk
// needs no second open, except a directory that holds no subdirectory:
// its reader closes it right after the read, while the kernel's state of
// it is warm, and the walk opens it again only if a visit needs it
// (closeRead, openLazy).
//
// Bounds. The window (nodes being read or ready, not yet entered) is
// limited in count, by the descriptor budget, and in bytes.
// Readers stop when it is full and are woken when a quarter of it has been
// used, so a full window costs one wake-up per many directories. The walk
// itself never waits on a full window: it reads what no one has claimed.
//
// Options.Ordered (visits whose only effect is output) has the walk
// made another way, by workers that each own subtrees: owned.go.
//
// With one worker (-j1 -s) nothing is read ahead: each directory is read
// when the walk enters it, after its visit, as in the serial walk.
//
// Memory. Nodes and listings are recycled: the walk allocates nothing
// per entry, nor, once warm, per directory.

// nodeState is where a node is in its life; guarded by sorter.mu.
type nodeState uint8

const (
	nodeQueued  nodeState = iota // pushed for reading; holds a want on its parent
	nodeNew                      // made by the emitter, not read yet (no want on its parent)
	nodeReading                  // claimed by a worker (or the emitter reading ahead)
	nodeReady                    // read (lst) or failed to open (err), not entered
	nodeTaken                    // the emitter's: entered, or being read for entering
	nodeDead                     // killed: the emitter will not enter it
)

// snode is one directory of the sorted walk.
//
// Nodes are recycled (sorter.freeNodes), so that the walk allocates
// nothing per directory: a node made per directory was most of the
// garbage, and the garbage most of the peak RSS. d.refs, changed under
// sorter.mu, counts what still points at the node: the walk until it
// is done with the node (its frame popped, or the node killed), the
// stack while the node is on it (then its reader until it publishes),
// and each child node that is counted. A node whose count is back to 0
// is reset and reused, and gives up its own count on its parent.
type snode struct {
	d     dir // first: a dir's parent is the d of an snode
	state nodeState
	lst   *listing // when nodeReady and open
	err   error    // when nodeReady: the open failed
}

// parentNode returns the node whose d is x.d.parent, or nil for a root.
func (x *snode) parentNode() *snode {
	if x.d.parent == nil {
		return nil
	}
	return (*snode)(unsafe.Pointer(x.d.parent))
}

// Window limits.
const (
	// sortMaxAhead: a small window keeps the listings and the kernel's
	// directory state warmer when entered and closed, a big one the
	// readers busy; wall time won (bench/NOTES.md).
	sortMaxAhead = 1024 // nodes
	// sortMaxBytes is well above what the window holds on a big tree:
	// a tight bound costs wall time for little memory.
	sortMaxBytes = 4 << 20 // bytes of listings
	// maxSpare bounds the listings kept for reuse. A reused listing
	// keeps the biggest buffers it ever had: thousands of them, grown by
	// the few big directories of a tree, would keep most of the heap.
	maxSpare = 128
)

// spareOK says whether l is worth keeping for reuse (not grown for a huge
// directory), and clears it for that.
func spareOK(l *listing) bool {
	if l.big != nil || cap(l.recs) > 8<<10 || cap(l.kids) > 512 {
		return false
	}
	clear(l.kids)
	*l = listing{recs: l.recs[:0], kids: l.kids[:0]}
	return true
}

// sorter is the state of one sorted walk.
type sorter struct {
	w        *walk
	roots    *rootSource
	prefetch bool // there are readers besides the walk: queue subdirectories
	// keepFDs is set once a visit needed the descriptor of a directory
	// closed after its read: from then on none is (closeRead).
	keepFDs atomic.Bool

	// The walk's state, used by whichever goroutine holds the emit token.
	ew     wstate // the Entry (Worker 0) and path buffer of every visit
	frames []frame
	own    *oworker   // the worker whose walk this is, under runOwned
	espare []*listing // listings the walk is done with, for sorter.free
	eunref []*snode   // nodes the walk is done with, for sorter.unrefLocked

	// mu guards the nodes and the window; under Options.Ordered it is
	// shared by the workers' walks (owned.mu), whose nodes count each
	// other's (a stolen directory is a frame of two walks).
	mu    *sync.Mutex
	work  sync.Cond // readers wait here: nothing to claim
	stack []*snode  // queued nodes (and dead ones, skipped); the top is the end
	ahead int       // nodes being read ahead or ready, not entered
	bytes int       // their listings' sizes
	// maxAhead bounds ahead; sleeping readers are woken when ahead is
	// back to lowWater.
	maxAhead, lowWater int
	idle               int    // readers waiting on work
	waitFor            *snode // the node the parked walk waits for
	done               bool   // the walk is over
	*spares                   // guarded by mu
}

// spares are listings and nodes to reuse.
type spares struct {
	free      []*listing // spare listings
	freeNodes []*snode   // nodes to reuse (snode)
}

// frame is one directory the walk is in.
type frame struct {
	n        *snode
	parentFD int      // the parent's descriptor (pinned by its frame), or AT_FDCWD
	lst      *listing // once entered
	fd       int      // n's descriptor, pinned, once entered
	pos      int      // where the next record of lst.recs to visit is
	// end is the position past the last record the frame visits: the
	// listing's end, or where the rest was given to another worker
	// (owned.offer).
	end      int
	touched  byte // what touch loaded, kept so that its loads are made
	nextKid  int  // the first node of lst.kids neither entered nor killed
	phase    uint8
	opened   bool  // n is pinned (entered)
	lazy     bool  // n was closed after its read, and is opened if a visit needs it
	unpinned bool  // the parent's pin was given up while n is walked
	failed   error // n was read but could not be pinned again
	// cutSeg, when set, says that the record at cut was given to
	// another worker (owned.offer): the walk skips it and goes on in
	// cutSeg, the Seq that follows the other's. cut == end says that
	// the records from end on were given away (in one range or
	// several): the walk goes on in cutSeg once at end.
	cut    int
	cutSeg Seq
}

const (
	phaseEnter  = iota // get n's listing
	phaseVisit         // visit its entries
	phaseFinish        // report, release, post-order visit, pop
)

// sreader is one goroutine of the sorted walk: it reads directories,
// and visits while it holds the emit token.
type sreader struct {
	wstate           // for reading: scratch space, yield clock
	rd     dirRead   // the read of the directory being read
	bufs   readBufs  // spare read buffers
	raw    rawList   // the directory being read
	tmp    []sortEnt // scratch space for sorting
	spare  []*listing
	nodes  []*snode // nodes to reuse, taken from sorter.freeNodes
}

func newSReader(w *walk, id int) *sreader {
	k := &sreader{}
	k.init(w, id)
	return k
}

// runSorted walks roots in sorted order with n goroutines.
func runSorted(w *walk, roots *rootSource, n int) {
	if w.opt.Workers == 1 {
		n = 1
	}
	// No more goroutines than Ps: the walk's order is made by one
	// goroutine at a time, which the readers ahead of it would otherwise
	// keep off the CPU (bench/NOTES.md).
	n = min(n, runtime.GOMAXPROCS(0))
	if n > 1 && !w.opt.PostOrder && w.opt.Ordered != nil {
		runOwned(w, roots, n)
		return
	}
	r := &sorter{w: w, roots: roots, prefetch: n > 1, mu: new(sync.Mutex), spares: new(spares)}
	r.work.L = r.mu
	r.maxAhead = min(sortMaxAhead, max(1, int(w.fds.limit)/4))
	r.lowWater = r.maxAhead - max(1, r.maxAhead/4)
	r.ew.init(w, 0)
	r.ew.e.lazy = r
	var wg sync.WaitGroup
	for i := 1; i < n; i++ {
		k := newSReader(w, i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.run(k, false)
		}()
	}
	r.run(newSReader(w, 0), true)
	wg.Wait()
	clear(r.stack)
}

// run is one goroutine of the walk: it walks while it holds the token,
// and reads ahead otherwise, until the walk is over.
func (r *sorter) run(k *sreader, token bool) {
	if token {
		r.emit(k)
	}
	r.mu.Lock()
	for !r.done {
		n := r.claimLocked()
		if n == nil {
			r.idle++
			r.work.Wait()
			r.idle--
			continue
		}
		r.takeSpareLocked(k)
		r.mu.Unlock()
		lst, err := r.read(k, n, true, true)
		r.mu.Lock()
		if r.publishLocked(n, lst, err) {
			r.mu.Unlock()
			r.emit(k)
			r.mu.Lock()
		}
	}
	r.mu.Unlock()
}

// claimLocked takes the most recently queued live node for reading ahead,
// if the window has room.
func (r *sorter) claimLocked() *snode {
	for len(r.stack) > 0 {
		if r.ahead >= r.maxAhead || r.ahead > 0 && r.bytes >= sortMaxBytes {
			return nil
		}
		n := r.stack[len(r.stack)-1]
		r.stack[len(r.stack)-1] = nil
		r.stack = r.stack[:len(r.stack)-1]
		if n.state == nodeQueued {
			// The stack's count on n is now its reader's.
			n.state = nodeReading
			r.ahead++
			return n
		}
		r.unrefLocked(n)
	}
	return nil
}

// publishLocked ends a read ahead of n: the listing becomes ready and its
// subdirectories are queued, unless the walk killed n meanwhile. It
// returns true when the walk was parked on n: the caller now holds the
// token.
func (r *sorter) publishLocked(n *snode, lst *listing, err error) bool {
	if n.state == nodeDead {
		r.ahead--
		r.wakeLocked()
		if lst != nil {
			// Its subdirectories were never queued: nothing else holds
			// it, nor them.
			r.w.release(&n.d)
			for _, k := range lst.kids {
				r.recycleLocked(k)
			}
			r.putLocked(lst)
		}
		r.unrefLocked(n) // the reader's count
		return false
	}
	n.state, n.lst, n.err = nodeReady, lst, err
	if lst != nil {
		lst.size = lst.bigSize() + cap(lst.recs) + int(unsafe.Sizeof(snode{}))*len(lst.kids)
		r.bytes += lst.size
		r.queueKidsLocked(n, lst, r.waitFor != n)
	}
	n.d.refs.Add(-1) // the reader's count; the walk's keeps n
	if r.waitFor == n {
		r.waitFor = nil
		return true
	}
	return false
}

// unrefLocked gives up one count on x, recycling it (and, in turn, its
// ancestors) when that was the last.
func (r *sorter) unrefLocked(x *snode) {
	for x != nil {
		if x.d.refs.Add(-1) > 0 {
			return
		}
		p := x.parentNode()
		r.recycleLocked(x)
		x = p
	}
}

// recycleLocked resets x, which nothing points at any more, and keeps it
// for reuse.
func (r *sorter) recycleLocked(x *snode) {
	name := x.d.name[:0]
	*x = snode{}
	x.d.name = name
	x.d.fd = -1
	r.freeNodes = append(r.freeNodes, x)
}

// queueKidsLocked queues the subdirectory nodes of n's listing, the first
// on top. Each holds a want on n until it is opened or killed. keepOne
// says that the caller will take one itself.
func (r *sorter) queueKidsLocked(n *snode, lst *listing, keepOne bool) {
	if len(lst.kids) == 0 {
		return
	}
	n.d.mu.Lock()
	n.d.want += int32(len(lst.kids))
	n.d.mu.Unlock()
	n.d.refs.Add(int32(len(lst.kids)))
	for i := len(lst.kids) - 1; i >= 0; i-- {
		lst.kids[i].d.refs.Store(2) // the walk's and the stack's
		r.stack = append(r.stack, lst.kids[i])
	}
	share := len(lst.kids)
	if keepOne {
		share--
	}
	if r.idle > 0 && share > 0 && r.ahead <= r.lowWater {
		if share >= r.idle {
			r.work.Broadcast()
		} else {
			for range share {
				r.work.Signal()
			}
		}
	}
}

// wakeLocked wakes the sleeping readers once the window has room again.
func (r *sorter) wakeLocked() {
	if r.idle > 0 && r.ahead <= r.lowWater && len(r.stack) > 0 {
		r.work.Broadcast()
	}
}

// putLocked keeps l, and its read buffers, for reuse.
func (r *sorter) putLocked(l *listing) {
	if len(r.free) < maxSpare && spareOK(l) {
		r.free = append(r.free, l)
	}
}

// takeSpareLocked gives k a spare listing for its next read. Listings are
// the walk's only per-entry memory; a free list, unlike a sync.Pool,
// survives garbage collections.
func (r *sorter) takeSpareLocked(k *sreader) {
	if len(k.nodes) < 16 {
		i := max(0, len(r.freeNodes)-64)
		k.nodes = append(k.nodes, r.freeNodes[i:]...)
		clear(r.freeNodes[i:])
		r.freeNodes = r.freeNodes[:i]
	}
	if len(k.spare) == 0 && len(r.free) > 0 {
		k.spare = append(k.spare, r.free[len(r.free)-1])
		r.free[len(r.free)-1] = nil
		r.free = r.free[:len(r.free)-1]
	}
}

// killLocked gives up n, which the walk will not enter, and everything
// read ahead below it.
func (r *sorter) killLocked(n *snode) {
	switch n.state {
	case nodeQueued:
		n.state = nodeDead
		r.w.release(n.d.parent) // it will not be opened from there
		r.unrefLocked(n)
	case nodeReading:
		n.state = nodeDead // its reader cleans up (publishLocked)
		r.unrefLocked(n)
	case nodeReady:
		n.state = nodeDead
		r.ahead--
		if lst := n.lst; lst != nil {
			n.lst = nil
			r.bytes -= lst.size
			for _, k := range lst.kids {
				r.killLocked(k)
			}
			r.w.release(&n.d)
			r.putLocked(lst)
		}
		r.wakeLocked()
		r.unrefLocked(n)
	}
}

// kill is killLocked for the walk.
func (r *sorter) kill(n *snode) {
	r.mu.Lock()
	r.killLocked(n)
	r.mu.Unlock()
}

// acquire returns n's listing for the walk to enter, n open with one want
// (the walk's) and unpinned, or the error opening it. ok is false when
// another goroutine is reading n: the walk is then parked on n, and the
// caller no longer holds the token.
func (r *sorter) acquire(k *sreader, n *snode) (lst *listing, err error, ok bool) {
	r.mu.Lock()
	for _, l := range r.espare {
		r.putLocked(l)
	}
	clear(r.espare)
	r.espare = r.espare[:0]
	for _, x := range r.eunref {
		r.unrefLocked(x)
	}
	clear(r.eunref)
	r.eunref = r.eunref[:0]
	switch n.state {
	case nodeReady:
		n.state = nodeTaken
		lst, err = n.lst, n.err
		n.lst = nil
		r.ahead--
		if lst != nil {
			r.bytes -= lst.size
		}
		r.wakeLocked()
		r.mu.Unlock()
		return lst, err, true
	case nodeQueued, nodeNew:
		drop := n.state == nodeQueued
		n.state = nodeTaken
		r.takeSpareLocked(k)
		r.mu.Unlock()
		lst, err = r.read(k, n, drop, false)
		if lst != nil && len(lst.kids) > 0 {
			r.mu.Lock()
			r.queueKidsLocked(n, lst, false)
			r.mu.Unlock()
		}
		return lst, err, true
	case nodeReading:
		r.waitFor = n
		r.mu.Unlock()
		return nil, nil, false
	}
	panic("walker: sorted walk entered a dead node")
}

// read opens n (giving up its want on its parent if drop), reads it whole
// and sorts it. On success n has one want and no pin, and is open unless
// the listing says closed (see closeRead: ahead says n is read ahead).
func (r *sorter) read(k *sreader, n *snode, drop, ahead bool) (*listing, error) {
	w := r.w
	if err := w.openChild(&n.d, &k.scratch, drop); err != nil {
		return nil, err
	}
	fd := n.d.fd // pinned by openChild: nobody else changes it
	lst, ok := popLast(&k.spare)
	if !ok {
		lst = new(listing)
	}
	raw := &k.raw
	rd := &k.rd
	rd.start(&n.d, fd, nil)
	b, _ := k.collect(rd, raw, &k.bufs, 0, true)
	lst.ended = rd.end
	if lst.ended.refused() {
		raw.ents = raw.ents[:0]
	}
	var help func(func()) func()
	if r.own != nil {
		help = r.own.help
	}
	raw.sort(&k.tmp, help)
	kids := r.prefetch && (w.opt.MaxDepth < 0 || n.d.depth+1 < w.opt.MaxDepth) &&
		!(w.opt.XDev && n.d.idExact && n.d.id.dev != n.d.rootDev)
	if len(raw.chunks) > 1 {
		lst.keepBig(raw)
	} else {
		lst.pack(raw, b)
	}
	raw.recycle(&k.bufs)
	if kids {
		k.addKids(n, lst)
	}
	if ahead && b.leaf && rd.dot && !lst.ended.refused() && !r.keepFDs.Load() {
		r.closeRead(n, fd)
		lst.closed = true
	}
	w.unpin(&n.d, false)
	return lst, nil
}

// addKids makes the nodes of the subdirectories of n, listed in lst, to
// read them ahead: for the records of type directory only, since a link
// under -L or a DT_UNKNOWN record that turns out to be a directory is
// read when the walk enters it. Not on another device under XDev (the
// walk will not descend) nor at MaxDepth.
func (k *sreader) addKids(n *snode, lst *listing) {
	if big := lst.big; big != nil {
		lst.kidDirs = true
		for i := range big.ents {
			if e := &big.ents[i]; e.typ == TypeDir {
				de := big.dirent(e)
				lst.kids = append(lst.kids, k.newNode(&n.d, de.name, child{id: fileID{n.d.id.dev, de.ino}}, nodeQueued))
			}
		}
		return
	}
	for pos := 0; pos <= lst.lastDir; {
		de, _, next := packed(lst.recs, pos)
		if de.typ == TypeDir {
			lst.recs[pos+2] |= packedKid
			lst.kids = append(lst.kids, k.newNode(&n.d, de.name, child{id: fileID{n.d.id.dev, de.ino}}, nodeQueued))
		}
		pos = next
	}
}

// closeRead closes the directory of n, read ahead and pinned, which holds
// no directory to descend into: unless a visit needs it (a stat, -delete,
// -execdir), nothing else will use it.
//
// Why: a directory read ahead is closed when the walk leaves it, up to a
// thousand directories later and on the other core, and on ext4 a close
// frees the tree of names that readdir built (fs/ext4/dir.c,
// ext4_htree_free_dir_info): long out of the cache, and freed into
// another core's slabs. That cost more than the read itself. Most
// directories of a tree hold no subdirectory; closing those right after
// the read, while the tree is warm, saves that (bench/NOTES.md).
//
// A visit that needs the descriptor opens the directory again (openLazy),
// checked against the inode number of the "." record read; after that,
// directories are kept open as before, so that visits that stat every
// file cost no second open per directory.
func (r *sorter) closeRead(n *snode, fd int) {
	d := &n.d
	d.mu.Lock()
	closeFD(fd)
	d.fd = -1
	r.w.fds.open.Add(-1)
	// The "." record matched d.id.ino (dotCheck), or statCheck made the
	// identity exact; the device is only known if a stat was made.
	d.vid, d.haveVid, d.vidIno = d.id, true, !d.idExact
	d.mu.Unlock()
	if hookCloseRead != nil {
		hookCloseRead(d.path())
	}
}

// openLazy opens, for the current Entry e, the directory of the top frame
// that closeRead closed.
func (r *sorter) openLazy(e *Entry) {
	if hookOpenLazy != nil {
		hookOpenLazy()
	}
	r.keepFDs.Store(true)
	f := &r.frames[len(r.frames)-1]
	fd, err := r.w.pin(&f.n.d)
	if err != nil {
		// Like an evicted directory that cannot be reopened: the rest
		// of it is skipped, and the failure reported after it.
		f.n.d.lost = true
		f.failed = err
		f.fd = -1
		e.dirfd = -1
		return
	}
	f.fd, f.opened = fd, true
	e.dirfd = fd
}

// hookOpenLazy, when set (by tests), is called by openLazy.
var hookOpenLazy func()

// hookCloseRead, when set (by tests), is called by closeRead with the
// path of the directory it closed, so that a test can wait for the
// read-ahead instead of sleeping.
var hookCloseRead func(path string)

// newNode makes the node of the subdirectory name of d.
func (k *sreader) newNode(d *dir, name []byte, c child, state nodeState) *snode {
	x, ok := popLast(&k.nodes)
	if !ok {
		x = &snode{}
		x.d.fd = -1
	}
	x.state = state
	// The name is the node's own copy, not the listing's, which is
	// recycled as soon as the emitter leaves the directory.
	x.d.setName(d, name)
	x.d.typ = TypeDir
	x.d.follow = k.w.opt.Follow == FollowAll
	x.d.linkFollowed = c.linkFollowed
	x.d.id, x.d.idExact = c.id, c.exact
	return x
}

// emit walks, holding the token, until the walk is parked or over.
func (r *sorter) emit(k *sreader) {
	for {
		if r.own != nil {
			r.own.step()
		}
		if len(r.frames) == 0 {
			root, ok := "", false
			if !r.w.stop.Load() && r.roots != nil {
				root, ok = r.roots.take()
			}
			if !ok {
				r.mu.Lock()
				r.done = true
				r.work.Broadcast()
				r.mu.Unlock()
				return
			}
			r.startRoot(root)
			continue
		}
		f := &r.frames[len(r.frames)-1]
		switch f.phase {
		case phaseEnter:
			if r.w.stop.Load() {
				r.kill(f.n)
				r.frames = r.frames[:len(r.frames)-1]
				continue
			}
			lst, err, ok := r.acquire(k, f.n)
			if !ok {
				return
			}
			r.enter(f, lst, err)
		case phaseVisit:
			r.visit(k, f)
		case phaseFinish:
			r.finish(f)
		}
	}
}

// startRoot visits the starting point root and, if it is a directory
// to read, pushes its frame.
func (r *sorter) startRoot(root string) {
	s := &r.ew
	// Roots are not recycled (refs never drops to 0): the path buffer
	// may still point at one after its walk.
	n := &snode{state: nodeNew}
	n.d.refs.Store(2)
	n.d.fd = -1
	n.d.setName(nil, []byte(root))
	if !s.visitRoot(&n.d) {
		return
	}
	r.frames = append(r.frames, frame{n: n, parentFD: unix.AT_FDCWD})
}

// parent returns the frame below the top one, or nil.
func (r *sorter) parent() *frame {
	if len(r.frames) < 2 {
		return nil
	}
	return &r.frames[len(r.frames)-2]
}

// enter starts on the top frame f with the listing (or the error) that
// acquire gave, as the serial walk's readChild does after its open.
func (r *sorter) enter(f *frame, lst *listing, err error) {
	w := r.w
	s := &r.ew
	f.phase = phaseFinish
	if err != nil {
		s.openFailed(&f.n.d, f.parentFD, err) // and visited in post-order (finish)
		return
	}
	if p := r.parent(); p != nil {
		// While n is walked, the parent's descriptor may be evicted.
		w.unpin(&p.n.d, false)
		f.unpinned = true
	}
	if lst.closed {
		// Opened again only if a visit needs it (openLazy).
		f.lst, f.lazy, f.fd = lst, true, dirfdLazy
		f.end = lst.end()
		f.phase = phaseVisit
		s.pb.setDir(&f.n.d)
		return
	}
	fd, perr := w.pin(&f.n.d)
	if perr != nil {
		// Evicted since it was read ahead, and not the same directory
		// any more (or gone).
		r.dropListing(lst, 0)
		w.release(&f.n.d)
		f.failed = perr
		return
	}
	f.fd, f.opened = fd, true
	d := &f.n.d
	if lst.ended.refused() {
		s.refuse(d, &lst.ended)
		r.dropListing(lst, 0)
		return
	}
	f.lst, f.end = lst, lst.end()
	f.phase = phaseVisit
	s.pb.setDir(d)
}

// visit visits the entries of the top frame f in order, until one is a
// directory to descend into (its frame is pushed) or the listing ends.
func (r *sorter) visit(k *sreader, f *frame) {
	w := r.w
	s := &r.ew
	d := &f.n.d
	lst := f.lst
	// (f.end is read at every record: offer, called from the visits,
	// may move it.)
	for f.pos < f.end && !w.stop.Load() && !d.lost {
		if f.cutSeg != nil && f.pos == f.cut {
			r.own.passCut(f)
			continue
		}
		var de dirent
		var isKid bool
		if lst.big == nil {
			de, isKid, f.pos = packed(lst.recs, f.pos) // inlined: the common case
		} else {
			if f.pos%touchAhead == 0 {
				f.touched += lst.big.touch(f.pos+touchAhead, min(f.pos+2*touchAhead, f.end))
			}
			de, isKid, f.pos = lst.nextBig(f.pos)
		}
		descend, c := s.entry(d, f.fd, &de)
		var kid *snode
		if isKid {
			kid = lst.kids[f.nextKid]
			f.nextKid++
		}
		if !descend {
			if kid != nil {
				r.kill(kid)
			}
			if r.own != nil {
				r.own.entry()
			}
			continue
		}
		if kid == nil {
			r.pushNew(k, f, de.name, c)
		} else {
			r.frames = append(r.frames, frame{n: kid, parentFD: f.fd}) // f is stale now
		}
		return
	}
	f.phase = phaseFinish
}

// pushNew pushes the frame of f's subdirectory name, which was not read
// ahead: the walk makes its node, with the walk's count.
func (r *sorter) pushNew(k *sreader, f *frame, name []byte, c child) {
	kid := k.newNode(&f.n.d, name, c, nodeNew)
	r.mu.Lock()
	kid.d.refs.Store(1) // the walk's
	f.n.d.refs.Add(1)
	r.mu.Unlock()
	r.frames = append(r.frames, frame{n: kid, parentFD: f.fd}) // f is stale now
}

// finish ends the top frame f: it reports a read error, gives up n, pins
// the parent again, makes n's post-order visit and pops f.
func (r *sorter) finish(f *frame) {
	w := r.w
	s := &r.ew
	d := &f.n.d
	if lst := f.lst; lst != nil {
		f.lst = nil
		err := lst.ended.err
		r.dropListing(lst, f.nextKid)
		if !d.lost {
			s.readFailed(d, err)
		}
	}
	if f.opened {
		if d.lost {
			w.release(d)
		} else {
			w.unpin(d, true) // closes n, reopening an evicted parent by ".."
		}
	} else if f.lazy {
		w.release(d)
	}
	parentFD := f.parentFD
	p := r.parent()
	if f.unpinned {
		pfd, err := w.pin(&p.n.d)
		if err != nil {
			// The parent cannot be reopened, so neither can its
			// remaining entries be visited.
			s.lost(&p.n.d, err)
			r.frames = r.frames[:len(r.frames)-1]
			r.eunref = append(r.eunref, f.n) // the path buffer is p's
			return
		}
		parentFD, p.fd = pfd, pfd
	}
	if f.cutSeg != nil {
		// Left before the record given away (a Stop, a lost
		// descriptor): the output goes on after the thief's all the same.
		r.own.switchTo(f)
	}
	if f.failed != nil {
		s.openFailed(d, parentFD, f.failed)
	}
	s.postVisit(d, parentFD)
	n := f.n
	r.frames = r.frames[:len(r.frames)-1]
	if p != nil {
		s.pb.setDir(&p.n.d)
	} else {
		s.pb.cur = nil
	}
	r.eunref = append(r.eunref, n) // the path buffer no longer points at it
}

// dropListing kills the nodes of lst from kids[from] on (not entered: a
// Stop, or a parent lost) and keeps lst for reuse.
func (r *sorter) dropListing(lst *listing, from int) {
	if from < len(lst.kids) {
		r.mu.Lock()
		for _, k := range lst.kids[from:] {
			r.killLocked(k)
		}
		r.mu.Unlock()
	}
	r.espare = append(r.espare, lst)
}
