package walker

import (
	"io/fs"
	"runtime"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gfind/gfind/internal/seam"
)

// The visit step, which every scheduler shares: a worker's Entry and
// path buffer (wstate, pathBuf), a starting point's visit (visitRoot),
// a directory's visit before its contents (preVisit), each record's
// (entry), a directory's after its contents (postVisit), and how a
// failure on a file is reported (report, fail).

// wstate is one worker's reusable state: its Entry, the path buffer the
// Entry's Path points into, and scratch space.
type wstate struct {
	w         *walk
	e         Entry
	pb        pathBuf
	scratch   []candidate
	entries   uint32    // entries handled, for maybeYield
	lastYield time.Time // for maybeYield
}

// maybeYield is called for each entry. Every yieldCheck entries it looks
// at the clock, and every yieldAfter it calls runtime.Gosched.
//
// Why: sysmon takes the P away from a goroutine that has run for 10ms
// without being rescheduled as soon as it finds it in a system call,
// even when other Ps are idle (runtime.retake). A walker goroutine goes
// from system call to system call and is never rescheduled, so once past
// 10ms it would lose its P at nearly every sysmon tick, each a hand-off
// and context switches. A Gosched every few milliseconds restarts the
// 10ms clock for one trip through the scheduler (bench/NOTES.md).
func (s *wstate) maybeYield() {
	if s.entries++; s.entries%yieldCheck != 0 {
		return
	}
	if now := time.Now(); now.Sub(s.lastYield) >= yieldAfter {
		s.lastYield = now
		runtime.Gosched()
	}
}

const (
	yieldCheck = 128
	yieldAfter = 4 * time.Millisecond
)

func (s *wstate) init(w *walk, id int) {
	s.w = w
	s.e.Worker = id
	s.pb.b = make([]byte, 4096)
}

// call hands the Entry to visit and records a Stop.
func (s *wstate) call() Action {
	a := s.w.visit(&s.e)
	if a == Stop {
		s.w.stop.Store(true)
		if f := seam.Stopped.Load(); f != nil {
			f(string(s.e.Path))
		}
	}
	return a
}

// fail reports a failure on the current Entry, unless it says the file
// vanished since its directory was read and the options ignore that
// (-ignore_readdir_race): the one place that decides it.
func (s *wstate) fail(op string, err error) {
	if !s.w.opt.raceIgnored(err) {
		s.report(op, err)
	}
}

// report visits the current Entry as a failure.
func (s *wstate) report(op string, err error) {
	e := &s.e
	if le, ok := err.(*LoopError); ok {
		e.Err = le
	} else if err == errChanged {
		e.Err = err // its own sentence, as "gfind: 'x': directory changed during the walk"
	} else {
		e.Err = &fs.PathError{Op: op, Path: string(e.Path), Err: err}
	}
	s.call()
	e.Err = nil
}

// pathBuf holds the path of one directory (cur) and, after it, the name
// of the entry being visited. Because a directory's path is a prefix of
// its descendants' paths, moving to another directory only rewrites the
// names below the two directories' deepest common ancestor: in a
// depth-first walk that is usually one name.
type pathBuf struct {
	b   []byte
	cur *dir // b[:cur.pathLen] is cur's path, and so holds its ancestors'
}

// room makes b at least n bytes long, keeping its contents.
func (p *pathBuf) room(n int) {
	if n > len(p.b) {
		nb := make([]byte, max(n, 2*len(p.b)))
		copy(nb, p.b)
		p.b = nb
	}
}

// setDir makes b hold d's path, with room for a child's name after it.
func (p *pathBuf) setDir(d *dir) {
	p.room(d.childOff + 512)
	a, b := p.cur, d
	for a != nil && a.depth > b.depth {
		a = a.parent
	}
	for b != nil && (a == nil || b.depth > a.depth) {
		b = b.parent
	}
	for a != b {
		a, b = a.parent, b.parent
	}
	for x := d; x != a; x = x.parent {
		copy(p.b[x.nameOff:], x.name[:len(x.name)-1])
		if x.parent != nil && x.nameOff > x.parent.pathLen {
			p.b[x.parent.pathLen] = '/'
		}
	}
	p.cur = d
}

