package walker

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The directory calls below go straight to the kernel, without the
// runtime's syscall bookkeeping, and take NUL-terminated names that
// already sit in a dirent buffer or an Entry's Path, so that the hot path
// allocates nothing (unix.Openat and unix.Fstatat copy every name into a
// new C string).
//
// Blocking versus raw calls. A goroutine in a normal (unix.Syscall)
// system call lets the scheduler's sysmon hand its P to another thread
// once the call has lasted ~20µs and no P is idle. With every P busy
// walking, getdents64 on a big directory and cold-cache openat/fstatat
// regularly cross that line, and each handoff costs a futex wake-up and
// a thread switch (measured: a 15-25% loss on a full walk). Two ways out:
// RawSyscall, which never hands off (but holds its P, and a garbage
// collection's stop-the-world waits for the call to return), or one spare
// P (GOMAXPROCS = workers+1), which makes sysmon leave calls shorter than
// 10ms alone. We keep the ordinary calls and take the spare P in Walk (see
// spareP in walk_linux.go): on NFS, FUSE or a dying disk a call can block
// for seconds, and a raw call there would freeze the whole program's
// garbage collector for as long. The measured cost of the choice is in
// the package documentation.
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

// fstatat stats name (NUL-terminated) relative to dirfd.
func fstatat(dirfd int, name *byte, st *unix.Stat_t, flags int) error {
	for {
		_, errno := syscall6(unix.SYS_NEWFSTATAT, uintptr(dirfd), uintptr(unsafe.Pointer(name)), uintptr(unsafe.Pointer(st)), uintptr(flags), 0, 0)
		if errno == 0 {
			return nil
		}
		if errno != unix.EINTR {
			return errno
		}
	}
}

// fstat stats an open descriptor.
func fstat(fd int, st *unix.Stat_t) error {
	for {
		_, errno := syscall6(unix.SYS_FSTAT, uintptr(fd), uintptr(unsafe.Pointer(st)), 0, 0, 0, 0)
		if errno == 0 {
			return nil
		}
		if errno != unix.EINTR {
			return errno
		}
	}
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

// seekDir sets a directory descriptor's read position to a d_off cookie,
// to resume a directory read on a reopened descriptor.
func seekDir(fd int, off int64) error {
	_, err := unix.Seek(fd, off, 0)
	return err
}

// fsType returns the file system magic number (statfs f_type) of fd, or
// 0 when it cannot tell.
func fsType(fd int) int64 {
	var s unix.Statfs_t
	if unix.Fstatfs(fd, &s) != nil {
		return 0
	}
	return int64(s.Type)
}

// nofileLimit returns the soft RLIMIT_NOFILE. The Go runtime has already
// raised the soft limit to the hard one at start-up, so this is the real
// ceiling for the process.
func nofileLimit() int {
	var rl unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &rl) != nil || rl.Cur > 1<<20 {
		return 1 << 20
	}
	return int(rl.Cur)
}
