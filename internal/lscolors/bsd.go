package lscolors

// BSD's LSCOLORS, what FreeBSD's and macOS's ls read, as bfs 4.1 reads
// it when LS_COLORS is unset or empty: pairs of letters, foreground and
// background, for eleven kinds of file in a fixed order. It names no
// suffixes, nor st, mh, ca, or, mi and the rest, which keep the
// built-in colors.

// bsdKeys are the kinds LSCOLORS colors, in its order.
var bsdKeys = [...]Indicator{
	IndDir, IndLink, IndSocket, IndFIFO, IndExec, IndBlock, IndChar,
	IndSetuid, IndSetgid, IndStickyOtherWritable, IndOtherWritable,
}

// BSDDefault is BSD ls's default LSCOLORS. A value shorter than it is
// completed from it, letter by letter, as bfs does: LSCOLORS=Ex makes
// directories bold blue and leaves the other ten pairs BSD's defaults.
const BSDDefault = "exfxcxdxbxegedabagacad"

// ParseBSD parses an LSCOLORS value over the built-in colors. Every
// byte of every value means something, so there is no error: in each
// pair the first byte is the foreground and the second the background,
//
//   - a to h: the colors 0 to 7 (black, red, green, brown, blue,
//     magenta, cyan, light grey), and A to H the same, bold in the
//     foreground and underlined in the background;
//   - x: the default color (39, 49), and X the same, bold or underlined;
//   - 0 to 7: the color of that number;
//
// and any other byte adds nothing. A pair that adds nothing leaves the
// kind uncolored. Bytes past the eleventh pair are ignored.
func ParseBSD(s string) *Colors {
	c := newBuiltin()
	for i, ind := range bsdKeys {
		fg, bg := bsdByte(s, 2*i), bsdByte(s, 2*i+1)
		var v []byte
		v = appendBSD(v, fg, '3', "1;")
		v = appendBSD(v, bg, '4', "4;")
		c.val[ind] = v
	}
	c.build(nil)
	return c
}

// bsdByte is the byte at i of s, completed from BSDDefault.
func bsdByte(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return BSDDefault[i]
}

// appendBSD appends the SGR parameters of one LSCOLORS letter: base is
// '3' for a foreground, '4' for a background; upper is what a capital
// letter adds (bold or underline). Parameters are separated by ';'.
func appendBSD(v []byte, b, base byte, upper string) []byte {
	var digit byte
	switch {
	case 'a' <= b && b <= 'h':
		digit = '0' + b - 'a'
	case 'A' <= b && b <= 'H':
		digit = '0' + b - 'A'
	case b == 'x' || b == 'X':
		digit = '9'
	case '0' <= b && b <= '7':
		digit = b
	default:
		return v
	}
	if len(v) > 0 {
		v = append(v, ';')
	}
	if 'A' <= b && b <= 'H' || b == 'X' {
		v = append(v, upper...)
	}
	return append(v, base, digit)
}
