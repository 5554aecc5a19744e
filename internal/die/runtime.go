//go:build unix

package die

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// viaRuntime kills the process with sig through the Go runtime's own
// way of dying of a signal, which every OS's runtime has (dieFromSignal:
// unblock the signal, set SIG_DFL, raise it), without a system call of
// our own that only some OSes allow. The runtime takes that way in two
// cases, and viaRuntime brings each about:
//
//   - a signal whose default action is to end the process (SIGINT,
//     SIGTERM, SIGHUP, ...) that comes when no signal.Notify channel
//     wants it (hence signal.Reset first): kill(2) of ourselves;
//   - SIGPIPE, which the runtime otherwise ignores, only when a write to
//     descriptor 1 or 2 fails with EPIPE (os.File's epipecheck) and no
//     channel wants SIGPIPE: so descriptor 2 is made the writing end of
//     a pipe with no reader and written to. The process dies of SIGPIPE
//     on that write, so what else was on descriptor 2 is lost to
//     nothing.
//
// The signal is then taken on whichever thread the kernel picks, which
// is why this goroutine waits; if the runtime did not kill the process
// (a signal ignored when it started, or by signal.Ignore: the runtime
// keeps it ignored), it exits as a shell would show the signal.
func viaRuntime(sig syscall.Signal) {
	signal.Reset(sig)
	if sig == syscall.SIGPIPE {
		var p [2]int
		if unix.Pipe(p[:]) == nil {
			unix.Close(p[0])
			if dup2(p[1], 2) == nil {
				os.NewFile(2, "/dev/stderr").Write([]byte{0})
			}
		}
	} else {
		_ = unix.Kill(unix.Getpid(), sig)
	}
	time.Sleep(time.Second)
	unix.Exit(128 + int(sig))
}
