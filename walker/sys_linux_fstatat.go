//go:build linux && !gfind_portable && !(amd64 || arm64 || riscv64 || ppc64 || ppc64le || s390x)

package walker

import "golang.org/x/sys/unix"

// fstatat stats name (NUL-terminated) relative to dirfd. On these
// architectures the kernel's stat layout differs from unix.Stat_t (or the
// call is fstatat64, or statx), so unix.Fstatat converts, at the price of
// copying the name.
func fstatat(dirfd int, name *byte, st *unix.Stat_t, flags int) error {
	path := unix.BytePtrToString(name)
	for {
		err := unix.Fstatat(dirfd, path, st, flags)
		if err != unix.EINTR {
			return err
		}
	}
}
