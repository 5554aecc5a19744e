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
	if c.list != nil {
		c.list.close() // a read-only file: nothing to report
	}
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

// OutputOnly reports whether the expression's only effect is output to
// standard output (-print, -print0, -printf, -printjson, colored
// -print): whether the order its visits are made in shows nowhere but
// in that output, so the sorted walk may make them out of order and
// put the output back in order (walker.Options.Ordered): each worker
// then walks subtrees of its own. (-s -type f -size +0 took 1.67x the
// unsorted walk's time on a 1,000,000-entry tree on 2 cores when one
// goroutine made every visit in order, and 1.04x so.) -ls is not,
// for its column widths grow with the files seen; nor -limit, -quit,
// -prune's neighbours with effects, -fprint and friends, -delete and
// -exec.
func (c *Command) OutputOnly() bool {
	if c.lim != nil {
		return false
	}
	ok := true
	forEachNode(c.Expr, func(n Node) {
		switch n := n.(type) {
		case *andNode, *orNode, *commaNode, *notNode, *printNode, *colorPrintNode, *jsonNode, pruneNode:
		case *printfNode:
			ok = ok && n.file == nil
		default:
			ok = ok && n.Facts().Pure
		}
	})
	return ok
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