// dirPrefix points the path buffer at d and returns d's path as its
// files' Paths begin (Path[:NameOff]), for Options.PieceOut.
func (s *wstate) dirPrefix(d *dir) []byte {
	s.pb.setDir(d)
	if d.childOff > d.pathLen {
		s.pb.b[d.pathLen] = '/' // setDirEntry may have put a NUL there
	}
	return s.pb.b[:d.childOff:d.childOff]
}

// setDirEntry points the Entry at directory d itself (for a root, an
// error about d, or d's post-order visit), relative to parentFD.
func (s *wstate) setDirEntry(d *dir, parentFD int) {
	s.pb.setDir(d)
	s.pb.b[d.pathLen] = 0 // the NUL the *at calls need
	e := &s.e
	e.reset()
	e.Path = s.pb.b[:d.pathLen:d.pathLen]
	e.RootLen = d.rootLen
	e.Depth = d.depth
	e.Type = d.typ
	e.follow = d.linkFollowed
	e.dirfd = parentFD
	if d.vanished {
		e.markGone()
	}
	if d.parent == nil {
		e.NameOff = rootNameOff(e.Path)
		e.atOff = 0
	} else {
		e.NameOff = d.nameOff
		e.atOff = d.nameOff
	}
}

// rootNameOff returns where a starting point's base name starts, as
// Synthetic computes it.
func rootNameOff(path []byte) int {
	for i := len(path) - 2; i >= 0; i-- {
		if path[i] == '/' {
			return i + 1
		}
	}
	return 0
}

// setChild points the Entry at the child name of d (whose path pb
// holds), read through d's descriptor fd.
func (s *wstate) setChild(d *dir, fd int, name []byte) {
	if d.childOff+len(name)+1 > len(s.pb.b) {
		s.pb.room(d.childOff + len(name) + 1)
	}
	b := s.pb.b
	if d.childOff > d.pathLen {
		b[d.pathLen] = '/'
	}
	n := d.childOff + copy(b[d.childOff:], name)
	b[n] = 0
	e := &s.e
	e.reset()
	e.Path = b[:n:n]
	e.NameOff = d.childOff
	e.RootLen = d.rootLen
	e.atOff = d.childOff
	e.Depth = d.depth + 1
	e.dirfd = fd
}

// startRoot stats the starting point r (already set in d) and fills the
// Entry for it. It reports a failure and returns false when the
// starting point cannot be reached.
func (s *wstate) startRoot(d *dir) bool {
	w := s.w
	s.setDirEntry(d, unix.AT_FDCWD)
	e := &s.e
	e.Type = TypeUnknown
	var st *unix.Stat_t
	if w.opt.Follow != FollowNever {
		// -H and -L: the starting point is what its link points to, and
		// a dangling link is itself (fts_stat's FTS_SLNONE).
		d.follow = true
		err := e.fstatat(&e.stat, 0)
		switch err {
		case nil:
			e.haveS, e.statErr, e.follow = true, nil, true
			st = &e.stat
		case unix.ENOENT:
			lst, lerr := e.Lstat()
			if lerr != nil {
				s.report("stat", err)
				return false
			}
			e.stat, e.statErr, e.haveS = *lst, err, true
			st = lst
		default:
			s.report("stat", err)
			return false
		}
	} else {
		lst, err := e.Lstat()
		if err != nil {
			s.report("lstat", err)
			return false
		}
		st = lst
	}
	e.Type = TypeOf(uint32(st.Mode))
	d.typ = e.Type
	d.linkFollowed = e.follow
	d.id, d.idExact = idOf(st), true
	d.rootDev = uint64(st.Dev)
	return w.opt.Exclude == nil || !w.opt.Exclude(e)
}

// The visit step every scheduler shares: a starting point's visit
// (visitRoot), the visit of a directory before its contents (preVisit),
// each record's (entry), and a directory's after its contents
// (postVisit).

// visitRoot stats the starting point d (its name set) and makes the
// visit that comes before its contents. It returns whether to read d.
func (s *wstate) visitRoot(d *dir) bool {
	s.pb.cur = nil
	if !s.startRoot(d) {
		return false
	}
	return s.preVisit(d, s.e.Type == TypeDir && s.w.opt.MaxDepth != 0)
}

