package walker

import "fmt"

// LoopError reports a directory met again below itself while following
// symbolic links (-L): Path is the link, Ancestor the directory it leads
// back to.
type LoopError struct {
	Path, Ancestor string
}

func (e *LoopError) Error() string {
	return fmt.Sprintf("File system loop detected; %s is part of the same file system loop as %s.", e.Path, e.Ancestor)
}

// Walk visits every file below each root. visit is called concurrently
// from opt.Workers goroutines (Entry.Worker tells which). It returns once
// every worker is done, or soon after visit returned Stop.
//
// With one worker the roots are walked in turn, in GNU find's order. With
// more, the roots are walked together and the order is unspecified;
// under PostOrder a directory is still visited after all its contents.
// Under Sort the order is fixed (names in byte order, depth first) and
// visit is called by one goroutine at a time, though not always the
// same one, while directories are still read ahead in parallel.
//
// Failures on files (a missing root, an unreadable directory, a loop)
// reach visit as Entries with Err set; Walk itself returns an error only
// when it cannot walk at all (an unsupported platform).
func Walk(roots []string, opt Options, visit func(*Entry) Action) error {
	return walkImpl(roots, opt, visit)
}
