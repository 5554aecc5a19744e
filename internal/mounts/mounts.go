package mounts

import (
	"bufio"
	"bytes"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// A Table maps a device number (as uint64(Stat_t.Dev), which is
// narrower and signed on some systems; the table's keys and the lookups
// convert alike) to the type of the file system mounted
// from it.
type Table struct {
	types map[uint64]string
	names map[string]bool // every type listed, "ignore" included
	// Err is why the table could not be read (then it is empty).
	Err error
}

// System reads the system's mount table once, when it is first needed:
// Linux's /proc/self/mountinfo, the BSDs' and macOS's getfsstat(2)
// (readMounts in mounts_<os>.go). Unlike GNU find, which reads it again whenever the
// device changes, gfind does not see file systems mounted during the
// walk.
var System = sync.OnceValue(func() *Table {
	m := newTable()
	m.Err = readMounts(m) // mounts_<os>.go
	return m
})

func newTable() *Table {
	return &Table{types: map[uint64]string{}, names: map[string]bool{}}
}

// Type is the type of the file system on device dev, "unknown" for a
// device the table does not list (GNU's filesystem_type).
func (m *Table) Type(dev uint64) string {
	if t, ok := m.types[dev]; ok {
		return t
	}
	return "unknown"
}

// Lists reports whether some mount in the table has type typ, "ignore"
// included (GNU's is_used_fs_type).
func (m *Table) Lists(typ string) bool { return m.names[typ] }

// parseMountinfo reads the lines of /proc/self/mountinfo,
//
//	36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw
//
// into types: the type after the " - " separator, for the device
// major:minor in the third field. As in GNU's file_system_type_uncached
// the last line for a device wins, and the type "ignore" is skipped.
func parseMountinfo(data []byte, m *Table) {
	for line := range bytes.Lines(data) {
		f := bytes.Fields(line)
		if len(f) < 3 {
			continue
		}
		maj, min, ok := bytes.Cut(f[2], []byte(":"))
		if !ok {
			continue
		}
		ma, err1 := strconv.ParseUint(string(maj), 10, 32)
		mi, err2 := strconv.ParseUint(string(min), 10, 32)
		sep := -1
		for i := 6; i < len(f); i++ {
			if string(f[i]) == "-" {
				sep = i
				break
			}
		}
		if err1 != nil || err2 != nil || sep < 0 || sep+1 >= len(f) {
			continue
		}
		m.add(unix.Mkdev(uint32(ma), uint32(mi)), unescapeMount(f[sep+1]))
	}
}

// parseMtab reads mtab lines ("/dev/vda / ext4 rw 0 0"), whose device is
// that of the mount point.
func parseMtab(data []byte, m *Table) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) < 3 {
			continue
		}
		typ := unescapeMount(f[2])
		m.names[typ] = true // is_used_fs_type needs no device
		var st unix.Stat_t
		if unix.Stat(unescapeMount(f[1]), &st) == nil {
			m.add(uint64(st.Dev), typ)
		}
	}
}

func (m *Table) add(dev uint64, typ string) {
	m.names[typ] = true
	if typ != "ignore" { // MNTTYPE_IGNORE
		m.types[dev] = typ
	}
}

// unescapeMount undoes the kernel's octal escapes (\040 for a space).
func unescapeMount(b []byte) string {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+3 < len(b) && isOctal(b[i+1]) && isOctal(b[i+2]) && isOctal(b[i+3]) {
			out = append(out, (b[i+1]-'0')<<6|(b[i+2]-'0')<<3|(b[i+3]-'0'))
			i += 3
			continue
		}
		out = append(out, b[i])
	}
	return string(out)
}

func isOctal(c byte) bool { return '0' <= c && c <= '7' }
