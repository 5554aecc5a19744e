package meta

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSysErrnos: the errno values of the boundary (sys_<os>.go) are what
// this system's calls say: open(2) with O_NOFOLLOW on a symbolic link,
// and unlink(2) of a directory.
func TestSysErrnos(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	// Without O_DIRECTORY: with it, Linux says ENOTDIR first.
	fd, err := unix.Open(filepath.Join(dir, "l"), unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err == nil {
		unix.Close(fd)
	}
	if err != ErrNoFollowLink {
		t.Errorf("open(O_NOFOLLOW) of a link: %v, want ErrNoFollowLink (%v)", err, ErrNoFollowLink)
	}
	if err := unix.Unlink(filepath.Join(dir, "d")); err != ErrUnlinkDir {
		t.Errorf("unlink of a directory: %v, want ErrUnlinkDir (%v)", err, ErrUnlinkDir)
	}
}