// preVisit makes the visit of d (whose Entry is set) that comes before
// its contents: the pre-order visit, or under PostOrder the only visit
// of a directory that will not be read. descend says whether d is to be
// read; preVisit returns whether it still is (not pruned, no Stop).
func (s *wstate) preVisit(d *dir, descend bool) bool {
	opt := &s.w.opt
	if opt.PostOrder && descend {
		return true
	}
	if d.depth >= opt.MinDepth {
		s.e.PostOrder = opt.PostOrder && s.e.Type == TypeDir
		if s.call() == Prune && !opt.PostOrder {
			descend = false
		}
	}
	return descend && !s.w.stop.Load()
}

// postVisit makes d's visit after its contents, under PostOrder,
// relative to its parent's descriptor parentFD; not for a directory
// that is a loop, nor after a Stop, nor for one that vanished before it
// could be opened under IgnoreReaddirRace (GNU 4.11 returns before
// visiting such an FTS_DNR, savannah bug 45930; 4.9 visited it).
func (s *wstate) postVisit(d *dir, parentFD int) {
	opt := &s.w.opt
	if d.vanished && opt.IgnoreReaddirRace {
		return
	}
	if opt.PostOrder && d.depth >= opt.MinDepth && !d.loop && !s.w.stop.Load() {
		s.setDirEntry(d, parentFD)
		s.e.PostOrder = true
		s.call()
	}
}

// child describes a subdirectory to descend into.
type child struct {
	id           fileID
	exact        bool
	linkFollowed bool
}

// entry handles one record of directory d, whose descriptor fd is pinned
// and whose path pb holds: it classifies the file, reports failures and
// calls visit (unless the visit waits for post-order). It returns whether
// to descend into the file, and what the new directory item needs.
func (s *wstate) entry(d *dir, fd int, de *dirent) (descend bool, c child) {
	w := s.w
	opt := &w.opt
	s.maybeYield()
	s.setChild(d, fd, de.name)
	e := &s.e
	e.Type = de.typ
	e.dino = de.ino
	if e.Type == TypeUnknown {
		// The file system does not fill d_type (some FUSE, old XFS):
		// lstat, as fts does.
		st, err := e.Lstat()
		if err != nil {
			s.fail("lstat", err)
			return false, c
		}
		e.Type = TypeOf(uint32(st.Mode))
	}
	if e.Type == TypeSymlink && opt.Follow == FollowAll {
		if !s.followLink(d) {
			return false, c
		}
	}
	if opt.Mount && s.otherDevice(d) {
		return false, c
	}
	if opt.Exclude != nil && opt.Exclude(e) {
		return false, c
	}
	if e.Type != TypeDir {
		if e.Depth >= opt.MinDepth {
			s.call()
		}
		return false, c
	}

	descend = opt.MaxDepth < 0 || e.Depth < opt.MaxDepth
	c.linkFollowed = e.follow
	switch {
	case e.follow:
		c.id, c.exact = idOf(&e.stat), true
	case e.haveL && e.lstatErr == nil:
		c.id, c.exact = idOf(&e.lstat), true
	default:
		c.id = fileID{d.id.dev, de.ino}
	}
	if opt.Follow == FollowAll && !e.follow && s.closesLoop(d, &c) {
		return false, c
	}
	if descend && opt.XDev {
		if !c.exact {
			st, err := e.Lstat()
			if err != nil {
				s.fail("lstat", err)
				return false, c
			}
			c.id, c.exact = idOf(st), true
		}
		if c.id.dev != d.rootDev {
			descend = false
		}
	}
	if c.exact && !e.follow {
		// A stat (-xdev, -mount) gave the directory's real identity:
		// a bind mount of an ancestor is refused now, unvisited, as fts
		// refuses it (FTS_DC), not after its pre-order visit when the
		// "." check finds it.
		for x := d; x != nil; x = x.parent {
			if x.id == c.id {
				s.report("", &LoopError{Path: string(e.Path), Ancestor: x.path()})
				return false, c
			}
		}
	}
	if opt.PostOrder && descend {
		return true, c // visited after its contents
	}
	if e.Depth >= opt.MinDepth {
		e.PostOrder = opt.PostOrder
		if s.call() == Prune && !opt.PostOrder {
			descend = false
		}
		if e.gone() {
			descend = false // the visit found it gone, and said so
		}
	}
	return descend && !w.stop.Load(), c
}

