package output

import (
	"encoding/base64"
	"errors"
	"io/fs"
	"strconv"
	"syscall"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/gfind/gfind/walker"
)

// JSON lines for -printjson and --json.
//
// The encoders append to a caller's byte slice (normally a Buffer's
// AvailableBuffer) with no reflection and no allocation. Strings are
// escaped as RFC 8259 requires, and a little more for terminals and
// JavaScript: '"' and '\' get a backslash; every control character
// (below U+0020, DEL, and the C1 controls U+0080-U+009F) is written
// \u00XX; U+2028 and U+2029 are escaped too. There is no HTML escaping
// ('<', '>' and '&' are written as they are).
//
// JSON strings hold Unicode text, and Linux file names are bytes. A name
// that is valid UTF-8 is written as a string, exactly. A name that is
// not is written twice: as a string with each invalid byte replaced by
// U+FFFD (readable, but lossy), and as "<key>_b64", the standard base64
// (RFC 4648, with padding) of the exact bytes. Consumers that need the
// exact name use "<key>_b64" when it is present.

// jsonSafe[c] is true for the ASCII bytes written as they are.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf-1; c++ { // DEL is escaped
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// AppendJSONString appends s as a quoted JSON string. Bytes that are not
// valid UTF-8 become U+FFFD, each on its own.
func AppendJSONString(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0 // s[start:i] is pending, to be copied as it is
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r < 0xa0: // a C1 control
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[r>>4], hexDigits[r&0xf])
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\u202`...)
			dst = append(dst, hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendJSONStringS is AppendJSONString for a Go string.
func AppendJSONStringS(dst []byte, s string) []byte {
	// The bytes are only read: viewing the string as a slice is safe and
	// saves the copy a conversion would make.
	return AppendJSONString(dst, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// AppendJSONName appends the object members for a file name (or a link
// target) under key: "key":"name", and, when name is not valid UTF-8,
// ,"key_b64":"..." with the exact bytes in base64. key is written as it
// is and must need no escaping.
func AppendJSONName(dst []byte, key string, name []byte) []byte {
	dst = append(dst, '"')
	dst = append(dst, key...)
	dst = append(dst, `":`...)
	dst = AppendJSONString(dst, name)
	if !utf8.Valid(name) {
		dst = append(dst, `,"`...)
		dst = append(dst, key...)
		dst = append(dst, `_b64":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, name)
		dst = append(dst, '"')
	}
	return dst
}

// AppendJSONTime appends the members for a timestamp under key:
// "key":"2006-01-02T15:04:05.123456789Z" (RFC 3339 in UTC, always nine
// fraction digits, so the strings sort as the times do) and
// "key_unix":1136171045.123456789, seconds since the epoch written out
// exactly (a float64 reader keeps about microseconds).
func AppendJSONTime(dst []byte, key string, sec, nsec int64) []byte {
	dst = append(dst, '"')
	dst = append(dst, key...)
	dst = append(dst, `":"`...)
	dst = time.Unix(sec, nsec).UTC().AppendFormat(dst, rfc3339Nano)
	dst = append(dst, `","`...)
	dst = append(dst, key...)
	dst = append(dst, `_unix":`...)
	if sec < 0 && nsec > 0 {
		// -1 s + 0.5 s is -0.5 s: the integer part is one less in
		// magnitude and the fraction counts down.
		dst = append(dst, '-')
		dst = strconv.AppendUint(dst, uint64(-(sec + 1)), 10)
		nsec = 1e9 - nsec
	} else {
		dst = strconv.AppendInt(dst, sec, 10)
	}
	dst = append(dst, '.')
	return appendPadded(dst, uint64(nsec), 9)
}

// rfc3339Nano is RFC 3339 with a fixed nine-digit fraction; in UTC the
// zone is written "Z".
const rfc3339Nano = "2006-01-02T15:04:05.000000000Z07:00"

// appendPadded appends v in decimal with at least width digits.
func appendPadded(dst []byte, v uint64, width int) []byte {
	var tmp [20]byte
	b := strconv.AppendUint(tmp[:0], v, 10)
	for i := len(b); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, b...)
}

// appendJSONError is the record FileError writes under SetJSON:
//
//	{"path":"./secret","op":"opendir","error":"Permission denied","errno":13}
//
// "op" (the system call, when the walker names one) and "errno" (when
// the error carries one) are left out when unknown. A loop is
//
//	{"path":"a/b/up","error":"File system loop detected","ancestor":"a"}
func appendJSONError(dst, path []byte, err error) []byte {
	var loop *walker.LoopError
	if errors.As(err, &loop) {
		dst = append(dst, '{')
		dst = AppendJSONName(dst, "path", []byte(loop.Path))
		dst = append(dst, `,"error":"File system loop detected",`...)
		dst = AppendJSONName(dst, "ancestor", []byte(loop.Ancestor))
		return append(dst, '}')
	}
	dst = append(dst, '{')
	dst = AppendJSONName(dst, "path", path)
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op != "" {
		dst = append(dst, `,"op":`...)
		dst = AppendJSONStringS(dst, pe.Op)
	}
	dst = append(dst, `,"error":`...)
	dst = AppendJSONStringS(dst, Strerror(err))
	var errno syscall.Errno
	if errors.As(err, &errno) {
		dst = append(dst, `,"errno":`...)
		dst = strconv.AppendUint(dst, uint64(errno), 10)
	}
	return append(dst, '}')
}

// SetJSON makes FileError write each diagnostic about a file as a JSON
// record (see appendJSONError) instead of GNU's sentence: --json. Other
// diagnostics (usage errors, "write error", warnings) stay text. Call it
// before the walk starts.
func (d *Diag) SetJSON(on bool) { d.json = on }

// SetQuietErrors makes FileError drop permission errors (EACCES, EPERM)
// silently while still marking the run as failed: --quiet-errors. Call it before the walk starts.
func (d *Diag) SetQuietErrors(on bool) { d.quietPerm = on }

// SetPermErrorsOK makes the permission errors that SetQuietErrors
// hides leave the exit status alone: --ignore-errors. Call it before
// the walk starts.
func (d *Diag) SetPermErrorsOK(on bool) { d.permOK = on }

// SetNoError makes every error about a file (FileError, FileErrorf,
// FileNotef) be dropped: neither reported nor counted in the exit status,
// as bfs's -noerror ignores any error met during the walk. Errors that
// are not about one file (a usage error, a write error on standard
// output, a -exec ... + batch that failed at the end) still count. Call
// it before the walk starts.
func (d *Diag) SetNoError(on bool) { d.noError = on }

// Suppressed returns the number of errors SetNoError dropped, which bfs
// reports in a warning at the end.
func (d *Diag) Suppressed() int64 { return d.suppressed.Load() }

// Errors returns the number of failing diagnostics written so far (what
// --stats reports); hidden permission errors are not counted.
func (d *Diag) Errors() int64 { return d.errs.Load() }

func isPermError(err error) bool {
	return errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM)
}
