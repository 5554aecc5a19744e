package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
	"golang.org/x/sys/unix"
)

// The name service test: accounts that only an NSS module knows, as on
// servers whose users come from LDAP or SSSD. Debian's libnss-extrausers
// is a real NSS module that reads /var/lib/extrausers; each program of
// the test runs in a mount namespace of its own where a temporary
// nsswitch.conf ("passwd: files extrausers") and a temporary
// /var/lib/extrausers are bind-mounted over the real ones, which stay
// untouched.

func init() { testCommands["innss"] = inNSSMain }

// The accounts of the extrausers files, and ids nobody knows.
const (
	nssPasswd = "alice:x:4242:4343:Alice:/home/alice:/bin/sh\n" +
		"bartholomew_long:x:4244:4345::/:/bin/sh\n"
	nssGroup  = "staffx:x:4343:alice\nresearch_long_group:x:4345:\n"
	nssShadow = "alice:*:19000:0:99999:7:::\nbartholomew_long:*:19000:0:99999:7:::\n"
	ghostUID  = 5151
	ghostGID  = 5252
)

// nssCases run in the tree made by nssTree, inside the namespace; a
// gnu411 row states GNU 4.11's result where 4.9 differs (want411).
var nssCases = []struct {
	args   string
	gnu411 *gnu411
}{
	{args: "tree -user alice"},
	{args: "tree -user 4242"},
	{args: "tree -user bartholomew_long"},
	{args: "tree -group staffx"},
	{args: "tree -group 4343"},
	{args: "tree -group research_long_group"},
	{args: "tree -user alice -group staffx"},
	{args: "tree ! -user alice"},
	{args: "tree -nouser"},
	{args: "tree -nogroup"},
	{args: "tree -nouser -o -nogroup"},
	{args: "tree -user 5151"},
	{args: `tree -printf '%u %g %U %G %p\n'`},
	{args: `tree -printf '%-20u|%10g|%p\n'`},
	{args: "tree -ls"},
	{args: "tree -user nosuchuser", gnu411: badOwner("user", "UID", "nosuchuser")},
	{args: "tree -group nosuchgroup", gnu411: badOwner("group", "GID", "nosuchgroup")},
	{args: "tree -user 4242x", gnu411: badOwner("user", "UID", "4242x")},
	{args: "tree -group 4343x", gnu411: badOwner("group", "GID", "4343x")},
}

// badOwner is GNU 4.11's one message for a -user or -group argument that
// is neither a known name nor an id (4.9 had several).
func badOwner(kind, id, arg string) *gnu411 {
	return &gnu411{stderr: []string{"find: invalid " + kind + " name or " + id + " argument to -" + kind + ": '" + arg + "'"}, code: 1}
}

