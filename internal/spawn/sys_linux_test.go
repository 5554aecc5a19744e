package spawn

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestArgMaxLinux: Linux's limit is a quarter of the stack limit, at
// least 128 KiB, at most 6 MiB.
func TestArgMaxLinux(t *testing.T) {
	limit := argMax()
	if limit < legacyArgMax || limit > kernelArgCap {
		t.Errorf("argMax() = %d: want between 128 KiB and 6 MiB", limit)
	}
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_STACK, &rl); err != nil {
		t.Fatal(err)
	}
	if rl.Cur != unix.RLIM_INFINITY && rl.Cur/4 >= legacyArgMax && rl.Cur/4 <= kernelArgCap && limit != rl.Cur/4 {
		t.Errorf("argMax() = %d with a stack limit of %d, want a quarter of it", limit, rl.Cur)
	}
}
