package printf

import (
	"strconv"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// selinuxContext is libselinux's getfilecon (follow) or lgetfilecon for
// %Z: the security.selinux extended attribute, up to its NUL. An empty
// attribute is ENOTSUP, as libselinux maps it. The file is named
// through its directory's descriptor (/proc/self/fd/N/name), never by a
// path that could exceed PATH_MAX.
func selinuxContext(e *walker.Entry, follow bool) (string, error) {
	path := string(e.Path)
	if fd := e.DirFD(); fd >= 0 {
		path = "/proc/self/fd/" + strconv.Itoa(fd) + "/" + string(e.AtName())
	} else if fd != unix.AT_FDCWD {
		return "", unix.EBADF
	}
	buf := make([]byte, 256)
	for {
		var n int
		var err error
		if follow {
			n, err = unix.Getxattr(path, "security.selinux", buf)
		} else {
			n, err = unix.Lgetxattr(path, "security.selinux", buf)
		}
		switch {
		case err == unix.ERANGE:
			buf = make([]byte, 2*len(buf))
			continue
		case err == unix.EINTR:
			continue
		case err != nil:
			return "", err
		case n == 0:
			return "", unix.ENOTSUP
		}
		v := buf[:n]
		for i, c := range v {
			if c == 0 {
				v = v[:i]
				break
			}
		}
		return string(v), nil
	}
}
