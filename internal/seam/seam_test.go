package seam

import "testing"

// TestHook: Set installs, Load gives what is set (nil when nothing
// is), and restore puts back what was there, nested.
func TestHook(t *testing.T) {
	var h Hook
	if h.Load() != nil {
		t.Fatalf("an unset hook is not nil")
	}
	var got []string
	r1 := h.Set(func(p string) { got = append(got, "1"+p) })
	r2 := h.Set(func(p string) { got = append(got, "2"+p) })
	h.Load()("p")
	r2()
	h.Load()("p")
	r1()
	if h.Load() != nil {
		t.Fatalf("the hook is set after both restores")
	}
	if want := []string{"2p", "1p"}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("calls %q, want %q", got, want)
	}
}
