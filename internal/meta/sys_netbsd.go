package meta

import "golang.org/x/sys/unix"

// Errno values that differ between systems (sys_linux.go).
const (
	// open(2): "[EFTYPE] O_NOFOLLOW was specified, but the last path
	// component is a symlink."
	ErrNoFollowLink = unix.EFTYPE
	// unlink(2) of a directory is EPERM.
	ErrUnlinkDir = unix.EPERM
	// extattr_get_file(2): ENOATTR, the attribute does not exist.
	errNoAttr = unix.ENOATTR
)
