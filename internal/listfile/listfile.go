package listfile

import (
	"strconv"
	"sync/atomic"

	"github.com/gfind/gfind/internal/accounts"
	"github.com/gfind/gfind/internal/printf"
	"golang.org/x/sys/unix"
)

// Widths are list_file's field widths. They grow, for the rest of the
// run, when a value does not fit: GNU keeps them in static variables
// shared by every -ls and -fls, and so does the caller (one Widths for
// the run). They are updated atomically, so with one worker the output
// is GNU's byte for byte; with several a line may be formatted before a
// wider one that GNU would have printed earlier, and be padded less.
type Widths struct {
	inode, blocks, nlink, owner, group, major, minor, size atomic.Int64
}

// NewWidths returns list_file's starting widths.
func NewWidths() *Widths {
	w := &Widths{}
	w.inode.Store(9)
	w.blocks.Store(6)
	w.nlink.Store(3)
	w.owner.Store(8)
	w.group.Store(8)
	w.major.Store(3)
	w.minor.Store(3)
	w.size.Store(8)
	return w
}

// grow raises w to at least n.
func grow(w *atomic.Int64, n int) {
	for {
		old := w.Load()
		if int64(n) <= old || w.CompareAndSwap(old, int64(n)) {
			return
		}
	}
}

// AppendFields appends the fields of st's line before the name, in
// the layout of GNU find 4.9's list_file: inode, size in blockSize
// blocks (1024, or 512 under POSIXLY_CORRECT), mode, link count, owner
// and group (names from ids, or numbers when it has none), size in
// bytes (or "major, minor" for a device), modification time ("Mon DD
// HH:MM" within six months before now, the start of the run, and one
// hour after it, "Mon DD  YYYY" otherwise), each but the last followed
// by a space.
func (w *Widths) AppendFields(dst []byte, st *unix.Stat_t, ids *accounts.DB, now, blockSize int64) []byte {
	var num [24]byte
	dst = appendRight(dst, strconv.AppendUint(num[:0], uint64(st.Ino), 10), &w.inode)
	dst = append(dst, ' ')
	blocks := (uint64(st.Blocks)*512 + uint64(blockSize) - 1) / uint64(blockSize)
	dst = appendRight(dst, strconv.AppendUint(num[:0], blocks, 10), &w.blocks)
	dst = append(dst, ' ')
	dst = printf.AppendFileMode(dst, uint32(st.Mode))
	dst = append(dst, ' ') // strmode's "alternate access method" column
	dst = appendRight(dst, strconv.AppendUint(num[:0], uint64(st.Nlink), 10), &w.nlink)
	dst = append(dst, ' ')

	if name, ok := ids.User(st.Uid); ok {
		grow(&w.owner, len(name))
		dst = appendLeft(dst, name, int(w.owner.Load()))
		dst = append(dst, ' ')
	} else {
		// "%-8lu ": a fixed 8, whatever the width, and the count of
		// what was printed, space included, widens the owner column.
		start := len(dst)
		dst = appendLeft(dst, strconv.AppendUint(num[:0], uint64(st.Uid), 10), 8)
		dst = append(dst, ' ')
		grow(&w.owner, len(dst)-start)
	}
	if name, ok := ids.Group(st.Gid); ok {
		grow(&w.group, len(name))
		dst = appendLeft(dst, name, int(w.group.Load()))
	} else {
		start := len(dst)
		dst = appendLeft(dst, strconv.AppendUint(num[:0], uint64(st.Gid), 10), int(w.group.Load()))
		grow(&w.group, len(dst)-start)
	}
	dst = append(dst, ' ')

	if t := st.Mode & unix.S_IFMT; t == unix.S_IFCHR || t == unix.S_IFBLK {
		dst = appendRight(dst, strconv.AppendUint(num[:0], uint64(unix.Major(uint64(st.Rdev))), 10), &w.major)
		dst = append(dst, ", "...)
		dst = appendRight(dst, strconv.AppendUint(num[:0], uint64(unix.Minor(uint64(st.Rdev))), 10), &w.minor)
	} else {
		dst = appendRight(dst, strconv.AppendUint(num[:0], uint64(st.Size), 10), &w.size)
	}
	dst = append(dst, ' ')

	mtime := int64(st.Mtim.Sec) // int32 on 32-bit Linux
	layout := "%b %e  %Y"
	if now-6*30*24*60*60 <= mtime && mtime <= now+60*60 {
		layout = "%b %e %H:%M"
	}
	var ok bool
	if dst, ok = printf.AppendTime(dst, layout, mtime); !ok {
		// localtime failed: the seconds, in 12 columns.
		var abs uint64
		if mtime < 0 {
			abs = -uint64(mtime)
		} else {
			abs = uint64(mtime)
		}
		digits := strconv.AppendUint(num[:0], abs, 10)
		if mtime < 0 {
			for i := len(digits) + 1; i < 12; i++ {
				dst = append(dst, ' ')
			}
			dst = append(dst, '-')
			dst = append(dst, digits...)
		} else {
			dst = appendLeftPad(dst, digits, 12)
		}
	}
	return dst
}

// appendRight appends v right-aligned in a field of the width w holds,
// and widens w when v did not fit ("%*s").
func appendRight[T ~string | ~[]byte](dst []byte, v T, w *atomic.Int64) []byte {
	width := int(w.Load())
	dst = appendLeftPad(dst, v, width)
	grow(w, len(v))
	return dst
}

func appendLeftPad[T ~string | ~[]byte](dst []byte, v T, width int) []byte {
	for i := len(v); i < width; i++ {
		dst = append(dst, ' ')
	}
	return append(dst, v...)
}

// appendLeft appends v left-aligned in width columns ("%-*s").
func appendLeft[T ~string | ~[]byte](dst []byte, v T, width int) []byte {
	dst = append(dst, v...)
	for i := len(v); i < width; i++ {
		dst = append(dst, ' ')
	}
	return dst
}

// AppendName appends a name as list_file's print_name_with_quoting
// writes it: backslash escapes for \\ \n \b \r \t \f, a space and '"',
// the other printable ASCII characters as they are, and every other
// byte as a three-digit octal escape. The locale does not matter.
func AppendName(dst, name []byte) []byte {
	for _, c := range name {
		switch c {
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\f':
			dst = append(dst, '\\', 'f')
		case ' ':
			dst = append(dst, '\\', ' ')
		case '"':
			dst = append(dst, '\\', '"')
		default:
			if c > 040 && c < 0177 {
				dst = append(dst, c)
			} else {
				dst = append(dst, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
			}
		}
	}
	return dst
}
