package listfile

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/accounts"
	"golang.org/x/sys/unix"
)

// TestAppendFields formats a run of lines whose fields widen the
// columns for the lines after them, as GNU find 4.9 does (predicate's
// TestLsLines checks whole lines against GNU's).
func TestAppendFields(t *testing.T) {
	old := time.Local
	time.Local = time.UTC
	t.Cleanup(func() { time.Local = old })
	dir := t.TempDir()
	passwd, group := filepath.Join(dir, "passwd"), filepath.Join(dir, "group")
	if err := os.WriteFile(passwd, []byte("root:x:0:0::/root:/bin/sh\nlongusername:x:7:7::/:/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(group, []byte("root:x:0:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ids := accounts.Load(passwd, group, nil)
	const now = 1614834367 // 2021-03-04 05:06:07 UTC
	w := NewWidths()
	for _, tt := range []struct {
		st        unix.Stat_t
		blockSize int64
		want      string
	}{
		{unix.Stat_t{Ino: 11118969, Blocks: 8, Mode: unix.S_IFDIR | 0o755, Nlink: 2, Size: 4096, Mtim: unix.Timespec{Sec: now - 10}}, 1024,
			" 11118969      4 drwxr-xr-x   2 root     root         4096 Mar  4 05:05"},
		{unix.Stat_t{Ino: 9, Blocks: 3, Mode: unix.S_IFREG | 0o644, Nlink: 1, Size: 1500}, 512,
			"        9      3 -rw-r--r--   1 root     root         1500 Jan  1  1970"},
		{unix.Stat_t{Ino: 3, Mode: unix.S_IFREG | 0o2644, Nlink: 1, Uid: 4242, Gid: 4242, Mtim: unix.Timespec{Sec: now + 3600}}, 1024,
			"        3      0 -rw-r-Sr--   1 4242     4242            0 Mar  4 06:06"},
		// The unknown owner printed 9 columns ("%-8lu "): the owner
		// column stays that wide; a longer name widens it again.
		{unix.Stat_t{Ino: 4, Mode: unix.S_IFIFO | 0o644, Nlink: 1, Mtim: unix.Timespec{Sec: now + 3601}}, 1024,
			"        4      0 prw-r--r--   1 root      root            0 Mar  4  2021"},
		{unix.Stat_t{Ino: 5, Mode: unix.S_IFREG | 0o600, Nlink: 1, Uid: 7, Mtim: unix.Timespec{Sec: now}}, 1024,
			"        5      0 -rw-------   1 longusername root            0 Mar  4 05:06"},
		{unix.Stat_t{Ino: 1234567890, Blocks: 2000001, Mode: unix.S_IFREG | 0o600, Nlink: 1000, Size: 5000000000, Mtim: unix.Timespec{Sec: 0}}, 1024,
			"1234567890 1000001 -rw------- 1000 root         root     5000000000 Jan  1  1970"},
		{unix.Stat_t{Ino: 7, Mode: unix.S_IFREG | 0o444, Nlink: 1, Mtim: unix.Timespec{Sec: now}}, 1024,
			"         7       0 -r--r--r--    1 root         root              0 Mar  4 05:06"},
	} {
		if got := string(w.AppendFields(nil, &tt.st, ids, now, tt.blockSize)); got != tt.want {
			t.Errorf("inode %d:\n got %q\nwant %q", tt.st.Ino, got, tt.want)
		}
	}
}

func TestAppendName(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"plain/name.go", "plain/name.go"},
		{"sp ace", "sp\\ ace"},
		{"\x01\"\\\t\n\r\b\f\xc3\xa9~", "\\001\\\"\\\\\\t\\n\\r\\b\\f\\303\\251~"},
		{"\x7f\x00", "\\177\\000"},
	} {
		if got := string(AppendName(nil, []byte(tt.name))); got != tt.want {
			t.Errorf("AppendName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
