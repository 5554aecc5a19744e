//go:build linux && gfind_portable && gfind_macshim

package walker

// macShim makes Linux's portable stream behave as the worst macOS
// stream may (sys_stream_linux.go).
const macShim = true
