package meta

import "testing"

func TestIsDotOrDotDot(t *testing.T) {
	for name, want := range map[string]bool{
		".\x00\x00": true, "..\x00": true, "..": true, ".": false, ".a\x00": false,
		"...\x00": false, "a\x00": false, "..a\x00": false,
	} {
		if got := isDotOrDotDot([]byte(name)); got != want {
			t.Errorf("isDotOrDotDot(%q) = %v, want %v", name, got, want)
		}
	}
}
