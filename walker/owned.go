package walker

import (
	"encoding/binary"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The sorted walk when the visits' only effect is output
// (Options.Ordered): subtrees owned by workers.
//
// Each worker walks its own part of the tree with a depth-first walk
// (depth.go) by name, whose giver it is, in a Seq of the Ordered, its
// part's place in the walk's order; the Ordered writes what it prints
// straight out when its part is the next to be written, or captures it
// to write later, in order.
//
// A worker with nothing to do asks for work (owned.want); a busy worker
// gives away, at its next directory, the first subdirectory ahead in its
// shallowest directory that has one (offer): the thief walks that
// subdirectory in a new Seq, and the victim skips it and goes on in
// another new Seq, both made right after the victim's current one. So
// the pieces given away are big (the shallowest first) and few, and each
// directory's read, visit and close stay close in time on one core. A
// directory read in several calls (a big one, say 100,000 files) is
// shared the same way by its records: the thief visits the second half
// of what is left of it, and the victim stops at the half.
//
// Why owned subtrees, not one goroutine visiting in order while the
// others read ahead (the sorted walk until issue 31): a directory read
// by one goroutine and visited or closed by another, many directories
// later, costs more than capturing the output does (bench/NOTES.md).
//
// Memory: when Ordered.Step reports a worker's Seq full (it has captured
// all it may), the worker nests: it suspends its walk and walks,
// meanwhile, subdirectories given by the head's worker, which come
// before its Seq, until its Seq is the head (nest). The head's worker
// never waits, so the walk always advances; past ownedMaxNest levels a
// worker just waits.

// Owned-walk limits; variables for tests.
var (
	// ownedMaxNest bounds the tasks a worker suspends (nest).
	ownedMaxNest = 16
	// ownedMinRange is the fewest records left to visit in a big
	// listing for offer to give half of them away.
	ownedMinRange = 4096
)

const (
	// ownedBackoff is how many steps a worker that had nothing to give
	// waits before it looks again: short, or the workers waiting for
	// work wait long (bench/NOTES.md). It doubles while there is still
	// nothing to give, up to
	// ownedMaxBackoff: a look goes through every frame, and in a chain
	// of 2,000 directories there is never anything.
	ownedBackoff    = 8
	ownedMaxBackoff = 1024
	// ownedSpin is how long a worker waiting for work spins before it
	// sleeps.
	ownedSpin = 2 * time.Millisecond
)

// hookOwned, when set (by tests), is told of each subdirectory given
// away ("give"), each range of a big listing given away ("range"), each
// nested task ("nest"), each wait past ownedMaxNest ("wait"), and each
// worker with nothing to do that asks for a task ("ask").
var hookOwned func(event string)

// owned is the state shared by the workers of an owned walk.
type owned struct {
	w   *walk
	out Ordered
	// mu guards the tasks: who waits for one, who is busy.
	mu sync.Mutex
	// cond is where workers wait for a task, for their Seq to be the
	// head (broadcast when Ordered.End says it moved), or for the end.
	cond    sync.Cond
	want    atomic.Bool
	waiting []*oworker  // workers waiting for a task
	busy    int         // workers with a task (or one handed over)
	over    atomic.Bool // the walk is over
	lists   listPool    // every worker's: a listing given away is freed by the thief
}

// oworker is one worker of an owned walk.
type oworker struct {
	o       *owned
	id      int
	g       *ownGiver            // its walk's (a nested task's while nested)
	sp      spares               // its walks' scratch space and free lists
	seg     Seq                  // the Seq its visits are in
	task    atomic.Pointer[task] // handed over by a victim
	queued  bool                 // in o.waiting
	nested  bool                 // waiting in nest, not in nextTask
	levels  []*ownGiver          // the walks of nested tasks (nest)
	backoff int                  // steps before offer looks again
	misses  int                  // offer's looks in a row that found nothing
}

// task is a part of a walk given away, and its Seq: a frame of the
// victim's directory holding only a subdirectory's record, or a frame
// sharing the victim's big listing to visit a range of its records.
type task struct {
	f   frame
	seg Seq
	// tail, if set, is a Seq right after seg for the thief to end,
	// empty, after its walk.
	tail Seq
}

// runOwned walks roots in sorted order with n workers owning subtrees.
func runOwned(w *walk, roots *rootSource, n int) {
	o := &owned{w: w, out: w.opt.Ordered, busy: n}
	o.cond.L = &o.mu
	ws := make([]*oworker, n)
	for i := range ws {
		x := &oworker{o: o, id: i}
		x.g = x.newWalk()
		ws[i] = x
	}
	ws[0].g.t.roots = roots
	var wg sync.WaitGroup
	for _, x := range ws[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.run(nil)
		}()
	}
	ws[0].run(o.out.Start())
	wg.Wait()
}

