package main

// bfs's metadata tests (-xattr, -xattrname, -acl, -capable, -sparse) on
// file systems that the tests mount in a private mount namespace: tmpfs
// and a loop-mounted ext4 image against Debian's bfs, and ramfs and
// bindfs --xattr-none, which answer ENOTSUP, under strace.

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
)

// shQuote quotes s for sh.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// nsScript runs script with sh -e in a new mount namespace (Go makes /
// private in it, so no mount leaks out) in dir, and fails t if it fails.
// The script's run function, "run ID PROG ARGS...", leaves PROG's
// stdout, stderr and exit status in out/ID.{out,err,rc}, which
// nsResult reads.
func nsScript(t *testing.T, dir, script string) {
	t.Helper()
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	prelude := `run() { id=$1; shift; if "$@" >out/$id.out 2>out/$id.err; then echo 0 >out/$id.rc; else echo $? >out/$id.rc; fi; }` + "\n"
	cmd := exec.CommandContext(ctx, "sh", "-e", "-c", prelude+script)
	cmd.Dir = dir
	cmd.Env = testEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("namespace script timed out:\n%s", out)
	}
	if err != nil {
		t.Fatalf("namespace script: %v\n%s", err, out)
	}
}

func nsResult(t *testing.T, dir, id string) findResult {
	t.Helper()
	read := func(ext string) string {
		b, err := os.ReadFile(filepath.Join(dir, "out", id+"."+ext))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	code, err := strconv.Atoi(strings.TrimSpace(read("rc")))
	if err != nil {
		t.Fatal(err)
	}
	return findResult{stdout: read("out"), stderr: read("err"), code: code}
}

// metaTree is sh that fills the directory $1 with a file of each kind
// the tests tell apart.
const metaTree = `tree() {
	cd "$1"
	touch plain xa trusted acl capf both empty
	mkdir dir dacl dacc
	setfattr -n user.foo -v bar xa
	setfattr -n trusted.t -v 1 trusted
	setfacl -m u:nobody:r acl
	setfacl -d -m g:nogroup:rx dacl
	setfacl -m u:nobody:rwx dacc
	setcap cap_net_raw+ep capf
	setcap cap_chown+i both; setfattr -n user.foo -v 1 both
	ln -s xa lnk; ln -s capf lnkcap; ln -s dacl lnkdir; ln -s nowhere dangling
	truncate -s 1M sparse; printf x >dense; truncate -s 100k dense
	printf y >dir/one; setfattr -n user.foo -v in dir/one
	mkfifo fifo
	cd - >/dev/null
}
`

// TestMetaAgainstBfs compares -xattr, -xattrname, -acl, -capable and
// -sparse with Debian's bfs, under -P, -H and -L, on tmpfs and ext4.
func TestMetaAgainstBfs(t *testing.T) {
	bfs := testtool.Need(t, "bfs", "bfs")
	for _, p := range [][2]string{{"setfattr", "attr"}, {"setfacl", "acl"}, {"setcap", "libcap2-bin"}, {"mkfs.ext4", "e2fsprogs"}} {
		testtool.Need(t, p[0], p[1])
	}
	gfind := gfindBin(t)
	dir := t.TempDir()
	img := filepath.Join(dir, "ext4.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 16<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", img).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4: %v\n%s", err, out)
	}
	tests := []string{"-xattr", "! -xattr", "-xattrname user.foo", "-xattrname trusted.t",
		"-xattrname security.capability", "-xattrname system.posix_acl_access", "-xattrname foo",
		"-acl", "-capable", "-sparse", "! -sparse", "-type f -acl -o -capable", "-xattr -capable"}
	var script strings.Builder
	script.WriteString(metaTree)
	script.WriteString("mkdir tmpfs ext4\nmount -t tmpfs none tmpfs\nmount -o loop ext4.img ext4\nrmdir ext4/lost+found\ntree tmpfs\ntree ext4\n")
	type run struct{ id, fs, follow, test string }
	var runs []run
	for _, fs := range []string{"tmpfs", "ext4"} {
		// The links as starting points too: followed under -H.
		roots := fmt.Sprintf("%[1]s %[1]s/lnk %[1]s/lnkcap %[1]s/lnkdir %[1]s/dangling", fs)
		for _, follow := range []string{"-P", "-H", "-L"} {
			for i, test := range tests {
				r := run{fmt.Sprintf("%s%s%d", fs, follow, i), fs, follow, test}
				runs = append(runs, r)
				for _, prog := range [][2]string{{"gfind", gfind}, {"bfs", bfs}} {
					fmt.Fprintf(&script, "run %s.%s %s %s %s %s\n", r.id, prog[0], shQuote(prog[1]), follow, roots, test)
				}
			}
		}
	}
	script.WriteString("umount tmpfs ext4\n")
	nsScript(t, dir, script.String())
	for _, r := range runs {
		got, want := nsResult(t, dir, r.id+".gfind"), nsResult(t, dir, r.id+".bfs")
		name := fmt.Sprintf("%s %s %s", r.follow, r.fs, r.test)
		if want.stderr != "" || got.stderr != "" || got.code != want.code {
			t.Errorf("%s: gfind exit %d, stderr %q; bfs exit %d, stderr %q", name, got.code, got.stderr, want.code, want.stderr)
		}
		g, w := splitRecords(got.stdout, "\n"), splitRecords(want.stdout, "\n")
		slices.Sort(g)
		slices.Sort(w)
		diffLines(t, name, w, g)
	}
	// The trees do tell the tests apart: a few answers bfs and gfind
	// must both have given.
	for id, want := range map[string]string{
		"tmpfs-P0.gfind": "tmpfs/xa", "ext4-P7.gfind": "ext4/dacc", "ext4-L8.gfind": "ext4/lnkcap",
		"ext4-P9.gfind": "ext4/sparse", "tmpfs-L2.gfind": "tmpfs/lnk", "tmpfs-H8.gfind": "tmpfs/lnkcap",
	} {
		if out := nsResult(t, dir, id).stdout; !slices.Contains(strings.Split(out, "\n"), want) {
			t.Errorf("%s printed %q, without %s", id, out, want)
		}
	}
}

