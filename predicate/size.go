package predicate

import (
	"github.com/gfind/gfind/internal/meta"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// sizeNode is -size [+-]N[cwbkMG]: the file's size in units of unit
// bytes, rounded up, compared with N. The rounding is GNU's: -size -1M
// is true only for empty files, since a one-byte file is one (whole)
// mebibyte.
type sizeNode struct {
	arg  string // as given, with its suffix
	num  numArg
	unit uint64 // bytes per unit: 512 without a suffix
}

func (n *sizeNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	return n.num.match(sizeUnits(st.Size, n.unit))
}

// sizeUnits is size/unit rounded up, as GNU's pred_size computes it.
func sizeUnits(size int64, unit uint64) uint64 {
	sz := uint64(size) // st_size is never negative for a real file
	u := sz / unit
	if sz%unit != 0 {
		u++
	}
	return u
}

func (n *sizeNode) Facts() Facts {
	return Facts{Cost: costStat, Prob: sizeProb(n.num, n.unit)}
}

// sizeProb is GNU's est_success_rate for -size (parser.c): sizes above
// 20 KiB are taken to be rare, and an exact size very rare. The product
// wraps as GNU's uintmax_t arithmetic does.
func sizeProb(a numArg, unit uint64) float64 {
	big := a.n*unit > 20480
	switch {
	case a.kind == cmpGT && big, a.kind == cmpLT && !big:
		return 0.1
	case a.kind == cmpGT, a.kind == cmpLT:
		return 0.9
	}
	return 0.01
}

func (n *sizeNode) Args() []string { return []string{"-size", n.arg} }

// sizeUnit maps the suffixes of -size to their unit in bytes.
func sizeUnit(c byte) (uint64, bool) {
	switch c {
	case 'b':
		return 512, true
	case 'c':
		return 1, true
	case 'w':
		return 2, true
	case 'k':
		return 1 << 10, true
	case 'M':
		return 1 << 20, true
	case 'G':
		return 1 << 30, true
	}
	return 0, false
}

func parseSize(p *parser, op string, _ variant) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	n, err := p.sizeArg(arg)
	if err != nil {
		return err
	}
	p.push(n)
	return nil
}

// sizeArg parses the argument of -size with GNU's messages.
func (p *parser) sizeArg(arg string) (*sizeNode, error) {
	if arg == "" {
		return nil, p.errorf("invalid null argument to -size")
	}
	n := &sizeNode{arg: arg, unit: 512}
	digits := arg
	last := arg[len(arg)-1]
	if unit, ok := sizeUnit(last); ok {
		n.unit = unit
		digits = arg[:len(arg)-1]
	} else if last < '0' || last > '9' {
		// %c in GNU: the byte itself, even when it is not valid UTF-8.
		return nil, p.errorf("invalid -size type `%s'", arg[len(arg)-1:])
	}
	num, ok := parseNum(digits)
	if !ok {
		return nil, p.errorf("Invalid argument `%s' to -size", arg)
	}
	n.num = num
	return n, nil
}

// emptyNode is -empty: true for an empty regular file and for a
// directory with no entries besides "." and "..". Anything else, a
// symbolic link included (under -P), is not empty.
type emptyNode struct{}

func (emptyNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		return st.Size == 0
	case unix.S_IFDIR:
		// The status is the link's target's when s.stat followed one
		// (-L, -H roots): open through the link then, and refuse to
		// follow otherwise.
		lst, err := e.Lstat()
		nofollow := err != nil || lst.Mode&unix.S_IFMT != unix.S_IFLNK
		empty, err := meta.DirEmpty(metaFile(e), nofollow)
		if err != nil {
			// GNU reports an unreadable directory and calls it not
			// empty (pred_empty); the walker reports it again when it
			// fails to read it.
			s.Diag.FileError(e.Path, err)
			return false
		}
		return empty
	}
	return false
}

func (emptyNode) Facts() Facts {
	// GNU: "assume 1% of files are empty" (parser.c).
	return Facts{Cost: costStat, Prob: 0.01}
}

func (emptyNode) Args() []string { return []string{"-empty"} }

func parseEmpty(p *parser, op string, _ variant) error {
	p.push(emptyNode{})
	return nil
}
