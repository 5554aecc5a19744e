package predicate

import (
	"bytes"
	"errors"
	"os"
	"sync"

	"github.com/gfind/gfind/internal/gitignore"
	"github.com/gfind/gfind/walker"
)

// -gitignored (a gfind extra) is true for a file git would ignore, and
// gfind's --gitignore leaves such files and ".git" out of the whole walk
// (as -exclude does), below the starting points. The rules are
// internal/gitignore's; what this file adds is where a file's directory
// gets its Dir: a cache of one Dir per directory the walk meets, keyed
// by the directory's path as the walk names it, made by the first
// worker that evaluates a file in it (the one that read the directory,
// nearly always), which reads its .gitignore once, through the
// directory's descriptor. A starting point's Dir comes from
// gitignore.Start, which finds the work tree above it.
//
// Git sees a symbolic link as a file: under -P a link to a directory is
// matched as a file, as git does. Under -L and -H the tests see the
// target, so a followed link to a directory is matched as a directory
// and what is below it by the paths the walk gives it (git itself does
// not look beyond a link).

// gitCache is the Dirs of one command, shared by its -gitignored nodes
// and --gitignore's operand.
type gitCache struct {
	dirs sync.Map // string -> *gitSlot: a directory's path; "\x00" and a starting point's for the Dir holding it
}

// gitSlot makes one Dir once.
type gitSlot struct {
	once sync.Once
	dir  *gitignore.Dir
	name string // for a starting point: its name in dir
}

// gitState is a worker's scratch for -gitignored: the path buffer, and
// the last directory it looked up, which the next file is nearly always
// in (no map access, no key to make).
type gitState struct {
	scratch []byte
	lastKey []byte
	last    *gitignore.Dir
}

// gitignoredNode is -gitignored.
type gitignoredNode struct{ c *gitCache }

func (n gitignoredNode) Eval(e *walker.Entry, s *State) bool {
	var d *gitignore.Dir
	var name []byte
	if e.Depth == 0 {
		var n0 string
		d, n0 = n.c.start(e.Path, s)
		name = []byte(n0)
	} else {
		d = n.c.dir(e.Path[:parentEnd(e.Path, e.RootLen, e.Depth)], e.RootLen, e.Depth-1, e, s)
		name = e.Name()
	}
	if d == nil {
		return false
	}
	isDir := e.Type == walker.TypeDir
	if e.Type == walker.TypeUnknown {
		st, ok := s.stat(e)
		isDir = ok && walker.TypeOf(uint32(st.Mode)) == walker.TypeDir
	}
	return d.Ignored(name, isDir, &s.git.scratch, s.gitErrors)
}

func (gitignoredNode) Facts() Facts {
	// A few pattern matches per file, and per directory an open of its
	// .gitignore and a stat of its .git, shared by its files (tens of
	// them, typically): after the name tests, before the stats.
	return Facts{Cost: costStat / 10, Prob: 0.1}
}

func (gitignoredNode) Args() []string { return []string{"-gitignored"} }

// parentEnd returns the end in path of the path of the directory that
// holds the file at depth (> 0): the starting point for depth 1 (its
// path may end in '/', which the walk does not double), else up to the
// last '/'.
func parentEnd(path []byte, rootLen, depth int) int {
	if depth == 1 {
		return rootLen
	}
	return bytes.LastIndexByte(path, '/')
}

// start returns the Dir holding the starting point path and its name
// in it.
func (c *gitCache) start(path []byte, s *State) (*gitignore.Dir, string) {
	slot := c.slot("\x00" + string(path))
	slot.once.Do(func() {
		slot.dir, slot.name = gitignore.Start(string(path), &s.git.scratch, s.gitErrors)
	})
	return slot.dir, slot.name
}

