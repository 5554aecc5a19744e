package predicate

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// fakeNS stands for the name service in the tests of idDB's use of it
// (the real NSS modules are tested in cmd/gfind's TestNameService): it
// knows the accounts in its maps and counts each question.
type fakeNS struct {
	users  map[uint32]string
	groups map[uint32]string
	// hold, when set, is called with each question before it is
	// answered.
	hold func(q string)

	mu    sync.Mutex
	asked []string
}

func (f *fakeNS) ask(q string) {
	f.mu.Lock()
	f.asked = append(f.asked, q)
	f.mu.Unlock()
	if f.hold != nil {
		f.hold(q)
	}
}

func (f *fakeNS) questions() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.asked)
}

func (f *fakeNS) userName(uid uint32) (string, bool) {
	f.ask(fmt.Sprint("uid ", uid))
	n, ok := f.users[uid]
	return n, ok
}

func (f *fakeNS) groupName(gid uint32) (string, bool) {
	f.ask(fmt.Sprint("gid ", gid))
	n, ok := f.groups[gid]
	return n, ok
}

func byName(m map[uint32]string, name string) (uint32, bool) {
	for id, n := range m {
		if n == name {
			return id, true
		}
	}
	return 0, false
}

func (f *fakeNS) userID(name string) (uint32, bool) {
	f.ask("user " + name)
	return byName(f.users, name)
}

func (f *fakeNS) groupID(name string) (uint32, bool) {
	f.ask("group " + name)
	return byName(f.groups, name)
}

// withTestNS is withTestIDs with ns as the name service behind the
// files.
func withTestNS(t *testing.T, ns nameService) {
	t.Helper()
	withTestIDs(t)
	ids.ns = ns
}

func newFakeNS() *fakeNS {
	return &fakeNS{
		users:  map[uint32]string{4242: "nssuser", 1000: "shadowed"},
		groups: map[uint32]string{4343: "nssgroup"},
	}
}

// TestNameServiceFallback: what the files do not know is asked of the
// name service, once per distinct name or id; what they know never is.
func TestNameServiceFallback(t *testing.T) {
	ns := newFakeNS()
	withTestNS(t, ns)
	for _, tt := range []struct {
		op, arg string
		id      uint32
		err     string
		asked   []string
	}{
		{"-user", "alice", 1000, "", nil}, // the files answer first
		{"-user", "nssuser", 4242, "", []string{"user nssuser"}},
		{"-user", "nssuser", 4242, "", nil}, // cached
		{"-group", "nssgroup", 4343, "", []string{"group nssgroup"}},
		{"-group", "wheel", 10, "", nil},
		// A number is a name first, for NSS too, as getpwnam is asked
		// first by GNU find.
		{"-user", "5555", 5555, "", []string{"user 5555"}},
		{"-user", "nosuch", 0, "invalid user name or UID argument to -user: 'nosuch'", []string{"user nosuch"}},
		{"-user", "nosuch", 0, "invalid user name or UID argument to -user: 'nosuch'", nil}, // a cached "unknown"
		{"-group", "nosuch", 0, "invalid group name or GID argument to -group: 'nosuch'", []string{"group nosuch"}},
		{"-user", "", 0, "invalid user name or UID argument to -user: ''", nil},
		{"-group", "", 0, "invalid group name or GID argument to -group: ''", nil},
	} {
		before := len(ns.questions())
		cmd, err := Parse([]string{".", tt.op, tt.arg}, Config{Quote: output.StyleC.Quote})
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s %q: error %v, want %q", tt.op, tt.arg, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s %q: %v", tt.op, tt.arg, err)
		default:
			if n := cmd.Expr.(*andNode).kids[0].(*ownerNode); n.id != tt.id {
				t.Errorf("%s %q: id %d, want %d", tt.op, tt.arg, n.id, tt.id)
			}
		}
		if got := ns.questions()[before:]; !slices.Equal(got, tt.asked) {
			t.Errorf("%s %q asked %q, want %q", tt.op, tt.arg, got, tt.asked)
		}
	}
}

