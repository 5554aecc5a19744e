package meta

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestValidBirth: gnulib's rule for a birth time from stat(2), which
// decides %B and -newerB* on macOS, FreeBSD and NetBSD.
func TestValidBirth(t *testing.T) {
	for _, tt := range []struct {
		sec, nsec int64
		want      bool
	}{
		{1700000000, 5, true},
		{1, 0, true},
		{-1, 0, true}, // FreeBSD's UFS1 "unknown", a time for gnulib
		{-100, 999999999, true},
		{0, 0, false}, // "unknown" on FreeBSD and NetBSD
		{0, 5, false},
		{1700000000, -1, false}, // NetBSD's junk
		{1700000000, 1e9, false},
	} {
		if got := validBirth(tt.sec, tt.nsec); got != tt.want {
			t.Errorf("validBirth(%d, %d) = %v, want %v", tt.sec, tt.nsec, got, tt.want)
		}
	}
}

// TestStatBirth: where stat(2) has no birth time (Linux, OpenBSD),
// StatBirth gives gnulib's {-1, -1}; elsewhere the status's own.
func TestStatBirth(t *testing.T) {
	var st unix.Stat_t
	if err := unix.Stat(".", &st); err != nil {
		t.Fatal(err)
	}
	sec, nsec, ok := StatBirth(&st)
	switch runtime.GOOS {
	case "linux", "openbsd":
		if ok || sec != -1 || nsec != -1 {
			t.Errorf("StatBirth = %d, %d, %v; want -1, -1, false", sec, nsec, ok)
		}
	default:
		if ok && !validBirth(sec, nsec) {
			t.Errorf("StatBirth = %d, %d, %v", sec, nsec, ok)
		}
	}
}
