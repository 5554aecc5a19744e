package mode

import "golang.org/x/sys/unix"

// Mode bits, in their traditional octal values (which every Unix uses).
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

// Kind is how a Pattern compares: exactly (MODE), all bits (-MODE) or
// any bit (/MODE).
type Kind uint8

const (
	Exact Kind = iota
	All
	Any
)

// A Pattern is -perm's argument compiled. The mode is computed twice, for
// a file and for a directory, because symbolic modes can differ (X, and
// s under =), as GNU's parse_perm does.
type Pattern struct {
	Kind Kind
	Val  [2]uint32 // [0] for files, [1] for directories
}

// Match reports whether a file of st_mode mode matches p.
func (p Pattern) Match(mode uint32) bool {
	v := p.Val[0]
	if mode&unix.S_IFMT == unix.S_IFDIR {
		v = p.Val[1]
	}
	switch p.Kind {
	case All:
		return mode&v == v
	case Any:
		// GNU: /000 matches everything, like -000 (Savannah bug 14748).
		return v == 0 || mode&v != 0
	}
	return mode&modeChmod == v
}

// Parse parses the argument of -perm as GNU's parse_perm does: a
// leading '-' or '/' picks the comparison, the rest is a chmod mode
// (gnulib's mode_compile), applied to mode 0 with no umask. "+" followed
// by an octal digit (the old GNU spelling of /) is refused. /MODE whose
// bits are all zero is turned into -MODE.
func Parse(arg string) (Pattern, bool) {
	var p Pattern
	mode := arg
	if arg != "" {
		switch arg[0] {
		case '-':
			p.Kind, mode = All, arg[1:]
		case '/':
			p.Kind, mode = Any, arg[1:]
		}
	}
	changes, ok := compile(mode)
	if !ok || len(arg) > 1 && arg[0] == '+' && '0' <= arg[1] && arg[1] < '8' {
		return Pattern{}, false
	}
	p.Val[0] = adjust(0, false, 0, changes)
	p.Val[1] = adjust(0, true, 0, changes)
	if p.Kind == Any && p.Val == [2]uint32{} {
		p.Kind = All
	}
	return p, true
}

// modeFlag says how a change finds the bits it changes.
type modeFlag uint8

const (
	modeOrdinary modeFlag = iota // the bits in value
	modeXIfAnyX                  // also the execute bits, for X
	modeCopy                     // the u, g or o bits of the mode so far
)

// change is one operation of a chmod mode, as gnulib's struct
// mode_change: op is '=', '+' or '-'.
type change struct {
	op        byte
	flag      modeFlag
	affected  uint32 // the who bits (u, g, o, a); 0 when none were given
	value     uint32
	mentioned uint32 // the bits the mode names explicitly
}

// compile is gnulib's mode_compile: an octal number, or a comma
// separated list of [ugoa]*([-+=]([rwxXst]*|[ugo]))+ and [-+=][0-7]+.
func compile(s string) ([]change, bool) {
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
		return []change{{op: '=', flag: modeOrdinary, affected: modeChmod, value: octal, mentioned: mentioned}}, true
	}

	var mc []change
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
			c := change{op: at(p), flag: modeCopy, affected: affected}
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

// adjust is gnulib's mode_adjust: the mode bits of old (a
// directory's when dir) after the changes, with the umask applied to
// changes that name no who.
func adjust(old uint32, dir bool, umask uint32, changes []change) uint32 {
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
