package predicate

import (
	"slices"
	"sync"
	"testing"
)

// TestDevSetConcurrent adds and reads devices from many goroutines (run
// with -race): every device added is there at the end, once.
func TestDevSetConcurrent(t *testing.T) {
	var d devSet
	if d.nonEmpty() || d.has(1) {
		t.Fatal("a new devSet is not empty")
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				dev := uint64(i % 10)
				if w%2 == 0 {
					d.add(dev)
				}
				d.has(dev)
			}
		}()
	}
	wg.Wait()
	got := slices.Clone(d.load())
	slices.Sort(got)
	if want := []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; !slices.Equal(got, want) {
		t.Errorf("devices %v, want %v", got, want)
	}
}
