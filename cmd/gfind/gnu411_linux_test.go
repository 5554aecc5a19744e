package main

// The -mount and -xdev cases against GNU find 4.11, in mount namespaces
// (unshare(1)), which only Linux has.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

// gnuMountCases run in the tree of makeMountTree, where a tmpfs is
// mounted on t/mnt and on t/d/deep, a file of that tmpfs is bind-mounted
// on t/fbind, and lp is bind-mounted on lp/sub/back (a directory cycle).
// In GNU find 4.11 (POSIX 2024) -mount no longer is -xdev: a file on
// another device than its starting point is not visited at all, mount
// point or not, and under -L a link to one is not either; -xdev still
// visits the mount point and does not descend. A starting point is
// always visited.
var gnuMountCases = []gnuCase{
	{args: "t -mount", gnu411: &gnu411{stdout: mountOwn("t")}},
	{args: "t -xdev"},
	{args: "t -mount -xdev", gnu411: &gnu411{stdout: mountOwn("t")}},
	{args: "t -xdev -mount", gnu411: &gnu411{stdout: mountOwn("t")}},
	{args: "-H t -mount", gnu411: &gnu411{stdout: mountOwn("t")}},
	{args: "-L t -mount", gnu411: &gnu411{stdout: []string{"t", "t/f", "t/d", "t/d/g"}}},
	{args: "-L t -xdev"},
	{args: "t -depth -mount", gnu411: &gnu411{stdout: mountOwn("t")}},
	{args: "t -mount -maxdepth 1", gnu411: &gnu411{stdout: []string{"t", "t/f", "t/d", "t/lm", "t/lh"}}},
	{args: "t -mindepth 2 -mount", gnu411: &gnu411{stdout: []string{"t/d/g"}}},
	{args: "t -mount -printf %d:%p:%y:%Y\\n", gnu411: &gnu411{stdout: []string{"0:t:d:d", "1:t/f:f:f", "1:t/d:d:d", "2:t/d/g:f:f", "1:t/lm:l:d", "1:t/lh:l:f"}}},
	{args: "t -mount -type d -o -fstype tmpfs", gnu411: &gnu411{stdout: []string{"t", "t/d"}}},
	{args: "t -mount -name deep", gnu411: &gnu411{}},
	// Starting points on the other device are visited, and walked.
	{args: "t/mnt t/lm t/fbind t/d/deep -mount"},
	{args: "-H t/lm t/lh -mount"},
	{args: "-L t/lm t/lh -mount"},
	// A bind mount of an ancestor: GNU 4.11 names only the directory
	// met again (4.9 named the ancestor too; loop411). Under -xdev and
	// -mount gfind stats the directory before its visit, as fts does,
	// and refuses it unvisited.
	{args: "lp -depth"},
	{args: "lp -xdev"},
	{args: "lp -mount"},
	{args: "-L lp -xdev"},
	{args: "-L lp -depth"},
}

// mountOwn is what -mount visits below root t under -P: the files on
// t's device, links to the other one included.
func mountOwn(t string) []string {
	return []string{t, t + "/f", t + "/d", t + "/d/g", t + "/lm", t + "/lh"}
}

// TestMountAgainstGNU runs gnuMountCases, each run of GNU find and of
// gfind in a mount namespace of its own (unshare) where the mounts are
// made anew, so that nothing is mounted outside the test.
func TestMountAgainstGNU(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	unshare := testtool.Need(t, "unshare", "util-linux")
	testtool.Need(t, "mount", "mount")
	if out, err := exec.Command(unshare, "-m", "--propagation", "private", "true").CombinedOutput(); err != nil {
		testtool.Missing(t, "a mount namespace (unshare)", "util-linux", fmt.Errorf("%v: %s", err, bytes.TrimSpace(out)))
	}
	root := makeMountTree(t)
	bin := t.TempDir()
	gnuNS := mountWrapper(t, bin, unshare, root, "find", gnu)
	gfindNS := mountWrapper(t, bin, unshare, root, "gfind", gfind)
	for _, c := range gnuMountCases {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			compareCase(t, filepath.Join(root, c.dir), false, gnuNS, gfindNS, c)
		})
	}
}

// makeMountTree makes the directories and files of gnuMountCases' tree;
// mountWrapper's script mounts on it.
func makeMountTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"t/mnt", "t/d/deep", "lp/sub/back"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"t/f", "t/fbind", "t/d/g", "lp/f"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"t/lm": "mnt", "t/lh": "mnt/in/h"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// mountWrapper writes a script that runs prog as name (argv[0], which
// names it in diagnostics) with the script's arguments, in a new mount
// namespace where the mounts of gnuMountCases' tree are made.
func mountWrapper(t *testing.T, dir, unshare, root, name, prog string) string {
	t.Helper()
	script := `#!/bin/bash
exec ` + shellQuote(unshare) + ` -m --propagation private /bin/bash -c '
set -e
R=$1 name=$2 prog=$3
shift 3
mount -t tmpfs gfindtest "$R/t/mnt"
mkdir "$R/t/mnt/in"
: >"$R/t/mnt/in/h"
mount --bind "$R/t/mnt/in/h" "$R/t/fbind"
mount -t tmpfs gfindtest "$R/t/d/deep"
: >"$R/t/d/deep/x"
mount --bind "$R/lp" "$R/lp/sub/back"
exec -a "$name" "$prog" "$@"' bash ` + shellQuote(root) + ` ` + name + ` ` + shellQuote(prog) + ` "$@"
`
	path := filepath.Join(dir, name+"-ns")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
