//go:build linux && !gfind_portable && (amd64 || arm64 || riscv64 || ppc64 || ppc64le || s390x)

package walker

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// fstatat stats name (NUL-terminated) relative to dirfd. On these
// architectures newfstatat fills unix.Stat_t directly, so the name is
// passed in place, with no copy.
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
