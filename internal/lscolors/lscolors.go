package lscolors

import (
	"bytes"
	"strings"

	"github.com/gfind/gfind/internal/ctype"
)

// Indicator is one of the two-letter keys of LS_COLORS, in the order of
// GNU ls's indicator_name table (coreutils src/ls.c).
type Indicator uint8

// The indicators. Left, Right, End and Reset are the parts of every
// color sequence (lc, rc, ec, rs); the others color a kind of file.
const (
	IndLeft                Indicator = iota // lc: starts a color sequence ("\033[")
	IndRight                                // rc: ends it ("m")
	IndEnd                                  // ec: replaces lc+rs+rc after a name
	IndReset                                // rs: the reset color ("0")
	IndNormal                               // no: anything without a color of its own
	IndFile                                 // fi: regular file
	IndDir                                  // di: directory
	IndLink                                 // ln: symbolic link ("target": as what it points to)
	IndFIFO                                 // pi: named pipe
	IndSocket                               // so: socket
	IndBlock                                // bd: block device
	IndChar                                 // cd: character device
	IndMissing                              // mi: what a dangling link points to
	IndOrphan                               // or: dangling symbolic link
	IndExec                                 // ex: executable regular file
	IndDoor                                 // do: door (Solaris)
	IndSetuid                               // su: setuid regular file
	IndSetgid                               // sg: setgid regular file
	IndSticky                               // st: sticky directory, not other-writable
	IndOtherWritable                        // ow: other-writable directory, not sticky
	IndStickyOtherWritable                  // tw: sticky and other-writable directory
	IndCap                                  // ca: regular file with capabilities
	IndMultiHardLink                        // mh: regular file with more than one link
	IndClearEOL                             // cl: clear to end of line (accepted, unused)
	numIndicators
)

var indicatorNames = [numIndicators]string{
	"lc", "rc", "ec", "rs", "no", "fi", "di", "ln", "pi", "so", "bd", "cd",
	"mi", "or", "ex", "do", "su", "sg", "st", "ow", "tw", "ca", "mh", "cl",
}

// String returns the indicator's LS_COLORS key.
func (i Indicator) String() string {
	if i < numIndicators {
		return indicatorNames[i]
	}
	return "??"
}

// builtin is what each key is before LS_COLORS is read: GNU ls's
// color_indicator table, which bfs 4.1 copies (fi is "", the "no"
// color, as in bfs). Keys LS_COLORS does not name keep these values, so
// an executable is green under LS_COLORS='di=01;34', as with ls and
// bfs; there is no suffix list, as in ls with LS_COLORS unset.
var builtin = [numIndicators]string{
	IndLeft: "\033[", IndRight: "m", IndReset: "0",
	IndFile: "", IndDir: "01;34", IndLink: "01;36", IndFIFO: "33", IndSocket: "01;35",
	IndBlock: "01;33", IndChar: "01;33", IndExec: "01;32", IndDoor: "01;35",
	IndSetuid: "37;41", IndSetgid: "30;43", IndSticky: "37;44",
	IndOtherWritable: "34;42", IndStickyOtherWritable: "30;42",
	IndClearEOL: "\033[K",
}

// builtinSet says which keys of builtin have a value: fi's is "", set.
var builtinSet = [numIndicators]bool{
	IndLeft: true, IndRight: true, IndReset: true, IndFile: true, IndDir: true,
	IndLink: true, IndFIFO: true, IndSocket: true, IndBlock: true, IndChar: true,
	IndExec: true, IndDoor: true, IndSetuid: true, IndSetgid: true, IndSticky: true,
	IndOtherWritable: true, IndStickyOtherWritable: true, IndClearEOL: true,
}

