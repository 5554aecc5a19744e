//go:build darwin || freebsd || netbsd || openbsd

package meta

import (
	"sync"

	"golang.org/x/sys/unix"
)

// meta's boundary with macOS and the BSDs (sys_linux.go has Linux's).
// Where Linux makes raw system calls into pooled buffers, these use
// x/sys's wrappers: macOS supports no raw system calls, OpenBSD allows
// them only from libc, and each wrapper's copy of a name is one
// allocation per call on tests that make a system call anyway.

// Access is faccessat(dirfd, name, mode, 0): the access(2) check with
// the real user and group ids, following a final symbolic link, as GNU's
// pred_readable does.
func Access(f File, mode uint32) error {
	if len(f.Name) == 0 {
		return unix.ENOENT // the starting point "" names no file
	}
	for {
		err := unix.Faccessat(f.Dir, string(f.Name), mode, 0)
		if err != unix.EINTR {
			return err
		}
	}
}

// direntPool holds the buffers of DirEmpty's reads.
var direntPool = sync.Pool{New: func() any { b := make([]byte, 4096); return &b }}

// DirEmpty reports whether the directory f names holds nothing but "."
// and "..". With nofollow it refuses a symbolic link (the status said
// the file itself is a directory; a link swapped in since then must not
// be followed): ErrNoFollowLink, as open(2) says it on this system.
func DirEmpty(f File, nofollow bool) (bool, error) {
	if len(f.Name) == 0 {
		return false, unix.ENOENT
	}
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC | unix.O_NOCTTY | unix.O_NONBLOCK
	if nofollow {
		flags |= unix.O_NOFOLLOW
	}
	var fd int
	var err error
	for {
		fd, err = unix.Openat(f.Dir, string(f.Name), flags, 0)
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

// Birth returns f's birth time from st, its status as follow sees it
// (StatBirth): stat(2) gives it on macOS, FreeBSD and NetBSD, and the
// walker has the status already. has is false where the file system
// (or, on OpenBSD, the system) keeps none.
func Birth(f File, follow bool, st *unix.Stat_t) (bt Time, has bool, err error) {
	sec, nsec, ok := StatBirth(st)
	return Time{sec, nsec}, ok, nil
}

// BirthPath is Birth for a reference file named on the command line.
func BirthPath(path string, follow bool) (Time, bool, error) {
	var st unix.Stat_t
	var err error
	if follow {
		err = unix.Stat(path, &st)
	} else {
		err = unix.Lstat(path, &st)
	}
	if err != nil {
		return Time{}, false, err
	}
	sec, nsec, ok := StatBirth(&st)
	return Time{sec, nsec}, ok, nil
}

// xattrPath names f for the extended attribute calls, which have no *at
// variant: its path, relative to the working directory the walker
// never leaves.
func xattrPath(f File) (string, error) {
	if len(f.Name) == 0 {
		return "", unix.ENOENT // the starting point "" names no file
	}
	return string(f.Path), nil
}
