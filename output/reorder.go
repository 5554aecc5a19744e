package output

import (
	"sync"
	"sync/atomic"

	"github.com/gfind/gfind/walker"
)

// Reorder is the reorder buffer of gfind -s when the visits only print
// (walker.Ordered): the walk's workers each walk subtrees of their own,
// out of the walk's order, and Reorder writes their output in order.
//
// The output is a list of segments in walk order (the walker's Seqs),
// into which After inserts new ones:
//
//	output:   [segment 0] -> [segment 1] -> [segment 2] -> ...
//	          head: written as printed     captured, in order
//
// The worker whose segment is the head prints through its Buffer to the
// Sink as usual. The others' Buffers capture (Buffer.Capture) into chunks of
// about chunk bytes, which Step moves into the segment. When the head's
// worker ends its segment, the finished segments after it are written,
// by one worker at a time, and the first unfinished one becomes the
// head; its worker writes what it captured so far at its next Step, and
// prints straight out from then on. So one goroutine at a time writes
// to the Sink, in the walk's order.
//
// Memory. Chunks are recycled: fresh memory costs more than the copy
// into it (page faults). A segment that is not the head captures up to
// maxHeld bytes; past that (or past maxTotal for every segment not
// written) Step reports it full, and its worker walks segments that come
// before it or waits until it is the head. The head's worker is never
// told so, and the head moves on only when its segment ends, so the
// walk always advances; what is held stays below maxTotal plus about a
// chunk for each segment being captured (a worker's nest a bounded
// number deep), for any tree.
//
// Stop. Everything goes out through the Sink, which writes nothing once
// stopped: after a Stop what was written stays, a prefix of the output,
// and what was captured is dropped.
type Reorder struct {
	sink *Sink
	ws   []*reorderWorker

	// Bounds, fixed before Start (tests make them small).
	chunk    int // a Buffer holds into a chunk until this much is in it
	maxHeld  int // bytes a segment not the head may capture
	maxTotal int // bytes every segment not written may capture

	total atomic.Int64 // bytes captured in chunks not written

	mu      sync.Mutex
	head    *segment // the first segment not written
	writing bool     // a worker is writing finished segments
	chunks  [][]byte // spare chunks
}

// Reorder's bounds.
const (
	reorderChunk = FlushSize
	// reorderSlack is room past a chunk: the walker Steps every few
	// visits, which print less than this as a rule; a chunk that
	// overflows is grown, a copy.
	reorderSlack = 16 << 10
	// reorderMaxHeld is the bound on a waiting segment: big enough for
	// the workers to stay busy, small enough that the chunks stay
	// recycled rather than fresh.
	reorderMaxHeld = 2 << 20
	// reorderMaxTotal bounds every waiting segment's output together:
	// a deep tree can leave one finished segment waiting per level of
	// a worker's path, each up to reorderMaxHeld.
	reorderMaxTotal = 16 * reorderMaxHeld
)

// segment is a stretch of the output: a walker.Seq.
type segment struct {
	next   *segment // guarded by Reorder.mu
	chunks [][]byte // captured output: its worker's until done, then Reorder.mu's
	held   int      // bytes in chunks, its worker's
	done   bool     // its worker has ended it (Reorder.mu)
	// head says that every segment before it has been written: its
	// worker prints straight out.
	head atomic.Bool
}

// Head reports whether s is the head: walker.Seq.
func (s *segment) Head() bool { return s.head.Load() }

// reorderWorker is the state of one worker, used by its goroutine only.
type reorderWorker struct {
	b       *Buffer
	seg     *segment   // current; nil between segments
	stack   []*segment // suspended by a Begin, innermost last
	holding bool       // b holds into a chunk of seg
	spare   [][]byte   // chunks kept at hand
}

var _ walker.Ordered = (*Reorder)(nil)

// NewReorder returns the reorder buffer for a walk whose worker i
// prints to bufs[i]; the Buffers are of one Sink, and empty.
func NewReorder(bufs []*Buffer) *Reorder {
	r := &Reorder{chunk: reorderChunk, maxHeld: reorderMaxHeld, maxTotal: reorderMaxTotal}
	for _, b := range bufs {
		r.sink = b.s
		r.ws = append(r.ws, &reorderWorker{b: b})
	}
	return r
}

// Start returns the first segment, the head (walker.Ordered).
func (r *Reorder) Start() walker.Seq {
	s := &segment{}
	s.head.Store(true)
	r.head = s
	return s
}

// After inserts two new segments right after s (walker.Ordered).
func (r *Reorder) After(s walker.Seq) (first, second walker.Seq) {
	p := s.(*segment)
	a, b := &segment{}, &segment{}
	r.mu.Lock()
	a.next, b.next, p.next = b, p.next, a
	r.mu.Unlock()
	return a, b
}

