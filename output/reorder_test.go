package output

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gfind/gfind/walker"
)

// TestReorderScript runs Reorder through scripts of the calls a walk
// makes, one goroutine playing every worker, and checks what reaches the
// Sink at each point. A script's lines:
//
//	start S        S := Start()
//	a S X Y        X, Y := After(S)
//	b W S          Begin(W, S)
//	e W [moved]    End(W), which must report the head moved, or not
//	p W text       worker W prints the record "text\n"
//	s W [full]     Step(W), which must report full, or not
//	h S, !h S      S must be the head, must not be
//	o words...     the Sink has received these records, in this order
//	stop           the Sink is stopped
func TestReorderScript(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		chunk, maxHeld, maxTotal int // 0: Reorder's own
		script                   string
	}{
		{name: "head prints straight", script: `
			start S; b 0 S; p 0 a; p 0 b; s 0; h S
			e 0 moved; o a b`},
		{name: "the thief's Seq before the rest", script: `
			start S; b 0 S; a S T R
			b 1 T; p 1 t1; s 1; p 0 s1; !h T; !h R
			e 0 moved; h T; !h R; o s1
			b 0 R; p 0 r1; s 0
			p 1 t2; s 1; o s1 t1 t2
			p 1 t3; e 1 moved; h R; o s1 t1 t2 t3
			s 0; o s1 t1 t2 t3 r1
			p 0 r2; e 0 moved; o s1 t1 t2 t3 r1 r2`},
		{name: "Seqs made after others", script: `
			start S; b 0 S; a S T1 R1; a S T2 R2; a T1 U V
			b 1 T1; p 1 t1; b 2 T2; p 2 t2; b 3 U; p 3 u
			e 1; e 3; e 2
			p 0 s; e 0 moved; o s t2; h R2
			b 0 R2; p 0 r2; e 0 moved; o s t2 r2 t1 u; h V
			b 0 V; p 0 v; e 0 moved; h R1
			b 0 R1; p 0 r1; e 0 moved; o s t2 r2 t1 u v r1`},
		{name: "the head's End writes what it captured", script: `
			start S; b 0 S; a S T R; b 1 T; p 1 t1
			e 0 moved; h T; p 1 t2; o
			e 1 moved; o t1 t2
			b 0 R; e 0 moved; o t1 t2`},
		{name: "bound per Seq", chunk: 4, maxHeld: 8, script: `
			start S; b 0 S; a S T R; b 1 T
			p 1 x1; s 1; p 1 x2; s 1; p 1 x3; s 1; p 1 x4; s 1 full; s 1 full
			p 0 s; s 0; p 0 s; s 0; p 0 s; s 0
			e 0 moved; o s s s; h T
			s 1; o s s s x1 x2 x3 x4
			p 1 x5; e 1 moved; o s s s x1 x2 x3 x4 x5
			b 0 R; e 0 moved`},
		{name: "bound for all Seqs", chunk: 4, maxHeld: 100, maxTotal: 8, script: `
			start S; b 0 S; a S T R; a T U V
			b 1 T; b 2 U
			p 1 a1; p 1 a2; s 1
			p 2 b1; p 2 b2; s 2 full; s 2 full
			e 0 moved; h T; s 1; o a1 a2
			s 2; p 2 b3
			e 1 moved; e 2 moved
			b 0 V; e 0 moved; o a1 a2 b1 b2 b3
			b 0 R; e 0 moved`},
		{name: "a full Seq suspended for one before it", chunk: 4, maxHeld: 4, script: `
			start S; b 0 S; a S T R; b 1 T
			p 1 t1; p 1 t2; s 1 full
			a S U V; b 1 U; p 1 u1; s 1; e 1
			s 1 full; p 0 s1
			e 0 moved; o s1 u1; h V
			b 0 V; p 0 v1; e 0 moved; h T; s 1; o s1 u1 v1 t1 t2
			p 1 t3; e 1 moved; o s1 u1 v1 t1 t2 t3
			b 0 R; e 0 moved`},
		{name: "a Stop leaves what was written", script: `
			start S; b 0 S; a S T R; b 1 T
			p 1 t1; p 0 s1; e 0 moved; o s1
			stop; s 1; p 1 t2; e 1 moved
			b 0 R; p 0 r1; e 0 moved; o s1`},
		{name: "a Stop drops what was captured", script: `
			start S; b 0 S; a S T R; b 1 T; p 1 t1; e 1
			b 2 R; p 2 r1; e 2
			p 0 s1; stop; e 0 moved; o`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _, contents := newFileSink(t, WithTTY(false))
			bufs := make([]*Buffer, 4)
			for i := range bufs {
				bufs[i] = s.NewBuffer()
			}
			r := NewReorder(bufs)
			if tc.chunk > 0 {
				r.chunk = tc.chunk
			}
			if tc.maxHeld > 0 {
				r.maxHeld = tc.maxHeld
			}
			if tc.maxTotal > 0 {
				r.maxTotal = tc.maxTotal
			}
			seqs := map[string]walker.Seq{}
			seq := func(name string) walker.Seq {
				q, ok := seqs[name]
				if !ok {
					t.Fatalf("no Seq %s", name)
				}
				return q
			}
			for line := range strings.FieldsFuncSeq(tc.script, func(c rune) bool { return c == ';' || c == '\n' }) {
				f := strings.Fields(line)
				if len(f) == 0 {
					continue
				}
				w := -1
				if len(f) > 1 && (f[0] == "b" || f[0] == "e" || f[0] == "p" || f[0] == "s") {
					fmt.Sscan(f[1], &w)
				}
				switch f[0] {
				case "start":
					seqs[f[1]] = r.Start()
				case "a":
					seqs[f[2]], seqs[f[3]] = r.After(seq(f[1]))
				case "b":
					r.Begin(w, seq(f[2]))
				case "e":
					if moved := r.End(w); len(f) > 2 && !moved {
						t.Errorf("%s: the head did not move", line)
					} else if len(f) == 2 && moved {
						t.Errorf("%s: the head moved", line)
					}
				case "p":
					bufs[w].Print([]byte(f[2]), '\n')
				case "s":
					if full := r.Step(w); full != (len(f) > 2) {
						t.Errorf("%s: full = %v", line, full)
					}
				case "h", "!h":
					if h := seq(f[1]).Head(); h != (f[0] == "h") {
						t.Errorf("%s: Head() = %v", line, h)
					}
				case "o":
					if got, want := strings.Fields(contents()), f[1:]; !slices.Equal(got, want) {
						t.Errorf("%s: output %q", line, got)
					}
				case "stop":
					s.Stop()
				default:
					t.Fatalf("bad script line %q", line)
				}
			}
			if r.head != nil {
				t.Errorf("a Seq not ended at the end of the script")
			}
			if n := r.total.Load(); n != 0 {
				t.Errorf("%d bytes still held", n)
			}
		})
	}
}

