//go:build freebsd || netbsd

package meta

import (
	"golang.org/x/sys/unix"
)

// FreeBSD's and NetBSD's extended attributes, through extattr(2): the
// _file calls follow a final symbolic link, the _link calls do not.
// Attributes live in two namespaces, "system" (readable by root only)
// and "user"; like bfs (fsade.c), -xattr asks the system namespace,
// then the user one, and -xattrname NAME looks for NAME, bare, in the
// system namespace, then the user one.
//
// There is no *at variant and no /proc/self/fd: the file is named by
// its path, relative to the working directory the walker never leaves,
// so a path longer than PATH_MAX fails with ENAMETOOLONG.
//
// ACLs are read only through libc's acl(3) (__acl_get_link's struct
// and FreeBSD's NFSv4 triviality rules are libc's); a build without cgo
// does not: -acl warns and is false. File capabilities are Linux's.
const (
	HaveACL          = false
	HaveCapabilities = false
)

// Scratch: the x/sys wrappers need no buffers of ours.
type Scratch struct{}

var extattrNamespaces = [...]int{unix.EXTATTR_NAMESPACE_SYSTEM, unix.EXTATTR_NAMESPACE_USER}

// HasXattrs is -xattr: extattr_list_file(2) (_link unless follow) gives
// a list in either namespace.
func (m *Scratch) HasXattrs(f File, follow bool) (bool, error) {
	path, err := xattrPath(f)
	if err != nil {
		return false, err
	}
	var n int
	for _, ns := range extattrNamespaces {
		for {
			if follow {
				n, err = unix.ExtattrListFile(path, ns, 0, 0)
			} else {
				n, err = unix.ExtattrListLink(path, ns, 0, 0)
			}
			if err != unix.EINTR {
				break
			}
		}
		if err == nil && n > 0 {
			return true, nil
		}
	}
	if err == nil {
		return false, nil
	}
	return absent(err) // the user namespace's answer, as bfs's
}

// HasXattr is -xattrname: extattr_get_file(2) (_link unless follow)
// finds name in either namespace.
func (m *Scratch) HasXattr(f File, follow bool, name string, _ []byte) (bool, error) {
	path, err := xattrPath(f)
	if err != nil {
		return false, err
	}
	for _, ns := range extattrNamespaces {
		for {
			if follow {
				_, err = unix.ExtattrGetFile(path, ns, name, 0, 0)
			} else {
				_, err = unix.ExtattrGetLink(path, ns, name, 0, 0)
			}
			if err != unix.EINTR {
				break
			}
		}
		if err == nil {
			return true, nil
		}
	}
	return absent(err)
}

// HasCaps and ACL are never asked (HaveCapabilities, HaveACL).
func (m *Scratch) HasCaps(File, bool) (bool, error)   { return false, nil }
func (m *Scratch) ACL(File, bool, bool) (bool, error) { return false, nil }

// HasCapability: file capabilities are Linux's.
func HasCapability(f File, follow bool) bool { return false }