// Dircolors is the value `dircolors -b` gives LS_COLORS with its
// built-in database (GNU coreutils 9.1, TERM=xterm): what most shells
// set. gfind does not use it by itself (an unset LS_COLORS is ls's
// built-in colors, without suffixes); tests do.
const Dircolors = "rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:so=01;35:do=01;35:bd=40;33;01:cd=40;33;01:or=40;31;01:mi=00:su=37;41:sg=30;43:ca=00:tw=30;42:ow=34;42:st=37;44:ex=01;32:" +
	"*.tar=01;31:*.tgz=01;31:*.arc=01;31:*.arj=01;31:*.taz=01;31:*.lha=01;31:*.lz4=01;31:*.lzh=01;31:*.lzma=01;31:*.tlz=01;31:*.txz=01;31:*.tzo=01;31:*.t7z=01;31:*.zip=01;31:*.z=01;31:*.dz=01;31:*.gz=01;31:*.lrz=01;31:*.lz=01;31:*.lzo=01;31:*.xz=01;31:*.zst=01;31:*.tzst=01;31:*.bz2=01;31:*.bz=01;31:*.tbz=01;31:*.tbz2=01;31:*.tz=01;31:*.deb=01;31:*.rpm=01;31:*.jar=01;31:*.war=01;31:*.ear=01;31:*.sar=01;31:*.rar=01;31:*.alz=01;31:*.ace=01;31:*.zoo=01;31:*.cpio=01;31:*.7z=01;31:*.rz=01;31:*.cab=01;31:*.wim=01;31:*.swm=01;31:*.dwm=01;31:*.esd=01;31:" +
	"*.avif=01;35:*.jpg=01;35:*.jpeg=01;35:*.mjpg=01;35:*.mjpeg=01;35:*.gif=01;35:*.bmp=01;35:*.pbm=01;35:*.pgm=01;35:*.ppm=01;35:*.tga=01;35:*.xbm=01;35:*.xpm=01;35:*.tif=01;35:*.tiff=01;35:*.png=01;35:*.svg=01;35:*.svgz=01;35:*.mng=01;35:*.pcx=01;35:*.mov=01;35:*.mpg=01;35:*.mpeg=01;35:*.m2v=01;35:*.mkv=01;35:*.webm=01;35:*.webp=01;35:*.ogm=01;35:*.mp4=01;35:*.m4v=01;35:*.mp4v=01;35:*.vob=01;35:*.qt=01;35:*.nuv=01;35:*.wmv=01;35:*.asf=01;35:*.rm=01;35:*.rmvb=01;35:*.flc=01;35:*.avi=01;35:*.fli=01;35:*.flv=01;35:*.gl=01;35:*.dl=01;35:*.xcf=01;35:*.xwd=01;35:*.yuv=01;35:*.cgm=01;35:*.emf=01;35:*.ogv=01;35:*.ogx=01;35:" +
	"*.aac=00;36:*.au=00;36:*.flac=00;36:*.m4a=00;36:*.mid=00;36:*.midi=00;36:*.mka=00;36:*.mp3=00;36:*.mpc=00;36:*.ogg=00;36:*.ra=00;36:*.wav=00;36:*.oga=00;36:*.opus=00;36:*.spx=00;36:*.xspf=00;36:" +
	"*~=00;90:*#=00;90:*.bak=00;90:*.old=00;90:*.orig=00;90:*.part=00;90:*.rej=00;90:*.swp=00;90:*.tmp=00;90:*.dpkg-dist=00;90:*.dpkg-old=00;90:*.ucf-dist=00;90:*.ucf-new=00;90:*.ucf-old=00;90:*.rpmnew=00;90:*.rpmorig=00;90:*.rpmsave=00;90:"

// Colors is a parsed LS_COLORS (or LSCOLORS): the color sequence of
// each kind of file and of each file name suffix, ready to be written.
// It is read-only once made and safe for concurrent use.
//
// The meaning is bfs 4.1's (src/color.c), which is GNU ls's but for
// what bfs makes simpler: a key whose value is all zeros ("", "0",
// "00", "000"; not lc, rc, rs, ec) is unset, and a file it would color
// falls through to the next key that applies (su, sg, ca, ex, mh, then
// a suffix, then fi; tw, ow, st, then di; or, then ln); a key left
// empty by the lookup (fi's built-in "", ln=target, *.x=) takes the
// "no" color; and a suffix's value is written as given, even "00".
// Every sequence handed out is complete (lc, the value, rc), or nil for
// none; the same key always gives the same slice.
type Colors struct {
	val   [numIndicators][]byte // the value of each key; nil: unset
	color [numIndicators][]byte // lc+value+rc, the "no" color for "", or nil
	reset []byte                // ec if set, else lc+rs+rc

	linkTarget bool // ln=target

	exts  []colorExt // in ls's search order (the last given first), without the dropped ones
	nodes []extNode  // the suffix trie; nodes[0] is the root
	root  [256]int32 // the root's children by the name's last byte (lowered)
}

