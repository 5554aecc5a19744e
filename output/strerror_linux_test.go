package output

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// libcStrerrorTests are glibc's own texts (python3 -c
// 'import os; print(os.strerror(N))' on glibc 2.36). The unknown numbers
// are unused on every Linux architecture (MIPS's errnos reach 168, and
// 1133 for EDQUOT).
var libcStrerrorTests = []struct {
	err  error
	want string
}{
	{syscall.EXDEV, "Invalid cross-device link"},
	{syscall.ESTALE, "Stale file handle"},
	{syscall.Errno(0), "Success"},
	{unix.EHWPOISON, "Memory page has hardware error"},
	{syscall.Errno(200), "Unknown error 200"},
	{syscall.Errno(4000), "Unknown error 4000"},
}
