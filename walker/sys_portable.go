//go:build darwin || freebsd || netbsd || openbsd || (linux && gfind_portable)

package walker

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The per-file calls everywhere but Linux's own build: through x/sys's
// wrappers, since macOS and OpenBSD support no system calls but through
// their libc, and one version of them is less to get wrong on systems
// no test here runs on. The price is a copy of each name that a call is
// given (the wrappers make a C string of it), which the Linux build
// avoids (sys_linux_raw.go). Under the gfind_portable tag Linux uses
// these, so that they are tested.

// cname returns the NUL-terminated name as a string, without copying:
// the wrappers copy it once more themselves.
func cname(name *byte) string {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(name), n)) != 0 {
		n++
	}
	return unsafe.String(name, n)
}

// openDir opens the directory name (NUL-terminated) relative to dirfd.
// Without follow it refuses a symbolic link (O_NOFOLLOW), so that a
// directory swapped for a link between the read and the open is not
// followed, as GNU find does. EINTR is retried in every call here: some
// file systems (NFS, FUSE) return it whatever SA_RESTART says.
func openDir(dirfd int, name *byte, follow bool) (int, error) {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	for {
		fd, err := unix.Openat(dirfd, cname(name), flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// fstatat stats name (NUL-terminated) relative to dirfd.
func fstatat(dirfd int, name *byte, st *unix.Stat_t, flags int) error {
	for {
		err := unix.Fstatat(dirfd, cname(name), st, flags)
		if err != unix.EINTR {
			return err
		}
	}
}

// readlinkat reads the target of the link name (NUL-terminated) relative
// to dirfd into buf and returns its length.
func readlinkat(dirfd int, name *byte, buf []byte) (int, error) {
	for {
		n, err := unix.Readlinkat(dirfd, cname(name), buf)
		if err != unix.EINTR {
			return n, err
		}
	}
}
