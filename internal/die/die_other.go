//go:build !linux

package die

import (
	"os"
	"syscall"
)

// Of exits with the status a shell shows for a process killed by sig;
// only on Linux does the process actually die of the signal (see
// die_linux.go).
func Of(sig syscall.Signal) { os.Exit(128 + int(sig)) }
