package accounts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// idLineTests: what parseIDLine takes from one line of a passwd or
// group file, as glibc's files backend reads it (the lines of
// predicate's testPasswd and testGroup among them).
var idLineTests = []struct {
	line string
	name string
	id   uint32
	ok   bool
}{
	{"root:x:0:0:root:/root:/bin/bash", "root", 0, true},
	{"# a comment", "", 0, false},
	{"  daemon:x:1:1::/:/bin/false", "daemon", 1, true}, // leading blanks are skipped
	{"\t\v\f\rtab:x:2:", "tab", 2, true},
	{"bad:x:notanumber:0::/:", "", 0, false},
	{"huge:x:4294967296:0::/:", "", 0, false},
	{"max:x:4294967295:0::/:", "max", 4294967295, true},
	{"007:x:8:8::/:", "007", 8, true},
	{"+nis::::::", "", 0, false},
	{"", "", 0, false},
	{"   ", "", 0, false},
	{":x:5:", "", 0, false}, // no name
	{"wheel:x:10:alice", "wheel", 10, true},
	{"g:x:9", "g", 9, true}, // three fields are enough
	{"g:x", "", 0, false},
	{"g:x: 9:", "", 0, false},
	{"g:x:+9:", "", 0, false},
	{"g:x:-1:", "", 0, false},
}

func TestParseIDLine(t *testing.T) {
	for _, tt := range idLineTests {
		name, id, ok := parseIDLine([]byte(tt.line))
		if name != tt.name || id != tt.id || ok != tt.ok {
			t.Errorf("parseIDLine(%q) = %q %d %v, want %q %d %v", tt.line, name, id, ok, tt.name, tt.id, tt.ok)
		}
	}
}

// TestLoad: the first line of a name or id wins, as getpwnam and
// getpwuid answer from the files.
func TestLoad(t *testing.T) {
	tmp := t.TempDir()
	pw, gr := filepath.Join(tmp, "passwd"), filepath.Join(tmp, "group")
	if err := os.WriteFile(pw, []byte("alice:x:1000:1000::/:\nalice:x:1001:1001::/:\nbob:x:1000:1000::/:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gr, []byte("# groups\nwheel:x:10:alice\n12:x:99:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := Load(pw, gr, nil)
	if id, ok := db.UID("alice"); !ok || id != 1000 {
		t.Errorf("alice: %d %v", id, ok)
	}
	if id, ok := db.UID("bob"); !ok || id != 1000 {
		t.Errorf("bob: %d %v", id, ok)
	}
	if n, ok := db.User(1000); !ok || n != "alice" {
		t.Errorf("uid 1000: %q %v", n, ok)
	}
	if n, ok := db.User(1001); !ok || n != "alice" {
		t.Errorf("uid 1001: %q %v", n, ok)
	}
	if id, ok := db.GID("12"); !ok || id != 99 {
		t.Errorf("group 12: %d %v", id, ok)
	}
	if n, ok := db.Group(10); !ok || n != "wheel" {
		t.Errorf("gid 10: %q %v", n, ok)
	}
	if _, ok := db.UID("wheel"); ok {
		t.Error("the user wheel")
	}
	if _, ok := db.Group(1000); ok {
		t.Error("a user's gid is a group")
	}
}

func TestLoadIDsMissing(t *testing.T) {
	db := Load(filepath.Join(t.TempDir(), "nosuch"), "/nonexistent/group", nil)
	if len(db.users)+len(db.uids)+len(db.groups)+len(db.gids) != 0 {
		t.Errorf("missing files gave %+v", db)
	}
}

// FuzzParseIDLine: the database parser on arbitrary files.
func FuzzParseIDLine(f *testing.F) {
	for _, tt := range idLineTests {
		f.Add(tt.line + "\n")
	}
	f.Add("x:y:12:13\n")
	f.Add("g:x:9\n# c\n")
	f.Fuzz(func(t *testing.T, file string) {
		for _, line := range strings.Split(file, "\n") {
			if name, _, ok := parseIDLine([]byte(line)); ok && (name == "" || strings.Contains(name, ":")) {
				t.Fatalf("parseIDLine(%q) gave the name %q", line, name)
			}
		}
	})
}
