package predicate

import (
	"strconv"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// hasCapability reports whether the file e (its target when follow) has
// file capabilities: a non-empty security.capability attribute, which is
// what ls's ca color asks. The file is named through its directory's
// descriptor, so the path may be longer than PATH_MAX.
func hasCapability(e *walker.Entry, follow bool) bool {
	path := string(e.Path)
	if fd := e.DirFD(); fd >= 0 {
		path = "/proc/self/fd/" + strconv.Itoa(fd) + "/" + string(e.AtName())
	} else if fd != unix.AT_FDCWD {
		return false
	}
	var n int
	var err error
	for {
		if follow {
			n, err = unix.Getxattr(path, "security.capability", nil)
		} else {
			n, err = unix.Lgetxattr(path, "security.capability", nil)
		}
		if err != unix.EINTR {
			break
		}
	}
	return err == nil && n > 0
}
