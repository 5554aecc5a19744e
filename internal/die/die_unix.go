//go:build unix && !linux

package die

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// Of kills the process with sig, as the signal's default action does;
// it does not return.
//
// Here the runtime dies for us (viaRuntime): macOS and OpenBSD allow
// system calls only through libc, which offers Go no sigaction without
// cgo, and FreeBSD's and NetBSD's raw sigaction layouts would be code
// that only their machines could test; the runtime's way is the same
// on all of them and runs in the tests on Linux too.
func Of(sig syscall.Signal) { viaRuntime(sig) }

// dup2 makes newfd a copy of oldfd.
func dup2(oldfd, newfd int) error { return unix.Dup2(oldfd, newfd) }
