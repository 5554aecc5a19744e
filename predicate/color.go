package predicate

import (
	"os"

	"github.com/gfind/gfind/internal/lscolors"
	"github.com/gfind/gfind/internal/meta"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// Colored output (gfind's --color, bfs's -color and -nocolor): -print
// and -ls on standard output color each path as bfs 4.1 does, from
// LS_COLORS, or BSD's LSCOLORS when it is unset, or GNU ls's built-in
// colors when neither is set. Whether to color
// is settled once the whole expression is read (applyColor), since
// -color and -nocolor are options that apply wherever they stand; a
// colored -print is then a node of its own, so the plain -print costs
// what it always did.

// parseColor is -color and -nocolor: colors on or off for the -print and
// -ls actions, wherever it stands (applyColor).
func parseColor(p *parser, op string, v variant) error {
	p.cfg.Color = v&on != 0
	return nil
}

// lookupEnv reads the environment; tests replace it.
var lookupEnv = os.Getenv

// applyColor turns the -print and -ls actions into colored ones when
// colors are on (Config.Color, or -color). An LS_COLORS that bfs could
// not parse is reported as GNU ls reports it, and nothing is colored.
func (p *parser) applyColor() {
	if !p.cfg.Color || p.cfg.JSON {
		// --json's lines are for programs: never colored.
		return
	}
	cz, err := newColorizer(lookupEnv("LS_COLORS"), lookupEnv("LSCOLORS"))
	if err != nil {
		p.cfg.Warn(err.Error())
		return
	}
	for i := range p.toks {
		switch n := p.toks[i].node.(type) {
		case *printNode:
			if n.term == '\n' {
				p.toks[i].node = &colorPrintNode{op: n.op, cz: cz}
			}
		case *lsNode:
			if n.file == nil {
				n.color = cz
			}
		case *printfNode:
			if n.file == nil {
				n.env.Color = cz
			}
		}
	}
}

// colorPrintNode is -print with colors: the leading directories in the
// directory color, the name in the color of its kind.
type colorPrintNode struct {
	op string
	cz *colorizer
}

func (n *colorPrintNode) Eval(e *walker.Entry, s *State) bool {
	if !s.act() {
		return false
	}
	name := n.cz.nameColor(e, s.follows(e))
	s.Out.PrintColored(e.Path, e.NameOff, n.cz.dir, name, n.cz.reset)
	return true
}

func (n *colorPrintNode) Facts() Facts {
	// The stats coloring may take are not counted: they come after
	// every test, so the optimizer has nothing to reorder for them.
	return Facts{Effects: EffectStdout, Cost: costPrint, Prob: 1}
}

func (n *colorPrintNode) Args() []string { return []string{n.op} }

// colorizer picks the color of a file as bfs 4.1 does (file_color in
// src/color.c). What it may have to ask the file system is decided
// once, from which keys are set: a regular file costs a stat only when
// su, sg, ex or mh is set, a directory only when tw, ow or st is, a
// symbolic link a stat of its target only when or is set (or ln is
// "target"), and a regular file a getxattr only when ca is. Otherwise the type from the directory entry
// and the name decide.
type colorizer struct {
	c     *lscolors.Colors
	dir   []byte // the color of leading directories
	reset []byte

	regStat, dirStat, linkCheck, capCheck, linkTarget bool
}

// newColorizer makes the colors from LS_COLORS, or from BSD's LSCOLORS
// when LS_COLORS is unset or empty, or else the built-in ones, as bfs
// 4.1 picks them.
func newColorizer(lsColors, bsdColors string) (*colorizer, error) {
	var c *lscolors.Colors
	switch {
	case lsColors != "":
		var err error
		if c, err = lscolors.Parse(lsColors); err != nil {
			return nil, err
		}
	case bsdColors != "":
		c = lscolors.ParseBSD(bsdColors)
	default:
		c = lscolors.Default()
	}
	return &colorizer{
		c:          c,
		dir:        c.Color(lscolors.IndDir),
		reset:      c.Reset(),
		regStat:    c.Colored(lscolors.IndSetuid) || c.Colored(lscolors.IndSetgid) || c.Colored(lscolors.IndExec) || c.Colored(lscolors.IndMultiHardLink),
		dirStat:    c.Colored(lscolors.IndStickyOtherWritable) || c.Colored(lscolors.IndOtherWritable) || c.Colored(lscolors.IndSticky),
		linkCheck:  c.Colored(lscolors.IndOrphan),
		capCheck:   c.Colored(lscolors.IndCap),
		linkTarget: c.LinkAsTarget(),
	}, nil
}

// nameColor returns the color of e's name: by the status the tests see
// (the target under -L, or with ln=target), or by the link itself; nil
// for none.
func (z *colorizer) nameColor(e *walker.Entry, follow bool) []byte {
	t := e.Type
	if t == walker.TypeSymlink && !follow && z.linkTarget {
		// ln=target: as the file it points to, when there is one.
		if st, err := e.Stat(); err == nil {
			return z.colorOf(e, e.Name(), walker.TypeOf(uint32(st.Mode)), st, true)
		}
	}
	var st *unix.Stat_t
	if t == walker.TypeUnknown {
		if st = z.status(e, follow); st != nil {
			t = walker.TypeOf(uint32(st.Mode))
		} else if lst, err := e.Lstat(); follow && err == nil && lst.Mode&unix.S_IFMT == unix.S_IFLNK {
			// A link -L cannot follow (its target is not there, or
			// runs through a file: ENOTDIR, which find reports).
			t = walker.TypeSymlink
		} else {
			return z.missing()
		}
	}
	if t == walker.TypeSymlink {
		// Under -L a link still typed as a link could not be followed:
		// it dangles (or loops), and bfs does not ask again.
		if z.linkCheck && (follow || !linkResolves(e)) {
			return z.c.Color(lscolors.IndOrphan)
		}
		return z.c.Color(lscolors.IndLink)
	}
	return z.colorOf(e, e.Name(), t, st, follow)
}

// linkResolves reports whether the symbolic link e leads to a file: the
// status of its target can be had.
func linkResolves(e *walker.Entry) bool {
	_, err := e.Stat()
	return err == nil
}

// colorOf is the color of the file e of type t, whose suffix is looked
// for in name. st is its status if already known; it is asked only when
// the set keys need it.
func (z *colorizer) colorOf(e *walker.Entry, name []byte, t walker.Type, st *unix.Stat_t, follow bool) []byte {
	if st == nil && (t == walker.TypeRegular && z.regStat || t == walker.TypeDir && z.dirStat) {
		if st = z.status(e, follow); st == nil {
			return z.missing()
		}
	}
	return z.pick(name, t, st, func() bool { return meta.HasCapability(metaFile(e), follow) })
}

// pick is bfs's file_color once the type is known: st, when not nil,
// tells the modes apart, and caps says whether the file has
// capabilities (asked only when ca is set).
func (z *colorizer) pick(name []byte, t walker.Type, st *unix.Stat_t, caps func() bool) []byte {
	c := z.c
	switch t {
	case walker.TypeRegular:
		switch {
		case st != nil && st.Mode&unix.S_ISUID != 0 && c.Colored(lscolors.IndSetuid):
			return c.Color(lscolors.IndSetuid)
		case st != nil && st.Mode&unix.S_ISGID != 0 && c.Colored(lscolors.IndSetgid):
			return c.Color(lscolors.IndSetgid)
		case z.capCheck && caps():
			return c.Color(lscolors.IndCap)
		case st != nil && st.Mode&0o111 != 0 && c.Colored(lscolors.IndExec):
			return c.Color(lscolors.IndExec)
		case st != nil && st.Nlink > 1 && c.Colored(lscolors.IndMultiHardLink):
			return c.Color(lscolors.IndMultiHardLink)
		}
		if color, ok := c.Suffix(name); ok {
			return color
		}
		return c.Color(lscolors.IndFile)
	case walker.TypeDir:
		if st != nil {
			switch {
			case st.Mode&unix.S_ISVTX != 0 && st.Mode&0o002 != 0 && c.Colored(lscolors.IndStickyOtherWritable):
				return c.Color(lscolors.IndStickyOtherWritable)
			case st.Mode&0o002 != 0 && c.Colored(lscolors.IndOtherWritable):
				return c.Color(lscolors.IndOtherWritable)
			case st.Mode&unix.S_ISVTX != 0 && c.Colored(lscolors.IndSticky):
				return c.Color(lscolors.IndSticky)
			}
		}
		return z.dir
	case walker.TypeSymlink:
		return c.Color(lscolors.IndLink)
	case walker.TypeFIFO:
		return c.Color(lscolors.IndFIFO)
	case walker.TypeSocket:
		return c.Color(lscolors.IndSocket)
	case walker.TypeBlock:
		return c.Color(lscolors.IndBlock)
	case walker.TypeChar:
		return c.Color(lscolors.IndChar)
	}
	return nil
}

// status returns the status coloring looks at, or nil when it cannot be
// had; no error is reported: -print never stats in GNU find, so a
// colored -print does not complain either.
func (z *colorizer) status(e *walker.Entry, follow bool) *unix.Stat_t {
	var st *unix.Stat_t
	var err error
	if follow {
		st, err = e.Stat()
	} else {
		st, err = e.Lstat()
	}
	if err != nil {
		return nil
	}
	return st
}

// missing is the color of a file that vanished or cannot be asked, as
// bfs colors it: mi, or else or.
func (z *colorizer) missing() []byte {
	if z.c.Colored(lscolors.IndMissing) {
		return z.c.Color(lscolors.IndMissing)
	}
	return z.c.Color(lscolors.IndOrphan)
}

// appendPath appends e's path colored, with esc escaping the text (the
// -ls escapes).
func (z *colorizer) appendPath(dst []byte, e *walker.Entry, s *State, esc func(dst, text []byte) []byte) []byte {
	return output.AppendColoredPath(dst, e.Path, e.NameOff, z.dir, z.nameColor(e, s.follows(e)), z.reset, esc)
}

// appendTarget appends the target of the symbolic link e, colored as
// bfs 4.1 colors it (-ls, -printf's %l): as a path to the file it leads
// to. When the link dangles, the longest part of the target that exists
// is colored as a path to what it names, and the rest, from the first
// component that is not there, in mi (or else or): "dir/" in di, then
// "gone/x" in mi; "file" in its color, then "/x" in mi.
func (z *colorizer) appendTarget(dst []byte, e *walker.Entry, target []byte, esc func(dst, text []byte) []byte) []byte {
	if st, err := e.Stat(); err == nil {
		split := baseOff(target)
		color := z.colorOf(e, target[split:], walker.TypeOf(uint32(st.Mode)), st, true)
		return output.AppendColoredPath(dst, target, split, z.dir, color, z.reset, esc)
	}
	k := z.existing(e, target)
	if k > 0 {
		prefix := target[:k]
		split := baseOff(prefix)
		if prefix[k-1] == '/' {
			split = k // a directory, with its slash
		}
		var color []byte
		if split < k {
			var st unix.Stat_t
			if err := z.statAt(e, prefix, &st); err != nil {
				color = z.missing()
			} else {
				color = z.pick(prefix[split:], walker.TypeOf(uint32(st.Mode)), &st, func() bool { return false })
			}
		}
		dst = output.AppendColoredPath(dst, prefix, split, z.dir, color, z.reset, esc)
	}
	return output.AppendColoredPath(dst, target[k:], 0, nil, z.missing(), z.reset, esc)
}

// AppendPath is printf.Colors's: path, whose last component is e's
// name, with path[:split] in the directory color and the rest in e's.
func (z *colorizer) AppendPath(dst []byte, e *walker.Entry, follow bool, path []byte, split int, esc func(dst, text []byte) []byte) []byte {
	return output.AppendColoredPath(dst, path, split, z.dir, z.nameColor(e, follow), z.reset, esc)
}

// AppendDir is printf.Colors's: text in the directory color.
func (z *colorizer) AppendDir(dst, text []byte, esc func(dst, text []byte) []byte) []byte {
	return output.AppendColoredPath(dst, text, 0, z.dir, z.dir, z.reset, esc)
}

// AppendTarget is printf.Colors's: appendTarget.
func (z *colorizer) AppendTarget(dst []byte, e *walker.Entry, target []byte, esc func(dst, text []byte) []byte) []byte {
	return z.appendTarget(dst, e, target, esc)
}

// baseOff is where the last component of path starts: after the last
// '/' that is not the final byte.
func baseOff(path []byte) int {
	for i := len(path) - 2; i >= 0; i-- {
		if path[i] == '/' {
			return i + 1
		}
	}
	return 0
}

// existing returns the length of the longest leading part of the
// dangling link e's target that names a file: the whole target less
// trailing slashes or last components, taken off one at a time.
func (z *colorizer) existing(e *walker.Entry, target []byte) int {
	k := len(target)
	for k > 0 {
		if z.accessAt(e, target[:k]) == nil {
			break
		}
		if target[k-1] == '/' {
			for k > 0 && target[k-1] == '/' {
				k--
			}
			continue
		}
		for k > 0 && target[k-1] != '/' {
			k--
		}
	}
	return k
}

// atPath returns the descriptor and name that reach path, a link
// target, from the directory holding the link e: through the
// directory's descriptor, so that a path longer than PATH_MAX works,
// or joined to the link's leading directories for a starting point.
func atPath(e *walker.Entry, path []byte) (int, string) {
	fd := e.DirFD()
	if path[0] == '/' {
		return unix.AT_FDCWD, string(path)
	}
	if fd == unix.AT_FDCWD {
		return fd, string(e.Path[:e.NameOff]) + string(path)
	}
	return fd, string(path)
}

func (z *colorizer) accessAt(e *walker.Entry, path []byte) error {
	fd, name := atPath(e, path)
	for {
		err := unix.Faccessat(fd, name, unix.F_OK, 0)
		if err != unix.EINTR {
			return err
		}
	}
}

func (z *colorizer) statAt(e *walker.Entry, path []byte, st *unix.Stat_t) error {
	fd, name := atPath(e, path)
	for {
		err := unix.Fstatat(fd, name, st, 0)
		if err != unix.EINTR {
			return err
		}
	}
}
