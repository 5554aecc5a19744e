//go:build !linux

package printf

import (
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// selinuxContext: only Linux has SELinux.
func selinuxContext(e *walker.Entry, follow bool) (string, error) {
	return "", unix.ENOTSUP
}
