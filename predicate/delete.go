package predicate

import (
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

func init() {
	table["delete"] = entry{kindAction, parseDelete}
}

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
}

func parseDelete(p *parser, op string) error {
	p.walk.PostOrder = true // -delete implies -depth
	p.push(&deleteNode{})
	return nil
}

func (n *deleteNode) Eval(e *walker.Entry, s *State) bool {
	name := e.AtName()
	if e.DirFD() == unix.AT_FDCWD && string(name) == "." {
		return true // GNU never removes the starting point "."
	}
	// The type comes from the walk: d_type, or under -L the target's
	// (then a link to a directory fails with ENOTDIR, as in GNU). When
	// it is unknown, unlink first and rmdir on EISDIR, as GNU does
	// without a stat.
	flags := 0
	if e.Type == walker.TypeDir {
		flags = unix.AT_REMOVEDIR
	}
	err := unix.Unlinkat(e.DirFD(), string(name), flags)
	if err == unix.EISDIR && flags == 0 {
		err = unix.Unlinkat(e.DirFD(), string(name), unix.AT_REMOVEDIR)
	}
	switch {
	case err == nil:
		return true
	case err == unix.ENOENT && n.ignoreRace:
		return true // vanished meanwhile: -ignore_readdir_race
	}
	// GNU's error() flushes stdout before it writes to stderr.
	s.Out.Flush()
	s.Diag.Errorf("cannot delete %s: %s", s.Diag.Quote(string(e.Path)), output.Strerror(err))
	return false
}

func (*deleteNode) Facts() Facts   { return Facts{Prints: true, Cost: costDelete, Prob: 1} }
func (*deleteNode) Args() []string { return []string{"-delete"} }

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
