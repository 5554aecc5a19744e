package predicate

import (
	"strconv"

	"github.com/gfind/gfind/internal/accounts"
	"github.com/gfind/gfind/internal/printf"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// -printjson, and -print under --json: one JSON object per line,
//
//	{"path":"src/a.go","depth":1,"type":"f","size":120,"mode":"0644",
//	 "uid":1000,"gid":1000,"user":"ann","group":"staff",
//	 "mtime":"2024-05-01T10:00:00.123456789Z","mtime_unix":1714557600.123456789}
//
// with members in this order:
//
//   - path: as -print writes it; a name that is not valid UTF-8 also
//     gets "path_b64", its exact bytes in base64 (see output/json.go).
//   - depth: as -depth counts it, 0 for a starting point.
//   - type: GNU's -type letter: f d l p s c b, or U when unknown.
//   - size, uid, gid: numbers; mode: the permission bits (with setuid,
//     setgid and sticky) as a four-digit octal string, "0755".
//   - user, group: names from the account database, or null.
//   - mtime: RFC 3339 in UTC with nanoseconds; mtime_unix: the same as
//     seconds since the epoch, with nine fraction digits.
//   - link: for a symbolic link, its target (and "link_b64" when not
//     UTF-8).
//
// The status is the one the tests see (-L follows links, as -printf's
// %y, %s, %m do), so "link" appears only for links that are not
// followed. When the status cannot be read, the error is reported once
// and the record has path, depth and, when d_type gave it, type only.
// -printjson is, like -print, always true.

func parsePrintjson(p *parser, op string, _ variant) error {
	p.push(&jsonNode{op: op, db: systemIDs()})
	return nil
}

// print returns the node for -print, explicit or implicit: JSON lines
// under --json.
func (p *parser) print(op string) Node {
	if p.cfg.JSON {
		return &jsonNode{op: op, db: systemIDs()}
	}
	return &printNode{op: op, term: '\n'}
}

// jsonNode is -printjson (op "-printjson") and -print under --json (op
// "-print", so that Args parses back to it under the same Config).
type jsonNode struct {
	op string
	db *accounts.DB
}

func (n *jsonNode) Eval(e *walker.Entry, s *State) bool {
	if !s.act() {
		return false // nothing would be written
	}
	st, ok := s.stat(e)
	// The record is appended straight into the Buffer's spare capacity
	// and handed back with Write, which then copies nothing.
	b := s.Out.AvailableBuffer()
	b = append(b, '{')
	b = output.AppendJSONName(b, "path", e.Path)
	b = append(b, `,"depth":`...)
	b = strconv.AppendInt(b, int64(e.Depth), 10)
	if !ok {
		if e.Type != walker.TypeUnknown {
			b = append(b, `,"type":"`...)
			b = append(b, typeLetter(e.Type.Mode()), '"')
		}
		b = append(b, "}\n"...)
		s.Out.Write(b)
		s.Out.EndRecord()
		return true
	}
	b = append(b, `,"type":"`...)
	b = append(b, typeLetter(uint32(st.Mode)), '"')
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, st.Size, 10)
	b = append(b, `,"mode":"`...)
	perm := uint32(st.Mode) & 07777
	b = append(b, '0'+byte(perm>>9), '0'+byte(perm>>6&7), '0'+byte(perm>>3&7), '0'+byte(perm&7), '"')
	b = append(b, `,"uid":`...)
	b = strconv.AppendUint(b, uint64(st.Uid), 10)
	b = append(b, `,"gid":`...)
	b = strconv.AppendUint(b, uint64(st.Gid), 10)
	b = append(b, `,"user":`...)
	if name, ok := n.db.User(st.Uid); ok {
		b = output.AppendJSONStringS(b, name)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"group":`...)
	if name, ok := n.db.Group(st.Gid); ok {
		b = output.AppendJSONStringS(b, name)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, ',')
	b = output.AppendJSONTime(b, "mtime", int64(st.Mtim.Sec), int64(st.Mtim.Nsec))
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		if target, err := e.Readlink(); err == nil {
			b = append(b, ',')
			b = output.AppendJSONName(b, "link", target)
		} else {
			s.Diag.FileError(e.Path, err)
		}
	}
	b = append(b, "}\n"...)
	s.Out.Write(b)
	s.Out.EndRecord()
	return true
}

// typeLetter is -type's letter for the S_IFMT bits of mode, U for
// none: %y's (printf.TypeName), as a byte.
func typeLetter(mode uint32) byte { return printf.TypeName(mode)[0] }

func (n *jsonNode) Facts() Facts {
	return Facts{Effects: EffectStdout, Cost: costStat + costPrint, Prob: 1}
}

func (n *jsonNode) Args() []string { return []string{n.op} }
