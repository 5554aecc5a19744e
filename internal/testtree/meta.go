package testtree

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// UnknownID is the user and group id of Meta's files that belong to no
// account: no passwd or group entry has it on the systems we test on.
const UnknownID = 4242

// Meta holds files whose metadata the tests on sizes, modes, owners,
// link counts and access rights look at (-size, -empty, -perm, -user,
// -nouser, -links, -samefile, -readable, ...):
//
//	meta/
//	  size/
//	    s0 s1 s511 s512 s513      files of 0, 1, 511, 512 and 513 bytes
//	    s1023 s1024 s1025         files of 1023, 1024 and 1025 bytes
//	    sparse                    1 MiB (1048576 bytes), all hole: no blocks
//	  mode/                       files with the modes their names say:
//	    m0000 m0444 m0600 m0644 m0755 m0777
//	    setuid                    04755
//	    setgid                    02755
//	    all                       07777
//	    sticky/                   01777 dir
//	    sgid_dir/                 02775 dir
//	    d0700/                    0700 dir, holding f (0644)
//	    d0000/                    0000 dir (nobody cannot list it)
//	  owner/
//	    root                      root:root (0644)
//	    nobody                    NobodyID:NobodyID, 0600
//	    unknown                   UnknownID:UnknownID (no such user or group)
//	    ugroup                    root:UnknownID
//	    nobody_dir/               NobodyID:NobodyID, 0700, holding f
//	  links/
//	    three  three_b  sub/three_c   one file with 3 links
//	    one                       1 link
//	    fifo                      named pipe (0644)
//	  empty/                      empty dir
//	  full/                       dir holding one empty file, f
//	  sym/
//	    to_s1 -> ../size/s1
//	    to_s0 -> ../size/s0
//	    to_m0000 -> ../mode/m0000
//	    to_empty -> ../empty
//	    to_full -> ../full
//	    to_d0000 -> ../mode/d0000
//	    to_three -> ../links/three
//	    dangling -> nowhere
//
// Regular files are 0644 and directories 0755 unless noted; files are
// owned by whoever builds the tree, except under owner/, which is only
// given its owners when the tests run as root (and built as is
// otherwise). Directory sizes and inode numbers are not controlled. A
// cleanup restores 0755 on d0000 so that removal works for an
// unprivileged test user.
var Meta = Part{Name: "meta", build: buildMeta}

func buildMeta(t testing.TB, dir string) error {
	b := &builder{dir: dir}
	b.mkdir("")

	b.mkdir("size")
	for _, n := range []int{0, 1, 511, 512, 513, 1023, 1024, 1025} {
		b.file("size/s"+strconv.Itoa(n), n)
	}
	b.do(func() error {
		f, err := os.Create(b.path("size/sparse"))
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Truncate(1 << 20)
	})

	b.mkdir("mode")
	for _, m := range []os.FileMode{0, 0o444, 0o600, 0o644, 0o755, 0o777} {
		b.text(fmt.Sprintf("mode/m%04o", uint32(m)), "mode\n", m)
	}
	b.text("mode/setuid", "#!/bin/sh\n", 0o755)
	b.text("mode/setgid", "#!/bin/sh\n", 0o755)
	b.text("mode/all", "#!/bin/sh\n", 0o755)
	b.mkdir("mode/sticky")
	b.mkdir("mode/sgid_dir")
	b.mkdir("mode/d0700")
	b.file("mode/d0700/f", 0)
	b.mkdir("mode/d0000")

	b.mkdir("owner")
	b.text("owner/root", "root\n", 0o644)
	b.text("owner/nobody", "nobody\n", 0o600)
	b.text("owner/unknown", "unknown\n", 0o644)
	b.text("owner/ugroup", "ugroup\n", 0o644)
	b.mkdir("owner/nobody_dir")
	b.file("owner/nobody_dir/f", 0)

	b.mkdir("links")
	b.text("links/three", "three\n", 0o644)
	b.mkdir("links/sub")
	b.do(func() error { return os.Link(b.path("links/three"), b.path("links/three_b")) })
	b.do(func() error { return os.Link(b.path("links/three"), b.path("links/sub/three_c")) })
	b.text("links/one", "one\n", 0o644)
	b.do(func() error { return unix.Mkfifo(b.path("links/fifo"), 0o644) })
	b.do(func() error { return os.Chmod(b.path("links/fifo"), 0o644) })

	b.mkdir("empty")
	b.mkdir("full")
	b.file("full/f", 0)

	b.mkdir("sym")
	for _, l := range [][2]string{
		{"../size/s1", "to_s1"},
		{"../size/s0", "to_s0"},
		{"../mode/m0000", "to_m0000"},
		{"../empty", "to_empty"},
		{"../full", "to_full"},
		{"../mode/d0000", "to_d0000"},
		{"../links/three", "to_three"},
		{"nowhere", "dangling"},
	} {
		b.symlink(l[0], "sym/"+l[1])
	}

	if os.Geteuid() == 0 {
		for _, o := range []struct {
			name     string
			uid, gid int
		}{
			{"owner/root", 0, 0},
			{"owner/nobody", NobodyID, NobodyID},
			{"owner/unknown", UnknownID, UnknownID},
			{"owner/ugroup", 0, UnknownID},
			{"owner/nobody_dir", NobodyID, NobodyID},
			{"owner/nobody_dir/f", NobodyID, NobodyID},
		} {
			b.do(func() error { return os.Lchown(b.path(o.name), o.uid, o.gid) })
		}
	}
	// Times first (they do not change with chmod), then the modes that
	// would keep a non-root builder out.
	b.do(func() error { return setTime(dir) })
	for _, m := range []struct {
		name string
		mode uint32
	}{
		{"mode/setuid", 0o4755},
		{"mode/setgid", 0o2755},
		{"mode/all", 0o7777},
		{"mode/sticky", 0o1777},
		{"mode/sgid_dir", 0o2775},
		{"mode/d0700", 0o700},
		{"owner/nobody_dir", 0o700},
		{"mode/d0000", 0},
	} {
		// unix.Chmod, not os.Chmod: os.FileMode spells the set-id and
		// sticky bits its own way.
		b.do(func() error { return unix.Chmod(b.path(m.name), m.mode) })
	}
	t.Cleanup(func() { os.Chmod(b.path("mode/d0000"), 0o755) })
	return b.err
}
