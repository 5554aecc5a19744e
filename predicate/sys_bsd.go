//go:build darwin || freebsd || netbsd || openbsd

package predicate

import (
	"math"
	"sync"

	"golang.org/x/sys/unix"
)

// predicate's boundary with macOS and the BSDs (sys_linux.go says what
// the boundary holds).

// maxArgStrlen: no BSD limits one argument (Linux's MAX_ARG_STRLEN);
// argMax bounds them all together.
const maxArgStrlen = math.MaxInt32

// defaultArgMax is ARG_MAX as the BSDs' <sys/syslimits.h> had it for
// long (256 KiB; macOS has 1 MiB), for a sysctl that fails.
const defaultArgMax = 256 << 10

// argMax is sysconf(_SC_ARG_MAX) as the BSDs' and macOS's libc answer
// it: the kern.argmax sysctl, the bytes of arguments and environment
// execve(2) takes. Their kernels count the strings (macOS also the
// pointers); argRoom counts both, which errs on the safe side.
var argMax = sync.OnceValue(func() uint64 {
	if n, err := unix.SysctlUint32("kern.argmax"); err == nil && n > 0 {
		return uint64(n)
	}
	return defaultArgMax
})

// haveProcFD: there is no /proc/self/fd here (FreeBSD's fdescfs, when
// mounted on /dev/fd, gives no directory to chdir through), so an
// -execdir child changes to the directory by its path, relative to
// gfind's working directory: a path longer than PATH_MAX fails there.
func haveProcFD() bool { return false }
