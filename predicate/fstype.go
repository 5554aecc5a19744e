package predicate

import (
	"sync"

	"github.com/gfind/gfind/internal/mounts"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// fstypeNode is -fstype TYPE: true when the file is on a file system of
// that type, by the name the mount table gives it ("ext4", "tmpfs",
// "proc"). A device the mount table does not list has type "unknown",
// as GNU's filesystem_type says.
//
// From -O2 on GNU find replaces an -fstype whose type is not in the
// mount table by -false (parser.c's is_used_fs_type), so that "unknown"
// never matches either, and the file is not stat'ed for it; so does
// parseFstype. At -O0 and
// -O1, the default since GNU 4.10, the test is made: it stats the file
// (and reports a failure), and "unknown" matches a file on a device the
// mount table does not list (/proc/self/ns/*, nsfs).
type fstypeNode struct {
	typ  string
	prob float64
}

func (n *fstypeNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	m := mounts.System()
	if m.Err != nil {
		mountsReport.Do(func() { s.Diag.Errorf("Cannot read mounted file system list") })
	}
	return m.Type(uint64(st.Dev)) == n.typ
}

func (n *fstypeNode) Facts() Facts {
	return Facts{Cost: costStat, Prob: n.prob}
}

func (n *fstypeNode) Args() []string { return []string{"-fstype", n.typ} }

func parseFstype(p *parser, op string, _ variant) error {
	typ, err := p.arg(op)
	if err != nil {
		return err
	}
	m := mounts.System()
	unused := m.Err == nil && !m.Lists(typ) && typ != "afs"
	if unused && p.cfg.OptLevel >= 2 {
		// GNU's insert_false: a -false the optimizer then folds, so that
		// "-empty -fstype nosuchfs" stats nothing.
		p.push(constOf(false))
		return nil
	}
	n := &fstypeNode{typ: typ}
	// GNU's estimate_fstype_success_rate: most files are taken to be on
	// the same type of file system as the root.
	n.prob = 1.0
	var st unix.Stat_t
	switch {
	case unused:
		n.prob = 0
	case unix.Stat("/", &st) == nil:
		n.prob = 0.3
		if m.Type(uint64(st.Dev)) == typ {
			n.prob = 0.7
		}
	}
	p.push(n)
	return nil
}

// mountsReport reports once that the mount table (internal/mounts)
// could not be read.
var mountsReport sync.Once
