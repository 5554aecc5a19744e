package ctype

import "testing"

// TestClass checks the class names and the classes' sizes in the C
// locale (the engines' oracle tests compare every byte with glibc).
func TestClass(t *testing.T) {
	sizes := map[string]int{
		"alnum": 62, "alpha": 52, "blank": 2, "cntrl": 33, "digit": 10, "graph": 94,
		"lower": 26, "print": 95, "punct": 32, "space": 6, "upper": 26, "xdigit": 22,
	}
	for name, want := range sizes {
		in, ok := Class(name)
		if !ok {
			t.Errorf("Class(%q): unknown", name)
			continue
		}
		n := 0
		for c := 0; c < 256; c++ {
			if in(byte(c)) {
				n++
			}
		}
		if n != want {
			t.Errorf("[:%s:] has %d bytes, want %d", name, n, want)
		}
	}
	for _, name := range []string{"", "ALPHA", "combining", "word"} {
		if _, ok := Class(name); ok {
			t.Errorf("Class(%q) is known", name)
		}
	}
	for c := 0; c < 256; c++ {
		b := byte(c)
		if up := ToUpper(b); IsLower(b) != (up != b) || ToLower(up) != ToLower(b) {
			t.Errorf("ToUpper(%#x) = %#x", b, up)
		}
	}
}

// TestUnescape: the C escapes, and 0 for every other byte.
func TestUnescape(t *testing.T) {
	want := map[byte]byte{'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '\\': '\\'}
	for c := range 256 {
		if got := Unescape(byte(c)); got != want[byte(c)] {
			t.Errorf("Unescape(%q) = %q, want %q", byte(c), got, want[byte(c)])
		}
	}
}
