package accounts

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A NameService answers what /etc/passwd and /etc/group do not know: the
// system's other account sources (LDAP, SSSD, systemd's users...) as the
// C library's NSS configuration names them, which is where GNU find's
// getpwuid and getpwnam look. Workers may call it at the same time;
// DB asks it each question at most once.
//
// Which one a build uses is systemNameService's choice (ns_libc.go,
// ns_getent.go): os/user where it goes through the C library, getent(1)
// where os/user only reads the files.
type NameService interface {
	UserName(uid uint32) (string, bool)
	GroupName(gid uint32) (string, bool)
	UserID(name string) (uint32, bool)
	GroupID(name string) (uint32, bool)
}

// getentNS asks getent(1): one process per question, which resolves it
// through NSS as the C library would in gfind's place. Any failure
// (no getent, an exit status other than 0, output that is not an entry)
// is "unknown", as a NULL from getpwuid is for GNU find.
//
// A run that outlasts the time limit is killed, reported (SetReport),
// and unknown too: getent hangs when an NSS module does (an LDAP server
// that accepts connections but never answers, with no time limit of
// its own), where GNU find would hang in getpwnam for ever. The name
// service is not asked again for the rest of the run: every further
// question would wait as long.
type getentNS struct {
	// path returns getent's absolute path, or "" when there is none.
	path func() string
	// timeout limits each run; 0 means getentTimeout.
	timeout time.Duration
	// hung is set once a run timed out (shared by the copies of a
	// getentNS).
	hung *atomic.Bool
	// report, when set, is told about the run that timed out, in place
	// of SetReport's function (tests).
	report func(db, key string, limit time.Duration)
}

// getentTimeout is how long one getent run may take: a name service
// that works answers in milliseconds, one that reaches a remote server
// in well under a second; LDAP and SSSD clients give up on a server by
// themselves within a few seconds when they are configured to. Ten
// seconds tells a hang from a slow answer without making a user wait
// long for the diagnostic.
const getentTimeout = 10 * time.Second

// getentKillDelay is how long, once a timed-out getent is killed, its
// output pipe may stay open (held by a child of a module) before gfind
// stops reading it.
const getentKillDelay = time.Second

// report is where getentNS reports a run that timed out: SetReport's
// function. Nil: nowhere.
var report atomic.Pointer[func(db, key string, limit time.Duration)]

// SetReport makes f the function told about a getent run that timed
// out, for the rest of the process or until the next SetReport (the
// database is the process's, and so is this): the database ("passwd"
// or "group"), the key asked for and the time limit. HangMessage words
// it.
func SetReport(f func(db, key string, limit time.Duration)) { report.Store(&f) }

// Getent is the name service of getent(1) at path, each run limited to
// timeout (0: ten seconds), as the static build asks it.
func Getent(path string, timeout time.Duration) NameService {
	return getentNS{path: func() string { return path }, timeout: timeout, hung: new(atomic.Bool)}
}

func newGetentNS() getentNS { return getentNS{path: getentPath, hung: new(atomic.Bool)} }

func (g getentNS) UserName(uid uint32) (string, bool) {
	return g.byID("passwd", uid)
}

func (g getentNS) GroupName(gid uint32) (string, bool) {
	return g.byID("group", gid)
}

func (g getentNS) UserID(name string) (uint32, bool) {
	return g.byName("passwd", name)
}

func (g getentNS) GroupID(name string) (uint32, bool) {
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
	if path == "" || g.hung != nil && g.hung.Load() {
		return "", 0, false
	}
	limit := g.timeout
	if limit <= 0 {
		limit = getentTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	out := &headWriter{max: 4096}
	cmd := exec.CommandContext(ctx, path)
	cmd.Args = []string{"getent", db, "--", key}
	cmd.Stdout = out
	cmd.WaitDelay = getentKillDelay
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			g.timedOut(db, key, limit)
		}
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

// timedOut records that a run timed out and reports it, once per
// getentNS (a question asked at the same time by another worker may
// time out too).
func (g getentNS) timedOut(db, key string, limit time.Duration) {
	if g.hung != nil && g.hung.Swap(true) {
		return
	}
	tell := g.report
	if tell == nil {
		if f := report.Load(); f != nil {
			tell = *f
		}
	}
	if tell != nil {
		tell(db, key, limit)
	}
}

// HangMessage is the diagnostic about a getent run that timed out, in
// GNU's style: what was asked, with key quoted by quote, and what
// follows.
func HangMessage(db, key string, limit time.Duration, quote func(string) string) string {
	return fmt.Sprintf("getent %s %s did not answer within %v: taken as unknown, and the name service is not asked again", db, quote(key), limit)
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
