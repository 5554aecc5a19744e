package die

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Of kills the process with sig, as the signal's default action does;
// it does not return.
//
// Raising the signal is not enough in Go: the runtime's handler ignores
// a SIGPIPE that was not caused by a write to descriptor 1 or 2, and it
// offers no way to ask for a signal's default action; signal.Reset and a
// kill(2) of ourselves would leave the timing to the runtime, and
// another goroutine could call os.Exit first. So the handler is reset to
// SIG_DFL with a raw rt_sigaction(2), the signal unblocked on this
// thread and sent to this thread, which the kernel then kills with the
// whole process on the way back from tgkill. Of is only called when the
// process is about to end anyway, so bypassing the runtime's bookkeeping
// costs nothing.
//
// Elsewhere, where a raw sigaction is not to be had (macOS and OpenBSD
// allow system calls only through libc), the runtime's own way of dying
// of a signal is used (viaRuntime).
func Of(sig syscall.Signal) {
	runtime.LockOSThread()
	// A kernel struct sigaction that is all zeros is SIG_DFL with no
	// flags and an empty mask, whatever the architecture's field order;
	// 8 words is more than the largest layout (MIPS: flags, handler and
	// a 128-bit mask; others: handler, flags, restorer, mask).
	var act [8]uint64
	// rt_sigaction(2) and rt_sigprocmask(2) insist on the kernel's
	// sizeof(sigset_t): 128 signals on MIPS, 64 elsewhere.
	sigsetSize := uintptr(8)
	switch runtime.GOARCH {
	case "mips", "mipsle", "mips64", "mips64le":
		sigsetSize = 16
	}
	unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, sigsetSize, 0, 0)
	// The mask's words are C longs, so the bit is set in a word of the
	// element's width: a uint64 with bit n set would put it in the wrong
	// half on 32-bit big-endian MIPS.
	var set unix.Sigset_t
	w := uint(unsafe.Sizeof(set.Val[0])) * 8
	set.Val[(uint(sig)-1)/w] |= 1 << ((uint(sig) - 1) % w)
	unix.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_UNBLOCK, uintptr(unsafe.Pointer(&set)), 0, sigsetSize, 0, 0)
	_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), sig)
	// Delivery is immediate on return from the system call; if we are
	// somehow still here, exit as a shell would show the signal.
	time.Sleep(100 * time.Millisecond)
	unix.Exit(128 + int(sig))
}

// dup2 makes newfd a copy of oldfd; Linux's arm64 and riscv64 have dup3
// only, and dup3 is on every Linux architecture.
func dup2(oldfd, newfd int) error { return unix.Dup3(oldfd, newfd, 0) }
