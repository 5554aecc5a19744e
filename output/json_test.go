package output

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"strconv"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gfind/gfind/walker"
)

// jsonStringTests: names and their exact encoding.
var jsonStringTests = []struct {
	in, want string
}{
	{"", `""`},
	{"plain.txt", `"plain.txt"`},
	{`a"b\c`, `"a\"b\\c"`},
	{"new\nline", `"new\u000aline"`},
	{"tab\tcr\r", `"tab\u0009cr\u000d"`},
	{"\x00\x01\x1f", `"\u0000\u0001\u001f"`},
	{"\x7f", `"\u007f"`}, // DEL and the C1 controls, for terminals
	{"\u0080\u009f\u00a0", "\"\\u0080\\u009f\u00a0\""},
	{"<b>&amp;", `"<b>&amp;"`},
	{"é ✓ 𝄞", `"é ✓ 𝄞"`},
	{"\u2028\u2029", `"\u2028\u2029"`},
	{"bad\xffbyte", `"bad\ufffdbyte"`},
	{"\xc3", `"\ufffd"`},                               // truncated sequence
	{"\xc3\x28", `"\ufffd("`},                          // invalid continuation
	{"\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`},           // a surrogate, one U+FFFD per byte
	{"\xf4\x90\x80\x80", `"\ufffd\ufffd\ufffd\ufffd"`}, // above U+10FFFF
}

func TestAppendJSONString(t *testing.T) {
	for _, tt := range jsonStringTests {
		got := string(AppendJSONString([]byte("x"), []byte(tt.in)))
		if got != "x"+tt.want {
			t.Errorf("AppendJSONString(%q) = %s, want %s", tt.in, got[1:], tt.want)
		}
		if got := string(AppendJSONStringS(nil, tt.in)); got != tt.want {
			t.Errorf("AppendJSONStringS(%q) = %s, want %s", tt.in, got, tt.want)
		}
		var back string
		if err := json.Unmarshal([]byte(tt.want), &back); err != nil {
			t.Errorf("%q: %s is not JSON: %v", tt.in, tt.want, err)
			continue
		}
		if utf8.ValidString(tt.in) && back != tt.in {
			t.Errorf("%q: decodes to %q", tt.in, back)
		}
	}
}

// TestAppendJSONNameRoundTrip: every name decodes (encoding/json) back
// to its exact bytes: from "path" when it is UTF-8, else from
// "path_b64"; and "path" is there and valid either way.
func TestAppendJSONNameRoundTrip(t *testing.T) {
	names := []string{"a", "dir/sub/file.go", "new\nline", "\x01\x02", `"\`, "\xff\xfe", "ok/\x80/é", "\u2028"}
	for _, tt := range jsonStringTests {
		names = append(names, tt.in)
	}
	for _, name := range names {
		rec := append(AppendJSONName([]byte("{"), "path", []byte(name)), '}')
		var got struct {
			Path string  `json:"path"`
			B64  *string `json:"path_b64"`
		}
		if err := json.Unmarshal(rec, &got); err != nil {
			t.Errorf("%q: %s: %v", name, rec, err)
			continue
		}
		valid := utf8.ValidString(name)
		switch {
		case valid && got.B64 != nil:
			t.Errorf("%q: path_b64 given for a UTF-8 name: %s", name, rec)
		case valid && got.Path != name:
			t.Errorf("%q: path decodes to %q", name, got.Path)
		case !valid && got.B64 == nil:
			t.Errorf("%q: no path_b64: %s", name, rec)
		case !valid:
			raw, err := base64.StdEncoding.DecodeString(*got.B64)
			if err != nil || string(raw) != name {
				t.Errorf("%q: path_b64 decodes to %q, %v", name, raw, err)
			}
			if want := string([]rune(name)); got.Path != want {
				t.Errorf("%q: path %q, want %q (one U+FFFD per bad byte)", name, got.Path, want)
			}
		}
	}
}

// FuzzAppendJSONString: any bytes give one valid JSON string, which
// decodes to the input with its bad bytes replaced, and never contains a
// raw control character or newline.
func FuzzAppendJSONString(f *testing.F) {
	for _, tt := range jsonStringTests {
		f.Add([]byte(tt.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := AppendJSONString(nil, in)
		for _, c := range out {
			if c < 0x20 {
				t.Fatalf("%q: raw control byte in %q", in, out)
			}
		}
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q: %s: %v", in, out, err)
		}
		// Each byte that is not part of valid UTF-8 becomes one U+FFFD,
		// as Go's string to []rune conversion does.
		if want := string([]rune(string(in))); back != want {
			t.Fatalf("%q: decodes to %q, want %q", in, back, want)
		}
	})
}

func TestAppendJSONTime(t *testing.T) {
	tests := []struct {
		sec, nsec int64
		want      string
	}{
		{0, 0, `"t":"1970-01-01T00:00:00.000000000Z","t_unix":0.000000000`},
		{1700000000, 123456789, `"t":"2023-11-14T22:13:20.123456789Z","t_unix":1700000000.123456789`},
		{1700000000, 5, `"t":"2023-11-14T22:13:20.000000005Z","t_unix":1700000000.000000005`},
		{-1, 500000000, `"t":"1969-12-31T23:59:59.500000000Z","t_unix":-0.500000000`},
		{-2, 0, `"t":"1969-12-31T23:59:58.000000000Z","t_unix":-2.000000000`},
		{-86401, 1, `"t":"1969-12-30T23:59:59.000000001Z","t_unix":-86400.999999999`},
	}
	for _, tt := range tests {
		got := string(AppendJSONTime(nil, "t", tt.sec, tt.nsec))
		if got != tt.want {
			t.Errorf("(%d, %d) = %s, want %s", tt.sec, tt.nsec, got, tt.want)
		}
		var v struct {
			T    time.Time `json:"t"`
			Unix float64   `json:"t_unix"`
		}
		if err := json.Unmarshal([]byte("{"+got+"}"), &v); err != nil {
			t.Errorf("(%d, %d): %v", tt.sec, tt.nsec, err)
			continue
		}
		if !v.T.Equal(time.Unix(tt.sec, tt.nsec)) {
			t.Errorf("(%d, %d): time decodes to %v", tt.sec, tt.nsec, v.T)
		}
		if d := v.Unix - (float64(tt.sec) + float64(tt.nsec)/1e9); d > 1e-6 || d < -1e-6 {
			t.Errorf("(%d, %d): unix decodes to %v", tt.sec, tt.nsec, v.Unix)
		}
	}
}

func TestFileErrorJSON(t *testing.T) {
	tests := []struct {
		path string
		err  error
		want string
	}{
		{"./secret", &fs.PathError{Op: "opendir", Path: "./secret", Err: syscall.EACCES},
			`{"path":"./secret","op":"opendir","error":"Permission denied","errno":13}`},
		{"a\nb", syscall.ENOENT, `{"path":"a\u000ab","error":"No such file or directory","errno":2}`},
		{"x\xff", syscall.ELOOP, `{"path":"x\ufffd","path_b64":"eP8=","error":"Too many levels of symbolic links","errno":` +
			strconv.Itoa(int(syscall.ELOOP)) + `}`}, // 40 on most Linux, 90 on MIPS, 62 on BSD
		{"a/b/up", &walker.LoopError{Path: "a/b/up", Ancestor: "a"},
			`{"path":"a/b/up","error":"File system loop detected","ancestor":"a"}`},
		{"f", errors.New("argument list too long"), `{"path":"f","error":"argument list too long"}`},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		d := NewDiagStyle("gfind", &buf, StyleC)
		d.SetJSON(true)
		d.FileError([]byte(tt.path), tt.err)
		if got := buf.String(); got != tt.want+"\n" {
			t.Errorf("%q, %v: got %q, want %q", tt.path, tt.err, got, tt.want+"\n")
		}
		if !json.Valid(buf.Bytes()) {
			t.Errorf("%q: %q is not JSON", tt.path, buf.String())
		}
		if !d.Failed() || d.Errors() != 1 {
			t.Errorf("%q: Failed %v, Errors %d; want true, 1", tt.path, d.Failed(), d.Errors())
		}
	}
}

// TestQuietErrors: --quiet-errors hides EACCES and EPERM, nothing else,
// and the run still fails.
func TestQuietErrors(t *testing.T) {
	tests := []struct {
		err    error
		hidden bool
	}{
		{syscall.EACCES, true},
		{&fs.PathError{Op: "opendir", Path: "d", Err: syscall.EACCES}, true},
		{syscall.EPERM, true},
		{syscall.ENOENT, false},
		{&walker.LoopError{Path: "a/l", Ancestor: "a"}, false},
	}
	for _, json := range []bool{false, true} {
		for _, tt := range tests {
			var buf bytes.Buffer
			d := NewDiagStyle("gfind", &buf, StyleC)
			d.SetQuietErrors(true)
			d.SetJSON(json)
			d.FileError([]byte("d"), tt.err)
			if hidden := buf.Len() == 0; hidden != tt.hidden {
				t.Errorf("json %v, %v: wrote %q; want hidden %v", json, tt.err, buf.String(), tt.hidden)
			}
			if !d.Failed() {
				t.Errorf("json %v, %v: not failed", json, tt.err)
			}
			want := int64(1)
			if tt.hidden {
				want = 0
			}
			if d.Errors() != want {
				t.Errorf("json %v, %v: Errors %d, want %d", json, tt.err, d.Errors(), want)
			}
		}
	}
}

// TestNoError: -noerror drops every error about a file, in every form
// (FileError, FileErrorf, FileNotef), with or without JSON and
// --quiet-errors, counts it in Suppressed and leaves the run successful;
// an error that is not about a file (Errorf) still fails it.
func TestNoError(t *testing.T) {
	errs := []error{
		syscall.EACCES,
		&fs.PathError{Op: "opendir", Path: "d", Err: syscall.EACCES},
		syscall.ENOENT,
		syscall.ENOTDIR,
		syscall.ELOOP,
		&walker.LoopError{Path: "a/l", Ancestor: "a"},
	}
	for _, json := range []bool{false, true} {
		for _, quiet := range []bool{false, true} {
			var buf bytes.Buffer
			d := NewDiagStyle("gfind", &buf, StyleC)
			d.SetNoError(true)
			d.SetQuietErrors(quiet)
			d.SetJSON(json)
			for _, err := range errs {
				d.FileError([]byte("d"), err)
			}
			d.FileErrorf("cannot delete %s: %s", d.QuoteFile("d"), Strerror(syscall.EACCES))
			d.FileNotef("%s: %s", d.Quote("/nonexistent"), Strerror(syscall.ENOENT))
			if buf.Len() != 0 || d.Failed() || d.Errors() != 0 {
				t.Errorf("json %v, quiet %v: wrote %q, failed %v, Errors %d; want nothing", json, quiet, buf.String(), d.Failed(), d.Errors())
			}
			if n, want := d.Suppressed(), int64(len(errs)+2); n != want {
				t.Errorf("json %v, quiet %v: Suppressed %d, want %d", json, quiet, n, want)
			}
			d.Errorf("write error")
			if !d.Failed() || buf.Len() == 0 {
				t.Errorf("json %v, quiet %v: Errorf under -noerror: failed %v, wrote %q", json, quiet, d.Failed(), buf.String())
			}
		}
	}
	// Without it, nothing is suppressed.
	var buf bytes.Buffer
	d := NewDiagStyle("gfind", &buf, StyleC)
	d.FileErrorf("cannot delete 'd': Permission denied")
	d.FileNotef("x")
	if d.Suppressed() != 0 || !d.Failed() || buf.String() != "gfind: cannot delete 'd': Permission denied\ngfind: x\n" {
		t.Errorf("without -noerror: Suppressed %d, failed %v, wrote %q", d.Suppressed(), d.Failed(), buf.String())
	}
}

func TestAppendJSONAllocs(t *testing.T) {
	buf := make([]byte, 0, 4096)
	name := []byte("dir/some \"quoted\"\nname\xff.txt")
	allocs := testing.AllocsPerRun(100, func() {
		b := AppendJSONName(buf[:0], "path", name)
		b = AppendJSONTime(b, "mtime", 1700000000, 123)
		_ = b
	})
	if allocs != 0 {
		t.Errorf("%v allocations per record, want 0", allocs)
	}
}
