package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSortedOrderedVisits: under -s, an expression that only prints has
// its visits made out of order, each worker walking subtrees of its own,
// and the output put back in order (walker.Options.Ordered). The output
// must be byte for byte that of the same expression made to visit in
// order (a -fprint to /dev/null rules the ordered visits out), with the
// same messages and exit status.
func TestSortedOrderedVisits(t *testing.T) {
	if gnuMode() {
		t.Skip("gfind's -s")
	}
	gfind := gfindBin(t)
	root := bigTree(t, 3000)
	for i := range 40 {
		dir := filepath.Join(root, fmt.Sprintf("n%02d", i%7), fmt.Sprintf("m%02d", i), "deeper")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "data.log"), bytes.Repeat([]byte("x"), i*300), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range [][2]string{{"n01", "n00/link"}, {"nowhere", "n02/dangling"}, {"..", "n03/m03/up"}} {
		if err := os.Symlink(l[0], filepath.Join(root, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	for _, expr := range [][]string{
		{"-true"},
		{"-name", "*1*"},
		{"-size", "-100M"},
		{"-type", "f", "-size", "+1k"},
		{"-name", "m0*", "-prune", "-o", "-size", "-1k"},
		{"-newer", root + "/d0001", "-o", "-empty"},
		{"-mindepth", "2", "-maxdepth", "3", "-perm", "-u=r"},
	} {
		for _, opts := range [][]string{{"-s", "-j2"}, {"-s", "-j8"}, {"-s", "-L", "-j2"}} {
			args := append(append(append([]string(nil), opts...), root, "("), expr...)
			args = append(args, ")", "-printf", "%s %y %p\n")
			name := strings.Join(append(opts, expr...), " ")
			t.Run(name, func(t *testing.T) {
				want := runOut(t, gfind, append(args, "-fprint", "/dev/null")...)
				if strings.Count(want, "\n") < 10 {
					t.Fatalf("only %d lines:\n%s", strings.Count(want, "\n"), want)
				}
				for range 3 {
					if got := runOut(t, gfind, args...); got != want {
						t.Fatalf("ordered visits:\n%s\nin order:\n%s", got, want)
					}
				}
			})
		}
	}
}

// runOut runs name with args and returns its standard output, error and
// exit status as one string.
func runOut(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = testEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s--- stderr:\n%s--- exit %d\n", stdout.String(), stderr.String(), code)
}
