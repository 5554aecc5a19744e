package predicate

import (
	"github.com/gfind/gfind/internal/meta"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// accessNode is -readable, -writable and -executable: whether the real
// user may read, write or execute (search) the file, as faccessat(2)
// answers relative to the parent directory. Like GNU's pred_readable it
// always follows a symbolic link, whatever -P/-L say, so a link to a
// readable file is readable and a dangling link is nothing. It needs no
// status and reports no error: a failing check is just false.
type accessNode struct {
	op   string
	mode uint32 // unix.R_OK, W_OK or X_OK
}

func (n *accessNode) Eval(e *walker.Entry, _ *State) bool {
	return meta.Access(metaFile(e), n.mode) == nil
}

func (n *accessNode) Facts() Facts {
	// GNU's est_success_rate (parser.c): 0.2 for -executable, 0.9 for
	// the others. The check is a system call, as dear as a stat.
	p := 0.9
	if n.mode == unix.X_OK {
		p = 0.2
	}
	return Facts{Cost: costStat, Prob: p}
}

func (n *accessNode) Args() []string { return []string{n.op} }

func parseAccess(p *parser, op string, v variant) error {
	p.push(&accessNode{op: op, mode: uint32(v)})
	return nil
}
