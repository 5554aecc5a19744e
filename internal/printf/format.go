package printf

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gfind/gfind/internal/ctype"
	"github.com/gfind/gfind/internal/meta"
	"github.com/gfind/gfind/internal/quote"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// Format is a -printf format compiled once, at parse time, into a list
// of segments: literal text and directives. Appending the expansion for
// one file runs the list, without parsing anything again and, for the
// common directives (%p %f %s %d %y %m and the like), without allocating.
//
// Compiling follows GNU find 4.9's insert_fprintf (find/print.c) step for
// step, including its quirks: a flag '0' is read as the start of the
// width, so "%0-5d" is the unknown directive "%0-" followed by "5d"; an
// unknown directive or escape is copied literally with a warning; "%5%"
// prints "%5"; everything after \c is dropped.
type Format struct {
	src  string
	segs []fseg
	// flush is set when the format ended at \c: GNU then flushes the
	// stream after this -printf's output.
	flush     bool
	stat, typ bool
	link      bool // %Y or %l: a link's own status is needed
	ino       bool // %i: the directory record's number may do
}

// fseg is one segment: literal text, then (when conv is not 0) a
// directive with its flags.
type fseg struct {
	lit   []byte
	conv  byte // the directive letter; 0 for literal text only
	aux   byte // the time letter after %A, %B, %C and %T
	sp    spec
	plain bool // no flags, width or precision: colored under -color
}

// Directive letters GNU find knows: one byte, or two for the time
// directives (get_format_specifer_length).
const (
	oneLetter = "abcdDfFgGhHiklmMnpPsStuUyYZ%"
	twoLetter = "ABCT"
)

// Compile compiles a -printf format. It returns GNU's warnings
// (without "warning: "; GNU prints them whatever -warn/-nowarn say) and,
// for a format GNU rejects, an error whose text is GNU's message without
// the program name.
func Compile(format string) (*Format, []string, error) {
	f := &Format{src: format}
	// argv strings end at the first NUL; so does GNU's view of one.
	if i := strings.IndexByte(format, 0); i >= 0 {
		format = format[:i]
	}
	var warns []string
	b := []byte(format) // escapes are decoded in place, as GNU does
	at := func(i int) byte {
		if i < len(b) {
			return b[i]
		}
		return 0
	}
	segstart := 0
	i := 0
	for ; i < len(b); i++ {
		switch {
		case b[i] == '\\' && at(i+1) == 'c':
			f.addLit(b[segstart:i])
			f.flush = true
			return f, warns, nil
		case b[i] == '\\':
			readpos := 1
			switch c := at(i + 1); {
			case i+1 >= len(b):
				warns = append(warns, "escape `\\' followed by nothing at all")
				readpos = 0 // the backslash itself is printed
			case '0' <= c && c <= '7':
				n, k := 0, 0
				for ; k < 3 && '0' <= at(i+1+k) && at(i+1+k) <= '7'; k++ {
					n = 8*n + int(at(i+1+k)-'0')
				}
				b[i] = byte(n)
				readpos += k - 1
			default:
				v := ctype.Unescape(c)
				if v == 0 {
					warns = append(warns, fmt.Sprintf("unrecognized escape `\\%c'", c))
					i += readpos
					continue // both bytes stay in the text
				}
				b[i] = v
			}
			f.addLit(b[segstart : i+1])
			segstart = i + readpos + 1
			i += readpos
		case b[i] == '%':
			if i+1 >= len(b) {
				return nil, warns, errors.New("error: % at end of format string")
			}
			pos := i + 1
			if b[i+1] != '%' {
				pos = flagsEnd(b, i)
			}
			c := at(pos)
			n := 0
			switch {
			case c != 0 && strings.IndexByte(oneLetter, c) >= 0:
				n = 1
			case c != 0 && strings.IndexByte(twoLetter, c) >= 0:
				n = 2
			}
			if n > 0 && at(pos+n-1) != 0 {
				if c == '%' {
					// GNU writes the segment's text, which stops before
					// the final '%': "%%" is "%", "%5%" is "%5".
					f.addLit(b[segstart:pos])
				} else {
					seg := fseg{lit: clone(b[segstart:i]), conv: c, sp: parseSpec(b[i+1 : pos]), plain: pos == i+1}
					if n == 2 {
						seg.aux = b[pos+1]
					}
					f.segs = append(f.segs, seg)
					f.need(c)
				}
				i = pos + n - 1
				segstart = i + 1
				continue
			}
			if c == 0 || strings.IndexByte("{[(", c) >= 0 {
				// c == 0 too: GNU's strchr finds the string's terminator,
				// and its message then holds a NUL byte.
				return nil, warns, fmt.Errorf("error: the format directive `%%%c' is reserved for future use", c)
			}
			if n == 2 {
				warns = append(warns, fmt.Sprintf("format directive `%%%c' should be followed by another character", c))
			} else {
				warns = append(warns, fmt.Sprintf("unrecognized format directive `%%%c'", c))
			}
			f.addLit(b[segstart : pos+1])
			i = pos
			segstart = pos + 1
		}
	}
	if i > segstart {
		f.addLit(b[segstart:i])
	}
	return f, warns, nil
}

