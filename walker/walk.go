package walker

import "fmt"

// LoopError reports a directory met again below itself while following
// symbolic links (-L): Path is the link, Ancestor the directory it leads
// back to. Error gives GNU find 4.11's sentence, which names only Path.
type LoopError struct {
	Path, Ancestor string
}

func (e *LoopError) Error() string {
	return fmt.Sprintf("File system loop detected; the following directory is part of the cycle: %s", e.Path)
}

// Walk visits every file below each root. visit is called concurrently
// from opt.Workers goroutines (Entry.Worker tells which). It returns once
// every worker is done, or soon after visit returned Stop.
//
// With one worker the roots are walked in turn, in GNU find's order. With
// more, the roots are walked together (or in turn under RootsInTurn,
// each in parallel inside) and the order is unspecified; under
// PostOrder a directory is still visited after all its contents.
// Under Sort the order is fixed (names in byte order, depth first) and
// visit is called by one goroutine at a time, though not always the
// same one, while directories are still read ahead in parallel.
//
// Failures on files (a missing root, an unreadable directory, a loop)
// reach visit as Entries with Err set; Walk itself returns an error only
// when it cannot walk at all (an unsupported platform).
func Walk(roots []string, opt Options, visit func(*Entry) Action) error {
	i := 0
	return WalkNext(func() (string, bool) {
		if i >= len(roots) {
			return "", false
		}
		i++
		return roots[i-1], true
	}, opt, visit)
}

// WalkNext is Walk with the starting points given one at a time by
// next, which returns false when there are none left. This lets a
// caller read them lazily (-files0-from), as GNU find does: a name is
// read only once the previous starting point was visited (or failed),
// so diagnostics about the list come in their place in the walk, and
// a Stop (-quit) leaves the rest unread. next is called by one
// goroutine at a time, never again once it returned false, and not
// after a Stop.
func WalkNext(next func() (string, bool), opt Options, visit func(*Entry) Action) error {
	return walkImpl(newRootSource(next), opt, visit)
}

// rootSource hands out the starting points in order; once next has
// said there are no more, it is not called again.
type rootSource struct {
	next func() (string, bool)
	done bool
}

func newRootSource(next func() (string, bool)) *rootSource { return &rootSource{next: next} }

// take returns the next starting point, or false when there is none.
func (r *rootSource) take() (string, bool) {
	if r.done {
		return "", false
	}
	root, ok := r.next()
	if !ok {
		r.done = true
	}
	return root, ok
}
