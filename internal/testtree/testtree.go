package testtree

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Epoch is the access and modification time given to every file the parts
// build.
var Epoch = time.Date(2021, time.March, 4, 5, 6, 7, 0, time.UTC)

// NobodyID is the user and group id AsNobody switches to (Debian's
// nobody and nogroup).
const NobodyID = 65534

// A Part is one fixture tree. Make builds it in the subdirectory Name of
// the root.
type Part struct {
	Name  string
	build func(t testing.TB, dir string) error
}

// Make returns a new directory holding the given parts, each in its own
// subdirectory (see Part.Name). It fails t if a part cannot be built.
// The directory and everything in it is removed when t ends.
func Make(t testing.TB, parts ...Part) string {
	t.Helper()
	root := t.TempDir()
	openPath(t, root)
	seen := map[string]bool{}
	for _, p := range parts {
		if seen[p.Name] {
			t.Fatalf("testtree: part %q given twice", p.Name)
		}
		seen[p.Name] = true
		if err := p.build(t, filepath.Join(root, p.Name)); err != nil {
			t.Fatalf("testtree: building %s: %v", p.Name, err)
		}
	}
	// Only the root itself: the parts set their own times, and a
	// recursive walk would fail on Deep and, for non-root users, on Perms.
	if err := utimeAt(unix.AT_FDCWD, root); err != nil {
		t.Fatalf("testtree: %v", err)
	}
	return root
}

// openPath adds search and read permission for group and others to dir and
// to its parents below os.TempDir (t.TempDir makes them 0700), and logs a
// note when a directory above that still keeps others out.
func openPath(t testing.TB, dir string) {
	t.Helper()
	tmp := filepath.Clean(os.TempDir())
	for d := dir; d != tmp && d != "/" && d != "."; d = filepath.Dir(d) {
		if !strings.HasPrefix(d, tmp+"/") {
			break
		}
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatalf("testtree: %v", err)
		}
	}
	for d := tmp; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o001 == 0 {
			t.Logf("testtree: %s is not searchable by others; AsNobody commands cannot reach %s (set TMPDIR)", d, dir)
		}
		if d == "/" || d == "." {
			break
		}
	}
}

