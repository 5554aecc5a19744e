package accounts

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

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
			got.name, got.ok = g.UserName(uint32(id))
		case "gid":
			got.name, got.ok = g.GroupName(uint32(id))
		case "user":
			got.id, got.ok = g.UserID(tt.key)
		case "group":
			got.id, got.ok = g.GroupID(tt.key)
		}
		if got != tt.want {
			t.Errorf("%s %q: %+v, want %+v", tt.kind, tt.key, got, tt.want)
		}
		if ran := log(); !slices.Equal(ran, tt.argv) {
			t.Errorf("%s %q ran %q, want %q", tt.kind, tt.key, ran, tt.argv)
		}
	}

	none := getentNS{path: func() string { return "" }}
	if n, ok := none.UserName(0); ok {
		t.Errorf("without getent uid 0 is %q", n)
	}
	missing := getentNS{path: func() string { return filepath.Join(dir, "nosuch") }}
	if _, ok := missing.UserID("alice"); ok {
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
		t.Skip("macOS has no getent(1); its names come through os/user (ns_libc.go)")
	}
	if getentPath() == "" {
		testtool.Missing(t, "getent", "libc-bin", nil)
	}
	g := newGetentNS()
	if n, ok := g.UserName(0); !ok || n != "root" {
		t.Errorf("uid 0: %q %v", n, ok)
	}
	if n, ok := g.GroupName(0); !ok || n != rootGroup {
		t.Errorf("gid 0: %q %v, want %q", n, ok, rootGroup)
	}
	if id, ok := g.UserID("root"); !ok || id != 0 {
		t.Errorf("user root: %d %v", id, ok)
	}
	if id, ok := g.GroupID(rootGroup); !ok || id != 0 {
		t.Errorf("group %s: %d %v", rootGroup, id, ok)
	}
	if id, ok := g.UserID("gfind-no-such-user"); ok {
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
