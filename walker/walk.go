package walker

import (
	"errors"
	"fmt"
)

// LoopError reports a directory met again below itself while following
// symbolic links (-L): Path is the link, Ancestor the directory it leads
// back to.
type LoopError struct {
	Path, Ancestor string
}

func (e *LoopError) Error() string {
	return fmt.Sprintf("File system loop detected; %s is part of the same file system loop as %s.", e.Path, e.Ancestor)
}

// Walk visits every file below each root in turn. visit is called
// concurrently from opt.Workers goroutines (Entry.Worker tells which).
// It returns once every worker is done, or after visit returned Stop.
func Walk(roots []string, opt Options, visit func(*Entry) Action) error {
	return errors.New("walker: not implemented")
}
