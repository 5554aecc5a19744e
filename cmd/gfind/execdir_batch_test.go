package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestExecdirBatchWholeDirectory: a directory's -execdir ... + batch is
// one command unless the argument limit splits it, whatever -j: a
// directory big enough for the parallel walk to hand its getdents
// chunks to several workers (its visits stat: -size), with
// subdirectories for them to move on to, still gets the commands that
// -j1 gives it when it does not descend (-maxdepth 1: GNU and -j1 also
// run a directory's batch where the walk goes down into a
// subdirectory), which only the limit splits, in every run. Each command prints its directory and its number of
// arguments. The race it guards against is narrow on a real walk;
// predicate's TestExecdirBatchPieces widens it with a test hook.
func TestExecdirBatchWholeDirectory(t *testing.T) {
	if gnuMode() {
		t.Skip("-j is gfind's")
	}
	gfind := gfindBin(t)
	top := t.TempDir()
	const files = 6000
	big := filepath.Join(top, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range files {
		name := fmt.Sprintf("a-file-with-a-name-of-forty-bytes-%06d", i)
		if err := os.WriteFile(filepath.Join(big, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20 {
		sub := filepath.Join(big, fmt.Sprintf("sub%02d", i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "f"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(j string, depth ...string) []int {
		args := append(append([]string{j, "big"}, depth...), "-type", "f", "-size", "-1k", "-execdir", "sh", "-c", `echo "${PWD##*/}" $#`, "sh", "{}", "+")
		r := runProg(t, runOpts{dir: top, env: execEnv()}, gfind, "gfind", args)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("gfind %s: exit %d, %q", j, r.code, r.stderr)
		}
		var counts []int
		total := 0
		for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			dir, num, _ := strings.Cut(l, " ")
			n, err := strconv.Atoi(num)
			if err != nil {
				t.Fatalf("gfind %s printed %q", j, r.stdout)
			}
			if dir == "big" {
				counts = append(counts, n)
				total += n
			}
		}
		if total != files {
			t.Fatalf("gfind %s: the commands had %d files, want %d", j, total, files)
		}
		return counts
	}
	want := run("-j1", "-maxdepth", "1")
	if len(want) != 1 {
		t.Logf("-j1: %d commands %v (the argument limit)", len(want), want)
	}
	for i := range 5 {
		for _, j := range []string{"-j2", "-j8"} {
			if got := run(j); len(got) != len(want) {
				t.Errorf("run %d, gfind %s: %d commands %v, want %d as with -j1 %v", i, j, len(got), got, len(want), want)
			}
		}
	}
}
