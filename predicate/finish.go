package predicate

import "errors"

// A finisher is a node with work left when the walk ends: pending
// -exec ... + batches (exec.go). Command.Close finishes every one in
// the expression. Other families with work to do at exit implement it
// too.
type finisher interface {
	close() error
}

// Close finishes the command once the walk is over and every worker's
// Buffer has been flushed: pending -exec ... + and -execdir ... + batches
// run (their children write straight to standard output, after all of
// gfind's own output). It returns the errors of the finishers, which
// have been reported already. Close is idempotent.
func (c *Command) Close() error {
	var errs []error
	forEachNode(c.Expr, func(n Node) {
		if f, ok := n.(finisher); ok {
			errs = append(errs, f.close())
		}
	})
	return errors.Join(errs...)
}

// RunsCommands reports whether the expression has -exec, -execdir, -ok
// or -okdir: whether a child process may run during the walk.
func (c *Command) RunsCommands() bool {
	found := false
	forEachNode(c.Expr, func(n Node) {
		if _, ok := n.(*execNode); ok {
			found = true
		}
	})
	return found
}

// forEachNode calls f for n and every node below it.
func forEachNode(n Node, f func(Node)) {
	if n == nil {
		return
	}
	f(n)
	switch n := n.(type) {
	case *andNode:
		for _, k := range n.kids {
			forEachNode(k, f)
		}
	case *orNode:
		for _, k := range n.kids {
			forEachNode(k, f)
		}
	case *commaNode:
		for _, k := range n.kids {
			forEachNode(k, f)
		}
	case *notNode:
		forEachNode(n.kid, f)
	}
}
