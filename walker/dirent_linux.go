package walker

import (
	"bytes"
	"encoding/binary"
	"math/bits"
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

// nextDirent parses the record at buf[pos:] into *d and returns the
// position of the next record; ok is false when buf holds no complete
// record. It is the walk's one record parser: every engine's read loop
// calls it once per record, so it is kept cheap.
//
// The name's end is found from the record length, which the kernel
// (filldir64) rounds up to 8 bytes past the name's NUL, in the record's
// last 8 bytes, rather than by a search from the start; a record of any
// other layout falls back to a search. The record is set in *d rather
// than returned: a returned dirent goes through the stack and is read
// back whole before its parts are stored (a store-forwarding stall per
// record). Records with inode 0 (deleted entries some file systems
// report, or a record with no NUL inside it) come back with ino 0 for
// the caller to skip.
func nextDirent(buf []byte, pos int, d *dirent) (next int, ok bool) {
	if pos+int(direntName) > len(buf) {
		return pos, false
	}
	p := unsafe.Pointer(&buf[pos])
	reclen := int(*(*uint16)(unsafe.Add(p, direntReclen)))
	if reclen < int(direntName)+1 || pos+reclen > len(buf) {
		return pos, false
	}
	d.ino = *(*uint64)(unsafe.Add(p, direntIno))
	d.off = *(*int64)(unsafe.Add(p, direntOff))
	d.typ = typeFromDT(*(*uint8)(unsafe.Add(p, direntType)))
	// The first zero byte of the last word, in address order, with the
	// header bytes before the name (in a short record) forced to
	// non-zero: the lowest byte flagged by the zero-byte test is exact.
	last := reclen - 8
	w := binary.LittleEndian.Uint64(buf[pos+last:])
	if skip := int(direntName) - last; skip > 0 {
		w |= 1<<(8*skip) - 1
	}
	n := -1
	if z := (w - 0x0101010101010101) &^ w & 0x8080808080808080; z != 0 {
		n = last + bits.TrailingZeros64(z)/8 - int(direntName)
	}
	if n < 1 || buf[pos+int(direntName)+n-1] == 0 || (int(direntName)+n+1+7)&^7 != reclen {
		// Not the layout of filldir64 (the NUL may be before the last
		// word): search.
		n = bytes.IndexByte(buf[pos+int(direntName):pos+reclen], 0)
	}
	if n < 0 {
		// No terminator inside the record: not a kernel we know. Treat
		// the record as unusable rather than read past it.
		d.ino = 0
		n = reclen - int(direntName)
	}
	d.name = buf[pos+int(direntName) : pos+int(direntName)+n]
	return pos + reclen, true
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
