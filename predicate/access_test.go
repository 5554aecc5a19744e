package predicate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// TestAccess checks -readable, -writable and -executable on real files.
// Root passes every read and write check, but execute needs an x bit on
// a file; the checks as an ordinary user are in cmd/gfind's differential
// tests, which run as nobody.
func TestAccess(t *testing.T) {
	tmp := t.TempDir()
	p := func(name string) string { return filepath.Join(tmp, name) }
	for name, mode := range map[string]uint32{"m0000": 0, "m0644": 0o644, "m0755": 0o755, "m0100": 0o100, "m0400": 0o400} {
		if err := os.WriteFile(p(name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := unix.Chmod(p(name), mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, err := range []error{
		os.Mkdir(p("d0700"), 0o700),
		os.Symlink("m0755", p("to_exec")),
		os.Symlink("m0644", p("to_plain")),
		os.Symlink("nowhere", p("dangling")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var want map[string][]string
	if os.Geteuid() == 0 {
		all := []string{"d0700", "m0000", "m0100", "m0400", "m0644", "m0755", "to_exec", "to_plain"}
		want = map[string][]string{
			"-readable":   all,
			"-writable":   all,
			"-executable": {"d0700", "m0100", "m0755", "to_exec"},
		}
	} else {
		want = map[string][]string{
			"-readable":   {"d0700", "m0400", "m0644", "m0755", "to_exec", "to_plain"},
			"-writable":   {"d0700", "m0644", "m0755", "to_exec", "to_plain"},
			"-executable": {"d0700", "m0100", "m0755", "to_exec"},
		}
	}
	for op, w := range want {
		n := parseOne(t, op)
		for _, follow := range []walker.Follow{walker.FollowNever, walker.FollowAll} {
			// The same under -P and -L: access(2) follows links itself.
			got, failed := walkNames(t, tmp, follow, n)
			if !slices.Equal(got, w) || failed {
				t.Errorf("%s (follow %v): %q (failed %v), want %q", op, follow, got, failed, w)
			}
		}
	}
	// A file that cannot be asked about is simply not accessible.
	s := newTestState()
	if parseOne(t, "-readable").Eval(walker.Synthetic("x", 1, walker.TypeRegular, &unix.Stat_t{}, nil), s) || s.Diag.Failed() {
		t.Error("-readable on a Synthetic Entry: true or reported")
	}
}
