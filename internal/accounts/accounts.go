package accounts

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"sync"
)

// A DB is what gfind knows of the account database. The names and ids
// in /etc/passwd and /etc/group are read once into maps that are
// read-only after loading, so workers share them without a lock: that
// is the fast path, and the answer for nearly every file. A name or id
// the files do not know goes to the system's name service (ns: LDAP,
// SSSD, systemd... through NSS), once per distinct key, and the answer,
// known or not, is cached.
type DB struct {
	users, groups map[string]uint32 // the first line of a name wins, as getpwnam
	// uids and gids give every id that has a name its first name, as
	// getpwuid and getgrgid answer from the files (for -nouser, %u, -ls).
	uids, gids map[uint32]string

	ns NameService // nil: the files only
	// The name service's answers, negative ones too.
	nsUids, nsGids    onceCache[uint32, string]
	nsUsers, nsGroups onceCache[string, uint32]
}

// System returns the system's database: /etc/passwd and /etc/group,
// read on first use, with the system's name service behind them
// (ns_libc.go, ns_getent.go). A file that cannot be read counts as
// empty: GNU then finds no names there either.
var System = sync.OnceValue(func() *DB {
	return Load("/etc/passwd", "/etc/group", systemNameService())
})

// Load reads a database from the passwd and group files given, with ns
// (nil: none) asked what they do not know.
func Load(passwd, group string, ns NameService) *DB {
	db := &DB{ns: ns}
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

// User returns the name of uid, as getpwuid(3) answers.
func (db *DB) User(uid uint32) (string, bool) {
	if n, ok := db.uids[uid]; ok {
		return n, true
	}
	if db.ns == nil {
		return "", false
	}
	return db.nsUids.get(uid, db.ns.UserName)
}

// Group returns the name of gid, as getgrgid(3) answers.
func (db *DB) Group(gid uint32) (string, bool) {
	if n, ok := db.gids[gid]; ok {
		return n, true
	}
	if db.ns == nil {
		return "", false
	}
	return db.nsGids.get(gid, db.ns.GroupName)
}

// UID returns the uid of the user name, as getpwnam(3) answers.
func (db *DB) UID(name string) (uint32, bool) {
	if id, ok := db.users[name]; ok {
		return id, true
	}
	if db.ns == nil {
		return 0, false
	}
	return db.nsUsers.get(name, db.ns.UserID)
}

// GID returns the gid of the group name, as getgrnam(3) answers.
func (db *DB) GID(name string) (uint32, bool) {
	if id, ok := db.groups[name]; ok {
		return id, true
	}
	if db.ns == nil {
		return 0, false
	}
	return db.nsGroups.get(name, db.ns.GroupID)
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
