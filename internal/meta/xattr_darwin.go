package meta

import (
	"golang.org/x/sys/unix"
)

// macOS's extended attributes, through getxattr(2) and listxattr(2)
// with XATTR_NOFOLLOW for a link itself (x/sys's Lgetxattr and
// Llistxattr). Names have no namespace: -xattrname takes one as
// listxattr gives it ("com.apple.quarantine"), as bfs does.
//
// There is no *at variant and no /proc/self/fd: the file is named by
// its path, relative to the working directory the walker never leaves,
// so a path longer than PATH_MAX fails with ENAMETOOLONG.
//
// ACLs (ACL_TYPE_EXTENDED) are read only through libSystem's acl(3),
// which a build without cgo cannot call: -acl warns and is false.
// File capabilities are Linux's.
const (
	HaveACL          = false
	HaveCapabilities = false
)

// Scratch: the x/sys wrappers need no buffers of ours.
type Scratch struct{}

// HasXattrs is -xattr: listxattr(2) names something.
func (m *Scratch) HasXattrs(f File, follow bool) (bool, error) {
	path, err := xattrPath(f)
	if err != nil {
		return false, err
	}
	var n int
	for {
		if follow {
			n, err = unix.Listxattr(path, nil)
		} else {
			n, err = unix.Llistxattr(path, nil)
		}
		if err != unix.EINTR {
			break
		}
	}
	if err == nil {
		return n > 0, nil
	}
	return absent(err)
}

// HasXattr is -xattrname: getxattr(2) finds name.
func (m *Scratch) HasXattr(f File, follow bool, name string, _ []byte) (bool, error) {
	path, err := xattrPath(f)
	if err != nil {
		return false, err
	}
	for {
		if follow {
			_, err = unix.Getxattr(path, name, nil)
		} else {
			_, err = unix.Lgetxattr(path, name, nil)
		}
		if err != unix.EINTR {
			break
		}
	}
	if err == nil {
		return true, nil
	}
	return absent(err)
}

// HasCaps and ACL are never asked (HaveCapabilities, HaveACL).
func (m *Scratch) HasCaps(File, bool) (bool, error)   { return false, nil }
func (m *Scratch) ACL(File, bool, bool) (bool, error) { return false, nil }

// HasCapability: file capabilities are Linux's.
func HasCapability(f File, follow bool) bool { return false }
