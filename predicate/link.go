package predicate

import (
	"errors"

	"github.com/gfind/gfind/internal/fnmatch"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// linkShare is the share of symbolic links among files (typ.go's survey).
var linkShare = typeProb[walker.TypeSymlink]

// lnameNode is -lname PATTERN and -ilname PATTERN: fnmatch on the target
// of a symbolic link. Like GNU's pred_lname it asks the status the other
// tests see, so under -L only a link that cannot be followed (dangling,
// or through a non-directory) is a link.
type lnameNode struct {
	op, pat string
	g       *fnmatch.Pattern
}

func (n *lnameNode) Eval(e *walker.Entry, s *State) bool {
	if e.Type != walker.TypeUnknown && e.Type != walker.TypeSymlink {
		// e.Type already describes the status s.stat would return
		// (the target under -L): not a link.
		return false
	}
	st, ok := s.stat(e)
	if !ok || st.Mode&unix.S_IFMT != unix.S_IFLNK {
		return false
	}
	target, err := e.Readlink()
	if err != nil {
		s.Diag.FileError(e.Path, err)
		return false
	}
	return n.g.Match(target)
}

func (n *lnameNode) Facts() Facts {
	// GNU: 0.1 * estimate_pattern_match_rate (most files are not
	// links). Only links cost a stat (d_type tells the others) and a
	// readlink.
	return Facts{Cost: costType + linkShare*2*costStat, Prob: 0.1 * patternProb(n.pat)}
}

func (n *lnameNode) Args() []string { return []string{n.op, n.pat} }

func parseLname(p *parser, op string, v variant) error {
	pat, err := p.arg(op)
	if err != nil {
		return err
	}
	p.push(&lnameNode{op: op, pat: pat, g: fnmatch.Compile(pat, v&foldCase != 0)})
	return nil
}

// xtypeNode is -xtype LIST: -type on the other status, GNU's pred_xtype.
// Where find does not follow links (-P, and -H below the starting
// points) it is the type stat(2) gives, following a final link; a link
// that cannot be followed because its target does not exist (ENOENT,
// ENOTDIR) or because it loops (ELOOP: loop -> loop, a -> b -> a) is
// seen as a link, silently, and any other failure (EACCES) is reported,
// every time, as GNU does. The loop follows GNU 4.10 (savannah bug
// 51926: "-xtype l no longer fails on symbolic links that point to
// themselves"); GNU 4.9 reports the loop and the test is false (README,
// known differences). Where find follows links (-L, and -H on a
// starting point) it is the type lstat(2) gives.
type xtypeNode struct {
	arg   string
	types uint16 // bit walker.Type
}

func (n *xtypeNode) Eval(e *walker.Entry, s *State) bool {
	follow := s.follows(e)
	if !follow && e.Type != walker.TypeUnknown && e.Type != walker.TypeSymlink {
		// Not a link: stat and lstat agree, and d_type said which.
		return n.has(e.Type)
	}
	// GNU's -xtype needs the usual status first (need_stat): without
	// it the test is false, reported once.
	usual, ok := s.stat(e)
	if !ok {
		return false
	}
	var st *unix.Stat_t
	var err error
	if follow {
		st, err = e.Lstat()
		if err != nil && errors.Is(err, unix.ENOENT) {
			return n.has(walker.TypeOf(uint32(usual.Mode))) // GNU falls back on -type
		}
	} else {
		st, err = e.Stat()
		if err != nil && (errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP)) {
			// GNU's fallback_stat for ENOENT and ENOTDIR, and 4.10's
			// err_signals_broken_link for ELOOP: the link itself.
			st, err = e.Lstat()
		}
	}
	if err != nil {
		s.Diag.FileError(e.Path, err)
		return false
	}
	return n.has(walker.TypeOf(uint32(st.Mode)))
}

func (n *xtypeNode) has(t walker.Type) bool { return n.types&(1<<t) != 0 }

func (n *xtypeNode) Facts() Facts {
	// GNU sums the shares of the letters, as for -type, and always
	// stats.
	f := Facts{Cost: costStat}
	for t, p := range typeProb {
		if n.has(t) {
			f.Prob += p
		}
	}
	return f
}

func (n *xtypeNode) Args() []string { return []string{"-xtype", n.arg} }

// parseXtype reads the letters with parseType, which gives GNU's
// messages with the name of the primary, then turns the -type node it
// pushed into an -xtype node.
func parseXtype(p *parser, op string, v variant) error {
	if err := parseType(p, op, v); err != nil {
		return err
	}
	last := &p.toks[len(p.toks)-1]
	t := last.node.(*typeNode)
	last.node = &xtypeNode{arg: t.arg, types: t.types}
	return nil
}
