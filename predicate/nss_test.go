package predicate

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gfind/gfind/internal/accounts"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// fakeNS stands for the name service in the tests of the account
// database's use of it
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

func (f *fakeNS) UserName(uid uint32) (string, bool) {
	f.ask(fmt.Sprint("uid ", uid))
	n, ok := f.users[uid]
	return n, ok
}

func (f *fakeNS) GroupName(gid uint32) (string, bool) {
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

func (f *fakeNS) UserID(name string) (uint32, bool) {
	f.ask("user " + name)
	return byName(f.users, name)
}

func (f *fakeNS) GroupID(name string) (uint32, bool) {
	f.ask("group " + name)
	return byName(f.groups, name)
}

// withTestNS is withTestIDs with ns as the name service behind the
// files.
func withTestNS(t *testing.T, ns accounts.NameService) {
	t.Helper()
	useTestIDs(t, ns)
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
	db := systemIDs()
	var done sync.WaitGroup
	names := make([]string, workers)
	for i := range workers {
		done.Add(1)
		go func() {
			defer done.Done()
			started.Done()
			names[i], _ = db.User(4242)
			if _, ok := db.Group(9999); ok {
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
