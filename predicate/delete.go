package predicate

import (
	"fmt"
	"os"
	"sync"

	"github.com/gfind/gfind/internal/meta"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// costDelete is one unlinkat(2), about ten times a stat.
const costDelete = 1e4

// deleteNode is -delete: remove the file, or the empty directory,
// through the descriptor of its parent that the walk holds
// (unlinkat(parent, name)), never by path, so that a directory renamed
// or replaced by a symbolic link meanwhile cannot redirect it. Like
// GNU's pred_delete it is true when the file is gone, and false, with a
// diagnostic and exit status 1, when it could not be removed.
type deleteNode struct {
	// ignoreRace is -ignore_readdir_race, as it stands once the whole
	// command line is parsed (set by checkDelete).
	ignoreRace bool
	// dry is set for -delete-dry-run, and for -delete under --dry-run.
	dry *drySet
	op  string
}

// drySet is what a dry run has "deleted" so far, by path, shared by the
// workers. A dry run unlinks nothing, so a directory is never empty when
// its post-order visit comes; it counts as empty when every name in it
// is in the set, which is when the real -delete would find it empty
// (its contents were visited, and removed, before it).
type drySet struct {
	mu    sync.Mutex
	paths map[string]struct{}
}

func parseDelete(p *parser, op string, v variant) error {
	p.walk.PostOrder = true // -delete implies -depth
	n := &deleteNode{op: op}
	if v&dryRun != 0 || p.cfg.DryRun {
		// One set for the whole command line: what one -delete removes
		// empties a directory for another.
		for _, t := range p.toks {
			if d, ok := t.node.(*deleteNode); ok && d.dry != nil {
				n.dry = d.dry
			}
		}
		if n.dry == nil {
			n.dry = &drySet{paths: map[string]struct{}{}}
		}
	}
	p.push(n)
	return nil
}

func (n *deleteNode) Eval(e *walker.Entry, s *State) bool {
	if !s.act() {
		return false // -quit: nothing is deleted after it
	}
	name := e.AtName()
	if e.DirFD() == unix.AT_FDCWD && string(name) == "." {
		return true // GNU never removes the starting point "."
	}
	if n.dry != nil {
		return n.dryRun(e, s)
	}
	// The type comes from the walk: d_type, or under -L the target's
	// (then a link to a directory fails with ENOTDIR, as in GNU). When
	// it is unknown, unlink first and rmdir when unlink says the file is
	// a directory, as GNU does without a stat.
	flags := 0
	if e.Type == walker.TypeDir {
		flags = unix.AT_REMOVEDIR
	}
	err := unix.Unlinkat(e.DirFD(), string(name), flags)
	if err == meta.ErrUnlinkDir && flags == 0 {
		err = rmdirAfterUnlink(err, unix.Unlinkat(e.DirFD(), string(name), unix.AT_REMOVEDIR))
	}
	switch {
	case err == nil:
		return true
	case err == unix.ENOENT && n.ignoreRace:
		return true // vanished meanwhile: -ignore_readdir_race
	}
	return n.fail(e, s, err)
}

// rmdirAfterUnlink is the error of -delete's rmdir, tried because
// unlink failed with meta.ErrUnlinkDir. Linux's EISDIR says the file is a
// directory; the BSDs' and macOS's EPERM says so too, but also that the
// file may not be removed at all (a sticky directory, an immutable
// flag): when the rmdir then finds no directory (ENOTDIR), unlink's
// EPERM was that refusal, and is the one to report.
func rmdirAfterUnlink(unlinkErr, rmdirErr error) error {
	if unlinkErr == unix.EPERM && rmdirErr == unix.ENOTDIR {
		return unlinkErr
	}
	return rmdirErr
}

// fail reports a file -delete could not remove.
func (n *deleteNode) fail(e *walker.Entry, s *State, err error) bool {
	// GNU's error() flushes stdout before it writes to stderr.
	s.Out.Flush()
	s.Diag.FileErrorf("cannot delete %s: %s", s.Diag.QuoteFile(string(e.Path)), output.Strerror(err))
	return false
}

// dryRun is -delete without the unlinkat: it prints the path, as -print
// does, when the real -delete would remove the file, and otherwise gives
// the real one's message and result. What it foresees: a file gone
// meanwhile (ENOENT, silent under -ignore_readdir_race), a directory
// that is not empty once everything the run deletes is gone (ENOTEMPTY),
// a link to a directory under -L (ENOTDIR). What it cannot: permissions,
// a read-only or busy file system; those fail only in the real run.
func (n *deleteNode) dryRun(e *walker.Entry, s *State) bool {
	var err error
	if e.Type == walker.TypeDir {
		err = n.dry.emptyAfterRun(e)
	} else {
		var st unix.Stat_t
		err = unix.Fstatat(e.DirFD(), string(e.AtName()), &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == nil && e.Type == walker.TypeUnknown && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			err = n.dry.emptyAfterRun(e)
		}
	}
	switch {
	case err == nil:
	case err == unix.ENOENT && n.ignoreRace:
		return true
	default:
		return n.fail(e, s, err)
	}
	n.dry.mu.Lock()
	n.dry.paths[string(e.Path)] = struct{}{}
	n.dry.mu.Unlock()
	s.Out.Print(e.Path, '\n')
	return true
}

// emptyAfterRun opens the directory as the real rmdir would find it (by
// name in its parent, not following a link) and returns ENOTEMPTY unless
// every name in it was "deleted" by this dry run.
func (d *drySet) emptyAfterRun(e *walker.Entry) error {
	fd, err := unix.Openat(e.DirFD(), string(e.AtName()), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err == meta.ErrNoFollowLink {
		err = unix.ENOTDIR // rmdir of a symbolic link
	}
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), string(e.Path))
	defer f.Close()
	names, rerr := f.Readdirnames(-1)
	if rerr != nil {
		if pe, ok := rerr.(*os.PathError); ok {
			return pe.Err
		}
		return rerr
	}
	prefix := string(e.Path)
	if len(prefix) == 0 || prefix[len(prefix)-1] != '/' {
		prefix += "/" // a starting point "dir/" is not doubled, as the walk does
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, name := range names {
		if _, ok := d.paths[prefix+name]; !ok {
			return unix.ENOTEMPTY
		}
	}
	return nil
}

func (*deleteNode) Facts() Facts { return Facts{Effects: EffectDelete, Cost: costDelete, Prob: 1} }

func (n *deleteNode) Args() []string {
	if n.op == "" {
		return []string{"-delete"}
	}
	return []string{n.op}
}

// checkDelete is GNU's check_option_combinations, run on the whole
// argument list before the expression is built: -delete turns -depth
// on, which makes -prune do nothing, so the two together are refused
// unless -depth was asked for. It also gives each -delete the final
// -ignore_readdir_race.
func (p *parser) checkDelete() error {
	var del, prune bool
	for _, t := range p.toks {
		switch n := t.node.(type) {
		case *deleteNode:
			del = true
			n.ignoreRace = p.walk.IgnoreReaddirRace
		case pruneNode:
			prune = true
		}
	}
	if del && prune && !p.explicitDepth {
		return p.errorf("The -delete action automatically turns on -depth, but -prune does nothing when -depth is in effect.  If you want to carry on anyway, just explicitly use the -depth option.")
	}
	return nil
}

// checkPreserveRoot refuses, unless --no-preserve-root, a command line
// whose -delete runs on every file (nothing before it can be false, as in
// "gfind / -delete" or "gfind / -print -delete") from a starting point
// that is the root directory: "/", "//", "/.", "/..", or any name of it,
// found by comparing device and inode with those of "/" (lstat under -P,
// as the walk sees a starting point). rm's --preserve-root, for find. A
// dry run is not refused: it removes nothing.
func checkPreserveRoot(cfg Config, expr Node, r string) *ParseError {
	if !refusesRoots(cfg, expr) {
		return nil
	}
	var slash unix.Stat_t
	if unix.Stat("/", &slash) != nil {
		return nil
	}
	var st unix.Stat_t
	var err error
	if cfg.Follow == walker.FollowNever {
		err = unix.Lstat(r, &st)
	} else {
		err = unix.Stat(r, &st)
	}
	if err != nil || st.Dev != slash.Dev || st.Ino != slash.Ino {
		return nil
	}
	same := ""
	if r != "/" {
		same = fmt.Sprintf(" (same as %s)", cfg.Quote("/"))
	}
	return &ParseError{
		Msg:  fmt.Sprintf("it is dangerous to run -delete on every file under %s%s", cfg.Quote(r), same),
		Hint: "use --no-preserve-root to override this failsafe",
	}
}

// refusesRoots reports whether checkPreserveRoot can refuse a starting
// point: expr deletes every file and --no-preserve-root was not given.
func refusesRoots(cfg Config, expr Node) bool {
	return !cfg.NoPreserveRoot && deletesAll(expr)
}

// deletesAll reports whether evaluating n reaches a real -delete for
// every file: through -and when what comes before is always true (the
// options, -true, -print, -print0), through "," always, and as the first
// operand of -or and of "!". A -delete behind a test that can be false
// (-name, -type, -newer...) is never refused.
func deletesAll(n Node) bool {
	if p, ok := n.(*posNode); ok {
		n = p.kid
	}
	switch n := n.(type) {
	case *deleteNode:
		return n.dry == nil
	case *notNode:
		return deletesAll(n.kid)
	case *orNode:
		return len(n.kids) > 0 && deletesAll(n.kids[0])
	case *commaNode:
		for _, k := range n.kids {
			if deletesAll(k) {
				return true
			}
		}
	case *andNode:
		for _, k := range n.kids {
			if deletesAll(k) {
				return true
			}
			if !alwaysTrue(k) {
				return false
			}
		}
	}
	return false
}

// alwaysTrue reports whether n is true for every file without looking at
// it: an option or -true, -print, -print0.
func alwaysTrue(n Node) bool {
	if p, ok := n.(*posNode); ok {
		n = p.kid
	}
	switch n := n.(type) {
	case *constNode:
		return n.val
	case *printNode:
		return true
	}
	return false
}
