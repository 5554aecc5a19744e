package testtree

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

func TestMeta(t *testing.T) {
	root := Make(t, Meta)
	lstat := func(name string) unix.Stat_t {
		t.Helper()
		var st unix.Stat_t
		if err := unix.Lstat(filepath.Join(root, "meta", name), &st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	for _, tt := range []struct {
		name string
		mode uint32 // type and permission bits
		size int64  // -1: not checked
	}{
		{"size/s0", unix.S_IFREG | 0o644, 0},
		{"size/s513", unix.S_IFREG | 0o644, 513},
		{"size/s1025", unix.S_IFREG | 0o644, 1025},
		{"size/sparse", unix.S_IFREG | 0o644, 1 << 20},
		{"mode/m0000", unix.S_IFREG, 5},
		{"mode/m0777", unix.S_IFREG | 0o777, 5},
		{"mode/setuid", unix.S_IFREG | 0o4755, -1},
		{"mode/setgid", unix.S_IFREG | 0o2755, -1},
		{"mode/all", unix.S_IFREG | 0o7777, -1},
		{"mode/sticky", unix.S_IFDIR | 0o1777, -1},
		{"mode/sgid_dir", unix.S_IFDIR | 0o2775, -1},
		{"mode/d0000", unix.S_IFDIR, -1},
		{"links/fifo", unix.S_IFIFO | 0o644, 0},
		{"empty", unix.S_IFDIR | 0o755, -1},
	} {
		st := lstat(tt.name)
		// Mode is uint16 on macOS and the BSDs.
		if uint32(st.Mode) != tt.mode {
			t.Errorf("%s: mode %o, want %o", tt.name, st.Mode, tt.mode)
		}
		if tt.size >= 0 && st.Size != tt.size {
			t.Errorf("%s: size %d, want %d", tt.name, st.Size, tt.size)
		}
	}
	if st := lstat("size/sparse"); st.Blocks != 0 {
		t.Errorf("size/sparse has %d blocks, want a hole", st.Blocks)
	}
	if st := lstat("links/sub/three_c"); st.Nlink != 3 {
		t.Errorf("links/three has %d links, want 3", st.Nlink)
	}
	if st := lstat("sym/to_s1"); st.Mode&unix.S_IFMT != unix.S_IFLNK {
		t.Errorf("sym/to_s1 is not a symbolic link")
	}
	if os.Geteuid() == 0 {
		for _, o := range []struct {
			name     string
			uid, gid uint32
		}{
			{"owner/nobody", NobodyID, NobodyID},
			{"owner/unknown", UnknownID, UnknownID},
			{"owner/ugroup", 0, UnknownID},
		} {
			if st := lstat(o.name); st.Uid != o.uid || st.Gid != o.gid {
				t.Errorf("%s: owner %d:%d, want %d:%d", o.name, st.Uid, st.Gid, o.uid, o.gid)
			}
		}
	}
	// Timespec's fields are int32 on 32-bit Linux.
	if st := lstat("size/s1"); int64(st.Mtim.Sec) != Epoch.Unix() {
		t.Errorf("size/s1: mtime %d, want %d", st.Mtim.Sec, Epoch.Unix())
	}
}
