package gitignore

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// A Repo is one work tree: its root, and the ignore files that hold for
// all of it, which are read the first time a path needs them. The
// directories outside any work tree have a Repo too, which is not work
// and ignores nothing: its root is where their paths start.
type Repo struct {
	root string // absolute
	work bool
	once sync.Once
	// global is info/exclude's list, then core.excludesFile's: git
	// asks them in that order, after the .gitignore files.
	global []List
	// tracked are the files in the index that the rules ignore (true),
	// and the directories that hold them (false): git ignores neither.
	// Read when a path the rules ignore first needs it.
	trackedOnce sync.Once
	tracked     map[string]bool
}

// A Dir is a directory as the rules see it (see the package doc). It
// keeps only what the rules need: its path relative to its Repo's root,
// from which a nested work tree's root is found.
type Dir struct {
	repo   *Repo
	parent *Dir   // nil at the Repo's root
	rel    string // relative to the Repo's root: "" or "a/b/"
	rules  *List  // its .gitignore's, or nil
	// ignored: git ignores the directory, and so everything below it.
	ignored bool
}

// An FS reads a directory's files for Child: by the descriptor of the
// directory, or by its path.
type FS interface {
	// ReadIgnore returns the contents of the directory's .gitignore:
	// nil (and no error) when there is none; a .gitignore that is a
	// symbolic link is not followed (git refuses it) and reads as none.
	ReadIgnore() ([]byte, error)
	// HasGit reports whether the directory holds a ".git" (a directory
	// or a file): it is the root of a work tree of its own.
	HasGit() bool
}

// Ignored reports whether git ignores the file name in d (a directory
// if isDir). scratch is a buffer the caller keeps (one per goroutine)
// to build the file's path in. errs receives the failures to read the
// work tree's info/exclude and core.excludesFile, the first time they
// are read.
//
// A file in the index is not ignored, whatever the rules say, nor is a
// directory that holds one, as in git; the rules still ignore the other
// files below such a directory.
func (d *Dir) Ignored(name []byte, isDir bool, scratch *[]byte, errs func(error)) bool {
	if d == nil || !d.repo.work {
		return false
	}
	b := append(append((*scratch)[:0], d.rel...), name...)
	*scratch = b
	// The path as a string without a copy: it does not outlive the
	// call, and b is not written to meanwhile.
	path := unsafeString(b)
	return d.match(path, len(d.rel), isDir, errs) && !d.repo.isTracked(path, isDir)
}

// match reports whether the rules ignore path, a file in d whose name
// starts at nameOff: d is ignored, or the last matching pattern of the
// deepest list that has one ignores it.
func (d *Dir) match(path string, nameOff int, isDir bool, errs func(error)) bool {
	if d.ignored {
		return true
	}
	for x := d; x != nil; x = x.parent {
		if x.rules == nil {
			continue
		}
		if m, ign := x.rules.match(path, nameOff, isDir); m {
			return ign
		}
	}
	global := d.repo.globals(errs)
	for i := range global {
		if m, ign := global[i].match(path, nameOff, isDir); m {
			return ign
		}
	}
	return false
}

// Child returns the Dir of the subdirectory name of d, whose files fs
// reads: ignored if d's rules ignore it (its .gitignore is then not
// read), the root of a work tree of its own if it holds ".git", and
// outside any work tree if d is. err is the failure to read its
// .gitignore, which is then taken to be empty, as git does.
func (d *Dir) Child(name string, fsys FS, scratch *[]byte, errs func(error)) (c *Dir, err error) {
	c = &Dir{repo: d.repo, parent: d, rel: d.rel + name + "/"}
	if d.repo.work && d.match(c.rel[:len(c.rel)-1], len(d.rel), true, errs) {
		// Even if it holds tracked files: git reads no .gitignore
		// below a directory its rules ignore.
		c.ignored = true
		return c, nil
	}
	if fsys.HasGit() {
		// A nested work tree: git sees it as one untracked directory
		// (ignored or not, as just decided) and its files with its own
		// rules, as "git -C name" would.
		c = &Dir{repo: &Repo{root: filepath.Join(d.repo.root, c.rel), work: true}}
	} else if !d.repo.work {
		return c, nil
	}
	data, err := fsys.ReadIgnore()
	if len(data) > 0 {
		l := Parse(data, c.rel)
		c.rules = &l
	}
	return c, err
}

// Start returns the Dir of the directory that holds the file at path (a
// starting point), and the file's name in it. The work tree is found as
// git finds it: from the physical directory of path up, the first that
// holds ".git"; the .gitignore files from its root down are read by
// path, and report their failures to errs. Outside a work tree, the Dir
// ignores nothing. For "/", which no directory holds, the name is "" in
// a Dir outside any work tree, whose Child "" is "/".
func Start(path string, scratch *[]byte, errs func(error)) (*Dir, string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return &Dir{repo: &Repo{root: "/"}}, path
	}
	parent, name := filepath.Split(abs)
	if name == "" {
		return &Dir{repo: &Repo{root: "/"}}, ""
	}
	if p, err := filepath.EvalSymlinks(parent); err == nil {
		parent = p
	}
	parent = filepath.Clean(parent)
	root := parent
	for !exists(filepath.Join(root, ".git")) {
		up := filepath.Dir(root)
		if up == root {
			return &Dir{repo: &Repo{root: parent}}, name
		}
		root = up
	}
	d := &Dir{repo: &Repo{root: root, work: true}}
	if data, err := ReadPath(filepath.Join(root, ".gitignore")); err != nil {
		errs(err)
	} else if len(data) > 0 {
		l := Parse(data, "")
		d.rules = &l
	}
	if root == parent {
		return d, name
	}
	at := root
	for _, n := range strings.Split(strings.TrimPrefix(parent, strings.TrimSuffix(root, "/")+"/"), "/") {
		at = filepath.Join(at, n)
		c, err := d.Child(n, pathFS(at), scratch, errs)
		if err != nil {
			errs(err)
		}
		d = c
	}
	return d, name
}

