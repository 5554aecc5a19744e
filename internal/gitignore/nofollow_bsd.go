//go:build dragonfly || freebsd

package gitignore

import "golang.org/x/sys/unix"

// noFollowErrno is what open(2) with O_NOFOLLOW fails with on a symbolic
// link: EMLINK on FreeBSD and DragonFly (their open(2) pages).
const noFollowErrno = unix.EMLINK
