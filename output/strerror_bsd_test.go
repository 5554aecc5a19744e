//go:build !linux

package output

import (
	"runtime"
	"syscall"
)

// libcStrerrorTests are the BSD C libraries' texts, from their errlst.c
// (macOS's libc shares FreeBSD's wording; not run on those systems here,
// where TestStrerrorMatchesLibc is the check that counts).
var libcStrerrorTests = []struct {
	err  error
	want string
}{
	{syscall.EXDEV, "Cross-device link"},
	{syscall.Errno(0), map[bool]string{true: "No error: 0", false: "Undefined error: 0"}[runtime.GOOS == "freebsd"]},
	{syscall.Errno(4000), "Unknown error: 4000"},
}
