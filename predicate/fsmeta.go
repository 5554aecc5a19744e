package predicate

import (
	"bytes"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gfind/gfind/internal/meta"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// bfs's tests of what the mode bits do not say: -xattr, -xattrname NAME,
// -acl, -capable (extended attributes, which also carry ACLs and file
// capabilities on Linux) and -sparse (from the status).
//
// Each xattr test makes its system call only when it is evaluated, and
// a file system that answers ENOTSUP for a regular file or a directory
// (it has no such attributes at all) is remembered by device: the rest
// of its files cost that test no call.
// A file system mounted without xattr support answers every file alike,
// so asking again would only repeat the failure (coreutils' ls -l learnt
// this the slow way, with one failing getxattr per file).

// metaKind says which question a metaNode asks.
type metaKind uint8

const (
	metaXattr     metaKind = iota // -xattr: listxattr(2) gives a name
	metaXattrName                 // -xattrname NAME: getxattr(2) finds NAME
	metaACL                       // -acl: a POSIX ACL beyond the three entries of the mode bits
	metaCapable                   // -capable: security.capability is set
)

var metaOps = [...]string{metaXattr: "-xattr", metaXattrName: "-xattrname", metaACL: "-acl", metaCapable: "-capable"}

// metaScratch is a worker's memory for the xattr tests: the buffers of
// the system's calls (meta.Scratch), and the device of the directory it
// last asked about (device).
type metaScratch struct {
	meta.Scratch

	haveDir bool
	dirFD   int    // the directory descriptor dirDev is for
	dir     []byte // and its path, as Entry.Path[:NameOff]
	dirDev  uint64
}

// metaNode is one of -xattr, -xattrname, -acl and -capable. Its devices
// without support are its own: a file system may support some
// namespaces and not others (tmpfs before Linux 6.6 had no user.*), so
// one test's ENOTSUP says nothing of another's.
type metaNode struct {
	kind  metaKind
	name  string // -xattrname's NAME
	cname []byte // name, NUL-terminated
	nosup devSet
}

func (n *metaNode) Eval(e *walker.Entry, s *State) bool {
	t := seenType(e, s)
	if t == walker.TypeUnknown {
		return false // no status: reported, and no test is true (seenType)
	}
	if t == walker.TypeSymlink && (n.kind == metaACL || n.kind == metaCapable) {
		// A link has neither (bfs asks nothing either): the kernel
		// keeps ACLs and capabilities on the file the link names.
		return false
	}
	if n.nosup.nonEmpty() {
		dev, ok := s.device(e, t)
		if !ok || n.nosup.has(dev) {
			return false
		}
	}
	ok, err := n.check(e, s, t)
	switch {
	case err == nil:
		return ok
	case meta.NoSupport(err):
		// Only a regular file's or a directory's answer speaks for the
		// file system: Linux has no POSIX ACLs on symbolic links, and
		// says ENOTSUP for a link on ext4 as for any file on ramfs.
		if t == walker.TypeRegular || t == walker.TypeDir {
			if dev, ok := s.device(e, t); ok {
				n.nosup.add(dev)
			}
		}
		return false
	}
	s.reportStat(e, err)
	return false
}

// check asks the kernel. Like bfs (fsade.c), it takes ENODATA and EINVAL
// for "none" and E2BIG (a list too long to read) for "some"; ENOTSUP is
// the caller's. The file is seen as the other tests see it: a link is
// followed under -L (and -H for a starting point) unless it dangles.
func (n *metaNode) check(e *walker.Entry, s *State, t walker.Type) (bool, error) {
	follow := s.follows(e) && t != walker.TypeSymlink
	m, f := &s.meta, metaFile(e)
	switch n.kind {
	case metaXattr:
		return m.HasXattrs(f, follow)
	case metaXattrName:
		return m.HasXattr(f, follow, n.name, n.cname)
	case metaCapable:
		if !meta.HaveCapabilities {
			return false, nil // file capabilities are Linux's
		}
		return m.HasCaps(f, follow)
	case metaACL:
		if !meta.HaveACL {
			return false, nil // parseMeta has warned
		}
		return m.ACL(f, follow, t == walker.TypeDir)
	}
	return false, nil
}

func (n *metaNode) Facts() Facts {
	f := Facts{Cost: costStat}
	switch n.kind {
	case metaACL:
		// A directory may need its default ACL too. bfs's estimates
		// of how rare each is.
		f.Cost, f.Prob = costStat*(1+typeProb[walker.TypeDir]), 0.00002
	case metaCapable:
		f.Prob = 0.000002
	default:
		f.Prob = 0.01
	}
	return f
}

func (n *metaNode) Args() []string {
	if n.kind == metaXattrName {
		return []string{metaOps[n.kind], n.name}
	}
	return []string{metaOps[n.kind]}
}

// parseMeta is -xattr, -xattrname NAME, -acl and -capable. NAME is not
// checked: as in bfs, a name the kernel refuses (no namespace prefix:
// ENOTSUP) matches nothing, and one too long is an error on each file.
func parseMeta(p *parser, op string, v variant) error {
	n := &metaNode{kind: metaKind(v)}
	if n.kind == metaXattrName {
		name, err := p.arg(op)
		if err != nil {
			return err
		}
		n.name, n.cname = name, append([]byte(name), 0)
	}
	if n.kind == metaACL && !meta.HaveACL {
		// bfs refuses -acl where it cannot read ACLs; gfind keeps the
		// command line working and says once why nothing matches.
		p.warnf("%s: this system's ACLs cannot be read; the test is false for every file", op)
	}
	p.push(n)
	return nil
}

// sparseNode is -sparse: fewer 512-byte blocks allocated than the size
// needs (bfs's eval_sparse), for any type of file: a directory or a
// short symbolic link on tmpfs has no blocks at all.
type sparseNode struct{}

func (sparseNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	return st.Blocks < (st.Size+511)/512
}

func (sparseNode) Facts() Facts {
	return Facts{Cost: costStat, Prob: 0.5}
}

func (sparseNode) Args() []string { return []string{"-sparse"} }

func parseSparse(p *parser, op string, _ variant) error {
	p.push(sparseNode{})
	return nil
}

// devSet is a set of devices that workers read on every evaluation and
// add to once per device: readers load an immutable slice, writers copy
// it under a mutex. A walk meets few file systems, so a scan beats a map.
type devSet struct {
	mu   sync.Mutex
	devs atomic.Pointer[[]uint64]
}

func (d *devSet) load() []uint64 {
	if p := d.devs.Load(); p != nil {
		return *p
	}
	return nil
}

func (d *devSet) nonEmpty() bool { return d.devs.Load() != nil }

func (d *devSet) has(dev uint64) bool { return slices.Contains(d.load(), dev) }

func (d *devSet) add(dev uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	old := d.load()
	if slices.Contains(old, dev) {
		return
	}
	devs := append(slices.Clip(old), dev)
	d.devs.Store(&devs)
}

// device returns the device of the file e names as the test sees it (t
// is its type), for the devSets: it is asked only once some device has
// answered ENOTSUP. A file that is not a directory is on its directory's
// file system, whose device costs one fstat(2) per directory and worker;
// a directory may be a mount point, and a followed link may lead to
// another file system, so theirs comes from their status. (A file
// bind-mounted over another is on the file system it came from; it is
// taken for its directory's, the price of not stat'ing every file.)
func (s *State) device(e *walker.Entry, t walker.Type) (uint64, bool) {
	if e.Depth == 0 || t == walker.TypeDir || s.follows(e) {
		st, ok := s.stat(e)
		if !ok {
			return 0, false
		}
		return uint64(st.Dev), true
	}
	m := &s.meta
	fd, dir := e.DirFD(), e.Path[:e.NameOff]
	if !m.haveDir || fd != m.dirFD || !bytes.Equal(dir, m.dir) {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			m.haveDir = false
			s.reportStat(e, err)
			return 0, false
		}
		m.haveDir, m.dirFD, m.dir, m.dirDev = true, fd, append(m.dir[:0], dir...), uint64(st.Dev)
	}
	return m.dirDev, true
}

// metaFile names e for internal/meta.
func metaFile(e *walker.Entry) meta.File {
	return meta.File{Dir: e.DirFD(), Name: e.AtName(), Path: e.Path}
}

// seenType is the type of e as the tests see it: d_type when the walker
// has it, else from the status (the target's under -L). TypeUnknown
// means the status failed (and was reported).
func seenType(e *walker.Entry, s *State) walker.Type {
	if e.Type != walker.TypeUnknown {
		return e.Type
	}
	st, ok := s.stat(e)
	if !ok {
		return walker.TypeUnknown
	}
	return walker.TypeOf(uint32(st.Mode))
}
