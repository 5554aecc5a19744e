package predicate

import (
	"sync"
	"unsafe"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// This file and its siblings for the other systems (sys_bsd.go and
// sys_<os>.go, xattr_<os>.go) are predicate's whole boundary with the
// operating system: the calls relative to a directory descriptor, the
// errno values that differ, the birth time and the extended attributes
// (the -exec argument limit is internal/spawn's, the mount table
// internal/mounts').
// Everything else in the package builds unchanged on every Unix.

// Errno values that differ between systems.
const (
	// errNoFollowLink is what open(2) with O_NOFOLLOW says of a
	// symbolic link: ELOOP on Linux (FreeBSD says EMLINK, NetBSD EFTYPE).
	// With O_DIRECTORY too, Linux says ENOTDIR first.
	errNoFollowLink = unix.ELOOP
	// errUnlinkDir is what unlink(2) says of a directory: EISDIR on
	// Linux, EPERM (POSIX's answer) on the BSDs and macOS.
	errUnlinkDir = unix.EISDIR
	// errNoAttr is "no such extended attribute": ENODATA on Linux.
	errNoAttr = unix.ENODATA
)

// The tests that ask the kernel about an Entry themselves (-readable and
// friends, -empty on a directory) call it relative to the parent
// directory's descriptor, never by path: the path may be longer than
// PATH_MAX and the walker does not chdir. unix.Faccessat and unix.Openat
// copy the name into a new C string on every call; these helpers copy it
// into a pooled buffer instead, so that evaluating allocates nothing.

// atScratch is the per-call memory of the helpers below.
type atScratch struct {
	name  []byte // the Entry's AtName, NUL-terminated
	dents []byte // a getdents64 buffer, for -empty
}

var scratchPool = sync.Pool{New: func() any {
	return &atScratch{name: make([]byte, 0, 256), dents: make([]byte, 4096)}
}}

// cname returns e's AtName as a C string in sc. The empty starting point
// "" names no file (ENOENT, as the kernel says).
func (sc *atScratch) cname(e *walker.Entry) (*byte, error) {
	n := e.AtName()
	if len(n) == 0 {
		return nil, unix.ENOENT
	}
	sc.name = append(append(sc.name[:0], n...), 0)
	return &sc.name[0], nil
}

// accessAt is faccessat(dirfd, name, mode, 0): the access(2) check with
// the real user and group ids, following a final symbolic link, as GNU's
// pred_readable does.
func accessAt(e *walker.Entry, mode uint32) error {
	sc := scratchPool.Get().(*atScratch)
	defer scratchPool.Put(sc)
	name, err := sc.cname(e)
	if err != nil {
		return err
	}
	for {
		_, _, errno := unix.Syscall(unix.SYS_FACCESSAT, uintptr(e.DirFD()), uintptr(unsafe.Pointer(name)), uintptr(mode))
		switch errno {
		case 0:
			return nil
		case unix.EINTR:
			continue
		}
		return errno
	}
}

// dirEmptyAt reports whether the directory e names holds nothing but "."
// and "..". With nofollow it refuses a symbolic link (the status said
// the file itself is a directory; a link swapped in since then must not
// be followed).
func dirEmptyAt(e *walker.Entry, nofollow bool) (bool, error) {
	sc := scratchPool.Get().(*atScratch)
	defer scratchPool.Put(sc)
	name, err := sc.cname(e)
	if err != nil {
		return false, err
	}
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC | unix.O_NOCTTY | unix.O_NONBLOCK
	if nofollow {
		flags |= unix.O_NOFOLLOW
	}
	var fd int
	for {
		r, _, errno := unix.Syscall6(unix.SYS_OPENAT, uintptr(e.DirFD()), uintptr(unsafe.Pointer(name)), uintptr(flags), 0, 0, 0)
		if errno == unix.EINTR {
			continue
		}
		if errno != 0 {
			return false, errno
		}
		fd = int(r)
		break
	}
	defer unix.Close(fd)
	buf := sc.dents
	for {
		r, _, errno := unix.Syscall(unix.SYS_GETDENTS64, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
		if errno == unix.EINTR {
			continue
		}
		if errno != 0 {
			return false, errno
		}
		n := int(r)
		if n == 0 {
			return true, nil
		}
		// "." and ".." come first on every Linux file system we know
		// of, so one batch nearly always settles it; the loop is for
		// the ones where they do not.
		for off := 0; off+19 < n; {
			// d_reclen, in native byte order; records are 8-byte aligned.
			reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
			if reclen == 0 || off+reclen > n {
				return false, unix.EIO
			}
			if !isDotOrDotDot(buf[off+19 : off+reclen]) {
				return false, nil
			}
			off += reclen
		}
	}
}

// birthTimeAt returns the birth time of e from statx(2), asked relative
// to the parent directory's descriptor; has is false when the file
// system keeps none. follow follows a final symbolic link.
//
// The name and the statx buffer live on the stack, so that evaluating
// allocates nothing (unix.Statx would copy the name into a new C
// string); only a starting point longer than the buffer needs the heap.
func birthTimeAt(e *walker.Entry, follow bool) (bt tspec, has bool, err error) {
	dirfd := e.DirFD()
	if dirfd < 0 && dirfd != unix.AT_FDCWD {
		return tspec{}, false, unix.EBADF // a Synthetic Entry
	}
	name := e.AtName()
	if len(name) == 0 {
		return tspec{}, false, unix.ENOENT // the starting point ""
	}
	var buf [256]byte
	var cname []byte
	if len(name) < len(buf) {
		cname = append(buf[:0], name...)
	} else {
		cname = make([]byte, 0, len(name)+1)
		cname = append(cname, name...)
	}
	cname = append(cname, 0)
	flags := unix.AT_STATX_SYNC_AS_STAT
	if !follow {
		flags |= unix.AT_SYMLINK_NOFOLLOW
	}
	var stx unix.Statx_t
	for {
		_, _, errno := unix.Syscall6(unix.SYS_STATX, uintptr(dirfd), uintptr(unsafe.Pointer(&cname[0])),
			uintptr(flags), uintptr(unix.STATX_BTIME), uintptr(unsafe.Pointer(&stx)), 0)
		if errno == unix.EINTR {
			continue
		}
		if errno != 0 {
			return tspec{}, false, errno
		}
		break
	}
	return statxBirth(&stx)
}

// birthTimePath is birthTimeAt for a reference file named on the
// command line.
func birthTimePath(path string, follow bool) (tspec, bool, error) {
	flags := unix.AT_STATX_SYNC_AS_STAT
	if !follow {
		flags |= unix.AT_SYMLINK_NOFOLLOW
	}
	var stx unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, flags, unix.STATX_BTIME, &stx); err != nil {
		return tspec{}, false, err
	}
	return statxBirth(&stx)
}

func statxBirth(stx *unix.Statx_t) (tspec, bool, error) {
	if stx.Mask&unix.STATX_BTIME == 0 {
		return tspec{}, false, nil
	}
	return tspec{stx.Btime.Sec, int64(stx.Btime.Nsec)}, true, nil
}