// Begin makes s worker's current segment (walker.Ordered).
func (r *Reorder) Begin(worker int, s walker.Seq) {
	w := r.ws[worker]
	if w.seg != nil {
		r.release(w)
		w.b.Flush()
		w.stack = append(w.stack, w.seg)
	}
	w.seg = s.(*segment)
	if !w.seg.head.Load() {
		w.b.Capture(r.takeChunk(w))
		w.holding = true
	}
}

// End ends worker's current segment, writes it and the finished ones
// after it if it is the head, and makes the one it suspended current
// (walker.Ordered).
func (r *Reorder) End(worker int) (moved bool) {
	w := r.ws[worker]
	s := w.seg
	r.release(w)
	w.b.Flush() // what it printed as the head (then it has no chunks)
	r.mu.Lock()
	s.done = true
	moved = r.advanceLocked()
	r.mu.Unlock()
	w.seg = nil
	if n := len(w.stack); n > 0 {
		w.seg = w.stack[n-1]
		w.stack[n-1] = nil
		w.stack = w.stack[:n-1]
	}
	return moved
}

// Step moves what worker's Buffer holds into its segment once it fills
// a chunk, or out once the segment is the head, and says whether the
// segment is full (walker.Ordered).
func (r *Reorder) Step(worker int) (full bool) {
	w := r.ws[worker]
	s := w.seg
	if w.holding {
		if !s.head.Load() && w.b.Len() < r.chunk {
			return false
		}
		r.release(w)
	}
	if s.head.Load() {
		if len(s.chunks) > 0 {
			r.writeChunks(w)
		}
		return false
	}
	if s.held >= r.maxHeld || r.total.Load() >= int64(r.maxTotal) {
		return true
	}
	w.b.Capture(r.takeChunk(w))
	w.holding = true
	return false
}

// release ends w's Hold, if any, and keeps what it captured in w's
// segment.
func (r *Reorder) release(w *reorderWorker) {
	if !w.holding {
		return
	}
	w.holding = false
	c := w.b.Release()
	if len(c) == 0 {
		r.putChunk(w, c)
		return
	}
	s := w.seg
	s.chunks = append(s.chunks, c)
	s.held += len(c)
	r.total.Add(int64(len(c)))
}

// writeChunks writes what w's segment, the head, captured.
func (r *Reorder) writeChunks(w *reorderWorker) {
	s := w.seg
	for i, c := range s.chunks {
		r.sink.WriteRecords(c)
		r.total.Add(-int64(len(c)))
		r.putChunk(w, c)
		s.chunks[i] = nil
	}
	s.chunks, s.held = s.chunks[:0], 0
}

// advanceLocked writes the finished segments from the head on, and makes
// the first unfinished one the head; it reports whether the head moved.
// r.mu is held, and let go while writing: one worker writes at a time.
func (r *Reorder) advanceLocked() (moved bool) {
	if r.writing {
		return false // the writer will get to it
	}
	r.writing = true
	for r.head != nil && r.head.done {
		h := r.head
		chunks := h.chunks
		h.chunks = nil
		if len(chunks) > 0 {
			r.mu.Unlock()
			for _, c := range chunks {
				r.sink.WriteRecords(c)
				r.total.Add(-int64(len(c)))
			}
			r.mu.Lock()
			for _, c := range chunks {
				r.keepChunkLocked(c)
			}
		}
		r.head = h.next
		moved = true
	}
	r.writing = false
	if r.head != nil {
		r.head.head.Store(true)
	}
	return moved
}

// takeChunk returns an empty chunk for w's Buffer to hold into.
func (r *Reorder) takeChunk(w *reorderWorker) []byte {
	if n := len(w.spare); n > 0 {
		c := w.spare[n-1]
		w.spare[n-1] = nil
		w.spare = w.spare[:n-1]
		return c
	}
	r.mu.Lock()
	n := len(r.chunks)
	if n > 0 {
		c := r.chunks[n-1]
		r.chunks[n-1] = nil
		r.chunks = r.chunks[:n-1]
		r.mu.Unlock()
		return c
	}
	r.mu.Unlock()
	return make([]byte, 0, r.chunk+reorderSlack)
}

// putChunk keeps c for reuse, at hand for w's next chunks first.
func (r *Reorder) putChunk(w *reorderWorker, c []byte) {
	if len(w.spare) < 4 && r.keepable(c) {
		w.spare = append(w.spare, c[:0])
		return
	}
	r.mu.Lock()
	r.keepChunkLocked(c)
	r.mu.Unlock()
}

// keepChunkLocked keeps c among the shared spares, if it is worth it.
// r.mu is held.
func (r *Reorder) keepChunkLocked(c []byte) {
	if r.keepable(c) {
		r.chunks = append(r.chunks, c[:0])
	}
}

// keepable reports whether c is worth keeping: not grown past about
// twice a chunk (by a huge record).
func (r *Reorder) keepable(c []byte) bool { return cap(c) <= 2*r.chunk+reorderSlack }
