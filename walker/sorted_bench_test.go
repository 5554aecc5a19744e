package walker

import (
	"os"
	"testing"
)

// BenchmarkSortedTree walks $GFIND_BENCH_TREE (skipped when unset) with
// and without Sort, with 2 workers and with 1, for profiling the sorted
// walk against the others (-cpuprofile, -memprofile): a harness, not a
// timing test.
func BenchmarkSortedTree(b *testing.B) {
	root := os.Getenv("GFIND_BENCH_TREE")
	if root == "" {
		b.Skip("GFIND_BENCH_TREE not set")
	}
	for _, c := range []struct {
		name    string
		sorted  bool
		workers int
	}{{"plain", false, 2}, {"sorted", true, 2}, {"serial", false, 1}, {"sortedj1", true, 1}} {
		sorted := c.sorted
		b.Run(c.name, func(b *testing.B) {
			var out [2][]byte
			for b.Loop() {
				err := Walk([]string{root}, Options{Workers: c.workers, MaxDepth: -1, Sort: sorted}, func(e *Entry) Action {
					o := &out[e.Worker]
					*o = append(append(*o, e.Path...), '\n')
					if len(*o) > 64<<10 {
						*o = (*o)[:0]
					}
					return Continue
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
