//go:build darwin || freebsd || netbsd || openbsd

package spawn

import (
	"math"
	"sync"

	"golang.org/x/sys/unix"
)

// macOS's and the BSDs' limits on a new program's arguments, and the
// directory an -execdir child changes to (sys_linux.go is Linux's).

// MaxArgLen: no BSD limits one argument (Linux's MAX_ARG_STRLEN);
// argMax bounds them all together.
const MaxArgLen = math.MaxInt32 - 1

// defaultArgMax is ARG_MAX as the BSDs' <sys/syslimits.h> had it for
// long (256 KiB; macOS has 1 MiB), for a sysctl that fails.
const defaultArgMax = 256 << 10

// argMax is sysconf(_SC_ARG_MAX) as the BSDs' and macOS's libc answer
// it: the kern.argmax sysctl, the bytes of arguments and environment
// execve(2) takes. Their kernels count the strings (macOS also the
// pointers); Room counts both, which errs on the safe side.
var argMax = sync.OnceValue(func() uint64 {
	if n, err := unix.SysctlUint32("kern.argmax"); err == nil && n > 0 {
		return uint64(n)
	}
	return defaultArgMax
})

// dirName names d for the child's chdir: its path, relative to gfind's
// working directory, for there is no /proc/self/fd here (FreeBSD's
// fdescfs, when mounted on /dev/fd, gives no directory to chdir
// through): a path longer than PATH_MAX fails there.
func dirName(d Dir) string { return d.Path }
