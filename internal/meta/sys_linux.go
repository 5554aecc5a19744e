package meta

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Errno values that differ between systems.
const (
	// ErrNoFollowLink is what open(2) with O_NOFOLLOW says of a
	// symbolic link: ELOOP on Linux (FreeBSD says EMLINK, NetBSD EFTYPE).
	// With O_DIRECTORY too, Linux says ENOTDIR first.
	ErrNoFollowLink = unix.ELOOP
	// ErrUnlinkDir is what unlink(2) says of a directory: EISDIR on
	// Linux, EPERM (POSIX's answer) on the BSDs and macOS.
	ErrUnlinkDir = unix.EISDIR
	// errNoAttr is "no such extended attribute": ENODATA on Linux.
	errNoAttr = unix.ENODATA
)

// Access and DirEmpty call the kernel relative to the parent
// directory's descriptor, never by path: the path may be longer than
// PATH_MAX and the walker does not chdir. unix.Faccessat and unix.Openat
// copy the name into a new C string on every call; these copy it into a
// pooled buffer instead, so that evaluating allocates nothing.

// atScratch is the per-call memory of Access and DirEmpty.
type atScratch struct {
	name  []byte // the File's Name, NUL-terminated
	dents []byte // a getdents64 buffer, for DirEmpty
}

var scratchPool = sync.Pool{New: func() any {
	return &atScratch{name: make([]byte, 0, 256), dents: make([]byte, 4096)}
}}

// cname returns f's Name as a C string in sc. The empty starting point
// "" names no file (ENOENT, as the kernel says).
func (sc *atScratch) cname(f File) (*byte, error) {
	if len(f.Name) == 0 {
		return nil, unix.ENOENT
	}
	sc.name = append(append(sc.name[:0], f.Name...), 0)
	return &sc.name[0], nil
}

// Access is faccessat(dirfd, name, mode, 0): the access(2) check with
// the real user and group ids, following a final symbolic link, as GNU's
// pred_readable does.
func Access(f File, mode uint32) error {
	sc := scratchPool.Get().(*atScratch)
	defer scratchPool.Put(sc)
	name, err := sc.cname(f)
	if err != nil {
		return err
	}
	for {
		_, _, errno := unix.Syscall(unix.SYS_FACCESSAT, uintptr(f.Dir), uintptr(unsafe.Pointer(name)), uintptr(mode))
		switch errno {
		case 0:
			return nil
		case unix.EINTR:
			continue
		}
		return errno
	}
}

// DirEmpty reports whether the directory f names holds nothing but "."
// and "..". With nofollow it refuses a symbolic link (the status said
// the file itself is a directory; a link swapped in since then must not
// be followed).
func DirEmpty(f File, nofollow bool) (bool, error) {
	sc := scratchPool.Get().(*atScratch)
	defer scratchPool.Put(sc)
	name, err := sc.cname(f)
	if err != nil {
		return false, err
	}
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC | unix.O_NOCTTY | unix.O_NONBLOCK
	if nofollow {
		flags |= unix.O_NOFOLLOW
	}
	var fd int
	for {
		r, _, errno := unix.Syscall6(unix.SYS_OPENAT, uintptr(f.Dir), uintptr(unsafe.Pointer(name)), uintptr(flags), 0, 0, 0)
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

// isDotOrDotDot reports whether a NUL-padded d_name is "." or "..".
func isDotOrDotDot(name []byte) bool {
	if len(name) < 2 || name[0] != '.' {
		return false
	}
	return name[1] == 0 || (name[1] == '.' && (len(name) == 2 || name[2] == 0))
}

// Birth returns the birth time of f from statx(2), asked relative to
// the parent directory's descriptor; has is false when the file system
// keeps none. follow follows a final symbolic link. st, the status as
// follow sees it, is where the BSDs read it; Linux asks statx.
//
// The name and the statx buffer live on the stack, so that evaluating
// allocates nothing (unix.Statx would copy the name into a new C
// string); only a starting point longer than the buffer needs the heap.
func Birth(f File, follow bool, st *unix.Stat_t) (bt Time, has bool, err error) {
	if f.Dir < 0 && f.Dir != unix.AT_FDCWD {
		return Time{}, false, unix.EBADF // a made-up entry
	}
	if len(f.Name) == 0 {
		return Time{}, false, unix.ENOENT // the starting point ""
	}
	var buf [256]byte
	var cname []byte
	if len(f.Name) < len(buf) {
		cname = append(buf[:0], f.Name...)
	} else {
		cname = make([]byte, 0, len(f.Name)+1)
		cname = append(cname, f.Name...)
	}
	cname = append(cname, 0)
	flags := unix.AT_STATX_SYNC_AS_STAT
	if !follow {
		flags |= unix.AT_SYMLINK_NOFOLLOW
	}
	var stx unix.Statx_t
	for {
		_, _, errno := unix.Syscall6(unix.SYS_STATX, uintptr(f.Dir), uintptr(unsafe.Pointer(&cname[0])),
			uintptr(flags), uintptr(unix.STATX_BTIME), uintptr(unsafe.Pointer(&stx)), 0)
		if errno == unix.EINTR {
			continue
		}
		if errno != 0 {
			return Time{}, false, errno
		}
		break
	}
	return statxBirth(&stx)
}

// BirthPath is Birth for a reference file named on the command line.
func BirthPath(path string, follow bool) (Time, bool, error) {
	flags := unix.AT_STATX_SYNC_AS_STAT
	if !follow {
		flags |= unix.AT_SYMLINK_NOFOLLOW
	}
	var stx unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, flags, unix.STATX_BTIME, &stx); err != nil {
		return Time{}, false, err
	}
	return statxBirth(&stx)
}

func statxBirth(stx *unix.Statx_t) (Time, bool, error) {
	if stx.Mask&unix.STATX_BTIME == 0 {
		return Time{}, false, nil
	}
	return Time{stx.Btime.Sec, int64(stx.Btime.Nsec)}, true, nil
}