// TestReorderConcurrent has workers on goroutines walk a made-up tree
// as the owned walk does: each prints records in its Seq, gives a part
// of its work away now and then (After: the thief's Seq, then its own
// rest), and when its Seq is full walks a Seq given away before it, or
// waits for its Seq to be the head. The Sink must receive every record
// in the order of the Seqs, the captured output must stay within the
// bounds, and after a Stop what was written must be a prefix of that.
func TestReorderConcurrent(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	for _, tc := range []struct {
		name                     string
		workers                  int
		chunk, maxHeld, maxTotal int
		stopAt                   int // a worker stops the Sink after this many records in all; 0 never
	}{
		{"2 workers", 2, 64, 256, 1024, 0},
		{"8 workers", 8, 64, 256, 1024, 0},
		{"8 workers, bound for all", 8, 32, 1 << 20, 200, 0},
		{"own bounds", 4, reorderChunk, reorderMaxHeld, reorderMaxTotal, 0},
		{"stop early", 4, 64, 256, 1024, 6000},
		{"stop late", 4, 64, 256, 1024, 15000},
	} {
		for seed := range uint64(4) {
			t.Run(fmt.Sprintf("%s/seed%d", tc.name, seed), func(t *testing.T) {
				runReorder(t, tc.workers, tc.chunk, tc.maxHeld, tc.maxTotal, tc.stopAt, seed)
			})
		}
	}
}

// reorderModel is the order of a concurrent test's Seqs, and what each
// printed, kept beside the Reorder: the output must be their records in
// the model's order.
type reorderModel struct {
	r     *Reorder
	mu    sync.Mutex
	cond  sync.Cond
	order []*modelSeq
	given []*modelSeq // Seqs given away, not taken yet
	left  int         // Seqs not ended
}

// modelSeq is a Seq of the model.
type modelSeq struct {
	s    walker.Seq
	recs []string  // printed in it
	work int       // records left to print in it
	then *modelSeq // the Seq its worker goes on in after it (a cut)
}

// after makes the Seqs after q: one given away with work records, and
// the one q's worker goes on in after q, with rest.
func (m *reorderModel) after(q *modelSeq, work, rest int) {
	a, b := m.r.After(q.s)
	m.mu.Lock()
	first, second := &modelSeq{s: a, work: work}, &modelSeq{s: b, work: rest, then: q.then}
	q.then = second
	i := slices.Index(m.order, q)
	m.order = slices.Insert(m.order, i+1, first, second)
	m.given = append(m.given, first)
	m.left += 2
	m.cond.Broadcast()
	m.mu.Unlock()
}

// take waits for a Seq given away and returns it; for a worker whose
// Seq q is full, one before q, or nil once q is the head; for an idle
// worker (q nil), any, or nil once every Seq has ended.
func (m *reorderModel) take(q *modelSeq) *modelSeq {
	m.mu.Lock()
	defer m.mu.Unlock()
	for {
		for i, k := range m.given {
			if q == nil || slices.Index(m.order, k) < slices.Index(m.order, q) {
				m.given = slices.Delete(m.given, i, i+1)
				return k
			}
		}
		if q != nil && q.s.Head() || q == nil && m.left == 0 {
			return nil
		}
		m.cond.Wait()
	}
}