// colorExt is one *SUFFIX=VALUE entry.
type colorExt struct {
	suffix []byte // as given
	raw    []byte // the value as given, to compare
	exact  bool   // match case-sensitively (another entry differs only in case)
	color  []byte // the sequence it gives, possibly nil ("no" unset)
}

// extNode is a node of the trie of the lowered suffixes, read from
// their last byte backwards.
type extNode struct {
	edges []extEdge
	ends  []int32 // entries whose suffix ends here, lowest (first searched) first
}

type extEdge struct {
	c    byte
	next int32
}

// Error reports an LS_COLORS value bfs 4.1 cannot parse: a backslash or
// a caret at the end of a key or value, or a *SUFFIX without '='.
type Error struct{}

func (e *Error) Error() string {
	return "unparsable value for LS_COLORS environment variable"
}

// Default returns the built-in colors: LS_COLORS and LSCOLORS unset.
func Default() *Colors {
	c := newBuiltin()
	c.build(nil)
	return c
}

func newBuiltin() *Colors {
	c := &Colors{}
	for i, v := range builtin {
		if builtinSet[i] {
			c.val[i] = []byte(v)
		}
	}
	return c
}

// Parse parses an LS_COLORS value as bfs 4.1's parse_gnu_ls_colors
// does, over the built-in colors. A chunk is KEY=VALUE up to the next
// ':' (KEY runs to the first '=' even across ':'); an unknown key is
// ignored, and a chunk without '=' ends the value. Suffixes (*.ext)
// match ignoring ASCII case unless two entries differ only in case and
// give different values; when several suffixes match a name, the one
// given last wins. An unparsable value gives an *Error and no Colors.
func Parse(s string) (*Colors, error) {
	c := newBuiltin()
	var exts []colorExt // in the order given
	for p := 0; p >= 0 && p < len(s); {
		if s[p] == '*' {
			key, next, ok := funkyString(s, p+1, '=')
			if !ok || next < 0 {
				return nil, &Error{}
			}
			val, next, ok := funkyString(s, next, ':')
			if !ok {
				return nil, &Error{}
			}
			if bytes.IndexByte(key, 0) < 0 {
				// bfs skips a suffix holding NUL: no name can.
				exts = append(exts, colorExt{suffix: key, raw: val})
			}
			p = next
			continue
		}
		eq := strings.IndexByte(s[p:], '=')
		if eq < 0 {
			break
		}
		key := s[p : p+eq]
		val, next, ok := funkyString(s, p+eq+1, ':')
		if !ok {
			return nil, &Error{}
		}
		p = next
		ind := Indicator(0)
		for ind < numIndicators && indicatorNames[ind] != key {
			ind++
		}
		if ind == numIndicators {
			continue // bfs ignores keys it does not know
		}
		if allZeros(val) && ind != IndLeft && ind != IndRight && ind != IndReset && ind != IndEnd {
			val = nil
		}
		c.val[ind] = val
	}
	c.build(exts)
	return c, nil
}

// allZeros reports whether v is all '0' bytes, or empty: bfs unsets
// such a key, so that a file falls through to the next key.
func allZeros(v []byte) bool {
	for _, b := range v {
		if b != '0' {
			return false
		}
	}
	return true
}

