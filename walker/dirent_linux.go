package walker

import (
	"bytes"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Offsets in a struct linux_dirent64 record, as os/dir_unix.go reads
// them: the records are parsed in place, so that skipping "." and ".."
// and deciding whether to descend costs no allocation.
const (
	direntIno    = unsafe.Offsetof(unix.Dirent{}.Ino)
	direntOff    = unsafe.Offsetof(unix.Dirent{}.Off)
	direntReclen = unsafe.Offsetof(unix.Dirent{}.Reclen)
	direntType   = unsafe.Offsetof(unix.Dirent{}.Type)
	direntName   = unsafe.Offsetof(unix.Dirent{}.Name)
)

// direntBufSize is the size of a getdents64 buffer. 32 KiB holds about
// 800 records of typical names: one call reads most directories whole.
const direntBufSize = 32 << 10

// dirent is one parsed record. name aliases the read buffer and is
// followed there by its NUL terminator (the kernel writes one), which
// the *at calls rely on.
type dirent struct {
	ino  uint64
	off  int64 // the d_off cookie: where a reread would resume after this record
	typ  Type
	name []byte
}

// nextDirent parses the record at buf[pos:] and returns it with the
// position of the next record; ok is false when buf holds no complete
// record. Records with inode 0 (deleted entries some file systems report)
// come back with ino 0 for the caller to skip.
func nextDirent(buf []byte, pos int) (d dirent, next int, ok bool) {
	if pos+int(direntName) > len(buf) {
		return d, pos, false
	}
	p := unsafe.Pointer(&buf[pos])
	reclen := int(*(*uint16)(unsafe.Add(p, direntReclen)))
	if reclen < int(direntName)+1 || pos+reclen > len(buf) {
		return d, pos, false
	}
	d.ino = *(*uint64)(unsafe.Add(p, direntIno))
	d.off = *(*int64)(unsafe.Add(p, direntOff))
	d.typ = typeFromDT(*(*uint8)(unsafe.Add(p, direntType)))
	name := buf[pos+int(direntName) : pos+reclen]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	} else {
		// No terminator inside the record: not a kernel we know. Treat
		// the record as unusable rather than read past it.
		d.ino = 0
	}
	d.name = name
	return d, pos + reclen, true
}

// isDots reports whether name is "." or "..".
func isDots(name []byte) bool {
	return len(name) <= 2 && len(name) > 0 && name[0] == '.' && (len(name) == 1 || name[1] == '.')
}

// typeFromDT maps a d_type value to a Type.
func typeFromDT(dt uint8) Type {
	switch dt {
	case unix.DT_REG:
		return TypeRegular
	case unix.DT_DIR:
		return TypeDir
	case unix.DT_LNK:
		return TypeSymlink
	case unix.DT_FIFO:
		return TypeFIFO
	case unix.DT_SOCK:
		return TypeSocket
	case unix.DT_CHR:
		return TypeChar
	case unix.DT_BLK:
		return TypeBlock
	}
	return TypeUnknown
}
