//go:build !linux

package predicate

import (
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// Without statx there is no portable birth time: no file has one.

func birthTimeAt(e *walker.Entry, follow bool) (tspec, bool, error) { return tspec{}, false, nil }

func birthTimePath(path string, follow bool) (tspec, bool, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return tspec{}, false, err
	}
	return tspec{}, false, nil
}