// dir returns the Dir of the directory at path (at depth): the Dir made
// by Child from its parent's. child is a file in it whose descriptor of
// it (DirFD) reads its .gitignore, or nil to read by path.
func (c *gitCache) dir(path []byte, rootLen, depth int, child *walker.Entry, s *State) *gitignore.Dir {
	g := &s.git
	if g.last != nil && bytes.Equal(g.lastKey, path) {
		return g.last
	}
	slot := c.slot(string(path))
	slot.once.Do(func() {
		var parent *gitignore.Dir
		var name string
		if depth == 0 {
			parent, name = c.start(path, s)
		} else {
			end := parentEnd(path, rootLen, depth)
			parent = c.dir(path[:end], rootLen, depth-1, nil, s)
			name = string(path[end:])
			if len(name) > 0 && name[0] == '/' {
				name = name[1:]
			}
		}
		var fs gitignore.FS = gitPathFS(path)
		if child != nil && child.DirFD() >= 0 { // not an Entry made by other code than the walker
			fs = gitFdFS{e: child, path: path}
		}
		d, err := parent.Child(name, fs, &g.scratch, s.gitErrors)
		if err != nil {
			s.gitErrors(err)
		}
		slot.dir = d
	})
	g.lastKey = append(g.lastKey[:0], path...)
	g.last = slot.dir
	return slot.dir
}

func (c *gitCache) slot(key string) *gitSlot {
	if v, ok := c.dirs.Load(key); ok {
		return v.(*gitSlot)
	}
	v, _ := c.dirs.LoadOrStore(key, new(gitSlot))
	return v.(*gitSlot)
}

// gitErrors reports a failure to read an ignore file, as any other file
// the walk cannot read; the file is then taken to be empty, as git does.
func (s *State) gitErrors(err error) {
	var pe *os.PathError
	if errors.As(err, &pe) {
		s.Diag.FileError([]byte(pe.Path), pe.Err)
		return
	}
	s.Diag.Errorf("%s", err)
}

// gitFdFS reads a directory through the descriptor a walked file in it
// has of it.
type gitFdFS struct {
	e    *walker.Entry
	path []byte // the directory's
}

func (f gitFdFS) ReadIgnore() ([]byte, error) {
	return gitignore.ReadAt(f.e.DirFD(), inDir(f.path, ".gitignore"))
}

func (f gitFdFS) HasGit() bool { return gitignore.HasGitAt(f.e.DirFD()) }

// gitPathFS reads a directory by its path, for the directories above a
// file that the walk has not asked about yet (-gitignored after a test
// that was false for them, or under -mindepth).
type gitPathFS []byte

func (p gitPathFS) ReadIgnore() ([]byte, error) {
	return gitignore.ReadPath(inDir(p, ".gitignore"))
}

func (p gitPathFS) HasGit() bool {
	_, err := os.Lstat(inDir(p, ".git"))
	return err == nil
}

// inDir is the path of name in the directory at dir, which may end in
// '/' (a starting point "a/" or "/").
func inDir(dir []byte, name string) string {
	if len(dir) > 0 && dir[len(dir)-1] == '/' {
		return string(dir) + name
	}
	return string(dir) + "/" + name
}

func parseGitignored(p *parser, op string, _ variant) error {
	p.push(gitignoredNode{c: p.gitCache()})
	return nil
}

// gitCache returns the command's cache, made at its first use.
func (p *parser) gitCache() *gitCache {
	if p.git == nil {
		p.git = new(gitCache)
	}
	return p.git
}

// gitExcludeNode is the -exclude operand --gitignore adds: below the
// starting points, ".git" and what git ignores.
type gitExcludeNode struct{ g gitignoredNode }

func (n gitExcludeNode) Eval(e *walker.Entry, s *State) bool {
	return e.Depth > 0 && (string(e.Name()) == ".git" || n.g.Eval(e, s))
}

func (n gitExcludeNode) Facts() Facts { return n.g.Facts() }

// Args gives the option that makes it (a leading option, not part of
// the expression).
func (gitExcludeNode) Args() []string { return []string{"--gitignore"} }

// gitExclude returns --gitignore's -exclude operand, or nil without it.
func (p *parser) gitExclude() Node {
	if !p.cfg.GitIgnore {
		return nil
	}
	return gitExcludeNode{g: gitignoredNode{c: p.gitCache()}}
}
