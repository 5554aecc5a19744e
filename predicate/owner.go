package predicate

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"sync"

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
	return Facts{Needs: NeedLstat | NeedStat, Cost: costStat, Prob: idProb(uint64(n.id))}
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
	return Facts{Needs: NeedLstat | NeedStat, Cost: costStat, Prob: idProb(n.num.n)}
}

func (n *idNumNode) Args() []string { return []string{n.op, n.arg} }

// noOwnerNode is -nouser and -nogroup: no user (group) in the account
// database has the file's owner (group) id.
type noOwnerNode struct {
	group bool
	db    *idDB
}

func (n *noOwnerNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	if n.group {
		_, known := n.db.group(st.Gid)
		return !known
	}
	_, known := n.db.user(st.Uid)
	return !known
}

func (n *noOwnerNode) Facts() Facts {
	// GNU's est_success_rate (parser.c): 1e-3 for -nouser, 1e-4 for
	// -nogroup.
	p := 1e-3
	if n.group {
		p = 1e-4
	}
	return Facts{Needs: NeedLstat | NeedStat, Cost: costStat, Prob: p}
}

func (n *noOwnerNode) Args() []string {
	if n.group {
		return []string{"-nogroup"}
	}
	return []string{"-nouser"}
}

func parseUser(p *parser, op string) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	group := op == "-group"
	db := systemIDs()
	lookup := db.uid
	if group {
		lookup = db.gid
	}
	if arg != "" { // the empty name is nobody's
		if id, ok := lookup(arg); ok {
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

func parseUID(p *parser, op string) error {
	num, arg, err := p.numArg(op)
	if err != nil {
		return err
	}
	p.push(&idNumNode{op: op, arg: arg, num: num, group: op == "-gid"})
	return nil
}

func parseNouser(p *parser, op string) error {
	p.push(&noOwnerNode{group: op == "-nogroup", db: systemIDs()})
	return nil
}

// idDB is what gfind knows of the account database. The names and ids
// in /etc/passwd and /etc/group are read once into maps that are
// read-only after loading, so workers share them without a lock: that
// is the fast path, and the answer for nearly every file. A name or id
// the files do not know goes to the system's name service (ns: LDAP,
// SSSD, systemd... through NSS), once per distinct key, and the answer,
// known or not, is cached.
type idDB struct {
	users, groups map[string]uint32 // the first line of a name wins, as getpwnam
	// uids and gids give every id that has a name its first name, as
	// getpwuid and getgrgid answer from the files (for -nouser, %u, -ls).
	uids, gids map[uint32]string

	ns nameService // nil: the files only
	// The name service's answers, negative ones too.
	nsUids, nsGids    onceCache[uint32, string]
	nsUsers, nsGroups onceCache[string, uint32]
}

var (
	idsOnce sync.Once
	ids     *idDB
)

// Files the account database is read from; tests may point them
// elsewhere before the first parse that needs them.
var (
	passwdFile = "/etc/passwd"
	groupFile  = "/etc/group"
)

// systemIDs returns the database, reading it on first use. A file that
// cannot be read counts as empty: GNU then finds no names there either.
func systemIDs() *idDB {
	idsOnce.Do(func() {
		ids = loadIDs(passwdFile, groupFile)
		ids.ns = systemNameService()
	})
	return ids
}

func loadIDs(passwd, group string) *idDB {
	db := &idDB{}
	db.users, db.uids = readIDFile(passwd)
	db.groups, db.gids = readIDFile(group)
	return db
}

// readIDFile reads a passwd or group file: name:password:id:..., where
// the third field is the uid or the gid. Like glibc's files backend it
// skips leading blanks, empty lines and '#' comments, and lines whose
// id is not a number.
func readIDFile(path string) (map[string]uint32, map[uint32]string) {
	names := map[string]uint32{}
	byID := map[uint32]string{}
	data, err := os.ReadFile(path)
	if err != nil {
		return names, byID
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		name, id, ok := parseIDLine(sc.Bytes())
		if !ok {
			continue
		}
		if _, dup := names[name]; !dup {
			names[name] = id
		}
		if _, dup := byID[id]; !dup {
			byID[id] = name
		}
	}
	return names, byID
}

func parseIDLine(line []byte) (string, uint32, bool) {
	line = bytes.TrimLeft(line, " \t\v\f\r")
	if len(line) == 0 || line[0] == '#' {
		return "", 0, false
	}
	f := bytes.SplitN(line, []byte{':'}, 4)
	if len(f) < 3 || len(f[0]) == 0 {
		return "", 0, false
	}
	id, err := strconv.ParseUint(string(f[2]), 10, 32)
	if err != nil {
		return "", 0, false
	}
	return string(f[0]), uint32(id), true
}

// user returns the name of uid, as getpwuid(3) answers.
func (db *idDB) user(uid uint32) (string, bool) {
	if n, ok := db.uids[uid]; ok {
		return n, true
	}
	if db.ns == nil {
		return "", false
	}
	return db.nsUids.get(uid, db.ns.userName)
}

// group returns the name of gid, as getgrgid(3) answers.
func (db *idDB) group(gid uint32) (string, bool) {
	if n, ok := db.gids[gid]; ok {
		return n, true
	}
	if db.ns == nil {
		return "", false
	}
	return db.nsGids.get(gid, db.ns.groupName)
}

// uid returns the uid of the user name, as getpwnam(3) answers.
func (db *idDB) uid(name string) (uint32, bool) {
	if id, ok := db.users[name]; ok {
		return id, true
	}
	if db.ns == nil {
		return 0, false
	}
	return db.nsUsers.get(name, db.ns.userID)
}

// gid returns the gid of the group name, as getgrnam(3) answers.
func (db *idDB) gid(name string) (uint32, bool) {
	if id, ok := db.groups[name]; ok {
		return id, true
	}
	if db.ns == nil {
		return 0, false
	}
	return db.nsGroups.get(name, db.ns.groupID)
}

// onceCache holds the answer of a lookup per key. Each key is looked up
// once, also when several workers ask for it at the same moment (the
// others wait for the first one's answer); a failed lookup is kept as
// well, so that a tree full of files of an id nobody knows costs one
// lookup, not one per file. The zero value is empty and ready.
type onceCache[K comparable, V any] struct {
	m sync.Map // K -> *onceAnswer[V]
}

type onceAnswer[V any] struct {
	once sync.Once
	v    V
	ok   bool
}

func (c *onceCache[K, V]) get(key K, look func(K) (V, bool)) (V, bool) {
	a, ok := c.m.Load(key)
	if !ok {
		a, _ = c.m.LoadOrStore(key, new(onceAnswer[V]))
	}
	ans := a.(*onceAnswer[V])
	ans.once.Do(func() { ans.v, ans.ok = look(key) })
	return ans.v, ans.ok
}
