package main

// The opens of .gitignore files, counted with strace.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

// gitignoreOpen is an open of a .gitignore in strace -y's output: the
// directory's descriptor with its path, or a whole path.
var gitignoreOpen = regexp.MustCompile(`open(?:at)?\((?:[0-9]+<([^>]*)>, "\.gitignore"|AT_FDCWD, "([^"]*)/\.gitignore"|"([^"]*)/\.gitignore")`)

// TestGitignoreReadOnce counts the opens of .gitignore files with
// strace: each is opened once, however many workers evaluate the files
// of its directory, and with -gitignored and --gitignore together.
func TestGitignoreReadOnce(t *testing.T) {
	if gnuMode() {
		t.Skip("a gfind extra")
	}
	strace := testtool.Need(t, "strace", "strace")
	gfind := gfindBin(t)
	g := newGitGen(t, 9) // a tree with many .gitignore files read
	g.build()
	g.must(os.MkdirAll(filepath.Join(g.repo, ".git"), 0o755))
	for _, args := range [][]string{{"-j1", "."}, {"-j4", ".", "-gitignored"}, {"-j4", "--gitignore", ".", "-gitignored"}} {
		out := filepath.Join(g.top, "trace")
		cmd := exec.Command(strace, append([]string{"-f", "-qq", "-y", "-e", "trace=open,openat", "-o", out, gfind}, args...)...)
		cmd.Dir, cmd.Env = g.repo, g.env()
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("strace gfind %q: %v\n%s", args, err, b)
		}
		data, err := os.ReadFile(out)
		g.must(err)
		opens := map[string]int{}
		for _, m := range gitignoreOpen.FindAllStringSubmatch(string(data), -1) {
			opens[m[1]+m[2]+m[3]]++
		}
		for dir, n := range opens {
			if n != 1 {
				t.Errorf("gfind %q opened %s/.gitignore %d times", args, dir, n)
			}
		}
		if want := len(args) > 2; want && len(opens) < 10 || !want && len(opens) > 0 {
			t.Errorf("gfind %q opened %d .gitignore files", args, len(opens))
		}
	}
}
