package mounts

import "golang.org/x/sys/unix"

// mountList is getvfsstat(2)'s list: NetBSD replaced getfsstat and
// struct statfs by getvfsstat and struct statvfs, whose f_fstypename is
// the type. ST_NOWAIT (MNT_NOWAIT's value) does not wait for a file
// system that does not answer.
func mountList() ([]mountEntry, error) {
	n, err := unix.Getvfsstat(nil, unix.MNT_NOWAIT)
	if err != nil {
		return nil, err
	}
	buf := make([]unix.Statvfs_t, n+8) // room for mounts made meanwhile
	if n, err = unix.Getvfsstat(buf, unix.MNT_NOWAIT); err != nil {
		return nil, err
	}
	list := make([]mountEntry, 0, n)
	for i := range buf[:n] {
		list = append(list, mountEntry{cstring(buf[i].Mntonname[:]), cstring(buf[i].Fstypename[:])})
	}
	return list, nil
}
