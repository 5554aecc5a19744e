package predicate

import (
	"strconv"
	"sync"
	"unsafe"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// metaScratch is a worker's memory for the xattr tests (fsmeta.go): the
// path buffer and value buffer of its calls, and the device of the
// directory it last asked about.
type metaScratch struct {
	path []byte // NUL-terminated path of the file being asked about
	val  []byte // an attribute's value (-acl)

	haveDir bool
	dirFD   int    // the directory descriptor dirDev is for
	dir     []byte // and its path, as Entry.Path[:NameOff]
	dirDev  uint64
}

// procFD reports whether /proc/self/fd is there. The xattr calls have no
// *at variants (getxattrat came in Linux 6.13), so, as bfs's fake_at,
// they name a file through its directory's descriptor as
// /proc/self/fd/N/NAME: no path longer than PATH_MAX, no renamed parent
// followed. Without /proc they use the path, which is relative to the
// working directory the walker never leaves.
var procFD = sync.OnceValue(func() bool {
	return unix.Access("/proc/self/fd/", unix.F_OK) == nil
})

// cpath sets m.path to the NUL-terminated path that names e.
func (m *metaScratch) cpath(e *walker.Entry) (*byte, error) {
	name := e.AtName()
	if len(name) == 0 {
		return nil, unix.ENOENT // the starting point "" names no file
	}
	fd := e.DirFD()
	p := m.path[:0]
	switch {
	case fd == unix.AT_FDCWD:
		p = append(p, name...) // a starting point: AtName is its path
	case fd >= 0 && procFD():
		p = append(p, "/proc/self/fd/"...)
		p = strconv.AppendInt(p, int64(fd), 10)
		p = append(append(p, '/'), name...)
	default:
		p = append(p, e.Path...)
	}
	m.path = append(p, 0)
	return &m.path[0], nil
}

// getxattr is getxattr(2), or lgetxattr(2) unless follow, of the
// NUL-terminated name into buf (nil: only the size).
func (m *metaScratch) getxattr(e *walker.Entry, follow bool, name, buf []byte) (int, error) {
	trap := uintptr(unix.SYS_LGETXATTR)
	if follow {
		trap = unix.SYS_GETXATTR
	}
	var p unsafe.Pointer
	if len(buf) > 0 {
		p = unsafe.Pointer(&buf[0])
	}
	return m.call(e, trap, unsafe.Pointer(&name[0]), p, len(buf))
}

// call makes the xattr system call trap on e's path with arguments a
// (a name or a buffer), b (a buffer) and size, again after EINTR. The
// pointers stay unsafe.Pointers up to the call, which keeps what they
// point to alive.
func (m *metaScratch) call(e *walker.Entry, trap uintptr, a, b unsafe.Pointer, size int) (int, error) {
	path, err := m.cpath(e)
	if err != nil {
		return 0, err
	}
	for {
		r, _, errno := unix.Syscall6(trap, uintptr(unsafe.Pointer(path)), uintptr(a), uintptr(b), uintptr(size), 0, 0)
		switch errno {
		case 0:
			return int(r), nil
		case unix.EINTR:
			continue
		}
		return 0, errno
	}
}

// getxattrAll reads the whole value of name into m.val, growing it when
// the attribute grew between asking its size and reading it (ERANGE).
func (m *metaScratch) getxattrAll(e *walker.Entry, follow bool, name []byte) ([]byte, error) {
	if m.val == nil {
		m.val = make([]byte, 132) // libacl's first guess: an ACL of 16 entries
	}
	for {
		n, err := m.getxattr(e, follow, name, m.val)
		if err == nil {
			return m.val[:n], nil
		}
		if err != unix.ERANGE {
			return nil, err
		}
		if n, err = m.getxattr(e, follow, name, nil); err != nil {
			return nil, err
		}
		m.val = make([]byte, max(n, 2*len(m.val)))
	}
}

// listxattr is the size of listxattr(2)'s list, or llistxattr(2)'s
// unless follow.
func (m *metaScratch) listxattr(e *walker.Entry, follow bool) (int, error) {
	trap := uintptr(unix.SYS_LLISTXATTR)
	if follow {
		trap = unix.SYS_LISTXATTR
	}
	return m.call(e, trap, nil, nil, 0)
}
