//go:build !linux

package output

import "os"

// isTerminal is false where TCGETS is not available: output is then
// never in terminal mode.
func isTerminal(fd int) bool { return false }

// dieOfSIGPIPE exits with the status a shell shows for a process killed
// by SIGPIPE; only Linux can actually die of the signal (see
// term_linux.go).
func dieOfSIGPIPE() { os.Exit(128 + 13) }
