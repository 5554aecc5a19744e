package mounts

import "golang.org/x/sys/unix"

// mountList is getfsstat(2)'s list (OpenBSD's struct statfs spells its
// fields f_mntonname and f_fstypename in Go too), not waiting for a file
// system that does not answer (MNT_NOWAIT).
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
		list = append(list, mountEntry{cstring(buf[i].F_mntonname[:]), cstring(buf[i].F_fstypename[:])})
	}
	return list, nil
}
