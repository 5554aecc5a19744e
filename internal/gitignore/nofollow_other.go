//go:build unix && !dragonfly && !freebsd && !netbsd

package gitignore

import "golang.org/x/sys/unix"

// noFollowErrno is what open(2) with O_NOFOLLOW fails with on a symbolic
// link: ELOOP, as POSIX says, on Linux, macOS and OpenBSD.
const noFollowErrno = unix.ELOOP