// TestNameServiceEval: -nouser, -nogroup, %u, %g, -ls and -printjson
// name NSS-only owners, and ask once per id however many files it owns;
// an id the files know is never asked. The cache lasts for the whole
// table, so a row asks only for what no row before it asked.
func TestNameServiceEval(t *testing.T) {
	setLocalUTC(t)
	ns := newFakeNS()
	withTestNS(t, ns)
	file := func(uid, gid uint32) *walker.Entry {
		return walker.Synthetic("f", 1, walker.TypeRegular, &unix.Stat_t{Mode: reg | 0o644, Nlink: 1, Uid: uid, Gid: gid}, nil)
	}
	for _, tt := range []struct {
		args     []string
		uid, gid uint32
		want     string
		asked    []string
	}{
		{[]string{"-nouser"}, 0, 0, "", nil},
		{[]string{"-nouser"}, 1000, 0, "", nil}, // alice in the files: "shadowed" is never seen
		{[]string{"-nouser"}, 4242, 0, "", []string{"uid 4242"}},
		{[]string{"-nouser"}, 5555, 0, "f\n", []string{"uid 5555"}},
		{[]string{"-nogroup"}, 0, 4343, "", []string{"gid 4343"}},
		{[]string{"-nogroup"}, 0, 6666, "f\n", []string{"gid 6666"}},
		{[]string{"-printf", `%u %g %U %G\n`}, 4242, 4343, "nssuser nssgroup 4242 4343\n", nil},
		{[]string{"-printf", `%u %g\n`}, 1000, 10, "alice wheel\n", nil},
		{[]string{"-printf", `%u %g\n`}, 5555, 6666, "5555 6666\n", nil},
		{[]string{"-printf", `%u %g\n`}, 7777, 7777, "7777 7777\n", []string{"uid 7777", "gid 7777"}},
		{[]string{"-ls"}, 4242, 4343, "        0      0 -rw-r--r--   1 nssuser  nssgroup        0 Jan  1  1970 f\n", nil},
		{[]string{"-ls"}, 5555, 6666, "        0      0 -rw-r--r--   1 5555     6666            0 Jan  1  1970 f\n", nil},
		{[]string{"-printjson"}, 4242, 6666, "", nil},
	} {
		s, out := colorState(t, walker.FollowNever)
		cmd, err := Parse(append([]string{"."}, tt.args...), Config{})
		if err != nil {
			t.Fatal(err)
		}
		before := len(ns.questions())
		for range 3 {
			s.Visit(cmd.Expr, file(tt.uid, tt.gid))
		}
		got := out()
		if tt.args[0] == "-printjson" {
			if !strings.Contains(got, `"user":"nssuser","group":null`) {
				t.Errorf("%q on %d:%d printed %q, want user nssuser and group null", tt.args, tt.uid, tt.gid, got)
			}
		} else if want := strings.Repeat(tt.want, 3); got != want {
			t.Errorf("%q on %d:%d printed %q, want %q", tt.args, tt.uid, tt.gid, got, want)
		}
		if got := ns.questions()[before:]; !slices.Equal(got, tt.asked) {
			t.Errorf("%q on %d:%d asked %q, want %q", tt.args, tt.uid, tt.gid, got, tt.asked)
		}
	}
}

// TestNameServiceOnce: workers that need the same unknown id at the same
// time get one lookup between them, and wait for its answer.
func TestNameServiceOnce(t *testing.T) {
	const workers = 16
	ns := newFakeNS()
	var started sync.WaitGroup
	started.Add(workers)
	// The first lookup is answered only once every worker has started
	// asking, so the others come while it is still under way.
	ns.hold = func(string) { started.Wait() }
	withTestNS(t, ns)
	db := ids
	var done sync.WaitGroup
	names := make([]string, workers)
	for i := range workers {
		done.Add(1)
		go func() {
			defer done.Done()
			started.Done()
			names[i], _ = db.user(4242)
			if _, ok := db.group(9999); ok {
				t.Error("gid 9999 has a name")
			}
		}()
	}
	done.Wait()
	for i, n := range names {
		if n != "nssuser" {
			t.Errorf("worker %d: uid 4242 is %q, want nssuser", i, n)
		}
	}
	if got, want := ns.questions(), []string{"uid 4242", "gid 9999"}; !slices.Equal(got, want) {
		t.Errorf("asked %q, want %q", got, want)
	}
}

// fakeGetent is a shell script standing for getent in the tests of the
// protocol: it logs its arguments (after argv[0], which a script cannot
// see) and prints what a key calls for.
const fakeGetent = `#!/bin/sh
printf '%s|' "$@" >>"$0.log"; echo >>"$0.log"
case "$3" in
4242|alice) echo 'alice:x:4242:4343:Alice:/home/alice:/bin/sh' ;;
4343|staffx) echo 'staffx:x:4343:' ;;
-dash) echo 'dash:x:77:77::/:' ;;
ALICE) echo 'alice:x:4242:4343::/:' ;;
1) echo 'other:x:99:99::/:' ;;
short) echo 'short:x:5' ;;
big) printf 'big:x:6:'; head -c 200000 /dev/zero | tr '\0' m; echo ;;
cut) head -c 4090 /dev/zero | tr '\0' n; echo ':x:123456:' ;;
fail) echo 'fail:x:8:8::/:'; exit 2 ;;
text) echo 'text:x:abc:' ;;
2) printf 'two:x:2:\nextra:x:3:\n' ;;
*) exit 2 ;;
esac
`

