package walker

import (
	"encoding/binary"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// The sorted walk when the visits' only effect is output
// (Options.Ordered): subtrees owned by workers.
//
// Each worker walks its own part of the tree as the one-worker sorted
// walk does (-j1 -s: a directory is read, sorted and visited in one go,
// and closed when its subtree is done), and writes what it prints either
// straight to the output, when its part is the next to be written, or to
// memory, in 64 KiB chunks, to be written in order later:
//
//	output:   [segment 0] -> [segment 1] -> [segment 2] -> ...
//	          head: written as printed     captured, in order
//
// A worker with nothing to do asks for work (owned.want); a busy worker
// gives away, at its next directory, the first subdirectory ahead in its
// shallowest directory that has one (offer): the thief walks that
// subdirectory in a new segment, and the victim skips it and goes on in
// another new segment, both inserted after the victim's current one. So
// the pieces given away are big (the shallowest first) and few, and each
// directory's read, visit and close stay close in time on one core. A
// directory read in several calls (a big one, say 100,000 files) is
// shared the same way by its records: the thief visits the second half
// of what is left of it, and the victim stops at the half.
//
// Why not the read-ahead of sorted_linux.go: there, a directory is read
// by one goroutine and visited or closed by another, about 40
// directories later; on 2 cores that cost 20-25% over the unsorted walk
// on a 1,000,000-entry tree, and this 14-15%. Two halves of that tree
// walked by two -j1 -s processes at once cost 5-7%; most of the rest is
// the captured output (about half of it is captured: fresh memory costs
// ~19µs a page on the development VM, so chunks are recycled and the
// captured output is bounded) and the sort.
//
// Memory: a worker whose segment has captured ownedMaxHeld bytes nests:
// it suspends its walk and walks, meanwhile, subdirectories given by the
// head's worker, which come before its segment, until its segment is the
// head (nest). The head's worker never waits, so the walk always
// advances; past ownedMaxNest levels a worker just waits.

// segment is a stretch of the output, made by one worker.
type segment struct {
	next   *segment // guarded by owned.mu
	chunks [][]byte // captured output: the owner's until done, then owned.mu's
	held   int      // bytes in chunks
	done   bool     // the owner has finished it (owned.mu)
	// head says that every segment before it has been written: its
	// owner writes its output directly.
	head atomic.Bool
}

// Owned-walk limits; variables for tests.
var (
	ownedChunk = 64 << 10 // captured output is kept in chunks of this
	// ownedMaxHeld bounds the output a segment captures before its
	// worker nests. 1-4 MiB measured alike on a 1,000,000-entry tree
	// (-s at 1.14-1.15x the unsorted walk), 32 MiB 1.17x: the chunks'
	// first use is what costs.
	ownedMaxHeld = 2 << 20
	// ownedMaxNest bounds the tasks a worker suspends (nest).
	ownedMaxNest = 16
	// ownedMinRange is the fewest records left to visit in a big
	// listing for offer to give half of them away.
	ownedMinRange = 4096
)

const (
	ownedSlack = 16 << 10 // room past ownedChunk in a chunk
	// ownedBackoff is how many steps a worker that had nothing to give
	// waits before it looks again: with 64 the workers waited 10 times
	// as long for work (360 against 20 ms in all, on 1,000,000 entries).
	// It doubles while there is still nothing to give, up to
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
// nested task ("nest"), each wait past ownedMaxNest ("wait"), each
// worker with nothing to do that asks for a task ("ask"), and each share
// of a sort handed to one ("sort").
var hookOwned func(event string)

// owned is the state shared by the workers of an owned walk.
type owned struct {
	w   *walk
	out Ordered
	// mu is also every worker's sorter.mu: a directory given away is a
	// frame of two walks, whose node counts they share.
	mu      sync.Mutex
	cond    sync.Cond
	head    *segment // the first segment not written
	writing bool     // a worker is writing finished segments
	want    atomic.Bool
	waiting []*oworker  // workers waiting for a task
	busy    int         // workers with a task (or one handed over)
	over    atomic.Bool // the walk is over
	chunks  [][]byte    // spare chunks
	spares              // every walk's, as mu is
}

// oworker is one worker of an owned walk.
type oworker struct {
	o       *owned
	id      int
	r       *sorter              // its walk: frames, Entry, path buffer, spare nodes
	k       *sreader             // its read scratch space
	seg     *segment             // the segment its output goes to
	holding bool                 // its output is captured (seg is not the head)
	task    atomic.Pointer[task] // handed over by a victim
	queued  bool                 // in o.waiting
	nested  bool                 // waiting in nest, not in nextTask
	levels  []*sorter            // the walks of nested tasks (nest)
	steps   uint32
	backoff int // steps before offer looks again
	misses  int // offer's looks in a row that found nothing
	spare   [][]byte
}

// task is a part of a walk given away, and its segment: a frame of the
// victim's directory holding only a subdirectory's record, or a frame
// sharing the victim's big listing to visit a range of its records.
type task struct {
	f   frame
	seg *segment
	// job, if set, is the task instead: a share of the sort of a big
	// listing (help), with no output.
	job func()
}

// runOwned walks roots in sorted order with n workers owning subtrees.
func runOwned(w *walk, roots *rootSource, n int) {
	o := &owned{w: w, out: w.opt.Ordered, busy: n}
	o.cond.L = &o.mu
	o.head = &segment{}
	o.head.head.Store(true)
	ws := make([]*oworker, n)
	for i := range ws {
		x := &oworker{o: o, id: i, k: newSReader(w, i)}
		x.r = newOwnedSorter(o, i, x)
		ws[i] = x
	}
	ws[0].r.roots = roots
	var wg sync.WaitGroup
	for _, x := range ws[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.run(nil)
		}()
	}
	ws[0].run(o.head)
	wg.Wait()
}

// newOwnedSorter returns a one-goroutine sorted walk for worker id.
func newOwnedSorter(o *owned, id int, x *oworker) *sorter {
	r := &sorter{w: o.w, mu: &o.mu, own: x, spares: &o.spares}
	r.work.L = &o.mu
	r.ew.init(o.w, id)
	r.ew.e.lazy = r
	return r
}

// run is one worker: the starting points for the first (seg is set),
// then the tasks it is given until the walk is over.
func (x *oworker) run(seg *segment) {
	if seg != nil {
		x.begin(seg)
		x.r.emit(x.k)
		x.end()
	}
	for {
		t := x.o.nextTask(x)
		if t == nil {
			return
		}
		if t.job != nil {
			t.job()
			continue
		}
		x.walk(t)
	}
}

// walk walks t with x.r, in t's segment.
func (x *oworker) walk(t *task) {
	r := x.r
	r.frames = append(r.frames[:0], t.f)
	r.ew.pb.cur = nil
	r.ew.pb.setDir(&t.f.n.d)
	x.begin(t.seg)
	r.emit(x.k)
	x.end()
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
// goroutine woken from a futex took ~100µs to run again on the
// development VM (-s went from 1.18x to 1.14x the unsorted walk's time),
// and its core is idle anyway (no more workers than Ps). It spins with
// sched_yield, not runtime.Gosched: when other processes leave fewer
// CPUs than Ps, the spinning thread lets the working ones run (with a
// CPU hog beside it, -s took 1.32x the unsorted walk's time spinning on
// Gosched, 1.16x-1.30x on sched_yield, 1.19x-1.23x not spinning).
func (o *owned) sleep(x *oworker, seg *segment) {
	ready := func() bool {
		return x.task.Load() != nil || seg != nil && seg.head.Load() || o.over.Load()
	}
	o.mu.Unlock()
	start := time.Now()
	for i := 1; !ready(); i++ {
		if i%16 == 0 && time.Since(start) > ownedSpin {
			break
		}
		unix.RawSyscall(unix.SYS_SCHED_YIELD, 0, 0, 0)
	}
	o.mu.Lock()
	if !ready() {
		o.cond.Wait()
	}
}

// begin starts x's output in seg.
func (x *oworker) begin(seg *segment) {
	x.seg = seg
	if !seg.head.Load() {
		x.o.out.Hold(x.id, x.takeChunk())
		x.holding = true
	}
}

// end finishes x's segment, and writes it and those after it that are
// finished if it is the head.
func (x *oworker) end() {
	o := x.o
	s := x.seg
	if x.holding {
		if s.head.Load() {
			x.writeHeld()
		} else {
			x.keep(o.out.Release(x.id))
			x.holding = false
		}
	}
	o.out.Flush(x.id) // what x printed as the head
	o.mu.Lock()
	s.done = true
	o.advanceLocked()
	o.mu.Unlock()
	x.seg = nil
}

// keep adds c to the captured output of x's segment.
func (x *oworker) keep(c []byte) {
	if len(c) == 0 {
		x.putChunk(c)
		return
	}
	x.seg.chunks = append(x.seg.chunks, c)
	x.seg.held += len(c)
}

// advanceLocked writes the finished segments from the head on, and
// makes the first unfinished one the head. o.mu is held, and let go
// while writing: one worker writes at a time.
func (o *owned) advanceLocked() {
	if o.writing {
		return // the writer will get to it
	}
	o.writing = true
	for o.head != nil && o.head.done {
		h := o.head
		chunks := h.chunks
		h.chunks = nil
		if len(chunks) > 0 {
			o.mu.Unlock()
			for _, c := range chunks {
				if !o.w.stop.Load() {
					o.out.Write(c)
				}
			}
			o.mu.Lock()
			for _, c := range chunks {
				o.keepChunkLocked(c)
			}
		}
		o.head = h.next
	}
	o.writing = false
	if o.head != nil {
		o.head.head.Store(true)
	}
	o.cond.Broadcast() // workers waiting for their segment to be the head
}

// writeHeld, once x's segment is the head, writes what x captured, and
// x's output goes straight out from then on.
func (x *oworker) writeHeld() {
	x.keep(x.o.out.Release(x.id))
	x.holding = false
	x.writeChunks()
}

// writeChunks writes the captured output of x's segment, the head.
func (x *oworker) writeChunks() {
	s := x.seg
	for i, b := range s.chunks {
		if !x.o.w.stop.Load() {
			// (After a Stop, made ahead or by the head's worker,
			// only what was written stays: a prefix of the output.)
			x.o.out.Write(b)
		}
		x.putChunk(b)
		s.chunks[i] = nil
	}
	s.chunks, s.held = s.chunks[:0], 0
}

// takeChunk returns an empty chunk for captured output.
func (x *oworker) takeChunk() []byte {
	if c, ok := popLast(&x.spare); ok {
		return c
	}
	o := x.o
	o.mu.Lock()
	c, ok := popLast(&o.chunks)
	o.mu.Unlock()
	if ok {
		return c
	}
	return make([]byte, 0, ownedChunk+ownedSlack)
}

// putChunk keeps c for reuse: fresh memory cost more than the copy into
// it (page faults).
func (x *oworker) putChunk(c []byte) {
	if len(x.spare) < 4 && cap(c) <= 2*ownedChunk {
		x.spare = append(x.spare, c[:0])
		return
	}
	o := x.o
	o.mu.Lock()
	o.keepChunkLocked(c)
	o.mu.Unlock()
}

// keepChunkLocked keeps c in the shared spares, unless it grew past
// twice a chunk (a huge record). o.mu is held.
func (o *owned) keepChunkLocked(c []byte) {
	if cap(c) <= 2*ownedChunk {
		o.chunks = append(o.chunks, c[:0])
	}
}

// entry is called by x's walk after each visit that does not descend:
// every 16 it steps. (16 visits print less than ownedSlack, as a rule:
// a chunk that overflows is copied.)
func (x *oworker) entry() {
	if x.steps++; x.steps%16 == 0 {
		x.step()
	}
}

// step is called by x's walk between directories, and every 16
// entries: it moves captured output to a chunk, or out once x's segment
// is the head, and gives work away if asked.
func (x *oworker) step() {
	if x.holding {
		o := x.o
		if x.seg.head.Load() {
			x.writeHeld()
		} else if o.out.Held(x.id) >= ownedChunk {
			x.keep(o.out.Release(x.id))
			x.holding = false
			if x.seg.held >= ownedMaxHeld {
				x.nest()
			}
			if x.seg.head.Load() {
				x.writeChunks()
			} else {
				o.out.Hold(x.id, x.takeChunk())
				x.holding = true
			}
		}
	}
	if x.o.want.Load() {
		x.offer()
	}
}

// nest, when x has captured as much output as it may, walks tasks that
// come before x's segment (given by the head's worker) until x's
// segment is the head; x's walk is suspended meanwhile. Past
// ownedMaxNest levels it just waits.
func (x *oworker) nest() {
	if len(x.levels) >= ownedMaxNest {
		if hookOwned != nil {
			hookOwned("wait")
		}
		x.wait()
		return
	}
	o := x.o
	seg, r := x.seg, x.r
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
			x.levels = append(x.levels, newOwnedSorter(o, x.id, x))
		} else {
			x.levels = x.levels[:depth+1]
		}
		x.r = x.levels[depth]
		x.walk(t)
		x.levels = x.levels[:depth]
		x.r, x.seg = r, seg
	}
}