// ownGiver is the giver of one walk of an owned walk's worker: it
// keeps the cuts of the walk's frames, the records given away.
type ownGiver struct {
	x    *oworker
	t    *dfs
	cuts []cut // by frame index
}

// cut says that records of frame f of the walk were given away (offer):
// the record at f.end, after which the walk goes on in seg, the Seq that
// follows the thief's (rest is the frame's end past it); or (rng) those
// from f.end on, in one range or several: the walk goes on in seg once
// at f.end.
type cut struct {
	seg  Seq
	rest int
	rng  bool
}

// newWalk returns a depth-first walk by name for x.
func (x *oworker) newWalk() *ownGiver {
	g := &ownGiver{x: x, t: newDFS(x.o.w, x.id, true, nil, &x.sp)}
	g.t.give, g.t.pool = g, &x.o.lists
	return g
}

// cutOf returns the cut of frame i of g's walk, or nil. A frame's cut
// is done (leave) before the frame is popped.
func (g *ownGiver) cutOf(i int) *cut {
	if i < len(g.cuts) && g.cuts[i].seg != nil {
		return &g.cuts[i]
	}
	return nil
}

// setCut records the cut of frame i.
func (g *ownGiver) setCut(i int, c cut) {
	for len(g.cuts) <= i {
		g.cuts = append(g.cuts, cut{})
	}
	g.cuts[i] = c
}

func (g *ownGiver) step() { g.x.step() }

// reached, at the record of f given away, skips it and goes on in the
// Seq that follows the thief's.
func (g *ownGiver) reached(f *frame) bool {
	c := g.cutOf(len(g.t.frames) - 1)
	if c == nil || c.rng {
		return false
	}
	_, f.pos = f.lst.next(f.pos)
	f.end = c.rest
	g.x.switchTo(c)
	return true
}

// leave, for a frame left with a cut pending (a range given away, or a
// Stop or a lost descriptor before the record given away), goes on in
// the Seq after the thief's all the same: what the walk visits after the
// frame comes after what was given away.
func (g *ownGiver) leave(f *frame) {
	if c := g.cutOf(len(g.t.frames) - 1); c != nil {
		g.x.switchTo(c)
	}
}

// run is one worker: the starting points for the first (seg is set),
// then the tasks it is given until the walk is over.
func (x *oworker) run(seg Seq) {
	if seg != nil {
		x.begin(seg)
		x.g.t.run()
		x.end()
	}
	for {
		t := x.o.nextTask(x)
		if t == nil {
			return
		}
		x.walk(t)
	}
}

// walk walks t with x's current walk, in t's Seq.
func (x *oworker) walk(t *task) {
	w := x.g.t
	w.frames = append(w.frames[:0], t.f)
	w.pb.cur = nil
	w.pb.setDir(t.f.d)
	x.begin(t.seg)
	w.run()
	x.end()
	if t.tail != nil {
		x.begin(t.tail)
		x.end()
	}
}

// nextTask waits for a task; nil means the walk is over.
func (o *owned) nextTask(x *oworker) *task {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.busy--
	x.nested = false
	for {
		if t := x.task.Swap(nil); t != nil {
			return t
		}
		if o.busy == 0 || o.over.Load() {
			o.over.Store(true)
			o.want.Store(false)
			o.cond.Broadcast()
			return nil
		}
		if !x.queued {
			if hookOwned != nil {
				hookOwned("ask")
			}
			x.queued = true
			o.waiting = append(o.waiting, x)
			o.want.Store(true)
		}
		o.sleep(x, nil)
	}
}

// sleep waits, o.mu held, for a task for x, for seg to be the head (if
// not nil), or for the walk to be over. It spins a while first: a
// goroutine woken from a futex takes long to run again, and its core is
// idle anyway (no more workers than Ps). It spins with sched_yield, not
// runtime.Gosched: when other processes leave fewer CPUs than Ps, the
// spinning thread lets the working ones run (bench/NOTES.md).
func (o *owned) sleep(x *oworker, seg Seq) {
	ready := func() bool {
		return x.task.Load() != nil || seg != nil && seg.Head() || o.over.Load()
	}
	o.mu.Unlock()
	start := time.Now()
	for i := 1; !ready(); i++ {
		if i%16 == 0 && time.Since(start) > ownedSpin {
			break
		}
		osYield()
	}
	o.mu.Lock()
	if !ready() {
		o.cond.Wait()
	}
}

