package gitignore

import "golang.org/x/sys/unix"

// noFollowErrno is what open(2) with O_NOFOLLOW fails with on a symbolic
// link: EFTYPE on NetBSD (its open(2) page).
const noFollowErrno = unix.EFTYPE