// funkyString is bfs's unescape (ls's get_funky_string): it decodes the
// escapes of an LS_COLORS key or value starting at s[p] up to the byte
// end, and returns the bytes and where the next chunk starts: after
// end, or -1 when the input ran out first. \a \b \e \f \n \r \t \v \?
// (DEL) \_ (space), \NNN octal, \xHH hex and ^X control characters are
// decoded (as many digits as come, wrapping in a byte); any other
// escaped character stands for itself, end included. A backslash or
// caret at the very end makes the value unparsable.
func funkyString(s string, p int, end byte) ([]byte, int, bool) {
	out := []byte{}
	for ; p < len(s) && s[p] != end; p++ {
		switch s[p] {
		case '\\':
			p++
			if p >= len(s) {
				return nil, -1, false
			}
			switch c := s[p]; {
			case '0' <= c && c <= '7':
				var n byte
				for ; p+1 < len(s) && '0' <= s[p+1] && s[p+1] <= '7'; p++ {
					n = n<<3 | (s[p] - '0')
				}
				out = append(out, n<<3|(s[p]-'0'))
			case c == 'x' || c == 'X':
				var n byte
				for ; p+1 < len(s) && hexVal(s[p+1]) >= 0; p++ {
					n = n<<4 | byte(hexVal(s[p+1]))
				}
				out = append(out, n)
			default:
				out = append(out, unescape(c))
			}
		case '^':
			p++
			switch {
			case p >= len(s):
				return nil, -1, false
			case s[p] == '?':
				out = append(out, 0177)
			default:
				out = append(out, s[p]&0x1f)
			}
		default:
			out = append(out, s[p])
		}
	}
	if p >= len(s) {
		return out, -1, true
	}
	return out, p + 1, true
}

// unescape maps the character after a backslash to what it stands for:
// the C escapes (ctype.Unescape) and dircolors' \e, \? and \_; any
// other character stands for itself.
func unescape(c byte) byte {
	switch c {
	case 'e':
		return 033
	case '?':
		return 0177
	case '_':
		return ' '
	}
	if r := ctype.Unescape(c); r != 0 {
		return r
	}
	return c
}

func hexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// build computes the complete sequences and the suffix trie once, so
// that coloring a name costs lookups only.
func (c *Colors) build(given []colorExt) {
	if string(c.val[IndLink]) == "target" {
		// bfs: ln=target is an empty ln, so a link that cannot be
		// colored as its target (under -L) is in the "no" color.
		c.linkTarget = true
		c.val[IndLink] = []byte{}
	}
	seq := func(v []byte) []byte {
		s := make([]byte, 0, len(c.val[IndLeft])+len(v)+len(c.val[IndRight]))
		s = append(s, c.val[IndLeft]...)
		s = append(s, v...)
		return append(s, c.val[IndRight]...)
	}
	var normal []byte
	if c.val[IndNormal] != nil {
		normal = seq(c.val[IndNormal])
	}
	for i := IndNormal; i < numIndicators; i++ {
		switch v := c.val[i]; {
		case v == nil:
		case len(v) == 0:
			c.color[i] = normal
		default:
			c.color[i] = seq(v)
		}
	}
	if c.val[IndEnd] != nil {
		c.reset = c.val[IndEnd]
	} else {
		c.reset = seq(c.val[IndReset])
	}

	// bfs 4.1's suffix rules (set_ext, build_iext_trie):
	//
	//  1. A suffix given later drops every earlier one that ends with it
	//     (*.gz drops an earlier *.tar.gz and *.gz, not *.GZ).
	//  2. "Smart case": going through what is left in the order given,
	//     a suffix that differs only in case from the previous one is
	//     case-sensitive, and makes that one so, unless their values
	//     are the same and that one is not case-sensitive already.
	//  3. The suffixes not case-sensitive are matched ignoring ASCII
	//     case, a later one again dropping the earlier ones that end
	//     with it, ignoring case; every suffix left by 1 also matches
	//     in its own case.
	//
	// A name takes the value of the last given suffix that matches it.
	n := len(given)
	dropped := make([]bool, n)
	for i := range given {
		for j := 0; j < i; j++ {
			if !dropped[j] && bytes.HasSuffix(given[j].suffix, given[i].suffix) {
				dropped[j] = true
			}
		}
	}
	caseSensitive := make([]bool, n)
	prev := map[string]int{} // the last suffix seen, by its lowered form
	for i := range given {
		if dropped[i] {
			continue
		}
		key := lowerASCII(given[i].suffix)
		if j, ok := prev[key]; ok && (caseSensitive[j] || !bytes.Equal(given[j].raw, given[i].raw)) {
			caseSensitive[i], caseSensitive[j] = true, true
		}
		prev[key] = i
	}
	folded := make([]bool, n) // matched ignoring case (step 3)
	for i := range given {
		if dropped[i] || caseSensitive[i] {
			continue
		}
		for j := 0; j < i; j++ {
			if folded[j] && hasSuffixFold(given[j].suffix, given[i].suffix) {
				folded[j] = false
			}
		}
		folded[i] = true
	}

	// The entries are kept in a list, the last given first; the first
	// that matches is taken.
	c.exts = make([]colorExt, 0, n)
	for i := n - 1; i >= 0; i-- {
		if dropped[i] {
			continue
		}
		e := given[i]
		e.exact = !folded[i]
		if len(e.raw) > 0 {
			e.color = seq(e.raw)
		} else {
			e.color = normal
		}
		c.exts = append(c.exts, e)
	}

	c.nodes = []extNode{{}}
	for i, e := range c.exts {
		n := int32(0)
		for k := len(e.suffix) - 1; k >= 0; k-- {
			n = c.child(n, lower(e.suffix[k]), true)
		}
		c.nodes[n].ends = append(c.nodes[n].ends, int32(i))
	}
}

