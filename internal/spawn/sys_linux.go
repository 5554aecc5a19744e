package spawn

import (
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// Linux's limits on a new program's arguments, and the directory an
// -execdir child changes to; sys_bsd.go is macOS's and the BSDs'.

// argMax is how many bytes of arguments and environment (strings and
// pointers) execve(2) takes: the kernel's own limit (prepare_arg_pages
// in fs/exec.c), a quarter of the stack limit, at most 6 MiB and at
// least 128 KiB. glibc's sysconf(_SC_ARG_MAX) is the same quarter. GNU
// find derives its limit the same way (bc_init_controlinfo), then keeps
// to 128 KiB (bc_use_sensible_arg_max); gfind uses all of it.
func argMax() uint64 {
	limit := uint64(kernelArgCap)
	var rl unix.Rlimit
	// Rlimit's fields are uint64 on every Linux GOARCH.
	if unix.Getrlimit(unix.RLIMIT_STACK, &rl) == nil && rl.Cur != unix.RLIM_INFINITY && rl.Cur/4 < limit {
		limit = rl.Cur / 4
	}
	return max(limit, legacyArgMax)
}

// The kernel's limits on a new program's arguments (fs/exec.c,
// include/uapi/linux/binfmts.h).
const (
	// MaxArgLen is the longest one argument may be: MAX_ARG_STRLEN less
	// the argument's NUL.
	MaxArgLen = 32*4096 - 1
	// legacyArgMax is what the kernel allows for the arguments and the
	// environment whatever the stack limit (MAX_ARG_STRLEN's floor).
	legacyArgMax = 32 * 4096
	// kernelArgCap is the most it allows however large the stack limit:
	// three quarters of _STK_LIM, 8 MiB.
	kernelArgCap = 8 << 20 / 4 * 3
)

// dirName names d for the child's chdir: /proc/self/fd/N, the child's
// copy of the descriptor until it calls execve, so that it changes to exactly the
// directory the walk holds, whatever its path (even one longer than
// PATH_MAX). Without /proc, d.Path is the fallback.
func dirName(d Dir) string {
	if !haveProcFD() {
		return d.Path
	}
	return "/proc/self/fd/" + strconv.Itoa(d.fd)
}

var haveProcFD = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/fd")
	return err == nil
})