// end ends worker w's Seq.
func (m *reorderModel) end(w int) {
	m.r.End(w)
	m.mu.Lock()
	m.left--
	m.cond.Broadcast() // the head may have moved
	m.mu.Unlock()
}

func runReorder(t *testing.T, workers, chunk, maxHeld, maxTotal, stopAt int, seed uint64) {
	s, diag, contents := newFileSink(t, WithTTY(false))
	bufs := make([]*Buffer, workers)
	for i := range bufs {
		bufs[i] = s.NewBuffer()
	}
	r := NewReorder(bufs)
	r.chunk, r.maxHeld, r.maxTotal = chunk, maxHeld, maxTotal
	m := &reorderModel{r: r, left: 1}
	m.cond.L = &m.mu
	root := &modelSeq{s: r.Start(), work: 20000}
	m.order = []*modelSeq{root}
	const stepEvery, maxRec = 4, len("w7-ffffffff-20000\n")
	var (
		printed, active, maxActive atomic.Int64
		stopSeen                   atomic.Int64
		maxHeldSeen                atomic.Int64
		failed                     atomic.Bool
	)
	fail := func(format string, args ...any) {
		if failed.CompareAndSwap(false, true) {
			t.Errorf(format, args...)
		}
	}
	observe := func(v *atomic.Int64, n int64) {
		for old := v.Load(); n > old && !v.CompareAndSwap(old, n); old = v.Load() {
		}
	}
	// walk walks q and the Seqs it goes on in.
	var walk func(w int, rng *rand.Rand, q *modelSeq)
	walk = func(w int, rng *rand.Rand, q *modelSeq) {
		for ; q != nil; q = q.then {
			// Counted from before Begin to after End, so that a Seq
			// whose records another worker's observation sees held
			// is always counted as active.
			observe(&maxActive, active.Add(1))
			r.Begin(w, q.s)
			for q.work > 0 && !failed.Load() {
				if n := printed.Add(1); stopAt > 0 && n == int64(stopAt) {
					s.Stop()
					// Other workers may have counted (and printed)
					// records past stopAt before the Stop took
					// effect; none counted after it returned may
					// be written.
					stopSeen.Store(printed.Load())
				}
				rec := fmt.Sprintf("w%d-%x-%d", w, rng.Uint32(), len(q.recs))
				q.recs = append(q.recs, rec)
				bufs[w].Print([]byte(rec), '\n')
				if q.work--; len(q.recs)%stepEvery != 0 {
					continue
				}
				for {
					head := q.s.Head() // before: Head stays true
					if !r.Step(w) {
						break
					}
					if head {
						fail("Step reports the head full")
					}
					observe(&maxHeldSeen, r.total.Load())
					if k := m.take(q); k != nil {
						walk(w, rng, k)
					}
				}
				observe(&maxHeldSeen, r.total.Load())
				if q.work > 8 && rng.IntN(4) == 0 {
					// Give part of what is left away, and go on in
					// another Seq after it: as offer and passCut.
					give, keep := 1+rng.IntN(q.work/2), rng.IntN(q.work/2)
					m.after(q, give, q.work-give-keep)
					q.work = keep
				}
			}
			m.end(w)
			active.Add(-1)
		}
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(seed, uint64(w)))
			if w == 0 {
				walk(0, rng, root)
			}
			for k := m.take(nil); k != nil; k = m.take(nil) {
				walk(w, rng, k)
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		return
	}
	if r.head != nil || m.left != 0 || len(m.given) != 0 {
		t.Fatalf("Seqs left: %d not ended, %d not taken", m.left, len(m.given))
	}
	var want []string
	for _, q := range m.order {
		want = append(want, q.recs...)
	}
	if n := int(printed.Load()); len(want) != n {
		t.Fatalf("%d records in the model, %d printed", len(want), n)
	}
	if len(m.order) < 10 {
		t.Errorf("%d Seqs: the test does not test reordering", len(m.order))
	}
	got := strings.Fields(contents())
	switch {
	case stopAt == 0 && !slices.Equal(got, want):
		t.Errorf("output: %d records, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	case stopAt > 0 && (int64(len(got)) > stopSeen.Load() || !slices.Equal(got, want[:len(got)])):
		t.Errorf("after a Stop at record %d (%d counted when it returned): %d records, not a prefix of the output (differs at %d)", stopAt, stopSeen.Load(), len(got), firstDiff(got, want))
	}
	// Past the bound for all Seqs by at most a chunk and what is printed
	// between two Steps, for each Seq being captured.
	if held, limit := maxHeldSeen.Load(), int64(maxTotal)+maxActive.Load()*int64(chunk+stepEvery*maxRec); held > limit {
		t.Errorf("%d bytes held at most, past %d", held, limit)
	}
	if n := r.total.Load(); n != 0 {
		t.Errorf("%d bytes still held", n)
	}
	if diag.Len() > 0 {
		t.Errorf("diagnostics: %s", diag)
	}
}

// firstDiff returns the first index where a and b differ.
func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