// flagsEnd is GNU's get_format_flags_length: the index after the flags
// "-+ #", the digits of a width and a precision, from the '%' at i.
func flagsEnd(b []byte, i int) int {
	n := i + 1
	for n < len(b) && strings.IndexByte("-+ #", b[n]) >= 0 {
		n++
	}
	for n < len(b) && '0' <= b[n] && b[n] <= '9' {
		n++
	}
	if n < len(b) && b[n] == '.' {
		for n++; n < len(b) && '0' <= b[n] && b[n] <= '9'; n++ {
		}
	}
	return n
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// addLit appends literal text, merging it with a literal-only segment
// before it.
func (f *Format) addLit(b []byte) {
	if len(b) == 0 {
		return
	}
	if k := len(f.segs); k > 0 && f.segs[k-1].conv == 0 {
		f.segs[k-1].lit = append(f.segs[k-1].lit, b...)
		return
	}
	f.segs = append(f.segs, fseg{lit: clone(b)})
}

// need records what directive c needs to know about the file.
func (f *Format) need(c byte) {
	switch c {
	case 'y', 'Y', 'l':
		// The type decides; d_type gives it without a stat.
		f.typ = true
		f.link = f.link || c != 'y'
	case 'i':
		// GNU takes it from the directory record when it can (need_inum).
		f.ino = true
	case 'd', 'f', 'h', 'H', 'p', 'P', 'Z':
	default:
		f.stat = true
	}
}

// String returns the format as it was given.
func (f *Format) String() string { return f.src }

// NeedsStat reports whether some directive needs the file's status (the
// one the tests see: the link's target under -L).
func (f *Format) NeedsStat() bool { return f.stat }

// NeedsIno reports whether some directive (%i) needs the file's inode
// number. When NeedsStat is false and the Entry's DirentIno has none,
// the caller must supply the status.
func (f *Format) NeedsIno() bool { return f.ino }

// NeedsType reports whether some directive needs the file's type. When
// the Entry's Type is TypeUnknown the caller must supply the status.
func (f *Format) NeedsType() bool { return f.typ }

// NeedsLinkStatus reports whether some directive (%Y, %l) reads what a
// symbolic link points to: for a link the caller must then supply the
// status, as GNU stats before them, so that a link that vanished since
// its directory was read is reported (or skipped, under
// -ignore_readdir_race) like any file whose status is needed, not met
// by readlink or stat halfway through the record.
func (f *Format) NeedsLinkStatus() bool { return f.link }

// Flush reports whether the format ended at \c, after which GNU flushes
// the output stream.
func (f *Format) Flush() bool { return f.flush }

// Env is what expanding a format needs besides the file: it is built
// once per command and shared, read-only, by every worker.
type Env struct {
	// Roots are the starting points as given, for %H when a path alone
	// cannot tell "a/b" under "a" from "a/b" under "a/" (see rootLen).
	Roots []string
	// Follow is the -H/-L/-P mode, for %Y and %Z.
	Follow walker.Follow
	// Style is how a terminal sees unprintable bytes in %p and friends.
	Style quote.Style
	// Report is told of a failure on the file being formatted (%l, %Y,
	// %Z), to word and count as GNU does; nil drops it.
	Report func(f Failure, path []byte, err error)
	// User and Group give the name for an id, or false when the account
	// database has none (%u and %g then print the number).
	User, Group func(id uint32) (string, bool)
	// FSType names the file system holding the file (%F); nil prints
	// "unknown".
	FSType func(e *walker.Entry, st *unix.Stat_t) string
	// Color, when set (-color, on standard output), colors %p, %f, %h,
	// %H, %P and %l as bfs 4.1 does, when they have no flags, width or
	// precision.
	Color Colors
}

// Failure is what could not be read for a directive, which decides how
// GNU reports it.
type Failure uint8

const (
	// ReadlinkFailed is %l's readlink: a failure on the file like any
	// other ("'f': Permission denied"), which fails the run.
	ReadlinkFailed Failure = iota
	// GetfileconFailed is %Z's security context: "getfilecon failed:
	// 'f': ...", which fails the run.
	GetfileconFailed
	// TargetStatFailed is %Y's stat of a link's target, for a reason
	// other than its absence or a loop (EACCES): "'f': ...", which GNU
	// 4.9 gives without changing the exit status.
	TargetStatFailed
)

// Colors colors file names as bfs 4.1's -printf does under -color. esc
// writes each run of text: as GNU does on a terminal ('?' for what
// cannot be printed), otherwise $'…'-quoted when it must be, as bfs.
type Colors interface {
	// AppendPath appends path, which ends in e's name, with
	// path[:split] in the directory color and the rest in e's color
	// (follow: e's target's).
	AppendPath(dst []byte, e *walker.Entry, follow bool, path []byte, split int, esc func(dst, text []byte) []byte) []byte
	// AppendDir appends text in the directory color.
	AppendDir(dst, text []byte, esc func(dst, text []byte) []byte) []byte
	// AppendTarget appends the target of the symbolic link e, colored
	// as a path to what it leads to, its missing part in mi.
	AppendTarget(dst []byte, e *walker.Entry, target []byte, esc func(dst, text []byte) []byte) []byte
}

// ErrOverflow is what Append returns when a width or a precision is
// above INT_MAX: glibc's printf fails with EOVERFLOW, and GNU reports
// "'standard output': Value too large for defined data type" (exit
// status 1), after printing the text before the directive.
var ErrOverflow = unix.EOVERFLOW

// Append appends the expansion of f for e to dst. st is the file's
// status as the tests see it; it may be nil when the format needs none
// (NeedsStat false, NeedsType false or e.Type known, and NeedsIno false
// or e.DirentIno known). With tty set,
// unprintable bytes in names are shown as '?', as GNU does when the
// destination is a terminal. The only error returned is ErrOverflow;
// failures on the file itself are reported through env.Report.
func (f *Format) Append(dst []byte, e *walker.Entry, st *unix.Stat_t, env *Env, tty bool) ([]byte, error) {
	var err error
	for i := range f.segs {
		sg := &f.segs[i]
		dst = append(dst, sg.lit...)
		if sg.conv == 0 {
			continue
		}
		if sg.sp.overflow {
			err = ErrOverflow
			continue
		}
		dst = sg.appendDirective(dst, e, st, env, tty)
	}
	return dst, err
}

func (sg *fseg) appendDirective(dst []byte, e *walker.Entry, st *unix.Stat_t, env *Env, tty bool) []byte {
	sp := sg.sp
	if env.Color != nil && sg.plain && strings.IndexByte("pfhHPl", sg.conv) >= 0 {
		return sg.appendColored(dst, e, st, env, tty)
	}
	switch sg.conv {
	case 'p':
		return appendName(dst, e.Path, sp, env, tty)
	case 'f':
		return appendName(dst, baseName(e.Path), sp, env, tty)
	case 'h':
		return appendName(dst, dirName(e.Path), sp, env, tty)
	case 'P':
		rest := e.Path[entryRootLen(e, env):]
		if len(rest) > 0 && rest[0] == '/' {
			rest = rest[1:]
		}
		if e.Depth == 0 {
			rest = nil
		}
		return appendName(dst, rest, sp, env, tty)
	case 'H':
		// GNU prints the starting point with plain %s, never quoted.
		return appendCString(dst, e.Path[:entryRootLen(e, env)], sp)
	case 'd':
		return appendCInt(dst, int64(e.Depth), sp)
	case 'i':
		if st != nil {
			return appendCUint(dst, uint64(st.Ino), sp)
		}
		if ino, ok := e.DirentIno(); ok {
			return appendCUint(dst, ino, sp)
		}
		return dst // the caller broke Append's contract; print nothing
	case 'y':
		return appendCString(dst, TypeName(fileMode(e, st)), sp)
	case 'Y':
		return appendCString(dst, targetType(e, st, env), sp)
	case 'l':
		var target []byte
		if fileMode(e, st)&unix.S_IFMT == unix.S_IFLNK {
			t, err := e.Readlink()
			if err != nil {
				env.report(ReadlinkFailed, e, err)
			}
			target = t
		}
		return appendName(dst, target, sp, env, tty)
	case 'Z':
		ctx, err := selinuxContext(e, env.Follow.Follows(e.Depth))
		if err != nil {
			env.report(GetfileconFailed, e, err)
			return appendCString(dst, "", sp)
		}
		return appendCString(dst, ctx, sp)
	}
	if st == nil {
		return dst // the caller broke Append's contract; print nothing
	}
	switch sg.conv {
	case 's':
		return appendCUint(dst, uint64(st.Size), sp)
	case 'b':
		return appendCUint(dst, uint64(st.Blocks), sp)
	case 'k':
		return appendCUint(dst, (uint64(st.Blocks)+1)/2, sp)
	case 'n':
		return appendCUint(dst, uint64(st.Nlink), sp)
	case 'D':
		return appendCUint(dst, uint64(st.Dev), sp)
	case 'U':
		return appendCUint(dst, uint64(st.Uid), sp)
	case 'G':
		return appendCUint(dst, uint64(st.Gid), sp)
	case 'u':
		if env.User != nil {
			if name, ok := env.User(st.Uid); ok {
				return appendCString(dst, name, sp)
			}
		}
		return appendCUint(dst, uint64(st.Uid), sp)
	case 'g':
		if env.Group != nil {
			if name, ok := env.Group(st.Gid); ok {
				return appendCString(dst, name, sp)
			}
		}
		return appendCUint(dst, uint64(st.Gid), sp)
	case 'm':
		return appendCOctal(dst, uint64(st.Mode&07777), sp)
	case 'M':
		start := len(dst)
		dst = AppendFileMode(dst, uint32(st.Mode)) // uint16 on macOS and the BSDs
		return padString(dst, start, sp)
	case 'S':
		return appendCFloatG(dst, sparseness(st), sp)
	case 'F':
		name := "unknown"
		if env.FSType != nil {
			name = env.FSType(e, st)
		}
		return appendName(dst, []byte(name), sp, env, tty)
	case 'a':
		return appendCTime(dst, tsOf(st.Atim), sp)
	case 'c':
		return appendCTime(dst, tsOf(st.Ctim), sp)
	case 't':
		return appendCTime(dst, tsOf(st.Mtim), sp)
	case 'A':
		return appendDate(dst, tsOf(st.Atim), sg.aux, sp)
	case 'C':
		return appendDate(dst, tsOf(st.Ctim), sg.aux, sp)
	case 'T':
		return appendDate(dst, tsOf(st.Mtim), sg.aux, sp)
	case 'B':
		// GNU find reads the birth time with stat(2) (meta.StatBirth): on
		// macOS, FreeBSD and NetBSD %B<k> is then like %A<k>. Where
		// stat(2) has none (Linux, OpenBSD) gnulib's
		// get_stat_birthtime gives {-1, -1}: every %B<k> is empty,
		// except %B@, which prints that value as it stands.
		if sec, nsec, ok := meta.StatBirth(st); ok {
			return appendDate(dst, timespec{sec, nsec}, sg.aux, sp)
		}
		if sg.aux == '@' {
			return appendCString(dst, "-1.-000000010", sp)
		}
		return appendCString(dst, "", sp)
	}
	return dst
}

// appendColored is %p, %f, %h, %H, %P and %l colored as bfs 4.1 colors
// them: a path as -print colors it (%p; %P, the part below the starting
// point; %H for a starting point), a name in its file's color (%f), a
// directory in the directory color (%h; %H below a starting point), and
// a link's target as -ls colors it (%l).
func (sg *fseg) appendColored(dst []byte, e *walker.Entry, st *unix.Stat_t, env *Env, tty bool) []byte {
	esc := env.Style.AppendShell
	if tty {
		esc = env.Style.AppendTTY
	}
	follow := env.Follow.Follows(e.Depth)
	switch sg.conv {
	case 'p':
		return env.Color.AppendPath(dst, e, follow, e.Path, e.NameOff, esc)
	case 'f':
		return env.Color.AppendPath(dst, e, follow, baseName(e.Path), 0, esc)
	case 'h':
		return env.Color.AppendDir(dst, dirName(e.Path), esc)
	case 'H':
		if e.Depth == 0 {
			return env.Color.AppendPath(dst, e, follow, e.Path, e.NameOff, esc)
		}
		return env.Color.AppendDir(dst, e.Path[:entryRootLen(e, env)], esc)
	case 'P':
		if e.Depth == 0 {
			return dst
		}
		rest := e.Path[entryRootLen(e, env):]
		if len(rest) > 0 && rest[0] == '/' {
			rest = rest[1:]
		}
		split := lastSlash(rest) + 1
		return env.Color.AppendPath(dst, e, follow, rest, split, esc)
	case 'l':
		if fileMode(e, st)&unix.S_IFMT != unix.S_IFLNK {
			return dst
		}
		target, err := e.Readlink()
		if err != nil {
			env.report(ReadlinkFailed, e, err)
			return dst
		}
		return env.Color.AppendTarget(dst, e, target, esc)
	}
	return dst
}

// appendName appends a file name for %p, %f, %h, %P, %l and %F: GNU's
// print_quoted, which shows unprintable characters as '?' on a terminal
// before printf applies the width and precision.
func appendName(dst, name []byte, sp spec, env *Env, tty bool) []byte {
	start := len(dst)
	if tty {
		dst = env.Style.AppendTTY(dst, name)
	} else {
		dst = append(dst, name...)
	}
	if sp.width == 0 && sp.prec < 0 {
		return dst
	}
	return padString(dst, start, sp)
}

func (env *Env) report(f Failure, e *walker.Entry, err error) {
	if env.Report != nil {
		env.Report(f, e.Path, err)
	}
}

// fileMode returns the file type bits: from st when given, else from the
// Entry's type (which is what st would say).
func fileMode(e *walker.Entry, st *unix.Stat_t) uint32 {
	if st != nil {
		return uint32(st.Mode)
	}
	return e.Type.Mode()
}

// TypeName is GNU's mode_to_filetype, for %y and %Y: -type's letter
// for the S_IFMT bits of mode, or U for none of them. -json uses it too.
func TypeName(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return "f"
	case unix.S_IFDIR:
		return "d"
	case unix.S_IFLNK:
		return "l"
	case unix.S_IFSOCK:
		return "s"
	case unix.S_IFBLK:
		return "b"
	case unix.S_IFCHR:
		return "c"
	case unix.S_IFIFO:
		return "p"
	}
	return "U"
}

