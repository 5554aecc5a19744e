//go:build darwin || freebsd || netbsd || openbsd

package predicate

import (
	"sync"

	"github.com/gfind/gfind/internal/printf"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// predicate's boundary with macOS and the BSDs (sys_linux.go says what
// the boundary holds). Where Linux makes raw system calls into pooled
// buffers, these use x/sys's wrappers: macOS supports no raw system
// calls, OpenBSD allows them only from libc, and each wrapper's copy of
// a name is one allocation per call on tests that make a system call
// anyway.

// accessAt is faccessat(dirfd, name, mode, 0): the access(2) check with
// the real user and group ids, following a final symbolic link, as GNU's
// pred_readable does.
func accessAt(e *walker.Entry, mode uint32) error {
	name := e.AtName()
	if len(name) == 0 {
		return unix.ENOENT // the starting point "" names no file
	}
	for {
		err := unix.Faccessat(e.DirFD(), string(name), mode, 0)
		if err != unix.EINTR {
			return err
		}
	}
}

// direntPool holds the buffers of dirEmptyAt's reads.
var direntPool = sync.Pool{New: func() any { b := make([]byte, 4096); return &b }}

// dirEmptyAt reports whether the directory e names holds nothing but "."
// and "..". With nofollow it refuses a symbolic link (the status said
// the file itself is a directory; a link swapped in since then must not
// be followed): errNoFollowLink, as open(2) says it on this system.
func dirEmptyAt(e *walker.Entry, nofollow bool) (bool, error) {
	name := e.AtName()
	if len(name) == 0 {
		return false, unix.ENOENT
	}
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC | unix.O_NOCTTY | unix.O_NONBLOCK
	if nofollow {
		flags |= unix.O_NOFOLLOW
	}
	var fd int
	var err error
	for {
		fd, err = unix.Openat(e.DirFD(), string(name), flags, 0)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return false, err
	}
	defer unix.Close(fd)
	bp := direntPool.Get().(*[]byte)
	defer direntPool.Put(bp)
	for {
		// On macOS x/sys reads through readdir(3), restarting from the
		// top on each call: quadratic for a large directory, but the
		// loop ends at the first name that is not "." or "..", which
		// the first read nearly always holds.
		n, err := unix.ReadDirent(fd, *bp)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return false, err
		}
		if n <= 0 {
			return true, nil
		}
		// ParseDirent counts the names but "." and "..".
		if _, count, _ := unix.ParseDirent((*bp)[:n], 1, nil); count > 0 {
			return false, nil
		}
	}
}

// birthTimeAt returns e's birth time from its status (printf.StatBirth):
// stat(2) gives it on macOS, FreeBSD and NetBSD, and the walker has the
// status already. has is false where the file system (or, on OpenBSD,
// the system) keeps none. follow follows a final symbolic link.
func birthTimeAt(e *walker.Entry, follow bool) (bt tspec, has bool, err error) {
	var st *unix.Stat_t
	if follow {
		st, err = e.Stat()
	} else {
		st, err = e.Lstat()
	}
	if err != nil {
		return tspec{}, false, err
	}
	sec, nsec, ok := printf.StatBirth(st)
	return tspec{sec, nsec}, ok, nil
}

// birthTimePath is birthTimeAt for a reference file named on the
// command line.
func birthTimePath(path string, follow bool) (tspec, bool, error) {
	var st unix.Stat_t
	var err error
	if follow {
		err = unix.Stat(path, &st)
	} else {
		err = unix.Lstat(path, &st)
	}
	if err != nil {
		return tspec{}, false, err
	}
	sec, nsec, ok := printf.StatBirth(&st)
	return tspec{sec, nsec}, ok, nil
}

// xattrPath names e for the extended attribute calls, which have no *at
// variant: its path, relative to the working directory the walker
// never leaves.
func xattrPath(e *walker.Entry) (string, error) {
	if len(e.AtName()) == 0 {
		return "", unix.ENOENT // the starting point "" names no file
	}
	return string(e.Path), nil
}
