package output

import (
	"runtime"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether fd is a terminal: TCGETS succeeds only on
// one (this is isatty(3)).
func isTerminal(fd int) bool {
	_, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	return err == nil
}

// dieOfSIGPIPE ends the process the way an unhandled SIGPIPE does, so
// that the parent sees "killed by SIGPIPE" (status 141 in a shell), as
// with GNU find writing into a closed pipe.
//
// Raising the signal is not enough in Go: the runtime's handler ignores
// a SIGPIPE that was not caused by a write to descriptor 1 or 2, and it
// offers no way to ask for the default action. So the handler is reset
// to SIG_DFL with a raw rt_sigaction(2), the signal unblocked on this
// thread, and sent to this thread, which the kernel then kills with the
// whole process. We only get here when the process is about to end
// anyway, so bypassing the runtime's bookkeeping costs nothing.
func dieOfSIGPIPE() {
	runtime.LockOSThread()
	// A kernel struct sigaction that is all zeros is SIG_DFL with no
	// flags and an empty mask, whatever the architecture's field order;
	// 4 words covers the largest layout (handler, flags, restorer, mask).
	var act [4]uint64
	unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(unix.SIGPIPE),
		uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	set := [1]uint64{1 << (unix.SIGPIPE - 1)}
	unix.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_UNBLOCK,
		uintptr(unsafe.Pointer(&set)), 0, 8, 0, 0)
	_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), unix.SIGPIPE)
	// Delivery is immediate on return from the system call; if we are
	// somehow still here, fail the way Go's own dieFromSignal does.
	time.Sleep(100 * time.Millisecond)
	unix.Exit(2)
}
