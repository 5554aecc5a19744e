//go:build (cgo || darwin) && !osusergo

package accounts

import (
	"os/user"
	"strconv"
)

// systemNameService is os/user in a cgo build, and on macOS in any
// build (there os/user reaches libSystem without cgo): it calls the C
// library's getpwuid_r, getpwnam_r, getgrgid_r and getgrnam_r in
// process, through NSS (macOS: Directory Services) exactly as GNU find
// does. macOS has no getent(1) to fall back on. That costs no process
// per question (the static build's getent is a fork and an exec per
// question, which a tree owned by thousands of directory users would
// feel), and names made of digits are looked up as names, which getent
// cannot do.
func systemNameService() NameService { return osUserNS{} }

// osUserNS answers through os/user; any error (not found, or a failing
// source) is "unknown", as a NULL from getpwuid is for GNU find.
type osUserNS struct{}

func (osUserNS) UserName(uid uint32) (string, bool) {
	u, err := user.LookupId(strconv.FormatUint(uint64(uid), 10))
	if err != nil {
		return "", false
	}
	return u.Username, true
}

func (osUserNS) GroupName(gid uint32) (string, bool) {
	g, err := user.LookupGroupId(strconv.FormatUint(uint64(gid), 10))
	if err != nil {
		return "", false
	}
	return g.Name, true
}

func (osUserNS) UserID(name string) (uint32, bool) {
	u, err := user.Lookup(name)
	if err != nil {
		return 0, false
	}
	return parseID(u.Uid)
}

func (osUserNS) GroupID(name string) (uint32, bool) {
	g, err := user.LookupGroup(name)
	if err != nil {
		return 0, false
	}
	return parseID(g.Gid)
}

func parseID(s string) (uint32, bool) {
	id, err := strconv.ParseUint(s, 10, 32)
	return uint32(id), err == nil
}
