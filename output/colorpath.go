package output

// Colored paths (--color): the colors are LS_COLORS's (internal/lscolors);
// writing a path in them, escaped as the destination needs, is output's.
//
// Colored output is meant for a terminal, even when it goes through a
// pipe (--color=always | less -R), so a name that holds an escape
// sequence of its own must not reach it raw: it could move the cursor,
// retitle the window or answer back. On a terminal gfind writes '?' for
// such a character, as GNU find does there; through a pipe it writes
// each piece of a colored path shell-quoted, $'…', when it holds a
// character that is neither printable nor whitespace, as bfs does
// (AppendShell). Uncolored output stays GNU's.

// AppendColoredPath appends path as two runs: its leading directories,
// path[:split], in dirColor, and the rest in nameColor. Each non-empty
// run with a color is followed by reset. esc appends the text of a run
// with whatever escaping the output needs; it is never given the color
// sequences. When nameColor is dirColor itself (the same slice, or both
// nil) the path is one run, escaped whole.
//
// The test is identity, not equal bytes, because bfs 4.1 compares the
// pointers (print_path_colored): a directory in the di color, or a link
// colored as its target directory, is one run, but a name whose own key
// happens to have di's value (*.d=01;34, ow) is a run of its own, which
// matters for where AppendShell's $'…' begin and end.
func AppendColoredPath(dst, path []byte, split int, dirColor, nameColor, reset []byte, esc func(dst, text []byte) []byte) []byte {
	if split < 0 || split > len(path) || sameColor(dirColor, nameColor) {
		split = 0
	}
	dst = appendRun(dst, path[:split], dirColor, reset, esc)
	return appendRun(dst, path[split:], nameColor, reset, esc)
}

// sameColor reports whether a and b are the same sequence: the same
// bytes in the same memory, as internal/lscolors hands out one slice
// per key. Two nil (uncolored) are the same.
func sameColor(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func appendRun(dst, text, color, reset []byte, esc func(dst, text []byte) []byte) []byte {
	if len(text) == 0 {
		return dst
	}
	if color == nil {
		return esc(dst, text)
	}
	dst = append(dst, color...)
	dst = esc(dst, text)
	return append(dst, reset...)
}

// PrintColored is Print for a colored -print: the record path+'\n' with
// path[:split] in dirColor and the rest in nameColor (see
// AppendColoredPath), each run escaped as ColorEscape says. The color
// sequences themselves are written as they are. It does not allocate.
func (b *Buffer) PrintColored(path []byte, split int, dirColor, nameColor, reset []byte) {
	if b.s.stopped.Load() {
		return
	}
	if b.s.tty {
		b.buf = AppendColoredPath(b.buf, path, split, dirColor, nameColor, reset, b.s.style.AppendTTY)
	} else {
		b.buf = AppendColoredPath(b.buf, path, split, dirColor, nameColor, reset, b.s.nameStyle().AppendShell)
	}
	b.buf = append(b.buf, '\n')
	b.EndRecord()
}

// ColorEscape returns how a colored name is written (-print, -ls,
// -printf under --color): on a terminal as GNU find writes a name there,
// with '?' for each character that cannot be printed (AppendTTY);
// otherwise, for a pipe to a pager that shows colors (--color=always |
// less -R), as bfs 4.1 writes it, $'…'-quoted when it holds such a
// character (AppendShell), in the locale's character set.
func (b *Buffer) ColorEscape() func(dst, text []byte) []byte {
	if b.s.tty {
		return b.s.style.AppendTTY
	}
	return b.s.nameStyle().AppendShell
}

// nameStyle is the character set names are escaped in. A terminal's is
// settled when the Sink is made; otherwise it is asked only when
// needed, since finding the locale costs a little and plain output
// never needs it.
func (s *Sink) nameStyle() Style {
	if s.tty || s.diag == nil {
		return s.style
	}
	return s.diag.Style()
}

// TTY reports whether the Buffer's records go to a terminal.
func (b *Buffer) TTY() bool { return b.s.tty }
