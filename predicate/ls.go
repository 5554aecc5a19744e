package predicate

import (
	"os"
	"strconv"
	"sync/atomic"

	"github.com/gfind/gfind/internal/lscolors"
	"github.com/gfind/gfind/internal/printf"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// lsNode is -ls and -fls FILE: one line per file in the layout of GNU
// find 4.9's list_file (lib/listfile.c), which is that of ls -dils:
//
//	11118975      4 -rw-r--r--   1 root     root         3000 Mar  4  2021 ./a\ b -> c
//
// inode, size in 1 KiB blocks (512-byte blocks with POSIXLY_CORRECT),
// mode, link count, owner and group (names, or numbers when the account
// database has none), size in bytes (or "major, minor" for a device),
// modification time ("Mon DD HH:MM" within six months before the start
// of the run and one hour after it, "Mon DD  YYYY" otherwise), the path
// with GNU's -ls escapes, and "-> target" for a symbolic link.
//
// The fields have minimum widths that grow, for the rest of the run,
// when a value does not fit: GNU keeps them in static variables shared
// by every -ls and -fls. gfind shares them too (lsWidths), updated
// atomically, so with -j1 the output is GNU's byte for byte; with
// several workers a line may be formatted before a wider one that GNU
// would have printed earlier, and be padded less.
type lsNode struct {
	op, name  string // name: -fls's file as given
	file      *outFile
	now       int64 // the start of the run, for the recent-file rule
	blockSize int64 // 1024, or 512 under POSIXLY_CORRECT
	w         *lsWidths
	color     *colorizer // -ls on standard output with colors on (color.go)
}

// lsWidths are list_file's field widths.
type lsWidths struct {
	inode, blocks, nlink, owner, group, major, minor, size atomic.Int64
}

func newLsWidths() *lsWidths {
	w := &lsWidths{}
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

func (n *lsNode) Eval(e *walker.Entry, s *State) bool {
	if !s.act() {
		return false
	}
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	b, _ := s.out(n.file)
	b.Write(n.appendLine(b.AvailableBuffer(), e, st, s))
	endRecord(b, n.file, false)
	return true
}

// appendLine appends the -ls line of e.
func (n *lsNode) appendLine(dst []byte, e *walker.Entry, st *unix.Stat_t, s *State) []byte {
	w := n.w
	var num [24]byte

	// Colored, bfs writes the fields before the name in the "no"
	// color, when it is set.
	var normal []byte
	if n.color != nil {
		normal = n.color.c.Color(lscolors.IndNormal)
	}
	dst = append(dst, normal...)
	dst = appendRight(dst, strconv.AppendUint(num[:0], uint64(st.Ino), 10), &w.inode)
	dst = append(dst, ' ')
	blocks := (uint64(st.Blocks)*512 + uint64(n.blockSize) - 1) / uint64(n.blockSize)
	dst = appendRight(dst, strconv.AppendUint(num[:0], blocks, 10), &w.blocks)
	dst = append(dst, ' ')
	dst = printf.AppendFileMode(dst, uint32(st.Mode))
	dst = append(dst, ' ') // strmode's "alternate access method" column
	dst = appendRight(dst, strconv.AppendUint(num[:0], uint64(st.Nlink), 10), &w.nlink)
	dst = append(dst, ' ')

	names := systemIDs()
	if name, ok := names.User(st.Uid); ok {
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
	if name, ok := names.Group(st.Gid); ok {
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
	if n.now-6*30*24*60*60 <= mtime && mtime <= n.now+60*60 {
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
	if normal != nil {
		dst = append(dst, n.color.reset...)
	}
	dst = append(dst, ' ')

	esc := appendLsName
	if n.color != nil && !s.Out.TTY() {
		// Colored through a pipe, names are written as -print writes
		// them colored (bfs); on a terminal -ls keeps GNU's escapes.
		esc = s.Out.ColorEscape()
	}
	if n.color != nil {
		dst = n.color.appendPath(dst, e, s, esc)
	} else {
		dst = appendLsName(dst, e.Path)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		if target, err := e.Readlink(); err == nil {
			dst = append(dst, " -> "...)
			if n.color != nil {
				dst = n.color.appendTarget(dst, e, target, esc)
			} else {
				dst = appendLsName(dst, target)
			}
		} else {
			// GNU's error (0, errno, "%s", name): the path unquoted,
			// and the exit status is left alone.
			s.Diag.Notef("%s: %s", e.Path, output.Strerror(err))
		}
	}
	return append(dst, '\n')
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

// appendLsName appends a name as list_file's print_name_with_quoting
// writes it: backslash escapes for \\ \n \b \r \t \f, a space and '"',
// the other printable ASCII characters as they are, and every other
// byte as a three-digit octal escape. The locale does not matter.
func appendLsName(dst, name []byte) []byte {
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

func (n *lsNode) Facts() Facts {
	return Facts{Effects: outEffect(n.file) | EffectOrder, Cost: costPrint + costStat, Prob: 1}
}

func (n *lsNode) Args() []string {
	if n.op == "-fls" {
		return []string{n.op, n.name}
	}
	return []string{n.op}
}

func (n *lsNode) outputFile() *outFile { return n.file }

func parseLs(p *parser, op string, v variant) error {
	n := &lsNode{op: op, now: p.cfg.Now.Unix(), blockSize: 1024}
	if _, posix := os.LookupEnv("POSIXLY_CORRECT"); posix {
		n.blockSize = 512
	}
	if v&toFile != 0 {
		name, err := p.arg(op)
		if err != nil {
			return err
		}
		if n.file, err = p.openOutput(name); err != nil {
			return err
		}
		n.name = name
	}
	// The widths are shared by every -ls and -fls, as GNU's statics are.
	for _, t := range p.toks {
		if ls, ok := t.node.(*lsNode); ok {
			n.w = ls.w
			break
		}
	}
	if n.w == nil {
		n.w = newLsWidths()
	}
	p.push(n)
	return nil
}
