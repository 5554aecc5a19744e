package predicate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestRmdirAfterUnlink: -delete's rmdir, tried after unlink said
// meta.ErrUnlinkDir, reports its own error unless unlink's EPERM (the BSDs'
// and macOS's) was a refusal of a file that is no directory.
func TestRmdirAfterUnlink(t *testing.T) {
	for _, tt := range []struct {
		unlink, rmdir, want error
	}{
		{unix.EISDIR, nil, nil},                       // Linux: a directory, removed
		{unix.EISDIR, unix.ENOTEMPTY, unix.ENOTEMPTY}, // Linux: a directory, full
		{unix.EISDIR, unix.ENOTDIR, unix.ENOTDIR},     // Linux: replaced meanwhile
		{unix.EPERM, nil, nil},                        // BSD: a directory, removed
		{unix.EPERM, unix.ENOTEMPTY, unix.ENOTEMPTY},  // BSD: a directory, full
		{unix.EPERM, unix.ENOTDIR, unix.EPERM},        // BSD: a file unlink may not remove
	} {
		if got := rmdirAfterUnlink(tt.unlink, tt.rmdir); got != tt.want {
			t.Errorf("rmdirAfterUnlink(%v, %v) = %v, want %v", tt.unlink, tt.rmdir, got, tt.want)
		}
	}
}

// TestDirEmptyAt: -empty, through meta.DirEmpty, on a walk:
// an empty directory is, one with a name in it is not, and a link to an
// empty directory is not (under -P).
func TestDirEmptyAt(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"empty", "full", "full/x"} {
		if err := os.Mkdir(filepath.Join(dir, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("empty", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{dir, "-empty"}, []string{"empty", "full/x"}},
	} {
		r := runCommand(t, 1, "", tt.args...)
		var got []string
		for _, line := range strings.Fields(r.stdout) {
			got = append(got, strings.TrimPrefix(line, dir+"/"))
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) || r.stderr != "" {
			t.Errorf("%q: got %q, stderr %q; want %q", tt.args, got, r.stderr, tt.want)
		}
	}
}
