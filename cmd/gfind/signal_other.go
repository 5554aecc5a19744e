//go:build !linux

package main

import (
	"os"
	"syscall"
)

// raise ends the process with the status a shell shows for a process
// killed by sig.
func raise(sig syscall.Signal) { os.Exit(128 + int(sig)) }
