package meta

// validBirth is gnulib's check in get_stat_birthtime for the systems
// whose stat(2) has a birth time (st_birthtimespec on macOS, FreeBSD and
// NetBSD): FreeBSD and NetBSD may say "unknown" with a zero time, and
// NetBSD may leave junk in the nanoseconds, so a zero second or
// nanoseconds out of range mean no birth time. (FreeBSD's UFS1 says -1
// seconds; gnulib, and so GNU find, take that for a time, and so does
// gfind.)
func validBirth(sec, nsec int64) bool {
	return sec != 0 && 0 <= nsec && nsec < 1e9
}
