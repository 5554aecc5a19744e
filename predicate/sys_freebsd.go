package predicate

import "golang.org/x/sys/unix"

// Errno values that differ between systems (sys_linux.go).
const (
	// open(2): "[EMLINK] O_NOFOLLOW was specified and the target is a
	// symbolic link."
	errNoFollowLink = unix.EMLINK
	// unlink(2) of a directory is EPERM.
	errUnlinkDir = unix.EPERM
	// extattr_get_file(2): "[ENOATTR] The requested attribute was not
	// defined for this file."
	errNoAttr = unix.ENOATTR
)

// mountList is getfsstat(2)'s list, not waiting for a file system that
// does not answer (MNT_NOWAIT), as getmntinfo(3) does by default.
func mountList() ([]mountEntry, error) {
	n, err := unix.Getfsstat(nil, unix.MNT_NOWAIT)
	if err != nil {
		return nil, err
	}
	buf := make([]unix.Statfs_t, n+8) // room for mounts made meanwhile
	if n, err = unix.Getfsstat(buf, unix.MNT_NOWAIT); err != nil {
		return nil, err
	}
	list := make([]mountEntry, 0, n)
	for i := range buf[:n] {
		list = append(list, mountEntry{cstring(buf[i].Mntonname[:]), cstring(buf[i].Fstypename[:])})
	}
	return list, nil
}
