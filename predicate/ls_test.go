package predicate

import (
	"testing"

	"github.com/gfind/gfind/internal/listfile"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// TestLsLines formats a run of -ls lines whose fields widen the columns
// for the lines after them, as GNU find 4.9 does (the expected lines
// were checked against its output for files with the same status).
func TestLsLines(t *testing.T) {
	setLocalUTC(t)
	const now = 1614834367 // 2021-03-04 05:06:07 UTC
	names := systemIDs()
	if n, ok := names.User(0); !ok || n != "root" {
		t.Skip("uid 0 is not root here")
	}
	if g, ok := names.Group(0); !ok || g != "root" {
		t.Skip("gid 0 is not root here (wheel on macOS and the BSDs)")
	}
	if _, ok := names.User(4242); ok {
		t.Skip("uid 4242 has a name here")
	}
	if _, ok := names.Group(4242); ok {
		t.Skip("gid 4242 has a name here")
	}
	n := &lsNode{op: "-ls", now: now, blockSize: 1024, w: listfile.NewWidths()}
	s := newTestState()
	for _, tt := range []struct {
		path string
		st   unix.Stat_t
		want string
	}{
		{"ls", unix.Stat_t{Ino: 11118969, Blocks: 8, Mode: unix.S_IFDIR | 0o755, Nlink: 2, Size: 4096, Mtim: unix.Timespec{Sec: now - 10}},
			" 11118969      4 drwxr-xr-x   2 root     root         4096 Mar  4 05:05 ls\n"},
		{"ls/sp ace", unix.Stat_t{Ino: 1, Blocks: 1, Mode: unix.S_IFREG | 0o4644, Nlink: 1, Size: 1, Mtim: unix.Timespec{Sec: now - 180*86400}},
			"        1      1 -rwSr--r--   1 root     root            1 Sep  5 05:06 ls/sp\\ ace\n"},
		{"ls/\x01\"\\\t\n\r\b\f\xc3\xa9~", unix.Stat_t{Ino: 2, Mode: unix.S_IFREG | 0o1777, Nlink: 1, Mtim: unix.Timespec{Sec: now - 180*86400 - 1}},
			"        2      0 -rwxrwxrwt   1 root     root            0 Sep  5  2020 ls/\\001\\\"\\\\\\t\\n\\r\\b\\f\\303\\251~\n"},
		{"ls/a~b", unix.Stat_t{Ino: 3, Mode: unix.S_IFREG | 0o2644, Nlink: 1, Uid: 4242, Gid: 4242, Mtim: unix.Timespec{Sec: now + 3600}},
			"        3      0 -rw-r-Sr--   1 4242     4242            0 Mar  4 06:06 ls/a~b\n"},
		// The unknown owner printed 9 columns ("%-8lu "): the owner
		// column stays that wide.
		{"ls/fifo", unix.Stat_t{Ino: 4, Mode: unix.S_IFIFO | 0o644, Nlink: 1, Mtim: unix.Timespec{Sec: now + 3601}},
			"        4      0 prw-r--r--   1 root      root            0 Mar  4  2021 ls/fifo\n"},
		{"ls/chr", withRdev(unix.Stat_t{Ino: 5, Mode: unix.S_IFCHR | 0o620, Nlink: 1, Mtim: unix.Timespec{Sec: now}}, unix.Mkdev(1, 3)),
			"        5      0 crw--w----   1 root      root       1,   3 Mar  4 05:06 ls/chr\n"},
		{"ls/chr2", withRdev(unix.Stat_t{Ino: 6, Mode: unix.S_IFBLK | 0o660, Nlink: 1, Mtim: unix.Timespec{Sec: now}}, unix.Mkdev(200, 70000)),
			"        6      0 brw-rw----   1 root      root     200, 70000 Mar  4 05:06 ls/chr2\n"},
		{"ls/big", unix.Stat_t{Ino: 1234567890, Blocks: 2000001, Mode: unix.S_IFREG | 0o600, Nlink: 1000, Size: 5000000000, Mtim: unix.Timespec{Sec: 0}},
			"1234567890 1000001 -rw------- 1000 root      root     5000000000 Jan  1  1970 ls/big\n"},
		// Every widened column stays wide.
		{"ls/x", withRdev(unix.Stat_t{Ino: 7, Mode: unix.S_IFREG | 0o444, Nlink: 1, Mtim: unix.Timespec{Sec: now}}, unix.Mkdev(1, 3)),
			"         7       0 -r--r--r--    1 root      root              0 Mar  4 05:06 ls/x\n"},
		{"ls/chr", withRdev(unix.Stat_t{Ino: 5, Mode: unix.S_IFCHR | 0o620, Nlink: 1, Mtim: unix.Timespec{Sec: now}}, unix.Mkdev(1, 3)),
			"         5       0 crw--w----    1 root      root       1,     3 Mar  4 05:06 ls/chr\n"},
	} {
		e := walker.Synthetic(tt.path, 1, walker.TypeRegular, &tt.st, nil)
		if got := string(n.appendLine(nil, e, &tt.st, s)); got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.path, got, tt.want)
		}
	}
}