// targetType is %Y: for a symbolic link, the type of what it points
// to, by stat(2) whatever -H/-L/-P say (under -L the walk only shows a
// link that dangles or loops): N for a link to nothing (ENOENT, or
// ENOTDIR for a target under a non-directory, as in file/x: GNU's
// "broken" link), L for a loop, ? for any other failure (EACCES), which
// is reported without changing the exit status, as GNU 4.9 does.
func targetType(e *walker.Entry, st *unix.Stat_t, env *Env) string {
	mode := fileMode(e, st)
	if mode&unix.S_IFMT != unix.S_IFLNK {
		return TypeName(mode)
	}
	tst, err := e.Stat()
	switch {
	case err == nil:
		return TypeName(uint32(tst.Mode))
	case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR):
		return "N"
	case errors.Is(err, unix.ELOOP):
		return "L"
	}
	env.report(TargetStatFailed, e, err)
	return "?"
}

// sparseness is GNU's file_sparseness: allocated bytes over the size.
func sparseness(st *unix.Stat_t) float64 {
	if st.Size == 0 {
		switch {
		case st.Blocks == 0:
			return 1
		case st.Blocks < 0:
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	return 512 * float64(st.Blocks) / float64(st.Size)
}

// entryRootLen is the length of e's starting point in e.Path: as the
// walker says, or (an Entry made elsewhere) as rootLen guesses.
func entryRootLen(e *walker.Entry, env *Env) int {
	if e.Depth > 0 && e.RootLen > 0 && e.RootLen < len(e.Path) {
		return e.RootLen
	}
	return rootLen(e.Path, e.Depth, env.Roots)
}

// rootLen returns the length of the starting point at the start of
// path, a file depth levels below it. The walker joins a name to its
// directory with one '/', unless the starting point already ends in one
// ("a//" gives "a//b"), so the starting point is the path without its
// last depth names, with or without the '/' before them. Only when both
// "a" and "a/" could be meant do the roots given decide.
func rootLen(path []byte, depth int, roots []string) int {
	if depth <= 0 {
		return len(path)
	}
	end := len(path)
	for d := 0; d < depth; d++ {
		j := lastSlash(path[:end])
		if j < 0 {
			return 0 // not a path the walker made
		}
		end = j
	}
	without := path[:end]
	if len(without) == 0 || without[len(without)-1] == '/' {
		return end + 1
	}
	for _, r := range roots {
		if r == string(without) {
			return end
		}
	}
	for _, r := range roots {
		if r == string(path[:end+1]) {
			return end + 1
		}
	}
	return end
}

func lastSlash(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '/' {
			return i
		}
	}
	return -1
}

// baseName is gnulib's base_name, for %f: the last component with one
// trailing slash kept ("a/" stays "a/"), and "/" for a path of slashes.
func baseName(p []byte) []byte {
	i := 0
	for i < len(p) && p[i] == '/' {
		i++
	}
	base := i
	saw := false
	for ; i < len(p); i++ {
		if p[i] == '/' {
			saw = true
		} else if saw {
			base, saw = i, false
		}
	}
	if base == len(p) {
		if len(p) == 0 {
			return p
		}
		return p[:1]
	}
	n := base
	for n < len(p) && p[n] != '/' {
		n++
	}
	if n < len(p) {
		n++
	}
	return p[base:n]
}

// dirName is GNU's %h: the path up to its last '/', after removing
// trailing slashes (but never the first character); "." when there is
// no slash.
func dirName(p []byte) []byte {
	s := len(p) - 1
	for s >= 0 && p[s] == '/' {
		s--
	}
	if 0 < s && s+1 < len(p) {
		p = p[:s+1]
	}
	j := lastSlash(p)
	if j < 0 {
		return dot
	}
	return p[:j]
}

var dot = []byte(".")

// timespec is a file time in the widths of 64-bit systems: Stat_t's
// Timespec has 32-bit fields on 32-bit Linux.
type timespec struct{ sec, nsec int64 }

func tsOf(t unix.Timespec) timespec { return timespec{int64(t.Sec), int64(t.Nsec)} }

// appendCTime appends GNU's ctime_format (%a, %c, %t): ctime(3)'s layout
// with the nanoseconds and a trailing zero after the seconds, as in
// "Thu Mar  4 05:06:07.1234567890 2021".
func appendCTime(dst []byte, ts timespec, sp spec) []byte {
	start := len(dst)
	b := localTime(ts.sec)
	if !b.valid {
		dst = appendAtTime(dst, ts)
		return padString(dst, start, sp)
	}
	dst = append(dst, weekdayNames[b.wday][:3]...)
	dst = append(dst, ' ')
	dst = append(dst, monthNames[b.mon][:3]...)
	dst = append(dst, ' ')
	dst = appendNum(dst, b.mday, 2, ' ')
	dst = append(dst, ' ')
	dst = appendNum(dst, b.hour, 2, '0')
	dst = append(dst, ':')
	dst = appendNum(dst, b.min, 2, '0')
	dst = append(dst, ':')
	dst = appendNum(dst, b.secs, 2, '0')
	dst = appendNanos(dst, ts.nsec)
	dst = append(dst, ' ')
	dst = appendNum(dst, b.year, 4, '0')
	return padString(dst, start, sp)
}

// appendNanos appends ".%09ld0": nine digits of nanoseconds and a zero
// GNU adds so that scripts do not count on the precision.
func appendNanos(dst []byte, ns int64) []byte {
	dst = append(dst, '.')
	if ns < 0 {
		// Only %B@'s placeholder has a negative count; printf's %09ld
		// puts the sign first.
		dst = append(dst, '-')
		ns = -ns
		dst = appendDigits(dst, uint64(ns), 10, 8)
		return append(dst, '0')
	}
	dst = appendDigits(dst, uint64(ns), 10, 9)
	return append(dst, '0')
}

// appendAtTime appends GNU's %@: the seconds since the epoch and the
// nanoseconds.
func appendAtTime(dst []byte, ts timespec) []byte {
	dst = strconv.AppendInt(dst, ts.sec, 10)
	return appendNanos(dst, ts.nsec)
}

// appendDate appends GNU's format_date for a time directive %A<k>, %C<k>
// or %T<k>: strftime's %k in the local time zone; %@ is the seconds
// since the epoch; %+ is "%Y-%m-%d+%H:%M:%S". GNU adds the nanoseconds
// after the seconds of %S, %T, %X, %+ and %@.
func appendDate(dst []byte, ts timespec, k byte, sp spec) []byte {
	start := len(dst)
	if k == '@' {
		dst = appendAtTime(dst, ts)
		return padString(dst, start, sp)
	}
	b := localTime(ts.sec)
	if !b.valid {
		// localtime failed: GNU falls back to %@.
		dst = appendAtTime(dst, ts)
		return padString(dst, start, sp)
	}
	if k == '+' {
		dst = appendStrftime(dst, 'F', &b)
		dst = append(dst, '+')
		dst = appendStrftime(dst, 'T', &b)
	} else {
		dst = appendStrftime(dst, k, &b)
	}
	switch k {
	case 'S', 'T', 'X', '+':
		dst = appendNanos(dst, ts.nsec)
	}
	return padString(dst, start, sp)
}
