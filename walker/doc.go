// Package walker reads directory trees in parallel and hands each file to
// a visit function.
//
// A pool of worker goroutines takes directories from a LIFO work stack,
// reads each one with getdents64 through a single open descriptor, and
// calls the visit function for every entry while that descriptor is still
// open, so that a later fstatat(2) on the entry costs no path lookup.
// Directories are opened with openat(2) relative to their parent's
// descriptor and O_NOFOLLOW, never by full path: paths longer than PATH_MAX
// work, and a directory swapped for a symbolic link is not followed.
// The d_type field of each record decides whether to descend; the walker
// itself calls stat only when d_type is DT_UNKNOWN or when the options
// demand it (-L, -H roots, -xdev).
//
// With one worker the walk is a plain recursive depth-first walk in
// readdir order, which reproduces GNU find's output order exactly.
//
// The walker prints nothing. Errors reach the caller as Entries whose Err
// is set, and the caller decides how to report them.
package walker