// AsNobody makes cmd run as user and group NobodyID with no supplementary
// groups, so that permission cases can be tested by root (which bypasses
// EACCES) instead of being skipped. It does nothing when the test is not
// running as root, since only root may switch users and any other user is
// already subject to permission checks.
//
// The program cmd runs must be reachable and executable by nobody: a test
// binary under a 0700 temporary directory is not.
func AsNobody(cmd *exec.Cmd) {
	if os.Geteuid() != 0 {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{
		Uid:    NobodyID,
		Gid:    NobodyID,
		Groups: []uint32{}, // empty, not nil: setgroups(0) drops root's groups
	}
}

// Basic is an ordinary tree of directories and files:
//
//	basic/
//	  a/            dir
//	    b/          dir
//	      c/        dir
//	        deep.txt    1 byte
//	      b.txt     511 bytes
//	    a.txt       512 bytes
//	    A.TXT       513 bytes
//	  empty/        empty dir
//	  empty.txt     0 bytes
//	  noext         0 bytes
//	  k1023  k1024  k1025     files of 1023, 1024 and 1025 bytes
//	  big           1048577 bytes (1 MiB + 1)
//	  x.go  y.go    "package x\n" (10 bytes)
//	  exec.sh       mode 0755, "#!/bin/sh\n"
//	  hard          hard link to a/a.txt (both have 2 links)
//	  fifo          named pipe
//	  sock          Unix domain socket
//
// Regular files are 0644 and directories 0755 unless noted.
var Basic = Part{Name: "basic", build: buildBasic}

func buildBasic(t testing.TB, dir string) error {
	b := &builder{dir: dir}
	b.mkdir("")
	b.mkdir("a")
	b.mkdir("a/b")
	b.mkdir("a/b/c")
	b.file("a/b/c/deep.txt", 1)
	b.file("a/b/b.txt", 511)
	b.file("a/a.txt", 512)
	b.file("a/A.TXT", 513)
	b.mkdir("empty")
	b.file("empty.txt", 0)
	b.file("noext", 0)
	b.file("k1023", 1023)
	b.file("k1024", 1024)
	b.file("k1025", 1025)
	b.file("big", 1<<20+1)
	b.text("x.go", "package x\n", 0o644)
	b.text("y.go", "package x\n", 0o644)
	b.text("exec.sh", "#!/bin/sh\n", 0o755)
	b.do(func() error { return os.Link(b.path("a/a.txt"), b.path("hard")) })
	b.do(func() error { return unix.Mkfifo(b.path("fifo"), 0o644) })
	b.do(func() error { return mksock(b.path("sock")) })
	b.do(func() error { return setTime(dir) })
	return b.err
}

// mksock leaves a Unix domain socket at path. It binds through
// /proc/self/fd so that a long temporary path does not overflow sun_path.
func mksock(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	addr := fmt.Sprintf("/proc/self/fd/%d/%s", d.Fd(), filepath.Base(path))
	if len(path) < 100 {
		addr = path
	}
	return unix.Bind(fd, &unix.SockaddrUnix{Name: addr})
}

// Links holds symbolic links of every kind:
//
//	links/
//	  file            regular file, "data\n"
//	  dir/            dir
//	    inner.txt     regular file, "inner\n"
//	    up -> ..      link to an ancestor (a loop under -L)
//	  to_file -> file
//	  to_dir -> dir
//	  chain -> to_file    link to a link to a file
//	  dangling -> nowhere (does not exist)
//	  loop -> loop        ELOOP when followed
//	  a -> b              a two-link cycle
//	  b -> a
var Links = Part{Name: "links", build: buildLinks}

func buildLinks(t testing.TB, dir string) error {
	b := &builder{dir: dir}
	b.mkdir("")
	b.text("file", "data\n", 0o644)
	b.mkdir("dir")
	b.text("dir/inner.txt", "inner\n", 0o644)
	b.symlink("..", "dir/up")
	b.symlink("file", "to_file")
	b.symlink("dir", "to_dir")
	b.symlink("to_file", "chain")
	b.symlink("nowhere", "dangling")
	b.symlink("loop", "loop")
	b.symlink("b", "a")
	b.symlink("a", "b")
	b.do(func() error { return setTime(dir) })
	return b.err
}

// LongName is the 255-byte (NAME_MAX) file name in WeirdNames.
var LongName = strings.Repeat("n", 255)

// WeirdNameList lists the names of the empty regular files directly in
// weird/ (see WeirdNames).
var WeirdNameList = []string{
	"new\nline", "tab\there", "sp ace", "trailing ", "\xff", "esc\x1b[0m",
	"caf\xc3\xa9", "-name", "-", "(", ")", "!", ",", "back\\slash", "it's",
	`q"uote`, "{a,b}", "a", "b", "*", "?", "[a-", "[ab]", "a*b", "axb",
	"MiXeD.CaSe", ".hidden", LongName,
}

// WeirdNames holds names that break naive quoting, globbing and argument
// parsing:
//
//	weird/
//	  (each name in WeirdNameList, as an empty file: a newline, a tab,
//	   a space, a trailing space, the byte 0xff, an ESC sequence, UTF-8 "é",
//	   "-name", "-", "(", ")", "!", ",", a backslash, a single and a double
//	   quote, "{a,b}" with "a" and "b" beside it, "*", "?", "[a-", "[ab]",
//	   "a*b" with "axb" beside it, "MiXeD.CaSe", ".hidden", and a 255-byte
//	   name)
//	  .hiddendir/     dir
//	    inside        empty file
//	  sub dir/        dir
//	    nl\nfile      empty file whose name holds a newline
//	    -type         empty file
var WeirdNames = Part{Name: "weird", build: buildWeird}

func buildWeird(t testing.TB, dir string) error {
	b := &builder{dir: dir}
	b.mkdir("")
	for _, n := range WeirdNameList {
		b.file(n, 0)
	}
	b.mkdir(".hiddendir")
	b.file(".hiddendir/inside", 0)
	b.mkdir("sub dir")
	b.file("sub dir/nl\nfile", 0)
	b.file("sub dir/-type", 0)
	b.do(func() error { return setTime(dir) })
	return b.err
}

// DeepLevels and DeepNameLen shape Deep: DeepLevels nested directories
// whose names are DeepNameLen bytes long, 6100 bytes of path in all,
// well past PATH_MAX (4096).
const (
	DeepLevels  = 100
	DeepNameLen = 60
)

// DeepName returns the name of the directory at level i (1-based) of Deep.
func DeepName(i int) string {
	p := fmt.Sprintf("d%03d_", i)
	return p + strings.Repeat("x", DeepNameLen-len(p))
}

// Deep is a chain longer than PATH_MAX:
//
//	deep/
//	  d001_xxx…/      DeepLevels directories, one inside the other,
//	    d002_xxx…/    each name DeepNameLen bytes (see DeepName)
//	      …
//	        bottom.txt    empty file in the last directory
//
// It is made with mkdirat and openat, since no path to the bottom fits in
// PATH_MAX; os.RemoveAll (which t.TempDir's cleanup uses) works relative
// to descriptors too and removes it.
var Deep = Part{Name: "deep", build: buildDeep}

func buildDeep(t testing.TB, dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	err = deepLevel(fd, 1)
	unix.Close(fd)
	if err != nil {
		return err
	}
	return utimeAt(unix.AT_FDCWD, dir) // the levels have their times already
}

// deepLevel makes level i inside the directory open as fd, fills it, and
// then sets its times (after its contents, whose creation changes them).
func deepLevel(fd, i int) error {
	if i > DeepLevels {
		f, err := unix.Openat(fd, "bottom.txt", unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o644)
		if err != nil {
			return err
		}
		unix.Close(f)
		return utimeAt(fd, "bottom.txt")
	}
	name := DeepName(i)
	if err := unix.Mkdirat(fd, name, 0o755); err != nil {
		return fmt.Errorf("mkdirat level %d: %w", i, err)
	}
	sub, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("openat level %d: %w", i, err)
	}
	err = deepLevel(sub, i+1)
	unix.Close(sub)
	if err != nil {
		return err
	}
	return utimeAt(fd, name)
}

