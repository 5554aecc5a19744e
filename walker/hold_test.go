package walker

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gfind/gfind/internal/seam"
)

// TestHold: the parallel walk tells Options.PieceOut about every piece of a
// big directory it hands out, before the piece can be visited and after
// its last visit (the piece hook, run before a piece is visited, sees
// it held), with the directory as its files' Paths begin. Holds and
// releases balance.
func TestHold(t *testing.T) {
	root := t.TempDir()
	var spec []string
	for i := range 6000 {
		spec = append(spec, fmt.Sprintf("big/a-file-with-a-rather-long-name-%06d", i))
	}
	mk(t, root, append(spec, "big/sub/f")...)
	big := filepath.Join(root, "big") + "/"
	for run := range 3 {
		var mu sync.Mutex
		holds := map[string]int{} // outstanding, by directory
		total := 0
		var errs []string
		opt := Options{Workers: 4, MaxDepth: -1, PieceOut: func(worker int, dir []byte, held bool) {
			mu.Lock()
			defer mu.Unlock()
			if held {
				holds[string(dir)]++
				total++
			} else {
				holds[string(dir)]--
				if holds[string(dir)] < 0 && len(errs) < 5 {
					errs = append(errs, fmt.Sprintf("worker %d released %q more than held", worker, dir))
				}
			}
		}}
		restore := seam.BeforePiece.Set(func(path string) {
			mu.Lock()
			defer mu.Unlock()
			if n := holds[strings.TrimSuffix(path, "/")+"/"]; n <= 0 && len(errs) < 5 {
				errs = append(errs, fmt.Sprintf("a piece of %s about to be visited with %d holds", path, n))
			}
		})
		err := Walk([]string{big}, opt, func(e *Entry) Action {
			e.Lstat() // costly visits: big is handed out in pieces
			return Continue
		})
		restore()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range errs {
			t.Error(e)
		}
		for dir, n := range holds {
			if n != 0 || dir != big {
				t.Errorf("run %d: %q left with %d holds (want %q, balanced)", run, dir, n, big)
			}
		}
		if total == 0 {
			t.Errorf("run %d: no piece handed out: the test tests nothing", run)
		}
	}
}
