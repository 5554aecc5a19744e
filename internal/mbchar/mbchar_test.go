package mbchar

import "testing"

// decodeTests are glibc 2.36's mbrtowc results in C.UTF-8, from a small
// C program calling it on each byte string.
var decodeTests = []struct {
	in string
	r  rune
	n  int
	st Status
}{
	{"\xed\xa0\x80x", 0, 0, Invalid},
	{"\xed\xa0", 0, 0, Incomplete},
	{"\xc0\x80x", 0, 0, Invalid},
	{"\xc1\xbfx", 0, 0, Invalid},
	{"\xe0\x80\x80x", 0, 0, Invalid},
	{"\xe0\x80", 0, 0, Incomplete},
	{"\xf0\x80\x80\x80x", 0, 0, Invalid},
	{"\xf4\x90\x80\x80x", 0x110000, 4, Valid},
	{"\xf4\x90", 0, 0, Incomplete},
	{"\xf5\x80\x80\x80x", 0x140000, 4, Valid},
	{"\xf7\xbf\xbf\xbfx", 0x1fffff, 4, Valid},
	{"\xf8\x88\x80\x80\x80x", 0x200000, 5, Valid},
	{"\xfc\x84\x80\x80\x80\x80x", 0x4000000, 6, Valid},
	{"\xfe", 0, 0, Invalid},
	{"\xff", 0, 0, Invalid},
	{"\xef\xbf\xbex", 0xfffe, 3, Valid},
	{"\x80x", 0, 0, Invalid},
	{"\xe2\x80x", 0, 0, Invalid},
	{"\xe2x", 0, 0, Invalid},
	{"\xf8\x88x", 0, 0, Invalid},
	{"\xf8\x88", 0, 0, Incomplete},
	{"\xe0\x9f\xbfx", 0, 0, Invalid},
	{"\xed\x9f\xbfx", 0xd7ff, 3, Valid},
	{"é", 0xe9, 2, Valid},
	{"a", 'a', 1, Valid},
}

func TestDecode(t *testing.T) {
	for _, tt := range decodeTests {
		r, n, st := Decode(tt.in)
		if r != tt.r || n != tt.n || st != tt.st {
			t.Errorf("Decode(%q) = %#x, %d, %d; want %#x, %d, %d", tt.in, r, n, st, tt.r, tt.n, tt.st)
		}
	}
}