// Wide returns a part holding one directory with n empty files:
//
//	wide/
//	  f000000 … f(n-1)    names zero-padded to 6 digits
func Wide(n int) Part {
	return Part{Name: "wide", build: func(t testing.TB, dir string) error {
		b := &builder{dir: dir}
		b.mkdir("")
		for i := 0; i < n && b.err == nil; i++ {
			b.file(fmt.Sprintf("f%06d", i), 0)
		}
		b.do(func() error { return setTime(dir) })
		return b.err
	}}
}

// Perms holds files that an unprivileged user cannot fully read, all
// owned by root and meant to be walked through AsNobody:
//
//	perms/                0755
//	  open/               0755
//	    ok.txt            0644
//	    noread.txt        0000  (listed fine; -readable is false)
//	  noperm/             0000  (cannot be listed or entered)
//	    secret.txt        0644
//	  searchonly/         0311  (others may search but not list: names
//	    known.txt         0644   inside are reachable only if known)
//	  listonly/           0744  (others may list but not search: names are
//	    f.txt             0644   read, but lstat of each fails)
//
// The search-only directory is 0311 rather than 0300: its owner is root,
// so the owner bits do not apply to nobody. A cleanup restores 0755 on
// the directories so that removal works for an unprivileged test user.
var Perms = Part{Name: "perms", build: buildPerms}

func buildPerms(t testing.TB, dir string) error {
	b := &builder{dir: dir}
	b.mkdir("")
	b.mkdir("open")
	b.text("open/ok.txt", "ok\n", 0o644)
	b.text("open/noread.txt", "no\n", 0o644)
	b.mkdir("noperm")
	b.text("noperm/secret.txt", "secret\n", 0o644)
	b.mkdir("searchonly")
	b.text("searchonly/known.txt", "known\n", 0o644)
	b.mkdir("listonly")
	b.text("listonly/f.txt", "f\n", 0o644)
	b.do(func() error { return setTime(dir) })
	modes := []struct {
		name string
		mode os.FileMode
	}{
		{"open/noread.txt", 0},
		{"noperm", 0},
		{"searchonly", 0o311},
		{"listonly", 0o744},
	}
	for _, m := range modes {
		b.do(func() error { return os.Chmod(b.path(m.name), m.mode) })
	}
	t.Cleanup(func() {
		for _, d := range []string{"noperm", "searchonly", "listonly"} {
			os.Chmod(b.path(d), 0o755)
		}
	})
	return b.err
}

// A builder makes files under dir and keeps the first error.
type builder struct {
	dir string
	err error
}

func (b *builder) path(name string) string { return filepath.Join(b.dir, name) }

func (b *builder) do(f func() error) {
	if b.err == nil {
		b.err = f()
	}
}

func (b *builder) mkdir(name string) {
	b.do(func() error { return os.Mkdir(b.path(name), 0o755) })
}

// file writes size bytes of a repeating pattern to name, mode 0644.
func (b *builder) file(name string, size int) {
	data := make([]byte, size)
	for i := range data {
		data[i] = "0123456789abcdef"[i%16]
	}
	b.write(name, data, 0o644)
}

func (b *builder) text(name, s string, mode os.FileMode) {
	b.write(name, []byte(s), mode)
}

func (b *builder) write(name string, data []byte, mode os.FileMode) {
	b.do(func() error {
		if err := os.WriteFile(b.path(name), data, mode); err != nil {
			return err
		}
		return os.Chmod(b.path(name), mode) // not subject to the umask
	})
}

func (b *builder) symlink(target, name string) {
	b.do(func() error { return os.Symlink(target, b.path(name)) })
}

// setTime gives path and, if it is a directory, everything below it the
// time Epoch, children first, since creating or touching a child changes
// its directory's times. Symbolic links get the time themselves; their
// targets are not touched.
func setTime(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		ents, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if err := setTime(filepath.Join(path, e.Name())); err != nil {
				return err
			}
		}
	}
	return utimeAt(unix.AT_FDCWD, path)
}

func utimeAt(dirfd int, name string) error {
	ts := unix.NsecToTimespec(Epoch.UnixNano())
	err := unix.UtimesNanoAt(dirfd, name, []unix.Timespec{ts, ts}, unix.AT_SYMLINK_NOFOLLOW)
	if err != nil {
		return &os.PathError{Op: "utimensat", Path: name, Err: err}
	}
	return nil
}
