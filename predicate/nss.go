package predicate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// nameService answers what /etc/passwd and /etc/group do not know: the
// system's other account sources (LDAP, SSSD, systemd's users...) as the
// C library's NSS configuration names them, which is where GNU find's
// getpwuid and getpwnam look. Workers may call it at the same time;
// idDB asks it each question at most once.
//
// Which one a build uses is systemNameService's choice (nss_cgo.go,
// nss_static.go): os/user where it goes through the C library, getent(1)
// where os/user only reads the files.
type nameService interface {
	userName(uid uint32) (string, bool)
	groupName(gid uint32) (string, bool)
	userID(name string) (uint32, bool)
	groupID(name string) (uint32, bool)
}

// getentNS asks getent(1): one process per question, which resolves it
// through NSS as the C library would in gfind's place. Any failure
// (no getent, an exit status other than 0, output that is not an entry)
// is "unknown", as a NULL from getpwuid is for GNU find.
type getentNS struct {
	// path returns getent's absolute path, or "" when there is none.
	path func() string
}

func newGetentNS() getentNS { return getentNS{path: getentPath} }

func (g getentNS) userName(uid uint32) (string, bool) {
	return g.byID("passwd", uid)
}

func (g getentNS) groupName(gid uint32) (string, bool) {
	return g.byID("group", gid)
}

func (g getentNS) userID(name string) (uint32, bool) {
	return g.byName("passwd", name)
}

func (g getentNS) groupID(name string) (uint32, bool) {
	return g.byName("group", name)
}

func (g getentNS) byID(db string, id uint32) (string, bool) {
	name, got, ok := g.query(db, strconv.FormatUint(uint64(id), 10))
	if !ok || got != id {
		return "", false
	}
	return name, true
}

func (g getentNS) byName(db, name string) (uint32, bool) {
	// getent looks a key up by id when strtoul takes all of it, so a
	// name such as "007" or "+1" would come back as uid 7 or 1: such a
	// name cannot be asked for through getent, and is unknown here (GNU
	// find, with getpwnam, could find an NSS user of that name; useradd
	// refuses such names by default).
	if name == "" || getentNumeric(name) {
		return 0, false
	}
	// The id of whatever entry NSS gives for the name: like getpwnam, a
	// source may canonicalize the name (case-insensitive SSSD domains).
	_, id, ok := g.query(db, name)
	return id, ok
}

// getentNumeric reports whether glibc's getent takes key as a number:
// strtoul consumes it whole, that is C-locale blanks, an optional sign,
// then at least one digit and nothing else.
func getentNumeric(key string) bool {
	key = strings.TrimLeft(key, " \t\n\v\f\r")
	if key != "" && (key[0] == '+' || key[0] == '-') {
		key = key[1:]
	}
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return false
		}
	}
	return true
}

// query runs "getent DB -- KEY" and returns the name and id (third
// field) of the entry it prints. The argument vector is fixed but for
// KEY, which is a uid or gid in decimal or a name from the command line;
// "--" keeps a name that starts with '-' from being read as an option.
// The environment is gfind's, as the C library in GNU find's process
// would see it; stdin and stderr are /dev/null.
func (g getentNS) query(db, key string) (string, uint32, bool) {
	path := g.path()
	if path == "" {
		return "", 0, false
	}
	out := &headWriter{max: 4096}
	cmd := &exec.Cmd{Path: path, Args: []string{"getent", db, "--", key}, Stdout: out}
	if err := cmd.Run(); err != nil {
		return "", 0, false
	}
	line, _, _ := strings.Cut(string(out.b), "\n")
	// name:password:id:... for both databases. Requiring the fourth
	// field means the id was not cut short by headWriter.
	f := strings.SplitN(line, ":", 4)
	if len(f) < 4 || f[0] == "" {
		return "", 0, false
	}
	id, err := strconv.ParseUint(f[2], 10, 32)
	if err != nil {
		return "", 0, false
	}
	return f[0], uint32(id), true
}

// headWriter keeps the first max bytes written to it and drops the rest
// (a group line can list thousands of members; only the first three
// fields matter), while reading everything so that getent does not die
// of SIGPIPE.
type headWriter struct {
	b   []byte
	max int
}

func (w *headWriter) Write(p []byte) (int, error) {
	if room := w.max - len(w.b); room > 0 {
		w.b = append(w.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// getentDirs are where C libraries install getent. They are tried before
// PATH so that a PATH entry cannot stand in for the system's program;
// PATH is the fallback for systems that keep it elsewhere (NixOS).
var getentDirs = []string{"/usr/bin", "/bin", "/usr/sbin", "/sbin"}

// getentPath finds getent once per process: its absolute path, or "".
var getentPath = sync.OnceValue(func() string {
	for _, dir := range getentDirs {
		p := filepath.Join(dir, "getent")
		if isExecutable(p) {
			return p
		}
	}
	if p, err := exec.LookPath("getent"); err == nil && filepath.IsAbs(p) {
		return p
	}
	return ""
})

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
