package predicate

import (
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// OpenBSD has no extended attributes, no ACLs and no file
// capabilities. -xattr and -xattrname answer ENOTSUP, as bfs's do where
// it cannot check them, which metaNode takes for a file system without
// support: false, and no further call on that device. -acl warns and is
// false.
const (
	haveACL          = false
	haveCapabilities = false
)

type xattrScratch struct{}

func (m *xattrScratch) hasXattrs(*walker.Entry, bool) (bool, error) { return false, unix.ENOTSUP }

func (m *xattrScratch) hasXattr(*walker.Entry, bool, string, []byte) (bool, error) {
	return false, unix.ENOTSUP
}

func (m *xattrScratch) hasCaps(*walker.Entry, bool) (bool, error)   { return false, nil }
func (m *xattrScratch) acl(*walker.Entry, bool, bool) (bool, error) { return false, nil }

// hasCapability: file capabilities are Linux's.
func hasCapability(e *walker.Entry, follow bool) bool { return false }
