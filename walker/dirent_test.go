package walker

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// recordLayout is one OS's struct dirent, for building records by hand:
// the parsers are tested on every layout wherever the tests run, since
// the BSDs and macOS cannot run them here.
type recordLayout struct {
	name  string
	parse func(buf []byte, pos int, d *dirent) (int, bool)
	// make builds one record of name, with pad more bytes than the OS
	// would use, filled (past the name's NUL) with garbage.
	make func(ino uint64, dt uint8, name string, pad int, garbage byte) []byte
}

// withHeader returns a record of reclen bytes of garbage with ino at 0
// and name (NUL-terminated) at nameAt.
func withHeader(ino uint64, name string, nameAt, pad int, garbage byte) []byte {
	reclen := (nameAt+len(name)+1+7)&^7 + pad
	b := bytes.Repeat([]byte{garbage}, reclen)
	binary.NativeEndian.PutUint64(b, ino)
	copy(b[nameAt:], name)
	b[nameAt+len(name)] = 0
	return b
}

var recordLayouts = []recordLayout{
	{"linux_dirent64", parseDirent64, func(ino uint64, dt uint8, name string, pad int, garbage byte) []byte {
		b := withHeader(ino, name, d64Name, pad, garbage)
		binary.NativeEndian.PutUint64(b[d64Off:], uint64(len(name)))
		binary.NativeEndian.PutUint16(b[d64Reclen:], uint16(len(b)))
		b[d64Type] = dt
		return b
	}},
	{"freebsd", parseFreeBSD, func(ino uint64, dt uint8, name string, pad int, garbage byte) []byte {
		b := withHeader(ino, name, fbsdName, pad, garbage)
		binary.NativeEndian.PutUint64(b[8:], 0x1234) // d_off
		binary.NativeEndian.PutUint16(b[fbsdReclen:], uint16(len(b)))
		b[fbsdType] = dt
		b[19] = 0 // d_pad0
		binary.NativeEndian.PutUint16(b[fbsdNamlen:], uint16(len(name)))
		binary.NativeEndian.PutUint16(b[22:], 0) // d_pad1
		return b
	}},
	{"openbsd", parseOpenBSD, func(ino uint64, dt uint8, name string, pad int, garbage byte) []byte {
		b := withHeader(ino, name, obsdName, pad, garbage)
		binary.NativeEndian.PutUint64(b[8:], 0x1234) // d_off
		binary.NativeEndian.PutUint16(b[obsdReclen:], uint16(len(b)))
		b[obsdType] = dt
		b[obsdNamlen] = uint8(len(name))
		copy(b[20:24], []byte{0, 0, 0, 0}) // __d_padding
		return b
	}},
	{"netbsd", parseNetBSD, func(ino uint64, dt uint8, name string, pad int, garbage byte) []byte {
		b := withHeader(ino, name, nbsdName, pad, garbage)
		binary.NativeEndian.PutUint16(b[nbsdReclen:], uint16(len(b)))
		binary.NativeEndian.PutUint16(b[nbsdNamlen:], uint16(len(name)))
		b[nbsdType] = dt
		return b
	}},
}

// dtTypes are the d_type values and what they mean (the same numbers on
// every OS gfind runs on).
var dtTypes = []struct {
	dt  uint8
	typ Type
}{{0, TypeUnknown}, {1, TypeFIFO}, {2, TypeChar}, {4, TypeDir}, {6, TypeBlock}, {8, TypeRegular}, {10, TypeSymlink}, {12, TypeSocket}, {14, TypeUnknown}}

// TestRecordLayouts parses records of every layout built by hand: names
// of every length up to 255 (the BSDs' longest), records padded beyond
// the usual length, garbage after the NUL (Linux's filldir64 leaves
// some), every d_type, two records in a row.
func TestRecordLayouts(t *testing.T) {
	for _, l := range recordLayouts {
		for n := 1; n <= 255; n++ {
			name := strings.Repeat(string(rune('a'+n%26)), n)
			for _, pad := range []int{0, 8, 16} {
				for _, garbage := range []byte{0, 1, 0xff} {
					tt := dtTypes[n%len(dtTypes)]
					buf := append(l.make(7, 8, "x", 0, 0xff), l.make(1<<40+uint64(n), tt.dt, name, pad, garbage)...)
					var d dirent
					next, ok := l.parse(buf, 0, &d)
					if !ok || string(d.name) != "x" || d.ino != 7 || d.typ != TypeRegular {
						t.Fatalf("%s: first record: got %q ino %d type %d ok %v", l.name, d.name, d.ino, d.typ, ok)
					}
					end, ok := l.parse(buf, next, &d)
					if !ok || string(d.name) != name || d.ino != 1<<40+uint64(n) || d.typ != tt.typ || end != len(buf) {
						t.Fatalf("%s: name %q pad %d garbage %#x: got %q ino %d type %d end %d of %d (ok %v)", l.name, name, pad, garbage, d.name, d.ino, d.typ, end, len(buf), ok)
					}
					if _, ok := l.parse(buf, end, &d); ok {
						t.Fatalf("%s: a record past the end", l.name)
					}
				}
			}
		}
	}
}

// TestRecordLayoutsBroken feeds each parser what no kernel should give:
// a truncated buffer, a record length shorter than its header, a name
// with no NUL inside the record. None may read past the buffer; a
// truncated one ends the parse, a nameless one comes back with ino 0 to
// be skipped.
func TestRecordLayoutsBroken(t *testing.T) {
	for _, l := range recordLayouts {
		rec := l.make(9, 8, "name", 0, 0)
		for cut := 0; cut < len(rec); cut++ {
			var d dirent
			if next, ok := l.parse(rec[:cut], 0, &d); ok {
				t.Errorf("%s: %d of %d bytes parsed as a record (next %d)", l.name, cut, len(rec), next)
			}
		}
		// No NUL anywhere in the record's name space.
		bad := l.make(9, 8, "name", 0, 'z')
		nameAt := bytes.Index(bad, []byte("name"))
		for i := nameAt; i < len(bad); i++ {
			bad[i] = 'z'
		}
		var d dirent
		next, ok := l.parse(bad, 0, &d)
		if !ok || d.ino != 0 || next != len(bad) {
			t.Errorf("%s: record without a NUL: ok %v ino %d next %d of %d", l.name, ok, d.ino, next, len(bad))
		}
	}
}

// TestNativeLayout checks that nextDirent is one of the layouts above:
// the one whose records it reads back (the BSDs' and Linux's records
// differ enough that only one does), and that direntName is its name
// offset, which the listings use.
func TestNativeLayout(t *testing.T) {
	found := 0
	for _, l := range recordLayouts {
		rec := l.make(5, 4, "native", 0, 0xff)
		var d dirent
		if next, ok := nextDirent(rec, 0, &d); ok && next == len(rec) && d.ino == 5 && d.typ == TypeDir && string(d.name) == "native" {
			found++
			if got := bytes.Index(rec, []byte("native")); got != direntName {
				t.Errorf("%s: direntName %d, name at %d", l.name, direntName, got)
			}
		}
	}
	if found != 1 {
		t.Errorf("nextDirent reads %d of the layouts, want 1", found)
	}
}
