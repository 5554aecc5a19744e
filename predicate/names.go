package predicate

import (
	"bufio"
	"bytes"
	"os"
	"sync"
)

// idNames maps user and group ids to names, for -printf's %u and %g and
// for -ls: what getpwuid(3) and getgrgid(3) answer from /etc/passwd and
// /etc/group (the first line with an id wins, as in glibc's files
// backend). Like owner.go's idDB it reads only the files, not other NSS
// sources. It is read once and then shared, read-only, by all workers;
// GNU's -ls caches the same way (gnulib idcache), and its %u asks
// getpwuid each time, which gives the same answers while the files do
// not change.
type idNames struct {
	users, groups map[uint32]string
}

var (
	namesOnce sync.Once
	names     *idNames
)

// systemNames returns the id-to-name tables, reading them on first use.
func systemNames() *idNames {
	namesOnce.Do(func() {
		names = &idNames{users: readNameFile(passwdFile), groups: readNameFile(groupFile)}
	})
	return names
}

func (db *idNames) user(uid uint32) (string, bool) {
	n, ok := db.users[uid]
	return n, ok
}

func (db *idNames) group(gid uint32) (string, bool) {
	n, ok := db.groups[gid]
	return n, ok
}

// readNameFile reads a passwd or group file into id -> name, keeping the
// first name of each id. A file that cannot be read gives no names.
func readNameFile(path string) map[uint32]string {
	byID := map[uint32]string{}
	data, err := os.ReadFile(path)
	if err != nil {
		return byID
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		name, id, ok := parseIDLine(sc.Bytes())
		if !ok {
			continue
		}
		if _, dup := byID[id]; !dup {
			byID[id] = name
		}
	}
	return byID
}
