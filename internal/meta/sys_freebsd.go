package meta

import "golang.org/x/sys/unix"

// Errno values that differ between systems (sys_linux.go).
const (
	// open(2): "[EMLINK] O_NOFOLLOW was specified and the target is a
	// symbolic link."
	ErrNoFollowLink = unix.EMLINK
	// unlink(2) of a directory is EPERM.
	ErrUnlinkDir = unix.EPERM
	// extattr_get_file(2): "[ENOATTR] The requested attribute was not
	// defined for this file."
	errNoAttr = unix.ENOATTR
)
