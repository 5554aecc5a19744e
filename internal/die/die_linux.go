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
func Of(sig syscall.Signal) {
	runtime.LockOSThread()
	// A kernel struct sigaction that is all zeros is SIG_DFL with no
	// flags and an empty mask, whatever the architecture's field order;
	// 4 words covers the largest layout (handler, flags, restorer, mask).
	var act [4]uint64
	unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	set := [1]uint64{1 << (uint(sig) - 1)}
	unix.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_UNBLOCK, uintptr(unsafe.Pointer(&set)), 0, 8, 0, 0)
	_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), sig)
	// Delivery is immediate on return from the system call; if we are
	// somehow still here, exit as a shell would show the signal.
	time.Sleep(100 * time.Millisecond)
	unix.Exit(128 + int(sig))
}
