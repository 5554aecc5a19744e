package main

// What the tests do with Linux's ioctls: open a pseudo-terminal pair and
// count what a pipe holds (ioctl_other_test.go has the rest).

import (
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// ptyPair opens a pseudo-terminal pair: posix_openpt is open("/dev/ptmx"),
// unlockpt is TIOCSPTLCK 0, ptsname is /dev/pts/ and TIOCGPTN. Output
// post-processing is turned off, so bytes arrive as written.
func ptyPair(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	tio, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Oflag &^= unix.OPOST
	if err := unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	return m, s
}

// pipeFull reports whether the FIFO read by r is full, to a page (of
// the 64 KiB a pipe holds): its writer waits again.
func pipeFull(r *os.File) bool {
	n, err := unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ) // FIONREAD
	return err == nil && n >= 60<<10
}
