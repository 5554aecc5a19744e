package printf

import "golang.org/x/sys/unix"

// AppendFileMode appends the ten-character mode string of ls -l for a
// stat mode, as gnulib's strmode makes it for -printf's %M and -ls: the
// type letter, then rwx for user, group and others, with s/S for the
// set-user-ID and set-group-ID bits and t/T for the sticky bit (lower
// case when the execute bit under it is set too).
func AppendFileMode(dst []byte, mode uint32) []byte {
	dst = append(dst, typeLetter(mode))
	dst = appendRWX(dst, mode>>6, mode&unix.S_ISUID != 0, 's')
	dst = appendRWX(dst, mode>>3, mode&unix.S_ISGID != 0, 's')
	return appendRWX(dst, mode, mode&unix.S_ISVTX != 0, 't')
}

// typeLetter is gnulib's ftypelet for the file types Linux has.
func typeLetter(mode uint32) byte {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return '-'
	case unix.S_IFDIR:
		return 'd'
	case unix.S_IFBLK:
		return 'b'
	case unix.S_IFCHR:
		return 'c'
	case unix.S_IFLNK:
		return 'l'
	case unix.S_IFIFO:
		return 'p'
	case unix.S_IFSOCK:
		return 's'
	}
	return '?'
}

func appendRWX(dst []byte, bits uint32, special bool, letter byte) []byte {
	r, w, x := byte('-'), byte('-'), byte('-')
	if bits&4 != 0 {
		r = 'r'
	}
	if bits&2 != 0 {
		w = 'w'
	}
	switch {
	case special && bits&1 != 0:
		x = letter
	case special:
		x = letter - 'a' + 'A'
	case bits&1 != 0:
		x = 'x'
	}
	return append(dst, r, w, x)
}
