package predicate

import (
	"unsafe"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

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
