package meta

import "golang.org/x/sys/unix"

// Errno values that differ between systems (sys_linux.go).
const (
	// open(2): "O_NOFOLLOW was specified and the target is a symbolic
	// link" is ELOOP.
	ErrNoFollowLink = unix.ELOOP
	// unlink(2) of a directory is EPERM.
	ErrUnlinkDir = unix.EPERM
	// getxattr(2): "The extended attribute does not exist" is ENOATTR.
	errNoAttr = unix.ENOATTR
)
