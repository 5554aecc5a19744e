package predicate

// File capabilities are Linux's (security.capability); elsewhere
// meta.HasCapability is false and ca never colors.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// TestColorCapability: ca colors a regular file with file capabilities,
// and is asked only when ca is colored.
func TestColorCapability(t *testing.T) {
	dir := t.TempDir()
	capped, plain := filepath.Join(dir, "capped"), filepath.Join(dir, "plain")
	for _, f := range []string{capped, plain} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// struct vfs_cap_data, revision 2: CAP_NET_BIND_SERVICE permitted.
	data := []byte{0, 0, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	if err := unix.Setxattr(capped, "security.capability", data, 0); err != nil {
		t.Skipf("cannot set file capabilities here: %v", err)
	}
	got := colorsOf(t, dir, cheapColors+":ca=CA", walker.FollowNever, nil)
	checkColors(t, got, map[string]string{"capped": "CA", "plain": "FI"})
	got = colorsOf(t, dir, cheapColors, walker.FollowNever, nil)
	checkColors(t, got, map[string]string{"capped": "FI", "plain": "FI"})
}