// otherDevice reports whether the current entry, a record of d, is on
// another device than its starting point (Options.Mount). As fts, which
// under FTS_MOUNT stats every record, it takes the status the walk goes
// by: the target's for a followed link, else the file's own. A file
// whose status cannot be had is not skipped by fts (FTS_NS): GNU
// reports it and visits it with no type, once, or under
// -ignore_readdir_race skips a vanished one silently.
func (s *wstate) otherDevice(d *dir) bool {
	e := &s.e
	if e.follow {
		// followLink reported what it could not stat; a dangling link
		// has its own status.
		return e.haveS && e.Type != TypeUnknown && uint64(e.stat.Dev) != d.rootDev
	}
	st, err := e.Lstat()
	if err != nil {
		if s.w.opt.raceIgnored(err) {
			return true
		}
		s.report("lstat", err)
		e.ReportOnce() // the tests that need its status are false, silently
		e.Type = TypeUnknown
		return false
	}
	return uint64(st.Dev) != d.rootDev
}

// closesLoop reports whether the directory of the current entry, a
// real directory (not a link) met under -L, is one of its ancestors:
// below a followed link, walking down can come back to where the link
// was followed from (root/d/up -> .., then up/d is root/d again). fts
// finds this by stating every directory; here the record's d_ino is
// compared with the ancestors' inode numbers, which costs no system
// call, and only a match is confirmed by a stat.
func (s *wstate) closesLoop(d *dir, c *child) bool {
	for x := d; x != nil; x = x.parent {
		if x.id.ino != c.id.ino {
			continue
		}
		if !c.exact {
			st, err := s.e.Lstat()
			if err != nil {
				return false // reported, if need be, where the status is used
			}
			c.id, c.exact = idOf(st), true
		}
		if x.id == c.id {
			s.report("", &LoopError{Path: string(s.e.Path), Ancestor: x.path()})
			return true
		}
	}
	return false
}

// followLink stats a symbolic link under -L. It returns false when the
// link is not to be visited: its target loops (ELOOP, or a directory
// that is an ancestor). A dangling link is visited as itself, one that
// vanished with no status.
func (s *wstate) followLink(d *dir) bool {
	e := &s.e
	e.follow = true
	err := e.fstatat(&e.stat, 0)
	switch err {
	case nil:
		e.haveS, e.statErr = true, nil
		e.Type = TypeOf(uint32(e.stat.Mode))
		if e.Type == TypeDir {
			id := idOf(&e.stat)
			for x := d; x != nil; x = x.parent {
				if x.id == id {
					s.report("", &LoopError{Path: string(e.Path), Ancestor: x.path()})
					return false
				}
			}
		}
	case unix.ENOENT:
		lst, lerr := e.Lstat()
		if lerr != nil {
			// Gone since its directory was read. GNU (fts's FTS_NS)
			// reports it and still visits the name with no status, as
			// below; under IgnoreReaddirRace GNU 4.11 neither reports
			// nor visits it (savannah bug 45930; 4.9 reported it and
			// visited it).
			if opt := &s.w.opt; opt.raceIgnored(lerr) {
				return false
			}
			s.fail("lstat", lerr)
			e.ReportOnce() // the tests that need its status are false, silently
			e.stat, e.statErr, e.haveS = unix.Stat_t{}, lerr, true
			e.Type = TypeUnknown
			return true
		}
		e.stat, e.statErr, e.haveS = *lst, err, true
	case unix.ELOOP:
		s.report("stat", err)
		return false
	default:
		// GNU reports the failure and still visits the name, with no
		// type (ftsfind.c: "file name without stat info might be better
		// than not even processing the file name").
		s.report("stat", err)
		e.stat, e.statErr, e.haveS = unix.Stat_t{}, err, true
		e.Type = TypeUnknown
	}
	return true
}
