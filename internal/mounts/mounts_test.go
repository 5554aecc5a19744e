package mounts

import (
	"maps"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// mountinfo is TestParseMountinfo's table, and FuzzParseMountinfo's
// seed.
const mountinfo = `21 26 0:20 / /proc rw,relatime - proc proc rw
26 1 254:0 / / rw,relatime shared:1 master:2 - ext4 /dev/vda rw,discard
24 23 0:22 / /dev/shm rw,relatime - tmpfs tmpfs rw
29 24 0:22 / /dev/shm rw,relatime - ramfs tmpfs rw
30 26 0:40 / /mnt/with\040space rw - fuse.sshfs host:/x rw
31 26 0:41 / /mnt/odd rw - weird\040type x rw
32 26 0:42 / /mnt/ign rw - ignore none rw
33 26 8:1 / /broken rw
bad line
34 26 x:1 / /bad rw - ext2 /dev/x rw
`

func TestParseMountinfo(t *testing.T) {
	m := newTable()
	parseMountinfo([]byte(mountinfo), m)
	want := map[uint64]string{
		unix.Mkdev(0, 20):  "proc",
		unix.Mkdev(254, 0): "ext4",
		unix.Mkdev(0, 22):  "ramfs", // the last line for a device wins
		unix.Mkdev(0, 40):  "fuse.sshfs",
		unix.Mkdev(0, 41):  "weird type",
	}
	if !maps.Equal(m.types, want) {
		t.Errorf("types = %v, want %v", m.types, want)
	}
	for _, name := range []string{"proc", "ext4", "tmpfs", "ramfs", "fuse.sshfs", "weird type", "ignore"} {
		if !m.names[name] {
			t.Errorf("type %q not listed", name)
		}
	}
	if m.names["ext2"] || len(m.names) != 7 {
		t.Errorf("names = %v", m.names)
	}
	if got := m.Type(unix.Mkdev(9, 9)); got != "unknown" {
		t.Errorf("unlisted device: %q", got)
	}
}

func TestUnescapeMount(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:        "plain",
		`a\040b`:       "a b",
		`tab\011x`:     "tab\tx",
		`back\134`:     `back\`,
		`short\04`:     `short\04`,
		`not\08x`:      `not\08x`,
		`\101\102\103`: "ABC",
	} {
		if got := unescapeMount([]byte(in)); got != want {
			t.Errorf("unescapeMount(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseMtab(t *testing.T) {
	var proc unix.Stat_t
	if err := unix.Stat("/proc", &proc); err != nil {
		t.Skip(err)
	}
	m := newTable()
	parseMtab([]byte("proc /proc proc rw 0 0\nnone /nonexistent\\040dir tmpfs rw 0 0\nshort\n"), m)
	if got := m.types[uint64(proc.Dev)]; got != "proc" || len(m.types) != 1 || !m.names["tmpfs"] {
		t.Errorf("types %v, names %v", m.types, m.names)
	}
}

// TestMountsKnowRoot: the system's mount table (readMounts in
// mounts_<os>.go) reads and lists the file system of "/" with a type.
func TestMountsKnowRoot(t *testing.T) {
	m := System()
	if m.Err != nil {
		t.Fatalf("reading the mount table: %v", m.Err)
	}
	var st unix.Stat_t
	if err := unix.Stat("/", &st); err != nil {
		t.Fatal(err)
	}
	typ := m.Type(uint64(st.Dev))
	if typ == "unknown" || !m.names[typ] {
		t.Errorf("the root's file system has type %q; table %v", typ, m.types)
	}
}

// FuzzParseMountinfo: any mountinfo parses, each table line alone
// too, and every type it gives a device is listed.
func FuzzParseMountinfo(f *testing.F) {
	f.Add(mountinfo)
	for line := range strings.Lines(mountinfo) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, data string) {
		m := newTable()
		parseMountinfo([]byte(data), m)
		for dev, typ := range m.types {
			if !m.Lists(typ) || typ == "ignore" {
				t.Fatalf("device %#x has type %q; listed %v", dev, typ, m.names)
			}
			if m.Type(dev) != typ {
				t.Fatalf("Type(%#x) = %q, want %q", dev, m.Type(dev), typ)
			}
		}
	})
}
