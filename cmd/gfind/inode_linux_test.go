package main

// -inum and %i without a stat call per file, counted with strace.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"golang.org/x/sys/unix"
)

// statCall is a stat-family call on one of TestInodeNoStat's files, in
// strace's output.
var statCall = regexp.MustCompile(`(?m)^.*stat[a-z0-9]*\(.*"f[0-9]+".*$`)

// TestInodeNoStat: -inum and -printf %i take a file's inode number from
// its directory record, with no stat call per file, as GNU does, in
// every walk (serial, parallel, sorted). The file's own status is still
// what a test that needs it sees, and %i with it prints its number.
func TestInodeNoStat(t *testing.T) {
	strace := testtool.Need(t, "strace", "strace")
	gfind := gfindBin(t)
	top := t.TempDir()
	const files = 300
	if err := os.Mkdir(filepath.Join(top, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range files {
		if err := os.WriteFile(filepath.Join(top, "d", fmt.Sprintf("f%d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var st unix.Stat_t
	if err := unix.Stat(filepath.Join(top, "d", "f7"), &st); err != nil {
		t.Fatal(err)
	}
	ino := strconv.FormatUint(st.Ino, 10)
	for _, c := range []struct {
		args  string
		want  func(out string) bool
		stats int // stat calls on the files
	}{
		{"-j1 d -inum " + ino, func(out string) bool { return out == "d/f7\n" }, 0},
		{"-j4 d -inum " + ino, func(out string) bool { return out == "d/f7\n" }, 0},
		{"-j2 -s d -inum " + ino, func(out string) bool { return out == "d/f7\n" }, 0},
		{"-L d -inum " + ino, func(out string) bool { return out == "d/f7\n" }, 0},
		{"-j1 d -type f -printf %i\\n", func(out string) bool { return strings.Count(out, "\n") == files }, 0},
		{"-j4 d -type f -printf %i_%p\\n", func(out string) bool { return strings.Contains(out, ino+"_d/f7\n") }, 0},
		// A test that needs the status stats once, and %i uses it.
		{"-j1 d -type f -size -1 -printf %i_%p\\n", func(out string) bool { return strings.Contains(out, ino+"_d/f7\n") }, files},
	} {
		args := strings.Fields(c.args)
		if gnuMode() {
			// GNU find (the check of the test) has no -j and no -s.
			if slices.Contains(args, "-s") {
				continue
			}
			args = slices.DeleteFunc(args, func(a string) bool { return strings.HasPrefix(a, "-j") })
		}
		out := filepath.Join(top, "trace")
		// %%stat: every stat call of the architecture (fstatat64 on 386).
		cmd := exec.Command(strace, append([]string{"-f", "-qq", "-e", "trace=%%stat", "-o", out, gfind}, args...)...)
		cmd.Dir, cmd.Env = top, testEnv()
		stdout, err := cmd.Output()
		if err != nil {
			t.Fatalf("strace gfind %s: %v", c.args, err)
		}
		if !c.want(string(stdout)) {
			t.Errorf("gfind %s printed %q", c.args, stdout)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		calls := statCall.FindAllString(string(data), -1)
		if len(calls) != c.stats {
			t.Errorf("gfind %s: %d stat calls on the files, want %d: %q...", c.args, len(calls), c.stats, calls[:min(len(calls), 3)])
		}
	}
}
