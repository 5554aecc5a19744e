// Package seam holds the walker's test seams: hooks that tests of the
// walker, and of the packages built on it (predicate's -delete and
// -exec, cmd/gfind's status line), set to make a race deterministic or
// a directory read slow. The walker calls a hook, if one is set, at the
// point the hook is named for; production code never sets one, and an
// unset hook costs the walker one atomic load.
//
// They live here, not in walker's API, so that walker exports only what
// a caller of the walk uses.
package seam
