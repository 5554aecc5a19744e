package predicate

import (
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// Mode bits, in their traditional octal values (which Linux uses).
const (
	modeSUID  = 0o4000
	modeSGID  = 0o2000
	modeSVTX  = 0o1000
	modeRWXU  = 0o700
	modeRWXG  = 0o070
	modeRWXO  = 0o007
	modeRUGO  = 0o444
	modeWUGO  = 0o222
	modeXUGO  = 0o111
	modeRWXA  = 0o777  // S_IRWXUGO
	modeChmod = 0o7777 // CHMOD_MODE_BITS, and find's MODE_ALL
)

// permKind is how -perm compares: exactly (MODE), all bits (-MODE) or
// any bit (/MODE).
type permKind uint8

const (
	permExact permKind = iota
	permAll
	permAny
)

// permNode is -perm MODE, -perm -MODE and -perm /MODE. The mode is
// computed twice at parse time, for a file and for a directory, because
// symbolic modes can differ (X, and s under =), as GNU's parse_perm does.
type permNode struct {
	arg  string
	kind permKind
	val  [2]uint32 // [0] for files, [1] for directories
}

func (n *permNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	return n.match(uint32(st.Mode)) // uint16 on macOS, FreeBSD
}

func (n *permNode) match(mode uint32) bool {
	v := n.val[0]
	if mode&unix.S_IFMT == unix.S_IFDIR {
		v = n.val[1]
	}
	switch n.kind {
	case permAll:
		return mode&v == v
	case permAny:
		// GNU: /000 matches everything, like -000 (Savannah bug 14748).
		return v == 0 || mode&v != 0
	}
	return mode&modeChmod == v
}

func (n *permNode) Facts() Facts {
	// GNU's est_success_rate (parser.c): 0.01 for an exact mode, 0.2 for
	// -MODE, 0.3 for /MODE, and 0.9986 for /000, which GNU treats as
	// -000 and expects to fail only for broken symbolic links.
	p := 0.01
	switch {
	case n.kind == permAll && n.arg[0] == '/':
		p = 0.9986
	case n.kind == permAll:
		p = 0.2
	case n.kind == permAny:
		p = 0.3
	}
	return Facts{Cost: costStat, Prob: p}
}

func (n *permNode) Args() []string { return []string{"-perm", n.arg} }

func parsePerm(p *parser, op string, _ variant) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	n, ok := compilePerm(arg)
	if !ok {
		return p.errorf("invalid file mode %s", p.quote(arg))
	}
	if n.kind == permAll && arg[0] == '/' {
		// Printed whether or not warnings are on, as GNU does (4.11's
		// words; 4.9's said "has now been changed").
		p.warnf("you have specified a mode pattern %s (which is equivalent to /000). The meaning of -perm /000 was changed in 2007 to be consistent with -perm -000; that is, while it used to match no files, it now matches all files. This warning message will be removed in a future findutils release.", arg)
	}
	p.push(n)
	return nil
}

// compilePerm parses the argument of -perm as GNU's parse_perm does: a
// leading '-' or '/' picks the comparison, the rest is a chmod mode
// (gnulib's mode_compile), applied to mode 0 with no umask. "+" followed
// by an octal digit (the old GNU spelling of /) is refused. /MODE whose
// bits are all zero is turned into -MODE.
func compilePerm(arg string) (*permNode, bool) {
	n := &permNode{arg: arg}
	mode := arg
	if arg != "" {
		switch arg[0] {
		case '-':
			n.kind, mode = permAll, arg[1:]
		case '/':
			n.kind, mode = permAny, arg[1:]
		}
	}
	changes, ok := compileMode(mode)
	if !ok || len(arg) > 1 && arg[0] == '+' && '0' <= arg[1] && arg[1] < '8' {
		return nil, false
	}
	n.val[0] = adjustMode(0, false, 0, changes)
	n.val[1] = adjustMode(0, true, 0, changes)
	if n.kind == permAny && n.val == [2]uint32{} {
		n.kind = permAll
	}
	return n, true
}

// modeFlag says how a modeChange finds the bits it changes.
type modeFlag uint8

const (
	modeOrdinary modeFlag = iota // the bits in value
	modeXIfAnyX                  // also the execute bits, for X
	modeCopy                     // the u, g or o bits of the mode so far
)

// modeChange is one operation of a chmod mode, as gnulib's struct
// mode_change: op is '=', '+' or '-'.
type modeChange struct {
	op        byte
	flag      modeFlag
	affected  uint32 // the who bits (u, g, o, a); 0 when none were given
	value     uint32
	mentioned uint32 // the bits the mode names explicitly
}