// traceLine is a completed call in strace's output: "lgetxattr(...) = -1
// EOPNOTSUPP (...)", or the "<... resumed>" half of an interrupted one.
var traceLine = regexp.MustCompile(`xattr(\(| resumed>).*\) += (-1 (E[A-Z]+)|[0-9]+)`)

// xattrCalls counts the completed xattr calls in a strace output file,
// and how many failed with each error.
func xattrCalls(t *testing.T, path string) (calls int, failed map[string]int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	failed = map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := traceLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		calls++
		if m[3] != "" {
			failed[m[3]]++
		}
	}
	return calls, failed
}

// TestMetaCallsPerDevice counts the xattr calls with strace on file
// systems without extended attributes. ramfs answers ENOTSUP to every
// getxattr (and an empty list to listxattr), bindfs --xattr-none
// ENOTSUP to everything: after the first ENOTSUP a test makes no call on
// that device, and a test that the cheap tests before it decide makes
// none at all.
func TestMetaCallsPerDevice(t *testing.T) {
	strace := testtool.Need(t, "strace", "strace")
	testtool.Need(t, "bindfs", "bindfs")
	testtool.Need(t, "fusermount", "fuse3")
	gfind := gfindBin(t)
	dir := t.TempDir()
	const dirs, files = 4, 10
	entries := 1 + dirs*(1+files)
	var script strings.Builder
	fmt.Fprintf(&script, `mkdir ramfs bind
mount -t ramfs none ramfs
for d in $(seq %d); do mkdir ramfs/d$d; for f in $(seq %d); do touch ramfs/d$d/f$f; done; done
bindfs --xattr-none ramfs bind
trap 'fusermount -u bind' EXIT
`, dirs, files)
	type run struct {
		id, fs, args string
		calls        int // exactly this many calls
		enotsup      int // and this many ENOTSUP answers
		other        bool
	}
	var runs []run
	add := func(fs, args string, calls, enotsup int) {
		r := run{id: fmt.Sprintf("r%d", len(runs)), fs: fs, args: args, calls: calls, enotsup: enotsup}
		runs = append(runs, r)
		j, test, _ := strings.Cut(args, " ")
		fmt.Fprintf(&script, "run %s %s -f -qq -e trace=getxattr,lgetxattr,listxattr,llistxattr -o out/%s.trace %s %s %s %s\n",
			r.id, shQuote(strace), r.id, shQuote(gfind), j, fs, test)
	}
	for _, j := range []string{"-j1", "-j2"} {
		for _, test := range []string{"-xattrname user.foo", "-acl", "-capable", "-xattrname foo"} {
			add("ramfs", j+" "+test, 1, 1)
		}
		add("ramfs", j+" -xattr -o -acl", entries+1, 1) // listxattr answers 0, never ENOTSUP
		for _, test := range []string{"-xattr", "-xattrname user.foo", "-capable"} {
			add("bind", j+" "+test, 1, 1)
		}
	}
	add("ramfs", "-j1 -xattr", entries, 0) // no ENOTSUP to remember: one call a file
	add("ramfs", "-j1 -xattr -name nomatch", 0, 0)
	add("ramfs", "-j1 -xattrname user.foo -type d", 1, 1)
	add("ramfs", "-j1 -type d -xattrname user.foo", 1, 1)
	add("ramfs", "-L -acl", 1, 1) // the device from the status
	nsScript(t, dir, script.String())
	for _, r := range runs {
		name := r.fs + " " + r.args
		if res := nsResult(t, dir, r.id); res.code != 0 || res.stderr != "" || res.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want nothing", name, res.code, res.stdout, res.stderr)
		}
		calls, failed := xattrCalls(t, filepath.Join(dir, "out", r.id+".trace"))
		// With two workers both may ask before either has heard
		// ENOTSUP: at most one failing call per worker.
		extra := failed["EOPNOTSUPP"] - r.enotsup
		if extra < 0 || extra > 0 && !(extra == 1 && r.enotsup > 0 && strings.HasPrefix(r.args, "-j2")) ||
			calls != r.calls+extra || len(failed) != min(r.enotsup, 1) {
			t.Errorf("%s: %d xattr calls, failures %v; want %d, of which %d ENOTSUP", name, calls, failed, r.calls, r.enotsup)
		}
	}
}

