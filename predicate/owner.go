package predicate

import (
	"github.com/gfind/gfind/internal/accounts"
	"github.com/gfind/gfind/internal/cnum"
	"github.com/gfind/gfind/walker"
)

// ownerNode is -user NAME|UID and -group NAME|GID: the file's owner (or
// group) is the one named, looked up once at parse time.
type ownerNode struct {
	op, arg string
	id      uint32
	group   bool
}

func (n *ownerNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	if n.group {
		return st.Gid == n.id
	}
	return st.Uid == n.id
}

func (n *ownerNode) Facts() Facts {
	return Facts{Cost: costStat, Prob: idProb(uint64(n.id))}
}

// idProb is GNU's est_success_rate for -user, -group, -uid and -gid
// (parser.c): ids below 100 belong to the system, which owns most files.
func idProb(id uint64) float64 {
	if id < 100 {
		return 0.99
	}
	return 0.2
}

func (n *ownerNode) Args() []string { return []string{n.op, n.arg} }

// idNumNode is -uid [+-]N and -gid [+-]N.
type idNumNode struct {
	op, arg string
	num     numArg
	group   bool
}

func (n *idNumNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	if n.group {
		return n.num.match(uint64(st.Gid))
	}
	return n.num.match(uint64(st.Uid))
}

func (n *idNumNode) Facts() Facts {
	return Facts{Cost: costStat, Prob: idProb(n.num.n)}
}

func (n *idNumNode) Args() []string { return []string{n.op, n.arg} }

// noOwnerNode is -nouser and -nogroup: no user (group) in the account
// database has the file's owner (group) id.
type noOwnerNode struct {
	group bool
	db    *accounts.DB
}

func (n *noOwnerNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	if n.group {
		_, known := n.db.Group(st.Gid)
		return !known
	}
	_, known := n.db.User(st.Uid)
	return !known
}

func (n *noOwnerNode) Facts() Facts {
	// GNU's est_success_rate (parser.c): 1e-3 for -nouser, 1e-4 for
	// -nogroup.
	p := 1e-3
	if n.group {
		p = 1e-4
	}
	return Facts{Cost: costStat, Prob: p}
}

func (n *noOwnerNode) Args() []string {
	if n.group {
		return []string{"-nogroup"}
	}
	return []string{"-nouser"}
}

func parseUser(p *parser, op string, v variant) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	group := v&ofGroup != 0
	db := systemIDs()
	idOf := db.UID
	if group {
		idOf = db.GID
	}
	if arg != "" { // the empty name is nobody's
		if id, ok := idOf(arg); ok {
			p.push(&ownerNode{op: op, arg: arg, id: id, group: group})
			return nil
		}
	}
	// Not a name: a number, as GNU 4.10 takes it (xstrtoumax, then a
	// check against UID_T_MAX or GID_T_MAX, both 2^32-1 on Linux). 4.9
	// used safe_atoi, which stopped at INT_MAX, and had a message for
	// each way a name could fail; 4.10 has one.
	id, ok := cnum.Strtoumax(arg)
	if !ok || id > 1<<32-1 {
		if group {
			return p.errorf("invalid group name or GID argument to -group: %s", p.quote(arg))
		}
		return p.errorf("invalid user name or UID argument to -user: %s", p.quote(arg))
	}
	p.push(&ownerNode{op: op, arg: arg, id: uint32(id), group: group})
	return nil
}

func parseUID(p *parser, op string, v variant) error {
	num, arg, err := p.numArg(op)
	if err != nil {
		return err
	}
	p.push(&idNumNode{op: op, arg: arg, num: num, group: v&ofGroup != 0})
	return nil
}

func parseNouser(p *parser, op string, v variant) error {
	p.push(&noOwnerNode{group: v&ofGroup != 0, db: systemIDs()})
	return nil
}

// systemIDs is the account database (internal/accounts); tests put
// their own in its place.
var systemIDs = accounts.System
