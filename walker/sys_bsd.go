//go:build freebsd || netbsd || openbsd

package walker

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// The directory calls of the BSDs: getdents (getdirentries on FreeBSD)
// a chunk at a time, as on Linux, into records of each OS's layout
// (sys_freebsd.go, sys_netbsd.go, sys_openbsd.go bind the parser).

// getdents reads directory records into buf. It returns 0 at the end.
func getdents(fd int, buf []byte) (int, error) {
	for {
		n, err := unix.Getdents(fd, buf)
		if err != unix.EINTR {
			return n, err
		}
	}
}

// closeFD closes fd. Errors are ignored: a directory opened read-only has
// nothing to flush, and a retried close could close a descriptor
// another goroutine has just been given.
func closeFD(fd int) { unix.Close(fd) }

// seekDir sets a directory descriptor's read position to what tellDir
// said, to resume a directory read on a reopened descriptor.
func seekDir(fd int, pos int64) error {
	_, err := unix.Seek(fd, pos, 0)
	return err
}

// tellDir returns a directory descriptor's read position: past the last
// chunk getdents returned.
func tellDir(fd int) (int64, error) { return unix.Seek(fd, 0, 1) }

// inodeSortUseless: gnulib fts asks the file system type only on Linux;
// elsewhere it sorts every big batch by inode number.
func inodeSortUseless(fd int) bool { return false }

// mountRoot: the BSDs' mounts, nullfs included, report a device of their
// own, so a directory with its parent's device is never a mount's root.
func mountRoot(fd int) (root, known bool) { return false, true }

// osYield lets other goroutines run while a worker spins. OpenBSD allows
// no sched_yield but through libc; the Go scheduler's yield serves.
func osYield() { runtime.Gosched() }
