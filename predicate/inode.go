package predicate

import (
	"errors"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// direntIno reports whether e's inode number is known without a stat.
func direntIno(e *walker.Entry) bool {
	_, ok := e.DirentIno()
	return ok
}

// inodeNumNode is -links [+-]N (the hard link count) and -inum [+-]N
// (the inode number).
type inodeNumNode struct {
	op, arg string
	num     numArg
	inum    bool
}

func (n *inodeNumNode) Eval(e *walker.Entry, s *State) bool {
	if n.inum {
		if ino, ok := e.DirentIno(); ok {
			// GNU's get_info: need_inum stats only when the directory
			// record's number will not do, so a file that vanished since
			// its directory was read still has one.
			return n.num.match(ino)
		}
	}
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	if n.inum {
		return n.num.match(uint64(st.Ino))
	}
	return n.num.match(uint64(st.Nlink))
}

func (n *inodeNumNode) Facts() Facts {
	// GNU's est_success_rate (parser.c): an inode number is matched by
	// about one file in a million; most files have one link, a few two.
	p := 1e-3
	switch {
	case n.inum:
		p = 1e-6
	case n.num.n == 1:
		p = 0.99
	case n.num.n == 2:
		p = 0.01
	}
	return Facts{Cost: costStat, Prob: p}
}

func (n *inodeNumNode) Args() []string { return []string{n.op, n.arg} }

func parseInodeNum(p *parser, op string, v variant) error {
	num, arg, err := p.numArg(op)
	if err != nil {
		return err
	}
	p.push(&inodeNumNode{op: op, arg: arg, num: num, inum: v&inodeNum != 0})
	return nil
}

// samefileNode is -samefile FILE: the file is FILE itself or a hard link
// to it (or, when links are followed, a link to it). FILE is looked up
// when the expression is parsed, with the -P/-H/-L in force at that
// point (a later -follow does not change it), as GNU does.
type samefileNode struct {
	arg      string
	dev, ino uint64
}

func (n *samefileNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	return uint64(st.Ino) == n.ino && uint64(st.Dev) == n.dev
}

func (n *samefileNode) Facts() Facts {
	// GNU's est_success_rate (parser.c).
	return Facts{Cost: costStat, Prob: 0.01}
}

func (n *samefileNode) Args() []string { return []string{"-samefile", n.arg} }

func parseSamefile(p *parser, op string, _ variant) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	st, err := p.statArg(arg)
	if err != nil {
		return err
	}
	p.push(&samefileNode{arg: arg, dev: uint64(st.Dev), ino: uint64(st.Ino)})
	return nil
}

// statArg stats a file named on the command line (-samefile's) as GNU's
// options.xstat does at parse time: -P looks at a link itself; -H and -L
// follow it (at parse time GNU counts as being at depth 0), falling back
// to the link itself when the target is missing. A failure is GNU's
// fatal "'FILE': Strerror".
func (p *parser) statArg(name string) (*unix.Stat_t, error) {
	var st unix.Stat_t
	var err error
	if p.walk.Follow == walker.FollowNever {
		err = unix.Lstat(name, &st)
	} else {
		err = unix.Stat(name, &st)
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			err = unix.Lstat(name, &st)
		}
	}
	if err != nil {
		return nil, p.errorf("%s: %s", p.quote(name), output.Strerror(err))
	}
	return &st, nil
}
