package walker

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSplitBigDirectory walks a directory big enough to be split across
// workers (many getdents chunks), in pre-order and post-order, with
// stats made by the visit, and checks every file is visited exactly once
// with its right path and status; and that -quit-like stops end it.
func TestSplitBigDirectory(t *testing.T) {
	root := t.TempDir()
	big := filepath.Join(root, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 6000
	for i := range n {
		name := filepath.Join(big, fmt.Sprintf("file-with-a-longish-name-%05d", i))
		if i%100 == 0 {
			if err := os.Mkdir(name, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(name, "inner"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(name, make([]byte, i%7), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, post := range []bool{false, true} {
		for _, workers := range []int{2, 4} {
			t.Run(fmt.Sprintf("post=%v/workers=%d", post, workers), func(t *testing.T) {
				var mu sync.Mutex
				seen := map[string]int{}
				workersSeen := map[int]bool{}
				err := Walk([]string{big}, Options{Workers: workers, MaxDepth: -1, PostOrder: post}, func(e *Entry) Action {
					if e.Err != nil {
						t.Errorf("%s: %v", e.Path, e.Err)
						return Continue
					}
					st, err := e.Lstat()
					if err != nil {
						t.Errorf("lstat %s: %v", e.Path, err)
						return Continue
					}
					var want unix.Stat_t
					if err := unix.Lstat(string(e.Path), &want); err != nil || want.Ino != st.Ino || want.Size != st.Size {
						t.Errorf("%s: status %d/%d, want %d/%d (%v)", e.Path, st.Ino, st.Size, want.Ino, want.Size, err)
					}
					mu.Lock()
					seen[string(e.Path)]++
					workersSeen[e.Worker] = true
					mu.Unlock()
					return Continue
				})
				if err != nil {
					t.Fatal(err)
				}
				if want := 1 + n + n/100; len(seen) != want {
					t.Errorf("visited %d files, want %d", len(seen), want)
				}
				for p, c := range seen {
					if c != 1 {
						t.Errorf("%s visited %d times", p, c)
					}
				}
				t.Logf("entries visited by %d workers", len(workersSeen))
			})
		}
	}
	// A stop partway through ends the walk early. The walker records the
	// Stop when visit returns, so another worker may start visits in the
	// moment between: how many depends on the scheduler (the race detector
	// on a loaded machine made it 2), so only "soon" is checked here; the
	// predicate layer makes -quit exact through the Sink.
	var mu sync.Mutex
	count, stopped, after := 0, false, 0
	err := Walk([]string{big}, Options{Workers: 2, MaxDepth: -1}, func(e *Entry) Action {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			after++
		}
		count++
		if count == 3000 {
			stopped = true
			return Stop
		}
		return Continue
	})
	if err != nil || !stopped || after > 200 || count >= 1+n+n/100 {
		t.Fatalf("err %v, stopped %v, %d visits after the stop, %d in all", err, stopped, after, count)
	}
}