// nestedTask waits for a task for x, whose segment seg is not the head
// and has captured all it may: one that comes before seg, or nil once
// seg is the head.
func (o *owned) nestedTask(x *oworker, seg *segment) *task {
	o.mu.Lock()
	defer o.mu.Unlock()
	for {
		if t := x.task.Swap(nil); t != nil {
			return t
		}
		if seg.head.Load() {
			if x.queued {
				i := slices.Index(o.waiting, x)
				o.waiting = slices.Delete(o.waiting, i, i+1)
				x.queued = false
				if len(o.waiting) == 0 {
					o.want.Store(false)
				}
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

// wait waits until x's segment is the head: x has captured as much
// output as it may.
func (x *oworker) wait() {
	o := x.o
	o.mu.Lock()
	for !x.seg.head.Load() {
		o.cond.Wait()
	}
	o.mu.Unlock()
}

// passCut, at the record of f given away, skips it and goes on in the
// segment that follows the thief's.
func (x *oworker) passCut(f *frame) {
	if f.lst.big == nil {
		_, _, f.pos = packed(f.lst.recs, f.pos)
	} else {
		f.pos++
	}
	x.switchTo(f)
}

// switchTo ends x's segment and goes on in f's cutSeg.
func (x *oworker) switchTo(f *frame) {
	next := f.cutSeg
	f.cutSeg = nil
	x.end()
	x.begin(next)
}

// offer gives a worker waiting for work a part of x's walk, from x's
// shallowest directory that has one to give: the first subdirectory
// ahead that has not been given away (the second in x's current
// directory), or else, in a directory read in several calls (listing.big),
// the second half of the records x has still to visit there. The thief's
// frame shares x's node and descriptor (pinWant); x skips the record
// when it gets there (passCut), or stops at the half (frame.end) and goes
// on after the thief's segment.
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
	r := x.r
	if r.w.stop.Load() {
		return
	}
	lastCut := -1 // the deepest frame with a cut pending
	for i := range r.frames {
		if r.frames[i].cutSeg != nil {
			lastCut = i
		}
	}
	for i := range r.frames {
		f := &r.frames[i]
		lst := f.lst
		if f.phase != phaseVisit || lst == nil || f.lazy || f.n.d.lost {
			continue
		}
		q, rec, mid := -1, []byte(nil), -1
		if f.cutSeg == nil && lst.lastDir >= f.pos {
			var next int
			q, rec, next = nextDirRec(lst, f.pos, f.end)
			if q >= 0 && i == len(r.frames)-1 {
				// The top frame's first subdirectory ahead is x's own next
				// work: giving it away would leave x a few files to visit,
				// and in a chain of single subdirectories the walk would
				// change hands at every level. The second may go.
				q, rec, _ = nextDirRec(lst, next, f.end)
			}
		}
		if q < 0 && i >= lastCut && lst.big != nil && lst.err == nil &&
			(f.cutSeg == nil || f.cut == f.end) && f.end-f.pos >= ownedMinRange {
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
		// A worker waiting with its own segment suspended needs a task
		// that comes before it: the head's worker's.
		wi := slices.IndexFunc(o.waiting, func(y *oworker) bool { return !y.nested || x.seg.head.Load() })
		if wi < 0 {
			o.mu.Unlock()
			break
		}
		fd, err := r.w.pinWant(&f.n.d, 1) // as a frame entered holds it
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
		y := o.waiting[wi]
		o.waiting = slices.Delete(o.waiting, wi, wi+1)
		y.queued = false
		if len(o.waiting) == 0 {
			o.want.Store(false)
		}
		if !y.nested {
			o.busy++
		}
		f.n.refs++ // the thief's frame
		seg := &segment{}
		t := &task{seg: seg, f: frame{n: f.n, parentFD: -1, fd: fd, opened: true, phase: phaseVisit}}
		if q >= 0 {
			tl, ok := popLast(&r.free)
			if !ok {
				tl = new(listing)
			}
			tl.recs = append(tl.recs[:0], rec...)
			tl.lastDir = 0
			t.f.lst, t.f.end = tl, len(tl.recs)
			cont := &segment{}
			seg.next, cont.next, x.seg.next = cont, x.seg.next, seg
			f.cut, f.cutSeg = q, cont
		} else {
			// The thief visits [mid, f.end) of the same listing.
			t.f.lst, t.f.pos, t.f.end = lst, mid, f.end
			if f.cutSeg == nil {
				cont := &segment{}
				seg.next, cont.next, x.seg.next = cont, x.seg.next, seg
				f.cutSeg = cont
			} else {
				// Another range of this frame was given before: x's
				// output goes on after both, in f.cutSeg.
				seg.next, x.seg.next = x.seg.next, seg
			}
			f.cut, f.end = mid, mid
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

// help runs job on a worker waiting for work, if one is, and returns a
// function that waits until job has run; nil if none is waiting. Only a
// worker whose own walk is not suspended (nest) is asked: the job is not
// a part of the walk before its segment.
func (x *oworker) help(job func()) (wait func()) {
	o := x.o
	if !o.want.Load() || x.r.w.stop.Load() {
		return nil
	}
	o.mu.Lock()
	i := slices.IndexFunc(o.waiting, func(y *oworker) bool { return !y.nested })
	if i < 0 {
		o.mu.Unlock()
		return nil
	}
	if hookOwned != nil {
		hookOwned("sort")
	}
	y := o.waiting[i]
	o.waiting = slices.Delete(o.waiting, i, i+1)
	y.queued = false
	if len(o.waiting) == 0 {
		o.want.Store(false)
	}
	o.busy++
	var done sync.WaitGroup
	done.Add(1)
	y.task.Store(&task{job: func() {
		defer done.Done()
		job()
	}})
	o.cond.Broadcast()
	o.mu.Unlock()
	return done.Wait
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
		de, _, next := packed(lst.recs, p)
		if de.typ == TypeDir {
			return p, lst.recs[p:next], next
		}
		p = next
	}
	return -1, nil, 0
}
