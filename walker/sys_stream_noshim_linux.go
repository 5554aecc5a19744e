//go:build linux && !(gfind_portable && gfind_macshim)

package walker

// macShim: Linux's records are passed through as the kernel gives them
// (sys_stream_linux.go); tests read it to know which reader they test.
const macShim = false
