//go:build !linux

package output

import (
	"runtime"
	"strconv"
	"syscall"
)

// The BSD C libraries' strerror (FreeBSD's, OpenBSD's and NetBSD's
// errlst.c, and macOS's, which comes from FreeBSD's) where Go's table
// has no text: errno 0 and the numbers with no message.

// libcStrerror returns the C library's text for errno 0, which Go's
// table leaves out.
func libcStrerror(errno syscall.Errno) (string, bool) {
	if errno != 0 {
		return "", false
	}
	// FreeBSD renamed its entry 0 "No error: 0"; the others kept 4.4BSD's.
	if runtime.GOOS == "freebsd" {
		return "No error: 0", true
	}
	return "Undefined error: 0", true
}

// unknownErrno is the BSD libraries' text for a number with no message
// ("Unknown error: %d", the colon unlike glibc).
func unknownErrno(errno syscall.Errno) string {
	return "Unknown error: " + strconv.FormatUint(uint64(errno), 10)
}