// compileMode is gnulib's mode_compile: an octal number, or a comma
// separated list of [ugoa]*([-+=]([rwxXst]*|[ugo]))+ and [-+=][0-7]+.
func compileMode(s string) ([]modeChange, bool) {
	// at returns the byte at i, or 0 past the end, like a C string.
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	if c := at(0); '0' <= c && c < '8' {
		var octal uint32
		i := 0
		for ; '0' <= at(i) && at(i) < '8'; i++ {
			octal = 8*octal + uint32(at(i)-'0')
			if octal > modeChmod {
				return nil, false
			}
		}
		if at(i) != 0 {
			return nil, false
		}
		mentioned := uint32(modeChmod)
		if i < 5 {
			mentioned = octal&(modeSUID|modeSGID) | modeSVTX | modeRWXA
		}
		return []modeChange{{op: '=', flag: modeOrdinary, affected: modeChmod, value: octal, mentioned: mentioned}}, true
	}

	var mc []modeChange
	p := 0
	for ; ; p++ {
		var affected uint32
	who:
		for ; ; p++ {
			switch at(p) {
			case 'u':
				affected |= modeSUID | modeRWXU
			case 'g':
				affected |= modeSGID | modeRWXG
			case 'o':
				affected |= modeSVTX | modeRWXO
			case 'a':
				affected |= modeChmod
			case '=', '+', '-':
				break who
			default:
				return nil, false
			}
		}
		for {
			c := modeChange{op: at(p), flag: modeCopy, affected: affected}
			p++
			var mentioned uint32
			switch at(p) {
			case '0', '1', '2', '3', '4', '5', '6', '7':
				var octal uint32
				for ; '0' <= at(p) && at(p) < '8'; p++ {
					octal = 8*octal + uint32(at(p)-'0')
					if octal > modeChmod {
						return nil, false
					}
				}
				if affected != 0 || at(p) != 0 && at(p) != ',' {
					return nil, false
				}
				c.affected, mentioned = modeChmod, modeChmod
				c.value, c.flag = octal, modeOrdinary
			case 'u':
				c.value = modeRWXU
				p++
			case 'g':
				c.value = modeRWXG
				p++
			case 'o':
				c.value = modeRWXO
				p++
			default:
				c.flag = modeOrdinary
			perms:
				for ; ; p++ {
					switch at(p) {
					case 'r':
						c.value |= modeRUGO
					case 'w':
						c.value |= modeWUGO
					case 'x':
						c.value |= modeXUGO
					case 'X':
						c.flag = modeXIfAnyX
					case 's':
						c.value |= modeSUID | modeSGID
					case 't':
						c.value |= modeSVTX
					default:
						break perms
					}
				}
			}
			switch {
			case mentioned != 0:
				c.mentioned = mentioned
			case c.affected != 0:
				c.mentioned = c.affected & c.value
			default:
				c.mentioned = c.value
			}
			mc = append(mc, c)
			if op := at(p); op != '=' && op != '+' && op != '-' {
				break
			}
		}
		if at(p) != ',' {
			break
		}
	}
	// As in C, a NUL byte ends the string (no argument holds one).
	return mc, at(p) == 0
}

// adjustMode is gnulib's mode_adjust: the mode bits of old (a
// directory's when dir) after the changes, with the umask applied to
// changes that name no who.
func adjustMode(old uint32, dir bool, umask uint32, changes []modeChange) uint32 {
	mode := old & modeChmod
	for _, c := range changes {
		var omit uint32
		if dir {
			omit = (modeSUID | modeSGID) &^ c.mentioned
		}
		value := c.value
		switch c.flag {
		case modeCopy:
			value &= mode
			var spread uint32
			if value&modeRUGO != 0 {
				spread |= modeRUGO
			}
			if value&modeWUGO != 0 {
				spread |= modeWUGO
			}
			if value&modeXUGO != 0 {
				spread |= modeXUGO
			}
			value |= spread
		case modeXIfAnyX:
			if mode&modeXUGO != 0 || dir {
				value |= modeXUGO
			}
		}
		who := ^umask
		if c.affected != 0 {
			who = c.affected
		}
		value &= who &^ omit
		switch c.op {
		case '=':
			preserved := omit
			if c.affected != 0 {
				preserved |= ^c.affected
			}
			mode = mode&preserved | value
		case '+':
			mode |= value
		case '-':
			mode &^= value
		}
	}
	return mode & modeChmod
}
