package predicate

import "errors"

// Close finishes the command once the walk is over and every worker's
// Buffer has been flushed: pending -exec ... + and -execdir ... + batches
// run (their children write straight to standard output, after all of
// gfind's own output), and the files of -fprint and friends are flushed
// and closed, in the order of the command line. It returns their errors,
// which have been reported already. Close is idempotent.
//
// The parse functions that make work for the end add it to
// parser.atExit as they make it (openOutput a file's close, parseExec
// the last batches of -exec ... +) rather than Close finding it by type
// in the expression: work at exit is declared where it is created, and
// Close knows no node type.
func (c *Command) Close() error {
	var errs []error
	if c.list != nil {
		c.list.close() // a read-only file: nothing to report
	}
	for _, f := range c.atExit {
		errs = append(errs, f())
	}
	return errors.Join(errs...)
}

// RunsCommands reports whether the expression has -exec, -execdir, -ok
// or -okdir: whether a child process may run during the walk.
func (c *Command) RunsCommands() bool {
	return c.Expr.Facts().Effects&EffectExec != 0
}

// OutputOnly reports whether the expression's only effect is output to
// standard output (-print, -print0, -printf, -printjson, colored
// -print), besides -prune: whether the order its visits are made in
// shows nowhere but in that output, so the sorted walk may make them out
// of order and put the output back in order (walker.Options.Ordered):
// each worker then walks subtrees of its own, which is faster than one
// goroutine making every visit in order (bench/NOTES.md). -ls is not,
// for its column widths grow with the files seen (EffectOrder); nor
// -limit, whose Nth match depends on the order; nor -quit, -fprint and
// friends, -delete and -exec.
func (c *Command) OutputOnly() bool {
	// Nor -unique: which of two paths to a file it keeps is the one met
	// first, which the walk's order decides only if it is the order of
	// the visits.
	return c.lim == nil && c.seen == nil && c.Expr.Facts().Effects&^(EffectStdout|EffectPrune) == 0
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
	case *posNode:
		forEachNode(n.kid, f)
	}
}
