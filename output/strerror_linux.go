package output

import (
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// glibc's strerror where Go's table has no text or other words.

// libcStrerror returns glibc's text for the errnos that Go's table
// words differently or not at all.
func libcStrerror(errno syscall.Errno) (string, bool) {
	switch errno {
	case 0:
		return "Success", true
	case unix.EHWPOISON: // missing from Go's table; 133, but 168 on MIPS
		return "Memory page has hardware error", true
	}
	return "", false
}

// unknownErrno is glibc's text for a number it has no message for.
func unknownErrno(errno syscall.Errno) string {
	return "Unknown error " + strconv.FormatUint(uint64(errno), 10)
}
