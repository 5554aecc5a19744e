package meta

import (
	"errors"
	"strconv"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// On Linux, extended attributes also carry the POSIX ACLs
// (system.posix_acl_*) and the file capabilities (security.capability),
// so -xattr, -xattrname, -acl and -capable are all answered here with
// getxattr(2) and listxattr(2), made as raw system calls so that
// evaluating allocates nothing.

// HaveACL and HaveCapabilities: Linux has both.
const (
	HaveACL          = true
	HaveCapabilities = true
)

// Scratch is a worker's memory for the xattr calls: the path
// buffer and value buffer.
type Scratch struct {
	path []byte // NUL-terminated path of the file being asked about
	val  []byte // an attribute's value (-acl, -capable)
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

// cpath sets m.path to the NUL-terminated path that names f.
func (m *Scratch) cpath(f File) (*byte, error) {
	name := f.Name
	if len(name) == 0 {
		return nil, unix.ENOENT // the starting point "" names no file
	}
	fd := f.Dir
	p := m.path[:0]
	switch {
	case fd == unix.AT_FDCWD:
		p = append(p, name...) // a starting point: Name is its path
	case fd >= 0 && procFD():
		p = append(p, "/proc/self/fd/"...)
		p = strconv.AppendInt(p, int64(fd), 10)
		p = append(append(p, '/'), name...)
	default:
		p = append(p, f.Path...)
	}
	m.path = append(p, 0)
	return &m.path[0], nil
}

// getxattr is getxattr(2), or lgetxattr(2) unless follow, of the
// NUL-terminated name into buf (nil: only the size).
func (m *Scratch) getxattr(f File, follow bool, name, buf []byte) (int, error) {
	trap := uintptr(unix.SYS_LGETXATTR)
	if follow {
		trap = unix.SYS_GETXATTR
	}
	var p unsafe.Pointer
	if len(buf) > 0 {
		p = unsafe.Pointer(&buf[0])
	}
	return m.call(f, trap, unsafe.Pointer(&name[0]), p, len(buf))
}

// call makes the xattr system call trap on e's path with arguments a
// (a name or a buffer), b (a buffer) and size, again after EINTR. The
// pointers stay unsafe.Pointers up to the call, which keeps what they
// point to alive.
func (m *Scratch) call(f File, trap uintptr, a, b unsafe.Pointer, size int) (int, error) {
	path, err := m.cpath(f)
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
func (m *Scratch) getxattrAll(f File, follow bool, name []byte) ([]byte, error) {
	if m.val == nil {
		m.val = make([]byte, 132) // libacl's first guess: an ACL of 16 entries
	}
	for {
		n, err := m.getxattr(f, follow, name, m.val)
		if err == nil {
			return m.val[:n], nil
		}
		if err != unix.ERANGE {
			return nil, err
		}
		if n, err = m.getxattr(f, follow, name, nil); err != nil {
			return nil, err
		}
		m.val = make([]byte, max(n, 2*len(m.val)))
	}
}

// listxattr is the size of listxattr(2)'s list, or llistxattr(2)'s
// unless follow.
func (m *Scratch) listxattr(f File, follow bool) (int, error) {
	trap := uintptr(unix.SYS_LLISTXATTR)
	if follow {
		trap = unix.SYS_LISTXATTR
	}
	return m.call(f, trap, nil, nil, 0)
}

// HasXattrs is -xattr: listxattr(2) names something.
func (m *Scratch) HasXattrs(f File, follow bool) (bool, error) {
	size, err := m.listxattr(f, follow)
	if err == nil {
		return size > 0, nil
	}
	return absent(err)
}

// HasXattr is -xattrname: getxattr(2) finds name, which is
// NUL-terminated in cname; Linux takes it as given, namespace prefix
// included ("user.mime_type").
func (m *Scratch) HasXattr(f File, follow bool, name string, cname []byte) (bool, error) {
	_, err := m.getxattr(f, follow, cname, nil)
	if err == nil {
		return true, nil
	}
	return absent(err)
}

// HasCaps is -capable: a security.capability that libcap accepts.
func (m *Scratch) HasCaps(f File, follow bool) (bool, error) {
	val, err := m.getxattrAll(f, follow, capName)
	if err == nil {
		return validCaps(val), nil
	}
	return absent(err)
}

// ACL is bfs_check_acl through libacl's acl_get_file: the access ACL is
// non-trivial when it has an entry besides user::, group:: and other::
// (a mask, a named user or group); a directory's default ACL when it has
// any entry. A missing or unreadable one (ENODATA, EINVAL) is trivial.
func (m *Scratch) ACL(f File, follow, dir bool) (bool, error) {
	var err error
	known := false
	for i, name := range [...][]byte{aclAccess, aclDefault} {
		if i == 1 && !dir {
			break // only a directory has a default ACL
		}
		var val []byte
		val, err = m.getxattrAll(f, follow, name)
		switch {
		case err == nil:
			if aclNontrivial(val, i == 1) {
				return true, nil
			}
			known = true
		case errors.Is(err, unix.ENOTSUP):
			return false, err // no ACLs on this file system: the default ACL would say the same
		case errors.Is(err, unix.ENODATA), errors.Is(err, unix.EINVAL):
			known = true
		}
	}
	if known {
		return false, nil // bfs reports a failure only when no answer came
	}
	return false, err
}

var (
	aclAccess  = []byte("system.posix_acl_access\x00")
	aclDefault = []byte("system.posix_acl_default\x00")
	capName    = []byte("security.capability\x00")
)

// HasCapability reports whether the file f (its target when follow) has
// file capabilities: a non-empty security.capability attribute, which is
// what ls's ca color asks. The file is named through its directory's
// descriptor, so the path may be longer than PATH_MAX.
func HasCapability(f File, follow bool) bool {
	path := string(f.Path)
	if fd := f.Dir; fd >= 0 {
		path = "/proc/self/fd/" + strconv.Itoa(fd) + "/" + string(f.Name)
	} else if fd != unix.AT_FDCWD {
		return false
	}
	var n int
	var err error
	for {
		if follow {
			n, err = unix.Getxattr(path, "security.capability", nil)
		} else {
			n, err = unix.Lgetxattr(path, "security.capability", nil)
		}
		if err != unix.EINTR {
			break
		}
	}
	return err == nil && n > 0
}
