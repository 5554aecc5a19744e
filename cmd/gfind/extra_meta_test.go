package main

import (
	"strings"
	"testing"
)

// TestMetaOptimized checks that the optimizer runs the xattr tests after
// the name tests, wherever they are written.
func TestMetaOptimized(t *testing.T) {
	root := t.TempDir()
	for _, test := range []string{"-xattr", "-xattrname user.x", "-acl", "-capable", "-sparse"} {
		args := append(append([]string{"-D", "tree", "."}, strings.Fields(test)...), "-name", "x")
		r := runWith(t, root, testEnv(), "", gfindBin(t), "gfind", args)
		want := "Optimized tree (-O1):\n-name x -a " + test + " -a -print\n" // the default level moves the name tests too
		if !strings.Contains(r.stderr, want) {
			t.Errorf("gfind %s: stderr %q, want it to contain %q", strings.Join(args, " "), r.stderr, want)
		}
	}
}
