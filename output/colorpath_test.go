package output

import (
	"testing"
)

func TestPrintColored(t *testing.T) {
	dir, name, reset := []byte("<D>"), []byte("<N>"), []byte("<R>")
	for _, tt := range []struct {
		tty             bool
		path            string
		split           int
		dirColor, color []byte
		want            string
	}{
		{false, "./a/b.go", 4, dir, name, "<D>./a/<R><N>b.go<R>\n"},
		{false, "./a/dir", 4, dir, dir, "<D>./a/dir<R>\n"},
		{false, "./a/plain", 4, dir, nil, "<D>./a/<R>plain\n"},
		{false, "./a/b", 4, nil, name, "./a/<N>b<R>\n"},
		{false, ".", 0, dir, dir, "<D>.<R>\n"},
		{false, "top", 0, dir, name, "<N>top<R>\n"},
		{false, "./x\ny", 2, dir, name, "<D>./<R><N>x\ny<R>\n"},
		// On a terminal a character that cannot be printed is '?', as
		// GNU writes names there; through a pipe a run with a control
		// character is $'…'-quoted (AppendShell), as bfs. The colors
		// never are.
		{true, "./x\ny", 2, dir, name, "<D>./<R><N>x?y<R>\n"},
		{true, "d\x1b/e\x1b[0m", 3, []byte("\x1b[1m"), []byte("\x1b[2m"), "\x1b[1md?/<R>\x1b[2me?[0m<R>\n"},
		{false, "d\x1b/e\x1b[0m", 3, []byte("\x1b[1m"), []byte("\x1b[2m"), "\x1b[1m$'d\\e/'<R>\x1b[2m$'e\\e[0m'<R>\n"},
		{false, "./a/\x1b]0;pwned\a", 4, dir, name, "<D>./a/<R><N>$'\\e]0;pwned\\a'<R>\n"},
		// The same color: one run, quoted whole; an equal one of another
		// key (its own slice): two, as in bfs 4.1.
		{false, "./\x01/d", 2, dir, dir, "<D>$'./\\x01/d'<R>\n"},
		{false, "./\x01/d", 2, dir, []byte("<D>"), "<D>./<R><D>$'\\x01/d'<R>\n"},
		{false, "./\x01/d", 2, nil, nil, "$'./\\x01/d'\n"},
	} {
		s, _, contents := newFileSink(t, WithTTY(tt.tty))
		b := s.NewBuffer()
		b.PrintColored([]byte(tt.path), tt.split, tt.dirColor, tt.color, reset)
		b.Flush()
		if got := contents(); got != tt.want {
			t.Errorf("PrintColored(%q, %d) = %q, want %q", tt.path, tt.split, got, tt.want)
		}
		esc := AppendColoredPath(nil, []byte(tt.path), tt.split, tt.dirColor, tt.color, reset, StyleC.AppendShell)
		if !tt.tty && string(esc)+"\n" != tt.want {
			t.Errorf("AppendColoredPath(%q) = %q, want %q", tt.path, esc, tt.want)
		}
		s.Close()
	}
}

// TestPrintColoredNoAllocs: a colored -print allocates nothing.
func TestPrintColoredNoAllocs(t *testing.T) {
	s, _, _ := newFileSink(t)
	defer s.Close()
	b := s.NewBuffer()
	path := []byte("./some/dir/file.tar.gz")
	dir, color, reset := []byte("\033[01;34m"), []byte("\033[01;31m"), []byte("\033[0m")
	allocs := testing.AllocsPerRun(1000, func() {
		b.PrintColored(path, 11, dir, color, reset)
		if b.Len() > FlushSize/2 {
			b.buf = b.buf[:0]
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per colored print", allocs)
	}
}
