package predicate

import (
	"bufio"
	"bytes"
	"strconv"
	"sync"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// fstypeNode is -fstype TYPE: true when the file is on a file system of
// that type, by the name the mount table gives it ("ext4", "tmpfs",
// "proc"). A device the mount table does not list has type "unknown",
// as GNU's filesystem_type says.
//
// From -O2 on GNU find replaces an -fstype whose type is not in the
// mount table by -false (parser.c's is_used_fs_type), so that "unknown"
// never matches either, and the file is not stat'ed for it; so does
// parseFstype. At -O0 and
// -O1, the default since GNU 4.10, the test is made: it stats the file
// (and reports a failure), and "unknown" matches a file on a device the
// mount table does not list (/proc/self/ns/*, nsfs).
type fstypeNode struct {
	typ  string
	prob float64
}

func (n *fstypeNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	m := mounts()
	if m.err != nil {
		m.report.Do(func() { s.Diag.Errorf("Cannot read mounted file system list") })
	}
	return fsTypeOf(m, uint64(st.Dev)) == n.typ
}

func (n *fstypeNode) Facts() Facts {
	return Facts{Needs: NeedStat, Cost: costStat, Prob: n.prob}
}

func (n *fstypeNode) Args() []string { return []string{"-fstype", n.typ} }

func parseFstype(p *parser, op string) error {
	typ, err := p.arg(op)
	if err != nil {
		return err
	}
	m := mounts()
	unused := m.err == nil && !m.names[typ] && typ != "afs"
	if unused && p.cfg.OptLevel >= 2 {
		// GNU's insert_false: a -false the optimizer then folds, so that
		// "-empty -fstype nosuchfs" stats nothing.
		p.push(constOf(false))
		return nil
	}
	n := &fstypeNode{typ: typ}
	// GNU's estimate_fstype_success_rate: most files are taken to be on
	// the same type of file system as the root.
	n.prob = 1.0
	var st unix.Stat_t
	switch {
	case unused:
		n.prob = 0
	case unix.Stat("/", &st) == nil:
		n.prob = 0.3
		if fsTypeOf(m, uint64(st.Dev)) == typ {
			n.prob = 0.7
		}
	}
	p.push(n)
	return nil
}

// mountTable maps a device number (as uint64(Stat_t.Dev), which is
// narrower and signed on some systems; the table's keys and the lookups
// convert alike) to the type of the file system mounted
// from it.
type mountTable struct {
	types  map[uint64]string
	names  map[string]bool // every type listed, "ignore" included
	err    error
	report sync.Once // the error is reported once
}

// mounts reads the mount table once, when it is first needed: Linux's
// /proc/self/mountinfo, the BSDs' and macOS's getfsstat(2) (readMounts
// in sys_<os>.go). Unlike GNU find, which reads it again whenever the
// device changes, gfind does not see file systems mounted during the
// walk.
var mounts = sync.OnceValue(func() *mountTable {
	m := &mountTable{types: map[uint64]string{}, names: map[string]bool{}}
	m.err = readMounts(m) // sys_<os>.go
	return m
})

// fsTypeOf is the type of the file system on device dev.
func fsTypeOf(m *mountTable, dev uint64) string {
	if t, ok := m.types[dev]; ok {
		return t
	}
	return "unknown"
}

// parseMountinfo reads the lines of /proc/self/mountinfo,
//
//	36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw
//
// into types: the type after the " - " separator, for the device
// major:minor in the third field. As in GNU's file_system_type_uncached
// the last line for a device wins, and the type "ignore" is skipped.
func parseMountinfo(data []byte, m *mountTable) {
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
func parseMtab(data []byte, m *mountTable) {
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

func (m *mountTable) add(dev uint64, typ string) {
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
