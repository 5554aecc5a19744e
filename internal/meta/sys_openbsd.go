package meta

import "golang.org/x/sys/unix"

// Errno values that differ between systems (sys_linux.go).
const (
	// open(2): "[ELOOP] O_NOFOLLOW was specified and the target is a
	// symbolic link."
	ErrNoFollowLink = unix.ELOOP
	// unlink(2) of a directory is EPERM.
	ErrUnlinkDir = unix.EPERM
	// OpenBSD has no extended attributes; ENOATTR is its name for
	// their absence all the same.
	errNoAttr = unix.ENOATTR
)
