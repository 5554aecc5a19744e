//go:build linux && !gfind_portable

package walker

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The directory calls below take NUL-terminated names that already sit
// in a dirent buffer or an Entry's Path, so that the hot path allocates
// nothing (unix.Openat and unix.Fstatat copy every name into a new C
// string), and retry EINTR.
//
// Blocking versus raw calls. A goroutine in an ordinary (unix.Syscall)
// system call can lose its P to sysmon, which hands it to another thread:
// soon after the call starts when no P is idle, or at once when the
// goroutine has not been rescheduled for 10ms (see maybeYield in
// visit.go). RawSyscall avoids both, but holds its P for the whole
// call and makes a garbage collection's stop-the-world wait for the call
// to return: on NFS, FUSE, an automount point or a dying disk a call can
// block for seconds, and the whole program would freeze with it.
//
// So the calls are ordinary, and the hand-offs are avoided at the source
// instead: the workers yield every few milliseconds (which disarms the
// 10ms rule), and there are no more workers than Ps by default (so a P
// is idle whenever a worker sleeps). With the yield, ordinary calls are
// as fast as raw ones (bench/NOTES.md).
//
// syscall6 is the one switch point between the two kinds of call.
func syscall6(trap, a1, a2, a3, a4, a5, a6 uintptr) (uintptr, unix.Errno) {
	r, _, errno := unix.Syscall6(trap, a1, a2, a3, a4, a5, a6)
	return r, errno
}

// openDir opens the directory name (NUL-terminated) relative to dirfd.
// Without follow it refuses a symbolic link (O_NOFOLLOW), so that a
// directory swapped for a link between the read and the open is not
// followed, as GNU find does.
func openDir(dirfd int, name *byte, follow bool) (int, error) {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	for {
		r, errno := syscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(name)), uintptr(flags), 0, 0, 0)
		if errno == 0 {
			return int(r), nil
		}
		if errno != unix.EINTR {
			return -1, errno
		}
	}
}

// getdents reads directory records into buf. It returns 0 at the end.
// EINTR is retried here and in the other calls: Go installs its signal
// handlers with SA_RESTART, but some file systems (NFS, FUSE) still
// return it.
func getdents(fd int, buf []byte) (int, error) {
	for {
		r, errno := syscall6(unix.SYS_GETDENTS64, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(buf))), uintptr(len(buf)), 0, 0, 0)
		if errno == 0 {
			return int(r), nil
		}
		if errno != unix.EINTR {
			return 0, errno
		}
	}
}

// closeFD closes fd. Errors are ignored: a directory opened read-only has
// nothing to flush, and retrying close on Linux could close a descriptor
// another goroutine has just been given.
func closeFD(fd int) {
	syscall6(unix.SYS_CLOSE, uintptr(fd), 0, 0, 0, 0, 0)
}

// readlinkat reads the target of the link name (NUL-terminated) relative
// to dirfd into buf and returns its length.
func readlinkat(dirfd int, name *byte, buf []byte) (int, error) {
	for {
		r, errno := syscall6(unix.SYS_READLINKAT, uintptr(dirfd), uintptr(unsafe.Pointer(name)), uintptr(unsafe.Pointer(unsafe.SliceData(buf))), uintptr(len(buf)), 0, 0)
		if errno == 0 {
			return int(r), nil
		}
		if errno != unix.EINTR {
			return 0, errno
		}
	}
}

// seekDir sets a directory descriptor's read position to what tellDir
// said, to resume a directory read on a reopened descriptor.
func seekDir(fd int, pos int64) error {
	_, err := unix.Seek(fd, pos, 0)
	return err
}

// tellDir returns a directory descriptor's read position: past the
// last chunk getdents returned (the kernel's f_pos, the d_off cookie
// of that chunk's last record).
func tellDir(fd int) (int64, error) {
	return unix.Seek(fd, 0, 1)
}