// TestMetaErrors runs the xattr tests as nobody on files it may list but
// not reach: each is reported as gfind reports other errors, once, and
// the walk goes on with exit status 1, as bfs does (in its own words).
func TestMetaErrors(t *testing.T) {
	bfs := testtool.Need(t, "bfs", "bfs")
	testtool.Need(t, "setfattr", "attr")
	root := testtree.Make(t)
	for _, c := range [][]string{
		{"mkdir", "locked"}, {"touch", "locked/f", "open", "secret"},
		{"setfattr", "-n", "user.foo", "-v", "1", "open"},
		{"setfattr", "-n", "user.foo", "-v", "1", "secret"},
		{"chmod", "744", "locked"}, {"chmod", "600", "secret"},
	} {
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", c, err, out)
		}
	}
	for _, c := range []struct{ test, stderr string }{
		{"-xattr", "gfind: './locked/f': Permission denied\n"},
		{"-acl", "gfind: './locked/f': Permission denied\n"},
		{"-xattrname user.foo", "gfind: './locked/f': Permission denied\ngfind: './secret': Permission denied\n"},
	} {
		args := append([]string{".", "-mindepth", "1"}, strings.Fields(c.test)...)
		got := runProg(t, runOpts{dir: root, env: testEnv(), nobody: true}, gfindBin(t), "gfind", append([]string{"-j1", "-s"}, args...))
		wantOut := "./open\n"
		switch c.test {
		case "-acl":
			wantOut = ""
		case "-xattr":
			wantOut = "./open\n./secret\n" // listxattr needs no permission on the file
		}
		if got.stdout != wantOut || got.stderr != c.stderr || got.code != 1 {
			t.Errorf("gfind %s: stdout %q, stderr %q, exit %d; want %q, %q, 1", c.test, got.stdout, got.stderr, got.code, wantOut, c.stderr)
		}
		b := runProg(t, runOpts{dir: root, env: testEnv(), nobody: true}, bfs, "bfs", args)
		if sortLinesOf(b.stdout) != got.stdout || b.code != 1 || strings.Count(b.stderr, "Permission denied") != strings.Count(c.stderr, "\n") {
			t.Errorf("bfs %s: stdout %q, stderr %q, exit %d; gfind's stdout %q", c.test, b.stdout, b.stderr, b.code, got.stdout)
		}
	}
}

// sortLinesOf returns the lines of s sorted.
func sortLinesOf(s string) string {
	lines := splitRecords(s, "\n")
	slices.Sort(lines)
	return joinRecords(lines, "\n")
}