// begin starts x's visits in seg.
func (x *oworker) begin(seg Seq) {
	x.seg = seg
	x.o.out.Begin(x.id, seg)
}

// end ends x's Seq, and wakes the workers waiting for theirs to be the
// head if the head moved.
func (x *oworker) end() {
	o := x.o
	if o.out.End(x.id) {
		o.mu.Lock()
		o.cond.Broadcast()
		o.mu.Unlock()
	}
	x.seg = nil
}

// step is called by x's walk between directories, and every stepEvery
// visits: it lets the Ordered move the captured output on, nests while
// x's Seq may capture no more, and gives work away if asked.
func (x *oworker) step() {
	for x.o.out.Step(x.id) {
		x.nest()
	}
	if x.o.want.Load() {
		x.offer()
	}
}

// nest, when x's Seq has captured as much output as it may, walks tasks
// that come before it (given by the head's worker) until it is the head;
// x's walk is suspended meanwhile. Past ownedMaxNest levels it just
// waits.
func (x *oworker) nest() {
	if len(x.levels) >= ownedMaxNest {
		if hookOwned != nil {
			hookOwned("wait")
		}
		x.wait()
		return
	}
	o := x.o
	seg, g := x.seg, x.g
	for {
		t := o.nestedTask(x, seg)
		if t == nil {
			return
		}
		if hookOwned != nil {
			hookOwned("nest")
		}
		depth := len(x.levels)
		if depth == cap(x.levels) || x.levels[:depth+1][depth] == nil {
			x.levels = append(x.levels, x.newWalk())
		} else {
			x.levels = x.levels[:depth+1]
		}
		x.g = x.levels[depth]
		x.walk(t)
		x.levels = x.levels[:depth]
		x.g, x.seg = g, seg
	}
}

// nestedTask waits for a task for x, whose Seq seg is not the head and
// has captured all it may: one that comes before seg, or nil once seg is
// the head.
func (o *owned) nestedTask(x *oworker, seg Seq) *task {
	o.mu.Lock()
	defer o.mu.Unlock()
	for {
		if t := x.task.Swap(nil); t != nil {
			return t
		}
		if seg.Head() {
			if x.queued {
				o.unwaitLocked(slices.Index(o.waiting, x))
			}
			return nil
		}
		if !x.queued {
			x.queued, x.nested = true, true
			o.waiting = append(o.waiting, x)
			o.want.Store(true)
		}
		o.sleep(x, seg)
	}
}

// unwaitLocked takes the worker at o.waiting[i] off the list of workers
// waiting for a task, and returns it. o.mu is held.
func (o *owned) unwaitLocked(i int) *oworker {
	y := o.waiting[i]
	o.waiting = slices.Delete(o.waiting, i, i+1)
	y.queued = false
	if len(o.waiting) == 0 {
		o.want.Store(false)
	}
	return y
}

// wait waits until x's Seq is the head: it has captured as much output
// as it may.
func (x *oworker) wait() {
	o := x.o
	o.mu.Lock()
	for !x.seg.Head() {
		o.cond.Wait()
	}
	o.mu.Unlock()
}

// switchTo ends x's Seq and goes on in c's, which is then done.
func (x *oworker) switchTo(c *cut) {
	next := c.seg
	*c = cut{}
	x.end()
	x.begin(next)
}

