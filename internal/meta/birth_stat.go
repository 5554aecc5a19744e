//go:build darwin || freebsd || netbsd

package meta

import "golang.org/x/sys/unix"

// StatBirth returns the birth time stat(2) gave in st, as GNU find reads
// it with gnulib's get_stat_birthtime: macOS, FreeBSD and NetBSD keep it
// in st_birthtim (Stat_t.Btim); ok is false when the file system keeps
// none (validBirth).
func StatBirth(st *unix.Stat_t) (sec, nsec int64, ok bool) {
	sec, nsec = int64(st.Btim.Sec), int64(st.Btim.Nsec)
	return sec, nsec, validBirth(sec, nsec)
}
