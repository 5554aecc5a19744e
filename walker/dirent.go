package walker

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The record layouts. Each OS's directory call returns records of its
// own struct dirent; they are parsed in place, so that skipping "." and
// ".." and deciding whether to descend costs no allocation. Every layout
// starts with a 64-bit inode number (direntIno) and ends its name with a
// NUL inside the record, which the *at calls rely on. The offsets are
// written out rather than taken from unix.Dirent, which exists only for
// the OS being built, so that every parser builds, and is tested,
// everywhere; each OS's sys file binds nextDirent and direntName to its
// layout and checks the offsets against its unix.Dirent at compile time.
const direntIno = 0

// struct linux_dirent64 (getdents64), which the stream reader
// (sys_stream.go) also writes for macOS's readdir: d_ino, d_off,
// d_reclen, d_type, d_name; records 8-byte aligned.
const (
	d64Off    = 8
	d64Reclen = 16
	d64Type   = 18
	d64Name   = 19
)

// FreeBSD's struct dirent (FreeBSD 12 and later): d_fileno, d_off,
// d_reclen, d_type, d_pad0, d_namlen (16 bits), d_pad1, d_name.
const (
	fbsdReclen = 16
	fbsdType   = 18
	fbsdNamlen = 20
	fbsdName   = 24
)

// OpenBSD's struct dirent: d_fileno, d_off, d_reclen, d_type, d_namlen
// (8 bits), padding, d_name.
const (
	obsdReclen = 16
	obsdType   = 18
	obsdNamlen = 19
	obsdName   = 24
)

// NetBSD's struct dirent: d_fileno, d_reclen, d_namlen (16 bits),
// d_type, d_name. No d_off: a reread resumes at the descriptor's offset
// (tellDir), which no engine needs per record.
const (
	nbsdReclen = 8
	nbsdNamlen = 10
	nbsdType   = 12
	nbsdName   = 13
)

// direntBufSize is the size of a read buffer (a getdents call, or the
// records copied from a stream). 32 KiB holds about 800 records of
// typical names: one call reads most directories whole.
const direntBufSize = 32 << 10

// dirent is one parsed record. name aliases the read buffer and is
// followed there by its NUL terminator (the kernel writes one), which
// the *at calls rely on.
type dirent struct {
	ino  uint64
	typ  Type
	name []byte
}

// parseDirent64 parses the linux_dirent64 record at buf[pos:] into *d
// and returns the position of the next record; ok is false when buf
// holds no complete record. On Linux and macOS it is nextDirent, the
// walk's one record parser: every engine's read loop calls it once per
// record, so it is kept cheap.
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
func parseDirent64(buf []byte, pos int, d *dirent) (next int, ok bool) {
	if pos+int(d64Name) > len(buf) {
		return pos, false
	}
	p := unsafe.Pointer(&buf[pos])
	reclen := int(*(*uint16)(unsafe.Add(p, d64Reclen)))
	if reclen < int(d64Name)+1 || pos+reclen > len(buf) {
		return pos, false
	}
	d.ino = *(*uint64)(unsafe.Add(p, direntIno))
	d.typ = typeFromDT(*(*uint8)(unsafe.Add(p, d64Type)))
	// The first zero byte of the last word, in address order, with the
	// header bytes before the name (in a short record) forced to
	// non-zero: the lowest byte flagged by the zero-byte test is exact.
	last := reclen - 8
	w := binary.LittleEndian.Uint64(buf[pos+last:])
	if skip := int(d64Name) - last; skip > 0 {
		w |= 1<<(8*skip) - 1
	}
	n := -1
	if z := (w - 0x0101010101010101) &^ w & 0x8080808080808080; z != 0 {
		n = last + bits.TrailingZeros64(z)/8 - int(d64Name)
	}
	if n < 1 || buf[pos+int(d64Name)+n-1] == 0 || (int(d64Name)+n+1+7)&^7 != reclen {
		// Not the layout of filldir64 (the NUL may be before the last
		// word): search.
		n = bytes.IndexByte(buf[pos+int(d64Name):pos+reclen], 0)
	}
	if n < 0 {
		// No terminator inside the record: not a kernel we know. Treat
		// the record as unusable rather than read past it.
		d.ino = 0
		n = reclen - int(d64Name)
	}
	d.name = buf[pos+int(d64Name) : pos+int(d64Name)+n]
	return pos + reclen, true
}

// parseFreeBSD, parseOpenBSD and parseNetBSD parse a record of their
// OS's layout, as parseDirent64 does. The BSDs say how long the name is
// (d_namlen), so no search is needed.
func parseFreeBSD(buf []byte, pos int, d *dirent) (next int, ok bool) {
	if pos+fbsdName > len(buf) {
		return pos, false
	}
	p := unsafe.Pointer(&buf[pos])
	reclen := int(*(*uint16)(unsafe.Add(p, fbsdReclen)))
	namlen := int(*(*uint16)(unsafe.Add(p, fbsdNamlen)))
	return parseNamed(buf, pos, reclen, fbsdName, namlen, *(*uint8)(unsafe.Add(p, fbsdType)), d)
}

func parseOpenBSD(buf []byte, pos int, d *dirent) (next int, ok bool) {
	if pos+obsdName > len(buf) {
		return pos, false
	}
	p := unsafe.Pointer(&buf[pos])
	reclen := int(*(*uint16)(unsafe.Add(p, obsdReclen)))
	namlen := int(*(*uint8)(unsafe.Add(p, obsdNamlen)))
	return parseNamed(buf, pos, reclen, obsdName, namlen, *(*uint8)(unsafe.Add(p, obsdType)), d)
}

func parseNetBSD(buf []byte, pos int, d *dirent) (next int, ok bool) {
	if pos+nbsdName > len(buf) {
		return pos, false
	}
	p := unsafe.Pointer(&buf[pos])
	reclen := int(*(*uint16)(unsafe.Add(p, nbsdReclen)))
	namlen := int(*(*uint16)(unsafe.Add(p, nbsdNamlen)))
	return parseNamed(buf, pos, reclen, nbsdName, namlen, *(*uint8)(unsafe.Add(p, nbsdType)), d)
}

// parseNamed finishes a record whose name is namlen bytes at nameAt: a
// record too short for its header is the end of what can be parsed; one
// whose name does not fit, or is not followed by a NUL, is handed back
// with ino 0, for the caller to skip (as a deleted entry).
func parseNamed(buf []byte, pos, reclen, nameAt, namlen int, dt uint8, d *dirent) (next int, ok bool) {
	if reclen < nameAt+1 || pos+reclen > len(buf) {
		return pos, false
	}
	d.ino = *(*uint64)(unsafe.Pointer(&buf[pos]))
	d.typ = typeFromDT(dt)
	if namlen < 1 || nameAt+namlen >= reclen || buf[pos+nameAt+namlen] != 0 {
		d.ino = 0
		namlen = 0
	}
	d.name = buf[pos+nameAt : pos+nameAt+namlen]
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