// offer gives a worker waiting for work a part of x's walk, from x's
// shallowest directory that has one to give: the first subdirectory
// ahead that has not been given away (the second in x's current
// directory), or else, in a directory read in several calls (listing.big),
// the second half of the records x has still to visit there. The thief's
// frame shares x's dir and descriptor (pinWant); x skips the record
// when it gets there (ownGiver.reached), or stops at the half
// (frame.end) and goes on after the thief's segment.
//
// Order: a part given away is always the next one after x's current
// segment, so its segment goes right after x.seg. That holds because
// parts are taken from the shallowest frame first, and a range is not
// taken from a frame while a frame deeper than it has a cut pending (its
// records would then come after the deeper cut's segments).
func (x *oworker) offer() {
	if x.backoff > 0 {
		x.backoff--
		return
	}
	o := x.o
	g := x.g
	w := g.t
	if w.w.stop.Load() {
		return
	}
	lastCut := -1 // the deepest frame with a cut pending
	for i := range w.frames {
		if g.cutOf(i) != nil {
			lastCut = i
		}
	}
	for i := range w.frames {
		f := &w.frames[i]
		lst := f.lst
		if f.phase != phaseVisit || lst == nil || f.d.lost {
			continue
		}
		c := g.cutOf(i)
		q, rec, mid := -1, []byte(nil), -1
		if c == nil && lst.lastDir >= f.pos {
			var next int
			q, rec, next = nextDirRec(lst, f.pos, f.end)
			if q >= 0 && i == len(w.frames)-1 {
				// The top frame's first subdirectory ahead is x's own next
				// work: giving it away would leave x a few files to visit,
				// and in a chain of single subdirectories the walk would
				// change hands at every level. The second may go.
				q, rec, _ = nextDirRec(lst, next, f.end)
			}
		}
		if q < 0 && i >= lastCut && lst.big != nil && f.rd.end.err == nil &&
			(c == nil || c.rng) && f.end-f.pos >= ownedMinRange {
			// (A read error is reported after the listing's last
			// record, by the frame that visits it: x's.)
			mid = f.pos + (f.end-f.pos)/2
		}
		if q < 0 && mid < 0 {
			continue
		}
		o.mu.Lock()
		if len(o.waiting) == 0 {
			o.want.Store(false)
			o.mu.Unlock()
			return
		}
		// A worker waiting with its own Seq suspended needs a task
		// that comes before it: the head's worker's.
		wi := slices.IndexFunc(o.waiting, func(y *oworker) bool { return !y.nested || x.seg.Head() })
		if wi < 0 {
			o.mu.Unlock()
			break
		}
		fd, err := w.w.pinWant(f.d, 1) // as a frame opened holds it
		if err != nil {
			// Not a deeper frame instead: its part would come before
			// this frame's, given later (see Order above).
			o.mu.Unlock()
			break
		}
		if hookOwned != nil {
			if q >= 0 {
				hookOwned("give")
			} else {
				hookOwned("range")
			}
		}
		y := o.unwaitLocked(wi)
		if !y.nested {
			o.busy++
		}
		f.d.refs.Add(1) // the thief's frame
		seg, cont := o.out.After(x.seg)
		t := &task{seg: seg, f: frame{d: f.d, parentFD: -1, fd: fd, opened: true, phase: phaseVisit}}
		if q >= 0 {
			tl := w.newListing()
			tl.recs = append(tl.recs[:0], rec...)
			tl.lastDir = 0
			t.f.lst, t.f.end = tl, len(tl.recs)
			g.setCut(i, cut{seg: cont, rest: f.end})
			f.end = q
		} else {
			// The thief visits [mid, f.end) of the same listing.
			t.f.lst, t.f.pos, t.f.end = lst, mid, f.end
			if c == nil {
				g.setCut(i, cut{seg: cont, rng: true})
			} else {
				// Another range of this frame was given before: x's
				// output goes on after both, in c.seg, and cont,
				// between the two ranges, stays empty (the thief
				// ends it).
				t.tail = cont
			}
			f.end = mid
		}
		y.task.Store(t)
		o.cond.Broadcast()
		o.mu.Unlock()
		x.misses = 0
		return
	}
	x.backoff = min(ownedBackoff<<min(x.misses, 10), ownedMaxBackoff)
	x.misses++
}

// nextDirRec returns the position of the first record of type directory
// in lst at or after pos and before end, it packed, and the position
// after it; or -1.
func nextDirRec(lst *listing, pos, end int) (q int, rec []byte, next int) {
	if lst.big != nil {
		for i := pos; i <= lst.lastDir && i < end; i++ {
			if e := &lst.big.ents[i]; e.typ == TypeDir {
				de := lst.big.dirent(e)
				rec := make([]byte, packedHead+packedIno, packedHead+packedIno+len(de.name)+1)
				binary.NativeEndian.PutUint16(rec, uint16(len(de.name)))
				rec[2] = byte(TypeDir)
				binary.NativeEndian.PutUint64(rec[packedHead:], de.ino)
				return i, append(append(rec, de.name...), 0), i + 1
			}
		}
		return -1, nil, 0
	}
	for p := pos; p <= lst.lastDir && p < end; {
		de, next := packed(lst.recs, p)
		if de.typ == TypeDir {
			return p, lst.recs[p:next], next
		}
		p = next
	}
	return -1, nil, 0
}