// withRdev is st with the device number dev (unix.Mkdev's, which Rdev
// holds narrower on some systems).
func withRdev(st unix.Stat_t, dev uint64) unix.Stat_t {
	setStat(&st.Rdev, dev)
	return st
}

// TestLsBlockSize checks 512-byte blocks (POSIXLY_CORRECT).
func TestLsBlockSize(t *testing.T) {
	setLocalUTC(t)
	if g, ok := systemIDs().Group(0); !ok || g != "root" {
		t.Skip("gid 0 is not root here (wheel on macOS and the BSDs)")
	}
	st := unix.Stat_t{Ino: 9, Blocks: 3, Mode: unix.S_IFREG | 0o644, Nlink: 1, Size: 1500}
	for bs, want := range map[int64]string{
		1024: "        9      2 -rw-r--r--   1 root     root         1500 Jan  1  1970 f\n",
		512:  "        9      3 -rw-r--r--   1 root     root         1500 Jan  1  1970 f\n",
	} {
		n := &lsNode{op: "-ls", now: 1614834367, blockSize: bs, w: listfile.NewWidths()}
		e := walker.Synthetic("f", 0, walker.TypeRegular, &st, nil)
		if got := string(n.appendLine(nil, e, &st, newTestState())); got != want {
			t.Errorf("block size %d: got %q, want %q", bs, got, want)
		}
	}
	t.Setenv("POSIXLY_CORRECT", "")
	cmd, err := Parse([]string{".", "-ls"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if n := cmd.Expr.(*lsNode); n.blockSize != 512 {
		t.Errorf("POSIXLY_CORRECT set: block size %d", n.blockSize)
	}
}

// TestLsSharedWidths checks that -ls and -fls share one set of widths,
// as GNU's statics are shared.
func TestLsSharedWidths(t *testing.T) {
	cmd, err := Parse([]string{".", "-ls", "-fls", "x", "-ls"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer cmd.Close()
	var ws []*listfile.Widths
	forEachNode(cmd.Expr, func(n Node) {
		if ls, ok := n.(*lsNode); ok {
			ws = append(ws, ls.w)
		}
	})
	if len(ws) != 3 || ws[0] != ws[1] || ws[1] != ws[2] {
		t.Errorf("widths %v", ws)
	}
}

// TestLsLinkError: a link that cannot be read gets GNU's unquoted
// message, no "->", and the exit status stays 0.
func TestLsLinkError(t *testing.T) {
	setLocalUTC(t)
	cmd, s, out, stderr := testCommand(t, "-ls")
	st := &unix.Stat_t{Ino: 1, Mode: unix.S_IFLNK | 0o777, Nlink: 1, Size: 3}
	cmd.Expr.Eval(walker.Synthetic("root/l ink", 1, walker.TypeSymlink, st, nil), s)
	if got := finish(t, cmd, s, out); got != "        1      0 lrwxrwxrwx   1 root     root            3 Jan  1  1970 root/l\\ ink\n" {
		t.Errorf("got %q", got)
	}
	if got := stderr.String(); got != "gfind: root/l ink: Bad file descriptor\n" || s.Diag.Failed() {
		t.Errorf("stderr %q, failed %v", got, s.Diag.Failed())
	}
}
