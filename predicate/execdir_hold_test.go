package predicate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/seam"
)

// TestExecdirBatchPieces: a directory big enough for the parallel walk
// to hand its getdents chunks to other workers (its visits stat, for
// -size) gets one -execdir ... + command, as with one worker, even when
// the workers that took pieces of it start on them only after every
// other worker, the reader included, has moved on to other directories
// (the test hook holds each piece back): the walker holds the directory
// for a piece while it is out (walker.Options.PieceOut, State.PieceOut).
func TestExecdirBatchPieces(t *testing.T) {
	root := t.TempDir()
	big := filepath.Join(root, "big")
	const files = 8000
	for _, d := range []string{big, filepath.Join(big, "sub1"), filepath.Join(big, "sub2")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := range files {
		name := fmt.Sprintf("a-file-with-a-rather-long-name-%06d", i)
		if err := os.WriteFile(filepath.Join(big, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"sub1/x", "sub2/y"} {
		if err := os.WriteFile(filepath.Join(big, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var pieces atomic.Int64
	// The pause is a perturbation, not a wait: it widens the window in
	// which the old walk ran big's batch before a piece was visited, so
	// that the test fails there (two commands for big). It decides
	// nothing here: with the hold, one command is the only outcome
	// whatever the timing, so a slow machine cannot fail it. No event
	// marks "every other visit of big is done" for a handshake to wait
	// on without a walker seam of its own.
	defer seam.BeforePiece.Set(func(path string) {
		pieces.Add(1)
		time.Sleep(20 * time.Millisecond)
	})()
	for run := range 3 {
		r := runCommand(t, 4, "", big, "-type", "f", "-size", "-1k", "-execdir", "sh", "-c", `echo "$(basename "$PWD") $#"`, "sh", "{}", "+")
		if r.stderr != "" || r.failed {
			t.Fatalf("stderr %q", r.stderr)
		}
		got := map[string][]string{}
		for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			dir, n, _ := strings.Cut(l, " ")
			got[dir] = append(got[dir], n)
		}
		if len(got["big"]) != 1 || got["big"][0] != fmt.Sprint(files) || len(got["sub1"]) != 1 || len(got["sub2"]) != 1 {
			t.Errorf("run %d: commands %v; want one of %d files in big, one in sub1 and sub2", run, got, files)
		}
	}
	if pieces.Load() == 0 {
		t.Fatal("no directory was handed out in pieces: the test tests nothing")
	}
}