// TestGetentProtocol: the arguments getent gets, and what of its output
// is believed.
func TestGetentProtocol(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "getent")
	if err := os.WriteFile(prog, []byte(fakeGetent), 0o755); err != nil {
		t.Fatal(err)
	}
	g := getentNS{path: func() string { return prog }}
	log := func() []string {
		b, _ := os.ReadFile(prog + ".log")
		os.Remove(prog + ".log")
		return strings.Fields(string(b))
	}
	for _, tt := range []struct {
		kind, key string
		want      getentAnswer
		argv      []string
	}{
		{"uid", "4242", getentAnswer{"alice", 0, true}, []string{"passwd|--|4242|"}},
		{"gid", "4343", getentAnswer{"staffx", 0, true}, []string{"group|--|4343|"}},
		{"user", "alice", getentAnswer{"", 4242, true}, []string{"passwd|--|alice|"}},
		{"group", "staffx", getentAnswer{"", 4343, true}, []string{"group|--|staffx|"}},
		{"user", "-dash", getentAnswer{"", 77, true}, []string{"passwd|--|-dash|"}},
		// The id of the entry, whatever name it has (canonicalized).
		{"user", "ALICE", getentAnswer{"", 4242, true}, []string{"passwd|--|ALICE|"}},
		// Another id than asked for: not believed.
		{"uid", "1", getentAnswer{}, []string{"passwd|--|1|"}},
		// Only the first line counts.
		{"gid", "2", getentAnswer{"two", 0, true}, []string{"group|--|2|"}},
		{"user", "short", getentAnswer{}, []string{"passwd|--|short|"}},
		{"user", "big", getentAnswer{"", 6, true}, []string{"passwd|--|big|"}},
		{"user", "cut", getentAnswer{}, []string{"passwd|--|cut|"}},
		{"user", "fail", getentAnswer{}, []string{"passwd|--|fail|"}},
		{"user", "text", getentAnswer{}, []string{"passwd|--|text|"}},
		{"user", "nosuch", getentAnswer{}, []string{"passwd|--|nosuch|"}},
		// Names getent would take as ids are not asked at all.
		{"user", "4242", getentAnswer{}, nil},
		{"user", "+1", getentAnswer{}, nil},
		{"group", " 2", getentAnswer{}, nil},
		{"user", "", getentAnswer{}, nil},
	} {
		var got getentAnswer
		id, _ := strconv.ParseUint(tt.key, 10, 32)
		switch tt.kind {
		case "uid":
			got.name, got.ok = g.userName(uint32(id))
		case "gid":
			got.name, got.ok = g.groupName(uint32(id))
		case "user":
			got.id, got.ok = g.userID(tt.key)
		case "group":
			got.id, got.ok = g.groupID(tt.key)
		}
		if got != tt.want {
			t.Errorf("%s %q: %+v, want %+v", tt.kind, tt.key, got, tt.want)
		}
		if ran := log(); !slices.Equal(ran, tt.argv) {
			t.Errorf("%s %q ran %q, want %q", tt.kind, tt.key, ran, tt.argv)
		}
	}

	none := getentNS{path: func() string { return "" }}
	if n, ok := none.userName(0); ok {
		t.Errorf("without getent uid 0 is %q", n)
	}
	missing := getentNS{path: func() string { return filepath.Join(dir, "nosuch") }}
	if _, ok := missing.userID("alice"); ok {
		t.Error("a getent that cannot run named alice")
	}
}

// A getentAnswer is what one getentNS method returned.
type getentAnswer struct {
	name string
	id   uint32
	ok   bool
}

// rootGroup is the name of group 0: root on Linux, wheel on the BSDs.
var rootGroup = map[bool]string{true: "root", false: "wheel"}[runtime.GOOS == "linux"]

// TestGetentSystem asks the system's getent about root, whom every
// Unix has: the path is found and the real output parsed.
func TestGetentSystem(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("macOS has no getent(1); its names come through os/user (nss_libc.go)")
	}
	if getentPath() == "" {
		testtool.Missing(t, "getent", "libc-bin", nil)
	}
	g := newGetentNS()
	if n, ok := g.userName(0); !ok || n != "root" {
		t.Errorf("uid 0: %q %v", n, ok)
	}
	if n, ok := g.groupName(0); !ok || n != rootGroup {
		t.Errorf("gid 0: %q %v, want %q", n, ok, rootGroup)
	}
	if id, ok := g.userID("root"); !ok || id != 0 {
		t.Errorf("user root: %d %v", id, ok)
	}
	if id, ok := g.groupID(rootGroup); !ok || id != 0 {
		t.Errorf("group %s: %d %v", rootGroup, id, ok)
	}
	if id, ok := g.userID("gfind-no-such-user"); ok {
		t.Errorf("gfind-no-such-user has uid %d", id)
	}
}

func TestGetentNumeric(t *testing.T) {
	for key, want := range map[string]bool{
		"0": true, "007": true, "+1": true, "-1": true, " 1": true, "\t\n 42": true,
		"99999999999999999999": true,
		"":                     false, " ": false, "+": false, "-": false, "1a": false, "a1": false,
		"1 ": false, "+-1": false, "alice": false, "0x10": false,
	} {
		if got := getentNumeric(key); got != want {
			t.Errorf("getentNumeric(%q) = %v, want %v", key, got, want)
		}
	}
}
