//go:build !linux

package gitignore

import (
	"errors"
	"os"
)

// Elsewhere than on Linux the walker does not run (walker/walk_other.go):
// these only keep the package building.

var errUnsupported = errors.New("gitignore: only Linux is supported")

// ReadAt is not supported.
func ReadAt(dirfd int, path string) ([]byte, error) { return nil, errUnsupported }

// HasGitAt is not supported.
func HasGitAt(dirfd int) bool { return false }

// ReadPath reads path unless it is a symbolic link (not atomically).
func ReadPath(path string) ([]byte, error) {
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
		return nil, nil
	}
	return readFollow(path)
}
