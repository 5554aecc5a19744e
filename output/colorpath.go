package output

import "bytes"

// Colored paths (--color): the colors are LS_COLORS's (internal/lscolors);
// writing a path in them, escaped as the destination needs, is output's.

// AppendColoredPath appends path as two runs: its leading directories,
// path[:split], in dirColor, and the rest in nameColor. Each non-empty
// run with a color is followed by reset. esc appends the text of a run
// with whatever escaping the output needs; it is never given the color
// sequences. When both colors are equal the path is one run.
func AppendColoredPath(dst, path []byte, split int, dirColor, nameColor, reset []byte, esc func(dst, text []byte) []byte) []byte {
	if split < 0 || split > len(path) || bytes.Equal(dirColor, nameColor) {
		split = 0
	}
	dst = appendRun(dst, path[:split], dirColor, reset, esc)
	return appendRun(dst, path[split:], nameColor, reset, esc)
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
// AppendColoredPath). In terminal mode unprintable characters of the
// name are shown as '?' as Print shows them; the color sequences
// themselves are written as they are. It does not allocate.
func (b *Buffer) PrintColored(path []byte, split int, dirColor, nameColor, reset []byte) {
	if b.s.stopped.Load() {
		return
	}
	esc := appendRaw
	if b.s.tty {
		esc = b.s.style.AppendTTY
	}
	b.buf = AppendColoredPath(b.buf, path, split, dirColor, nameColor, reset, esc)
	b.buf = append(b.buf, '\n')
	b.EndRecord()
}

func appendRaw(dst, text []byte) []byte { return append(dst, text...) }