func TestNameService(t *testing.T) {
	if os.Geteuid() != 0 {
		// A mount namespace and chown need root; CI runs as root.
		if testtool.CI() {
			t.Fatal("the name service test needs root under CI")
		}
		t.Skip("the name service test needs root (a mount namespace, chown)")
	}
	gnu := testtool.GNUFind(t)
	ns := newNSSNamespace(t)

	// The oracle: getent, through the same NSS configuration, knows the
	// accounts; outside the namespace nobody does, so that what the
	// finds see comes from the module alone.
	getent := testtool.Need(t, "getent", "libc-bin")
	for _, q := range [][2]string{{"passwd", "alice"}, {"passwd", "4242"}, {"group", "staffx"}, {"group", "4345"}} {
		if out, err := exec.Command(getent, q[0], q[1]).Output(); err == nil {
			t.Fatalf("getent %s %s outside the namespace: %q: the system knows the test's accounts already", q[0], q[1], out)
		}
	}
	want := map[[2]string]string{
		{"passwd", "alice"}:  "alice:x:4242:4343:Alice:/home/alice:/bin/sh\n",
		{"passwd", "4242"}:   "alice:x:4242:4343:Alice:/home/alice:/bin/sh\n",
		{"group", "staffx"}:  "staffx:x:4343:alice\n",
		{"group", "4345"}:    "research_long_group:x:4345:\n",
		{"passwd", "nobody"}: "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
	}
	for q, line := range want {
		r := ns.run(t, "", getent, "getent", q[:])
		if q[1] == "nobody" {
			line = "" // only that the files still answer: the line varies
		}
		if r.code != 0 || line != "" && r.stdout != line {
			t.Fatalf("getent %s %s in the namespace: status %d, %q (stderr %q), want %q", q[0], q[1], r.code, r.stdout, r.stderr, line)
		}
	}

	root := nssTree(t)
	bins := []struct{ name, path string }{
		{"test binary (" + cgoSetting() + ")", gfindBin(t)},
		{"CGO_ENABLED=0", staticGfind(t)},
	}
	for _, c := range nssCases {
		args := shellWords(c.args)
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			want := ns.run(t, root, gnu, "find", args)
			t.Logf("GNU find: %q, stderr %q, exit status %d", want.stdout, want.stderr, want.code)
			if c.gnu411 != nil {
				want = want411(t, want, c.gnu411)
			}
			for _, b := range bins {
				got := ns.run(t, root, b.path, "gfind", args)
				compare(t, b.name+" sorted", want, got, true)
				got = ns.run(t, root, b.path, "gfind", append([]string{"-j1"}, args...))
				compare(t, b.name+" -j1", want, got, false)
			}
		})
	}
	// -printjson is gfind's own: its names are the ones getent gives.
	t.Run("printjson", func(t *testing.T) {
		for _, b := range bins {
			got := ns.run(t, root, b.path, "gfind", []string{"tree/alice", "tree/ghost", "-printjson"})
			for _, want := range []string{`"uid":4242,"gid":4343,"user":"alice","group":"staffx"`, `"uid":5151,"gid":5252,"user":null,"group":null`} {
				if !strings.Contains(got.stdout, want) {
					t.Errorf("%s: -printjson printed %q, want %s in it", b.name, got.stdout, want)
				}
			}
		}
	})
}

// nssTree makes tree/ with files owned by the extrausers accounts, by
// ids nobody knows, and by root, in the combinations the cases tell
// apart.
func nssTree(t *testing.T) string {
	root := t.TempDir()
	tree := filepath.Join(root, "tree")
	files := []struct {
		name     string
		uid, gid int
	}{
		{"alice", 4242, 4343},
		{"alice_rootgroup", 4242, 0},
		{"root_staffx", 0, 4343},
		{"long", 4244, 4345},
		{"ghost", ghostUID, ghostGID},
		{"ghost_staffx", ghostUID, 4343},
		{"alice_ghostgroup", 4242, ghostGID},
		{"root", 0, 0},
		{"sub", 4242, 4343},
		{"sub/ghost", ghostUID, 0},
	}
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, f := range files {
		p := filepath.Join(tree, f.name)
		var err error
		if f.name == "sub" {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte(f.name), 0o644)
		}
		if err == nil {
			err = os.Lchown(p, f.uid, f.gid)
		}
		if err == nil && f.name != "sub" {
			err = os.Chtimes(p, mtime, mtime)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(tree, "alice_link")
	if err := os.Symlink("alice", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(link, 4244, ghostGID); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(tree, ghostUID, 4345); err != nil {
		t.Fatal(err)
	}
	return root
}

// nssNamespace is the set-up for running programs with the extrausers
// accounts: the files to bind-mount over /etc/nsswitch.conf and
// /var/lib/extrausers.
type nssNamespace struct {
	conf, dir string
	// nscd, when the system has nscd's directory: an empty one to hide
	// it, so that no cache outside the namespace answers.
	nscd, empty string
}

func newNSSNamespace(t *testing.T) *nssNamespace {
	if !haveExtrausers() {
		testtool.Missing(t, "the extrausers NSS module", "libnss-extrausers",
			errors.New("no libnss_extrausers.so.2 in /usr/lib, /lib or their multiarch directories"))
	}
	if fi, err := os.Stat(extrausersDir); err != nil || !fi.IsDir() {
		testtool.Missing(t, extrausersDir, "libnss-extrausers", err)
	}
	tmp := t.TempDir()
	ns := &nssNamespace{conf: filepath.Join(tmp, "nsswitch.conf"), dir: filepath.Join(tmp, "extrausers")}
	if err := os.Mkdir(ns.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		ns.conf:                         "passwd: files extrausers\ngroup: files extrausers\nshadow: files extrausers\n",
		filepath.Join(ns.dir, "passwd"): nssPasswd,
		filepath.Join(ns.dir, "group"):  nssGroup,
		filepath.Join(ns.dir, "shadow"): nssShadow,
	} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"/run/nscd", "/var/run/nscd"} {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			ns.nscd, ns.empty = d, filepath.Join(tmp, "empty")
			if err := os.Mkdir(ns.empty, 0o755); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	return ns
}

const extrausersDir = "/var/lib/extrausers"

// haveExtrausers reports whether the module is where the dynamic linker
// finds NSS modules: /usr/lib (Debian's package), the multiarch
// directories, or /lib.
func haveExtrausers() bool {
	for _, pattern := range []string{"/usr/lib/libnss_extrausers.so.2", "/usr/lib/*/libnss_extrausers.so.2", "/lib/libnss_extrausers.so.2", "/lib/*/libnss_extrausers.so.2"} {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return true
		}
	}
	return false
}

// run runs prog (argv[0] name) with args in dir inside a new mount
// namespace with the extrausers set-up, in the test environment.
func (ns *nssNamespace) run(t *testing.T, dir, prog, name string, args []string) findResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	helper := append([]string{"innss", ns.conf, ns.dir, ns.nscd, ns.empty, prog, name}, args...)
	cmd := exec.CommandContext(ctx, gfindBin(t))
	cmd.Args = helper
	cmd.Dir = dir
	cmd.Env = testEnv()
	// The kernel makes the namespace; Go then makes / private in it (as
	// unshare --propagation private does), so no mount leaks out.
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %q timed out", name, args)
	}
	if errors.Is(err, syscall.EPERM) {
		testtool.Missing(t, "a mount namespace (unshare)", "util-linux", err)
	}
	r := resultOf(t, name, stdout.String(), stderr.String(), err)
	if strings.HasPrefix(r.stderr, "innss:") {
		t.Fatalf("setting up the namespace for %s: %s", name, r.stderr)
	}
	return r
}

