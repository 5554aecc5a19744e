package testtree

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"golang.org/x/sys/unix"
)

func TestMakeAll(t *testing.T) {
	root := Make(t, Basic, Links, WeirdNames, Deep, Wide(50), Perms)
	for _, tt := range []struct {
		path string
		mode os.FileMode // type bits and permissions, from Lstat
	}{
		{"basic/a/b/c/deep.txt", 0o644},
		{"basic/empty", os.ModeDir | 0o755},
		{"basic/exec.sh", 0o755},
		{"basic/fifo", os.ModeNamedPipe | 0o644},
		{"basic/sock", os.ModeSocket},
		{"links/loop", os.ModeSymlink},
		{"links/dir/up", os.ModeSymlink},
		{"weird/new\nline", 0o644},
		{"weird/" + LongName, 0o644},
		{"weird/sub dir/nl\nfile", 0o644},
		{"wide/f000049", 0o644},
		{"perms/noperm", os.ModeDir},
		{"perms/searchonly", os.ModeDir | 0o311},
		{"perms/open/noread.txt", 0},
	} {
		fi, err := os.Lstat(filepath.Join(root, tt.path))
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		got := fi.Mode() & (os.ModeType | os.ModePerm)
		if tt.mode&os.ModeType == os.ModeSymlink || tt.mode&os.ModeType == os.ModeSocket {
			got &^= os.ModePerm // depends on the umask
		}
		if got != tt.mode {
			t.Errorf("%q: mode %v, want %v", tt.path, got, tt.mode)
		}
		if !fi.ModTime().Equal(Epoch) {
			t.Errorf("%q: mtime %v, want %v", tt.path, fi.ModTime(), Epoch)
		}
	}
	if fi, err := os.Stat(filepath.Join(root, "basic/big")); err != nil || fi.Size() != 1<<20+1 {
		t.Errorf("basic/big: %v %v", fi, err)
	}
	if fi, err := os.Stat(filepath.Join(root, "basic/hard")); err != nil || fi.Sys().(*syscall.Stat_t).Nlink != 2 {
		t.Errorf("basic/hard: want 2 links: %v", err)
	}
	if ents, err := os.ReadDir(filepath.Join(root, "wide")); err != nil || len(ents) != 50 {
		t.Errorf("wide has %d entries, %v; want 50", len(ents), err)
	}
}

func TestDeepPastPathMax(t *testing.T) {
	root := Make(t, Deep)
	fd, err := unix.Open(filepath.Join(root, "deep"), unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := len(root) + len("/deep")
	for i := 1; i <= DeepLevels; i++ {
		sub, err := unix.Openat(fd, DeepName(i), unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatalf("level %d: %v", i, err)
		}
		fd = sub
		n += 1 + DeepNameLen
	}
	var st unix.Stat_t
	err = unix.Fstatat(fd, "bottom.txt", &st, 0)
	unix.Close(fd)
	if err != nil {
		t.Fatal(err)
	}
	if n <= unix.PathMax {
		t.Errorf("deep path is %d bytes, not past PATH_MAX %d", n, unix.PathMax)
	}
	// t.TempDir's cleanup uses os.RemoveAll; check here that it copes.
	if err := os.RemoveAll(filepath.Join(root, "deep")); err != nil {
		t.Fatalf("os.RemoveAll: %v", err)
	}
}

func TestAsNobody(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("AsNobody only switches users when run as root")
	}
	root := Make(t, Perms)
	cat := testtool.Need(t, "cat", "coreutils")
	for _, tt := range []struct {
		file   string
		wantOK bool
	}{
		{"perms/open/ok.txt", true},
		{"perms/open/noread.txt", false},
		{"perms/noperm/secret.txt", false},
		{"perms/searchonly/known.txt", true},
		{"perms/listonly/f.txt", false},
	} {
		cmd := exec.Command(cat, filepath.Join(root, tt.file))
		AsNobody(cmd)
		out, err := cmd.CombinedOutput()
		if (err == nil) != tt.wantOK {
			t.Errorf("cat %s as nobody: %v %q, want success %v", tt.file, err, out, tt.wantOK)
		}
		if !tt.wantOK && !strings.Contains(string(out), "Permission denied") {
			t.Errorf("cat %s as nobody: %q, want Permission denied", tt.file, out)
		}
	}
	id := testtool.Need(t, "id", "coreutils")
	cmd := exec.Command(id, "-u")
	AsNobody(cmd)
	if out, err := cmd.Output(); err != nil || strings.TrimSpace(string(out)) != "65534" {
		t.Errorf("id -u as nobody: %q %v", out, err)
	}
	cmd = exec.Command(id, "-G")
	AsNobody(cmd)
	if out, err := cmd.Output(); err != nil || strings.TrimSpace(string(out)) != "65534" {
		t.Errorf("id -G as nobody: %q %v, want only 65534", out, err)
	}
}
