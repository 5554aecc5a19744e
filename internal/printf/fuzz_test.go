package printf

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// goInternals are pieces of text a message meant for a user of find
// never holds unless the format did: Go error strings and pointers.
// fmt's complaints ("%!d(string=x)", "%!(EXTRA ...)") are fmtComplaint.
var goInternals = []string{"strconv.", "runtime error", "<nil>", "goroutine", "panic", "&{", "0xc0"}

var fmtComplaint = regexp.MustCompile(`%![a-zA-Z]?\(`)

// checkFormatMessage fails t when msg, an error or warning compiling
// format, is empty, more than one line or shows Go's internals.
func checkFormatMessage(t *testing.T, what, msg, format string) {
	t.Helper()
	if strings.TrimSpace(msg) == "" {
		t.Fatalf("%q: empty %s", format, what)
	}
	for _, bad := range append(goInternals, "\n") {
		if strings.Contains(msg, bad) && !strings.Contains(format, bad) {
			t.Fatalf("%q: %s %q shows %q", format, what, msg, bad)
		}
	}
	if m := fmtComplaint.FindString(msg); m != "" && !strings.Contains(format, m) {
		t.Fatalf("%q: %s %q shows fmt's %q", format, what, msg, m)
	}
}

// fuzzTypes are the file types FuzzFormatExpand picks from, with the
// mode bits that go with each.
var fuzzTypes = []struct {
	t    walker.Type
	mode uint32
}{
	{walker.TypeRegular, unix.S_IFREG}, {walker.TypeDir, unix.S_IFDIR},
	{walker.TypeSymlink, unix.S_IFLNK}, {walker.TypeUnknown, unix.S_IFREG},
	{walker.TypeUnknown, 0}, {walker.TypeUnknown, unix.S_IFMT}, // no type GNU knows
}

// FuzzFormatExpand compiles a -printf format and expands it for a file
// whose name, type, mode, size, ids and times are fuzzed too (times far
// before 1970 and beyond year 9999 included). Compiling must give a
// Format or a readable error, never both; the warnings must be readable;
// expanding must not panic, return no error but ErrOverflow, and when
// the format needs no status (nor an inode number the entry lacks) it
// must expand the same without one, as Append's documentation promises
// the callers that skip the stat.
func FuzzFormatExpand(f *testing.F) {
	for _, tt := range formatTests {
		f.Add(tt.format, "root/sub/fi\tle", uint8(0), uint32(0o4755), int64(5000), int64(1614834367), int64(123456789), uint32(0), tt.tty)
	}
	for _, s := range []string{"%-+ #0123.456p", `\1\12\123\1234`, "%T%%A@%B+", "%%%%%", `\\\\\c`, "%Tk%AI%Cp%t%c", "%Y%l%y%M"} {
		f.Add(s, "root", uint8(2), uint32(0o777), int64(-1), int64(-1<<62), int64(-1), uint32(1<<31), false)
		f.Add(s, "root/", uint8(1), uint32(0o7777), int64(1<<62), int64(253402300800), int64(999999999), uint32(1), true)
	}
	env := testEnv()
	env.Report = func(Failure, []byte, error) {}
	f.Fuzz(func(t *testing.T, format, path string, typ uint8, perm uint32, size, sec, nsec int64, uid uint32, tty bool) {
		fm, warns, err := Compile(format)
		for _, w := range warns {
			checkFormatMessage(t, "warning", w, format)
		}
		if err != nil {
			if fm != nil {
				t.Fatalf("%q: a Format and an error", format)
			}
			checkFormatMessage(t, "error", err.Error(), format)
			if !strings.HasPrefix(err.Error(), "error: ") {
				t.Fatalf("%q: error %q is not GNU's \"error: ...\"", format, err)
			}
			return
		}
		for _, sg := range fm.segs {
			if sg.sp.width > 1<<16 || sg.sp.prec > 1<<16 {
				return // GNU would print that much padding; so would we
			}
		}
		if path == "" {
			path = "."
		}
		ft := fuzzTypes[int(typ)%len(fuzzTypes)]
		// Stat_t's fields differ in width between systems (Mode is
		// uint16 on macOS, Dev int32, Timespec's fields int32 on 32-bit
		// Linux): each is converted as the C assignment would.
		ts := func(d int64) unix.Timespec {
			var t unix.Timespec
			setInt(&t.Sec, sec+d)
			setInt(&t.Nsec, nsec)
			return t
		}
		st := &unix.Stat_t{Size: size, Blocks: size / 512, Uid: uid, Gid: ^uid, Ino: uint64(sec),
			Atim: ts(0), Mtim: ts(-86400), Ctim: ts(1)}
		setInt(&st.Mode, ft.mode|perm&0o7777)
		setInt(&st.Nlink, uid%7)
		setInt(&st.Dev, nsec)
		e := walker.Synthetic(path, strings.Count(path, "/"), ft.t, st, nil)
		out, err := fm.Append(nil, e, st, env, tty)
		if err != nil && !errors.Is(err, ErrOverflow) {
			t.Fatalf("%q: Append error %v", format, err)
		}
		bare := walker.Synthetic(path, strings.Count(path, "/"), ft.t, st, nil)
		_, direntIno := bare.DirentIno()
		if !fm.NeedsStat() && (!fm.NeedsType() || ft.t != walker.TypeUnknown) && (!fm.NeedsIno() || direntIno) {
			again, err2 := fm.Append(nil, bare, nil, env, tty)
			if !bytes.Equal(again, out) || err2 != err {
				t.Fatalf("%q on %q: %q, %v with the status, %q, %v without", format, path, out, err, again, err2)
			}
		}
	})
}

// setInt stores v in an integer field p whatever the field's width here.
func setInt[T, V ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64](p *T, v V) { *p = T(v) }
