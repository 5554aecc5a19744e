//go:build linux || openbsd

package meta

import "golang.org/x/sys/unix"

// StatBirth returns the birth time stat(2) gave in st: none on Linux,
// whose stat(2) has no birth time (statx(2) has; GNU find 4.9 does not
// ask it for %B), and on OpenBSD, whose struct stat has none. gnulib's
// get_stat_birthtime then gives {-1, -1}.
func StatBirth(st *unix.Stat_t) (sec, nsec int64, ok bool) { return -1, -1, false }
