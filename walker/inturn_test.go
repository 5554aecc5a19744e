package walker

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestRootsInTurn: under RootsInTurn every visit of a starting point's
// walk comes before any of the next one's, whatever the workers, and a
// Stop in one starting point's walk leaves the rest of the starting
// points untaken: not visited, not reported, not even asked of next.
// The Stop comes late in the walk of r1 (its post-order visit, or a
// file deep in it), where without RootsInTurn r2 has long started.
func TestRootsInTurn(t *testing.T) {
	dir := t.TempDir()
	var spec []string
	for _, r := range []string{"r0", "r1", "r3"} {
		for d := range 12 {
			for f := range 12 {
				spec = append(spec, fmt.Sprintf("%s/d%02d/f%02d", r, d, f))
			}
		}
	}
	spec = append(spec, "r4") // a file
	mk(t, dir, spec...)
	names := []string{"r0", "r1", "r2-missing", "r3", "r4", "r5-missing"}
	// rootOf returns the index in names of the starting point p is in.
	rootOf := func(p string) int {
		rel, _ := filepath.Rel(dir, p)
		first, _, _ := strings.Cut(rel, "/")
		return slices.Index(names, first)
	}
	type mode struct {
		name string
		opt  Options
		stop string // the visit that returns Stop ("": none)
	}
	var modes []mode
	for _, o := range []struct {
		name string
		opt  Options
	}{
		{"j8", Options{Workers: 8, MaxDepth: -1}},
		{"j8-depth", Options{Workers: 8, MaxDepth: -1, PostOrder: true}},
		{"j2-grow", Options{Workers: 2, MaxWorkers: 8, MaxDepth: -1}},
		{"j8-mindepth", Options{Workers: 8, MaxDepth: -1, MinDepth: 1, PostOrder: true}},
	} {
		modes = append(modes, mode{o.name, o.opt, ""})
		stop := "r1/d11/f11"
		if o.opt.PostOrder && o.opt.MinDepth == 0 {
			stop = "r1" // its visit after all its contents
		}
		modes = append(modes, mode{o.name + "-stop", o.opt, stop})
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			for round := range 20 {
				opt := m.opt
				opt.RootsInTurn = true
				var mu sync.Mutex
				var seen []int // the starting point of each visit, in order
				taken := 0
				i := 0
				err := WalkNext(func() (string, bool) {
					if i >= len(names) {
						return "", false
					}
					i++
					taken = i
					return filepath.Join(dir, names[i-1]), true
				}, opt, func(e *Entry) Action {
					p := string(e.Path)
					mu.Lock()
					seen = append(seen, rootOf(p))
					mu.Unlock()
					if m.stop != "" && p == filepath.Join(dir, m.stop) && (e.PostOrder || !opt.PostOrder || e.Type != TypeDir) {
						return Stop
					}
					return Continue
				})
				if err != nil {
					t.Fatal(err)
				}
				for j := 1; j < len(seen); j++ {
					if seen[j] < seen[j-1] {
						t.Fatalf("round %d: visit %d is in starting point %d, after one in %d", round, j+1, seen[j], seen[j-1])
					}
				}
				last, wantTaken := len(names)-1, len(names)
				if m.stop != "" {
					last, wantTaken = 1, 2
				}
				if n := len(seen); n == 0 || seen[n-1] != last {
					t.Fatalf("round %d: the visits end in starting point %d (-1: none), want %d", round, slices.Concat([]int{-1}, seen)[n], last)
				}
				if taken != wantTaken {
					t.Fatalf("round %d: %d starting points taken, want %d", round, taken, wantTaken)
				}
			}
		})
	}
}