// pathFS is an FS that reads a directory by its path.
type pathFS string

func (p pathFS) ReadIgnore() ([]byte, error) {
	return ReadPath(filepath.Join(string(p), ".gitignore"))
}
func (p pathFS) HasGit() bool { return exists(filepath.Join(string(p), ".git")) }

// exists reports whether a file is at path (not following a final
// link).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// ignorable reports whether a failure to open an ignore file means
// there is none: git is silent about these (warn_on_fopen_errors).
func ignorable(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// unsafeString returns b as a string without copying: the caller must
// not change b while the string is in use.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// globals reads the work tree's info/exclude and core.excludesFile once,
// and returns their lists; the failures go to the errs of the first
// call, the one that reads them.
func (r *Repo) globals(errs func(error)) []List {
	r.once.Do(func() {
		if data, err := readFollow(filepath.Join(commonDir(r.root), "info", "exclude")); err != nil {
			errs(err)
		} else {
			r.global = append(r.global, Parse(data, ""))
		}
		if name := excludesFile(r.root); name != "" {
			if data, err := readFollow(name); err != nil {
				errs(err)
			} else {
				r.global = append(r.global, Parse(data, ""))
			}
		}
	})
	return r.global
}

// isTracked reports whether the file (or, if isDir, the directory) at
// path is in the index, or holds a file that is.
func (r *Repo) isTracked(path string, isDir bool) bool {
	r.trackedOnce.Do(func() { r.tracked = trackedIgnored(r.root) })
	file, ok := r.tracked[path]
	return ok && file != isDir
}

// trackedIgnored returns the files of the index of the work tree at root
// that its rules ignore ("git ls-files --cached --ignored
// --exclude-standard", which asks the rules about the tracked files
// only: few of them, usually), as true, and the directories above them,
// as false. Without git, or when git fails, nothing is tracked.
func trackedIgnored(root string) map[string]bool {
	out, err := gitAt(root, "ls-files", "-z", "--cached", "--ignored", "--exclude-standard").Output()
	if err != nil || len(out) == 0 {
		return nil
	}
	m := map[string]bool{}
	for _, p := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		m[p] = true
		for i := strings.LastIndexByte(p, '/'); i > 0; i = strings.LastIndexByte(p[:i], '/') {
			if _, ok := m[p[:i]]; ok {
				break
			}
			m[p[:i]] = false
		}
	}
	return m
}

// commonDir returns the git directory of the work tree at root whose
// info/exclude holds: root/.git, or for a ".git" file ("gitdir: X", a
// linked work tree or a submodule) X, or the common directory X's
// "commondir" names.
func commonDir(root string) string {
	dotgit := filepath.Join(root, ".git")
	data, err := os.ReadFile(dotgit)
	if err != nil {
		return dotgit // a directory (or unreadable: nothing to read)
	}
	gitdir, ok := strings.CutPrefix(strings.TrimRight(string(data), "\r\n"), "gitdir: ")
	if !ok {
		return dotgit
	}
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(root, gitdir)
	}
	if c, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
		common := strings.TrimRight(string(c), "\r\n")
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitdir, common)
		}
		return common
	}
	return gitdir
}

// excludesFile returns the path of core.excludesFile for the work tree
// at root: what "git config --path core.excludesFile" says there (its
// local, global and system configuration, as git reads them); when git
// says nothing or is not installed, git's default,
// $XDG_CONFIG_HOME/git/ignore or $HOME/.config/git/ignore. A relative
// name is relative to root, where git runs. "" when there is none.
func excludesFile(root string) string {
	out, err := gitAt(root, "config", "-z", "--path", "--get", "core.excludesFile").Output()
	if err == nil {
		name := string(bytes.TrimSuffix(out, []byte{0}))
		if name != "" && !filepath.IsAbs(name) {
			name = filepath.Join(root, name)
		}
		return name
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", "ignore")
	}
	if h := os.Getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "git", "ignore")
	}
	return ""
}

// gitAt is git with args in the work tree at root, and no other: the
// variables that would name another repository are left out of its
// environment, and it looks for one no higher than root (a ".git" that
// is no repository makes it fail, not find one further up).
func gitAt(root string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_CEILING_DIRECTORIES":
		default:
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(root))
	return cmd
}

// readFollow reads an ignore file outside the work tree (info/exclude,
// core.excludesFile), following links as git does: nil when there is
// none.
func readFollow(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil && ignorable(err) {
		return nil, nil
	}
	return data, err
}
