//go:build !linux

package main

// The counterparts of ioctl_linux_test.go elsewhere, compiled but never
// run here.

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// ptyPair skips the test: opening a pseudo-terminal differs on every OS
// (macOS's TIOCPTYGRANT and TIOCPTYGNAME, the PTMGET of OpenBSD's and
// NetBSD's /dev/ptm, FreeBSD's posix_openpt) and is written for Linux
// only.
func ptyPair(t *testing.T) (master, slave *os.File) {
	t.Helper()
	t.Skip("opening a pseudo-terminal is written for Linux only (ioctl_linux_test.go)")
	return nil, nil
}

// fionread is FIONREAD of macOS's and the BSDs' <sys/filio.h>,
// _IOR('f', 127, int), which x/sys does not define there.
const fionread = 0x4004667f

// pipeFull reports whether the FIFO read by r holds what a pipe holds
// there before a large write grows it, 16 KiB, to a page. A pipe that
// has grown reads as full early, which only shortens a wait.
func pipeFull(r *os.File) bool {
	n, err := unix.IoctlGetInt(int(r.Fd()), fionread)
	return err == nil && n >= 12<<10
}