// inNSSMain is "innss CONF DIR NSCD EMPTY PROG ARGV0 ARGS...", started
// in a mount namespace of its own: it bind-mounts CONF over
// /etc/nsswitch.conf, DIR over /var/lib/extrausers and, if NSCD is not
// empty, EMPTY over NSCD, then executes PROG as ARGV0 with ARGS.
func inNSSMain() {
	fail := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "innss: "+format+"\n", args...)
		os.Exit(2)
	}
	if len(os.Args) < 7 {
		fail("usage: innss conf dir nscd empty prog argv0 [args...]")
	}
	// Never mount in the namespace of the parent: that would cover the
	// system's own files.
	self, err1 := os.Readlink("/proc/self/ns/mnt")
	parent, err2 := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", os.Getppid()))
	if err := errors.Join(err1, err2); err != nil || self == parent {
		fail("not in a mount namespace of its own (%s, parent %s): %v", self, parent, err)
	}
	conf, dir, nscd, empty, prog := os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]
	mounts := [][2]string{{conf, "/etc/nsswitch.conf"}, {dir, extrausersDir}}
	if nscd != "" {
		mounts = append(mounts, [2]string{empty, nscd})
	}
	for _, m := range mounts {
		if err := unix.Mount(m[0], m[1], "", unix.MS_BIND, ""); err != nil {
			fail("bind-mounting %s over %s: %v", m[0], m[1], err)
		}
	}
	err := syscall.Exec(prog, os.Args[6:], os.Environ())
	fail("executing %s: %v", prog, err)
}

// staticGfind builds gfind as the README does (CGO_ENABLED=0), once per
// test process.
func staticGfind(t *testing.T) string {
	t.Helper()
	path, err := buildStatic()
	if err != nil {
		t.Fatalf("building gfind with CGO_ENABLED=0: %v", err)
	}
	return path
}

var buildStatic = sync.OnceValues(func() (string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", err
	}
	// Beside the world-readable copy of the test binary, which TestMain
	// removes at the end.
	out := filepath.Join(filepath.Dir(os.Getenv(binEnv)), "gfind-static")
	cmd := exec.Command(goTool, "build", "-o", out, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%v: %s", err, msg)
	}
	return out, nil
})

// cgoSetting is the test binary's CGO_ENABLED, from its build info.
func cgoSetting() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "CGO_ENABLED" {
				return "CGO_ENABLED=" + s.Value
			}
		}
	}
	return "CGO_ENABLED unknown"
}
