package lscolors

import (
	"bytes"

	"github.com/gfind/gfind/output"
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

// lsBuiltin is GNU ls's color_indicator table: what each key is before
// LS_COLORS is read. Keys LS_COLORS does not name keep these values, so
// an executable is green under LS_COLORS='di=01;34', as with ls.
var lsBuiltin = [numIndicators]string{
	IndLeft: "\033[", IndRight: "m", IndReset: "0",
	IndDir: "01;34", IndLink: "01;36", IndFIFO: "33", IndSocket: "01;35",
	IndBlock: "01;33", IndChar: "01;33", IndExec: "01;32", IndDoor: "01;35",
	IndSetuid: "37;41", IndSetgid: "30;43", IndSticky: "37;44",
	IndOtherWritable: "34;42", IndStickyOtherWritable: "30;42",
	IndClearEOL: "\033[K",
}

// Dircolors is the value `dircolors -b` gives LS_COLORS with its
// built-in database (GNU coreutils 9.1, TERM=xterm). gfind colors with
// it when LS_COLORS is unset or empty, as if the user's shell had run
// `eval "$(dircolors -b)"`.
const Dircolors = "rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:so=01;35:do=01;35:bd=40;33;01:cd=40;33;01:or=40;31;01:mi=00:su=37;41:sg=30;43:ca=00:tw=30;42:ow=34;42:st=37;44:ex=01;32:" +
	"*.tar=01;31:*.tgz=01;31:*.arc=01;31:*.arj=01;31:*.taz=01;31:*.lha=01;31:*.lz4=01;31:*.lzh=01;31:*.lzma=01;31:*.tlz=01;31:*.txz=01;31:*.tzo=01;31:*.t7z=01;31:*.zip=01;31:*.z=01;31:*.dz=01;31:*.gz=01;31:*.lrz=01;31:*.lz=01;31:*.lzo=01;31:*.xz=01;31:*.zst=01;31:*.tzst=01;31:*.bz2=01;31:*.bz=01;31:*.tbz=01;31:*.tbz2=01;31:*.tz=01;31:*.deb=01;31:*.rpm=01;31:*.jar=01;31:*.war=01;31:*.ear=01;31:*.sar=01;31:*.rar=01;31:*.alz=01;31:*.ace=01;31:*.zoo=01;31:*.cpio=01;31:*.7z=01;31:*.rz=01;31:*.cab=01;31:*.wim=01;31:*.swm=01;31:*.dwm=01;31:*.esd=01;31:" +
	"*.avif=01;35:*.jpg=01;35:*.jpeg=01;35:*.mjpg=01;35:*.mjpeg=01;35:*.gif=01;35:*.bmp=01;35:*.pbm=01;35:*.pgm=01;35:*.ppm=01;35:*.tga=01;35:*.xbm=01;35:*.xpm=01;35:*.tif=01;35:*.tiff=01;35:*.png=01;35:*.svg=01;35:*.svgz=01;35:*.mng=01;35:*.pcx=01;35:*.mov=01;35:*.mpg=01;35:*.mpeg=01;35:*.m2v=01;35:*.mkv=01;35:*.webm=01;35:*.webp=01;35:*.ogm=01;35:*.mp4=01;35:*.m4v=01;35:*.mp4v=01;35:*.vob=01;35:*.qt=01;35:*.nuv=01;35:*.wmv=01;35:*.asf=01;35:*.rm=01;35:*.rmvb=01;35:*.flc=01;35:*.avi=01;35:*.fli=01;35:*.flv=01;35:*.gl=01;35:*.dl=01;35:*.xcf=01;35:*.xwd=01;35:*.yuv=01;35:*.cgm=01;35:*.emf=01;35:*.ogv=01;35:*.ogx=01;35:" +
	"*.aac=00;36:*.au=00;36:*.flac=00;36:*.m4a=00;36:*.mid=00;36:*.midi=00;36:*.mka=00;36:*.mp3=00;36:*.mpc=00;36:*.ogg=00;36:*.ra=00;36:*.wav=00;36:*.oga=00;36:*.opus=00;36:*.spx=00;36:*.xspf=00;36:" +
	"*~=00;90:*#=00;90:*.bak=00;90:*.old=00;90:*.orig=00;90:*.part=00;90:*.rej=00;90:*.swp=00;90:*.tmp=00;90:*.dpkg-dist=00;90:*.dpkg-old=00;90:*.ucf-dist=00;90:*.ucf-new=00;90:*.ucf-old=00;90:*.rpmnew=00;90:*.rpmorig=00;90:*.rpmsave=00;90:"

// Colors is a parsed LS_COLORS: the color sequence of each kind of file
// and of each file name suffix, ready to be written. It is read-only
// once made and safe for concurrent use.
//
// Every sequence a Colors hands out is complete (lc, the value, rc) and
// is nil when the file is not to be colored. A key LS_COLORS leaves
// unset (and without a built-in value) takes the "no" color; a key set
// to "", "0" or "00" (not ls's is_colored) colors nothing, as in ls,
// which writes lc, that value and rc: a reset. The keys that ls only
// consults when colored (su, sg, ca, ex, mh, tw, ow, st, or, mi) are
// asked with Colored first, and a file they do not color falls through
// to its kind's key (fi, di, ln).
type Colors struct {
	val   [numIndicators][]byte // the value of each key (nil: unset)
	set   [numIndicators]bool   // the key has a value, possibly empty (ec)
	color [numIndicators][]byte // lc+value+rc, or the "no" color, or nil
	reset []byte                // ec if set, else lc+rs+rc

	linkTarget bool // ln=target

	exts  []colorExt // in ls's search order (the last given first), without the dropped ones
	nodes []extNode  // the suffix trie; nodes[0] is the root
	root  [256]int32 // the root's children by the name's last byte (lowered)
}

// colorExt is one *SUFFIX=VALUE entry.
type colorExt struct {
	suffix []byte // as given
	exact  bool   // match case-sensitively (another entry differs only in case)
	color  []byte // the sequence it gives, possibly nil ("00")
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

// Error reports an LS_COLORS value GNU ls would not accept as a
// whole: a bad escape, a key without '=', or an unknown key (Prefix).
type Error struct {
	// Prefix is the unknown two-character key, when that is the cause
	// (ls says "unrecognized prefix" before the general message).
	Prefix string
}

func (e *Error) Error() string {
	return "unparsable value for LS_COLORS environment variable"
}

// Default returns the colors of Dircolors.
func Default() *Colors {
	c, err := Parse(Dircolors)
	if err != nil {
		panic("lscolors: Dircolors does not parse: " + err.Error())
	}
	return c
}

// Parse parses an LS_COLORS value as GNU ls 9.x's parse_ls_color
// does, over ls's built-in colors. Suffixes (*.ext, *~) match ignoring
// ASCII case unless two entries differ only in case and give different
// colors; when several suffixes match a name, the one given last wins.
// An unparsable value gives an *Error and no Colors: ls then
// colors nothing.
func Parse(s string) (*Colors, error) {
	c := &Colors{}
	for i, v := range lsBuiltin {
		if v != "" {
			c.val[i], c.set[i] = []byte(v), true
		}
	}
	var exts []colorExt // in the order given
	p := 0
	for p < len(s) {
		switch s[p] {
		case ':':
			p++
		case '*':
			key, next, ok := funkyString(s, p+1, true)
			if !ok || next >= len(s) || s[next] != '=' {
				return nil, &Error{}
			}
			val, next, ok := funkyString(s, next+1, false)
			if !ok {
				return nil, &Error{}
			}
			exts = append(exts, colorExt{suffix: key, color: val})
			p = next
		default:
			if p+2 >= len(s) || s[p+2] != '=' {
				// ls: a label of two characters, then '='.
				return nil, &Error{}
			}
			label := s[p : p+2]
			ind := Indicator(0)
			for ind < numIndicators && indicatorNames[ind] != label {
				ind++
			}
			if ind == numIndicators {
				return nil, &Error{Prefix: label}
			}
			val, next, ok := funkyString(s, p+3, false)
			if !ok {
				return nil, &Error{}
			}
			c.val[ind], c.set[ind] = val, true
			p = next
		}
	}
	c.build(exts)
	return c, nil
}

// funkyString is ls's get_funky_string: it decodes the escapes of an
// LS_COLORS key or value starting at s[p] and returns the bytes and
// where the input stopped (at ':', at the end, or at '=' when equalsEnd).
// \a \b \e \f \n \r \t \v \? (DEL) \_ (space), \NNN octal, \xHH hex and
// ^X control characters are decoded; any other escaped character stands
// for itself. A backslash or caret at the end, or ^ before a character
// outside @..~ and ?, makes the value unparsable.
func funkyString(s string, p int, equalsEnd bool) ([]byte, int, bool) {
	out := []byte{}
	for p < len(s) {
		switch c := s[p]; {
		case c == ':':
			return out, p, true
		case c == '=' && equalsEnd:
			return out, p, true
		case c == '\\':
			p++
			if p >= len(s) {
				return nil, p, false
			}
			switch c := s[p]; {
			case '0' <= c && c <= '7':
				// Octal digits as long as they come, wrapping in a byte
				// as ls's char does.
				var n byte
				for p < len(s) && '0' <= s[p] && s[p] <= '7' {
					n = n<<3 + s[p] - '0'
					p++
				}
				out = append(out, n)
			case c == 'x' || c == 'X':
				var n byte
				p++
				for p < len(s) && hexVal(s[p]) >= 0 {
					n = n<<4 + byte(hexVal(s[p]))
					p++
				}
				out = append(out, n)
			default:
				out = append(out, unescape(c))
				p++
			}
		case c == '^':
			p++
			switch {
			case p < len(s) && '@' <= s[p] && s[p] <= '~':
				out = append(out, s[p]&037)
				p++
			case p < len(s) && s[p] == '?':
				// ls writes DEL and does not step over the '?', which
				// then stands for itself.
				out = append(out, 0177)
			default:
				return nil, p, false
			}
		default:
			out = append(out, c)
			p++
		}
	}
	return out, p, true
}

// unescape maps the character after a backslash to what it stands for:
// the C escapes (output.Unescape) and dircolors' \e, \? and \_; any
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
	if r := output.Unescape(c); r != 0 {
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

// isColored is ls's is_colored: a value other than "", "0" and "00".
func isColored(v []byte) bool {
	return !(len(v) == 0 || string(v) == "0" || string(v) == "00")
}

// build computes the complete sequences and the suffix trie once, so
// that coloring a name costs lookups only.
func (c *Colors) build(given []colorExt) {
	if string(c.val[IndLink]) == "target" {
		c.linkTarget = true
	}
	seq := func(v []byte) []byte {
		s := make([]byte, 0, len(c.val[IndLeft])+len(v)+len(c.val[IndRight]))
		s = append(s, c.val[IndLeft]...)
		s = append(s, v...)
		return append(s, c.val[IndRight]...)
	}
	var normal []byte
	if isColored(c.val[IndNormal]) {
		normal = seq(c.val[IndNormal])
	}
	for i := IndNormal; i < numIndicators; i++ {
		switch {
		case i == IndLink && c.linkTarget:
			// ln=target is no color: a link that cannot be colored as
			// its target (bfs: under -L) is in the "no" color.
			c.color[i] = normal
		case isColored(c.val[i]):
			c.color[i] = seq(c.val[i])
		case c.set[i]:
			// Set to "", "0" or "00": ls writes lc, the value and rc,
			// a reset, so the name shows uncolored, not in "no"
			// (nil). Only an unset key takes the "no" color.
		default:
			c.color[i] = normal
		}
	}
	if c.set[IndEnd] {
		c.reset = append([]byte{}, c.val[IndEnd]...)
	} else {
		c.reset = seq(c.val[IndReset])
	}

	// ls keeps the entries in a list, the last given first, and takes
	// the first that matches.
	c.exts = make([]colorExt, 0, len(given))
	for i := len(given) - 1; i >= 0; i-- {
		e := given[i]
		if isColored(e.color) {
			e.color = seq(e.color)
		} else {
			e.color = nil // as a kind's key set to "00": uncolored
		}
		c.exts = append(c.exts, e)
	}
	// GNU ls 9.2's case rule (and bfs's since 3.0; Debian 12's ls 9.1
	// still matched every entry in any case, the last given winning):
	// of two entries with the same suffix, the
	// earlier is dropped; of two that differ only in case, the earlier
	// is dropped when they give the same color, and otherwise both
	// match case-sensitively.
	disabled := make([]bool, len(c.exts))
	raw := make([][]byte, len(c.exts)) // the values before build, to compare
	for i := range given {
		raw[len(given)-1-i] = given[i].color
	}
	for i := range c.exts {
		if disabled[i] {
			continue
		}
		caseIgnored := false
		for j := i + 1; j < len(c.exts); j++ {
			if disabled[j] || len(c.exts[i].suffix) != len(c.exts[j].suffix) {
				continue
			}
			switch {
			case bytes.Equal(c.exts[i].suffix, c.exts[j].suffix):
				disabled[j] = true
			case asciiEqualFold(c.exts[i].suffix, c.exts[j].suffix):
				switch {
				case caseIgnored:
					disabled[j] = true
				case bytes.Equal(raw[i], raw[j]):
					disabled[j] = true
					caseIgnored = true
				default:
					c.exts[i].exact = true
					c.exts[j].exact = true
				}
			}
		}
	}

	kept := c.exts[:0]
	for i, e := range c.exts {
		if !disabled[i] {
			kept = append(kept, e)
		}
	}
	c.exts = kept

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

// Color returns the sequence that starts a name of the kind ind: lc, the
// key's value and rc; the "no" color when the key is unset; nil when
// the key is set to "", "0" or "00", or is unset with no "no" color.
// For lc, rc, ec and rs it returns nil.
func (c *Colors) Color(ind Indicator) []byte {
	if ind < IndNormal || ind >= numIndicators {
		return nil
	}
	return c.color[ind]
}

// Colored reports whether the key ind has a color of its own (a value
// other than "", "0" and "00"): whether telling such files apart is
// worth the system calls it takes.
func (c *Colors) Colored(ind Indicator) bool {
	return ind < numIndicators && isColored(c.val[ind])
}

// LinkAsTarget reports whether LS_COLORS says ln=target: a symbolic
// link is colored as the file it points to.
func (c *Colors) LinkAsTarget() bool { return c.linkTarget }

// Reset returns what ends a colored name: ec when LS_COLORS sets it,
// otherwise lc, rs and rc.
func (c *Colors) Reset() []byte { return c.reset }

// Suffix returns the color of the suffix entry that matches name (a base
// name), and whether one does. The color is nil when the entry's value
// is "", "0" or "00": the name is then not colored, whatever the "no"
// color, as in ls. Suffix does not allocate.
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
