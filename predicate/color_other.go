//go:build !linux

package predicate

import "github.com/gfind/gfind/walker"

// hasCapability: file capabilities are Linux's.
func hasCapability(e *walker.Entry, follow bool) bool { return false }
