package meta

import (
	"golang.org/x/sys/unix"
)

// OpenBSD has no extended attributes, no ACLs and no file
// capabilities. -xattr and -xattrname answer ENOTSUP, as bfs's do where
// it cannot check them, which predicate takes for a file system without
// support: false, and no further call on that device. -acl warns and is
// false.
const (
	HaveACL          = false
	HaveCapabilities = false
)

type Scratch struct{}

func (m *Scratch) HasXattrs(File, bool) (bool, error) { return false, unix.ENOTSUP }

func (m *Scratch) HasXattr(File, bool, string, []byte) (bool, error) {
	return false, unix.ENOTSUP
}

func (m *Scratch) HasCaps(File, bool) (bool, error)   { return false, nil }
func (m *Scratch) ACL(File, bool, bool) (bool, error) { return false, nil }

// HasCapability: file capabilities are Linux's.
func HasCapability(f File, follow bool) bool { return false }
