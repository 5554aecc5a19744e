//go:build darwin || freebsd || netbsd || openbsd

package mounts

import "golang.org/x/sys/unix"

// A mountEntry is one mounted file system: its mount point and type.
type mountEntry struct{ dir, typ string }

// readMounts fills m as gnulib's read_file_system_list and GNU's
// set_fstype_devno do on these systems: the types from getfsstat(2)'s
// f_fstypename (mountList, per system), the device of each from a
// stat(2) of its mount point.
func readMounts(m *Table) error {
	list, err := mountList()
	if err != nil {
		return err
	}
	for _, me := range list {
		m.names[me.typ] = true // is_used_fs_type needs no device
		var st unix.Stat_t
		if unix.Stat(me.dir, &st) == nil {
			m.add(uint64(st.Dev), me.typ)
		}
	}
	return nil
}

// cstring is the text of a NUL-terminated array such as f_fstypename.
func cstring[T ~byte | ~int8](b []T) string {
	s := make([]byte, 0, len(b))
	for _, c := range b {
		if c == 0 {
			break
		}
		s = append(s, byte(c))
	}
	return string(s)
}
