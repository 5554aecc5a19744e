package meta

import (
	"errors"

	"golang.org/x/sys/unix"
)

// A File names a file as the walker hands it over: Dir is the
// descriptor of the directory that holds it (unix.AT_FDCWD for a
// starting point, negative for an entry made up by a test), Name its
// name relative to Dir (the whole path for a starting point) and Path
// its path from the working directory, which the walker never leaves.
// The calls name the file through Dir where the system has an *at
// variant, so that a path longer than PATH_MAX works.
type File struct {
	Dir  int
	Name []byte
	Path []byte
}

// A Time is a timestamp as struct timespec holds one.
type Time struct{ Sec, Nsec int64 }

// NoSupport reports whether err says the file system has no extended
// attributes (or no ACLs) at all. ENOTSUP and EOPNOTSUPP are one value
// on Linux and FreeBSD, two on macOS and NetBSD, whose calls say either.
func NoSupport(err error) bool {
	return errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP)
}

// absent sorts a failure as bfs's is_absence_error does: errNoAttr (no
// such attribute: ENODATA on Linux, ENOATTR elsewhere) and EINVAL mean
// none, E2BIG some, ENOTSUP is returned for the caller to remember,
// anything else is an error to report.
func absent(err error) (bool, error) {
	switch {
	case errors.Is(err, errNoAttr), errors.Is(err, unix.EINVAL):
		return false, nil
	case errors.Is(err, unix.E2BIG):
		return true, nil
	}
	return false, err
}

// The ACL tags of <linux/posix_acl.h>.
const (
	aclUserObj  = 0x01
	aclUser     = 0x02
	aclGroupObj = 0x04
	aclGroup    = 0x08
	aclMask     = 0x10
	aclOther    = 0x20
)

// aclNontrivial parses the kernel's posix_acl_xattr format (a
// little-endian version 2 header, then 8-byte entries of tag, permissions
// and id) as libacl's __acl_from_xattr does: a value it would refuse
// (EINVAL) counts as no ACL.
func aclNontrivial(val []byte, dflt bool) bool {
	if len(val) < 4 || le32(val) != 2 || (len(val)-4)%8 != 0 {
		return false
	}
	extra := false
	for off := 4; off < len(val); off += 8 {
		switch tag := uint16(val[off]) | uint16(val[off+1])<<8; tag {
		case aclUserObj, aclGroupObj, aclOther:
		case aclUser, aclGroup, aclMask:
			extra = true
		default:
			return false
		}
	}
	return extra || dflt && len(val) > 4
}

// validCaps reports whether val is a vfs_cap_data that libcap's
// cap_get_file accepts: a revision whose size it matches. Any such
// value is a capability set for bfs (cap_to_text never gives "").
func validCaps(val []byte) bool {
	if len(val) < 4 {
		return false
	}
	switch le32(val) & 0xff000000 {
	case 0x01000000:
		return len(val) == 12
	case 0x02000000:
		return len(val) == 20
	case 0x03000000:
		return len(val) == 24
	}
	return false
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