// child returns the child of node n by byte b, adding it when add is
// set; 0 means none.
func (c *Colors) child(n int32, b byte, add bool) int32 {
	if n == 0 {
		if c.root[b] == 0 && add {
			c.nodes = append(c.nodes, extNode{})
			c.root[b] = int32(len(c.nodes) - 1)
		}
		return c.root[b]
	}
	for _, e := range c.nodes[n].edges {
		if e.c == b {
			return e.next
		}
	}
	if !add {
		return 0
	}
	c.nodes = append(c.nodes, extNode{})
	next := int32(len(c.nodes) - 1)
	c.nodes[n].edges = append(c.nodes[n].edges, extEdge{b, next})
	return next
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// lowerASCII is s with ASCII letters lowered, as bfs's ext_tolower
// (ls's c_tolower): other bytes stay, whatever the locale.
func lowerASCII(s []byte) string {
	b := make([]byte, len(s))
	for i, c := range s {
		b[i] = lower(c)
	}
	return string(b)
}

// hasSuffixFold reports whether s ends with suffix, ignoring ASCII case.
func hasSuffixFold(s, suffix []byte) bool {
	return len(s) >= len(suffix) && asciiEqualFold(s[len(s)-len(suffix):], suffix)
}

func asciiEqualFold(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

// Color returns the sequence that starts a name of the kind ind: lc,
// the key's value and rc; the "no" color when the value is empty; nil
// when the key is unset. For lc, rc, ec and rs it returns nil.
func (c *Colors) Color(ind Indicator) []byte {
	if ind < IndNormal || ind >= numIndicators {
		return nil
	}
	return c.color[ind]
}

// Colored reports whether the key ind is set (bfs's test of a key
// before it looks at the file): whether telling such files apart is
// worth the system calls it takes.
func (c *Colors) Colored(ind Indicator) bool {
	return ind < numIndicators && c.val[ind] != nil
}

// LinkAsTarget reports whether LS_COLORS says ln=target: a symbolic
// link is colored as the file it points to.
func (c *Colors) LinkAsTarget() bool { return c.linkTarget }

// Reset returns what ends a colored name: ec when LS_COLORS sets it,
// otherwise lc, rs and rc.
func (c *Colors) Reset() []byte { return c.reset }

// Suffix returns the color of the suffix entry that matches name (a base
// name), and whether one does. An entry's value is written as given,
// even "00"; an empty one is the "no" color, possibly nil. Suffix does
// not allocate.
func (c *Colors) Suffix(name []byte) ([]byte, bool) {
	best := int32(-1)
	n := int32(0)
	i := len(name)
	for {
		for _, x := range c.nodes[n].ends {
			if best >= 0 && x >= best {
				break
			}
			e := &c.exts[x]
			if !e.exact || bytes.Equal(name[i:], e.suffix) {
				best = x
				break
			}
		}
		if i == 0 {
			break
		}
		i--
		if n = c.child(n, lower(name[i]), false); n == 0 {
			break
		}
	}
	if best < 0 {
		return nil, false
	}
	return c.exts[best].color, true
}
