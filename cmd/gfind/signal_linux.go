package main

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// raise kills the process with sig, as the signal's default action
// does, so that the parent's wait status says "killed by sig".
//
// signal.Reset and a kill(2) of ourselves would leave the timing to the
// runtime, and another goroutine could call os.Exit first. Instead the
// handler is set to SIG_DFL with a raw rt_sigaction(2), the signal is
// unblocked on this thread and sent to it: the kernel kills the whole
// process on the way back from tgkill. (output.dieOfSIGPIPE does the
// same for SIGPIPE.)
func raise(sig syscall.Signal) {
	runtime.LockOSThread()
	// An all-zero kernel struct sigaction is SIG_DFL, no flags, empty
	// mask, whatever the field order; 4 words covers every layout.
	var act [4]uint64
	unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	set := [1]uint64{1 << (uint(sig) - 1)}
	unix.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_UNBLOCK, uintptr(unsafe.Pointer(&set)), 0, 8, 0, 0)
	_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), sig)
	// Not reached; if we are still here, exit as a shell would show it.
	time.Sleep(100 * time.Millisecond)
	unix.Exit(128 + int(sig))
}
