//go:build unix

package gitignore

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// openFlags open an ignore file in the work tree as git does (its
// open_nofollow): not through a final symbolic link; and without
// blocking on a FIFO, which is then no regular file and reads as none.
const openFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY

// ReadAt reads the .gitignore of the directory open at dirfd, as
// FS.ReadIgnore; path is the file's name in errors.
func ReadAt(dirfd int, path string) ([]byte, error) {
	fd, err := unix.Openat(dirfd, ".gitignore", openFlags, 0)
	for err == unix.EINTR {
		fd, err = unix.Openat(dirfd, ".gitignore", openFlags, 0)
	}
	if err != nil {
		return nil, openErr(path, err)
	}
	return readFD(fd, path)
}

// HasGitAt reports whether the directory open at dirfd holds ".git".
func HasGitAt(dirfd int) bool {
	var st unix.Stat_t
	return unix.Fstatat(dirfd, ".git", &st, unix.AT_SYMLINK_NOFOLLOW) == nil
}

// ReadPath reads the ignore file at path, as ReadAt.
func ReadPath(path string) ([]byte, error) {
	fd, err := unix.Open(path, openFlags, 0)
	if err != nil {
		return nil, openErr(path, err)
	}
	return readFD(fd, path)
}

// openErr is nil for the failures that mean there is no ignore file:
// none, a path through a non-directory, a symbolic link (noFollowErrno
// under O_NOFOLLOW; git 2.32 and later do not follow a .gitignore link).
func openErr(path string, err error) error {
	if err == unix.ENOENT || err == unix.ENOTDIR || err == noFollowErrno {
		return nil
	}
	return &os.PathError{Op: "open", Path: path, Err: err}
}

// readFD reads the regular file open at fd and closes it: nil for any
// other type of file (a directory, a FIFO), which git cannot read
// either.
func readFD(fd int, path string) ([]byte, error) {
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, nil
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, &os.PathError{Op: "read", Path: path, Err: errors.Unwrap(err)}
	}
	return data, nil
}
