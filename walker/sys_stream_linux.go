//go:build linux && gfind_portable

package walker

import "golang.org/x/sys/unix"

// Linux's directory stream for the gfind_portable build: what readdir(3)
// does, over x/sys's Getdents, so that the stream reader
// (sys_stream.go) that macOS uses runs, and is tested, here. With the
// gfind_macshim tag it behaves as the worst macOS stream may: no "." or
// ".." records, every d_type DT_UNKNOWN, and a buffer that holds only a
// record or two, so that every read refills it.

// sysStream is one directory's stream: its descriptor and a buffer of
// the records read but not yet handed out.
type sysStream struct {
	fd       int
	buf      []byte
	pos, end int
}

// streamBufSize is the stream's buffer: glibc's readdir reads 32 KiB at
// a time; the shim, one record of the longest name.
func streamBufSize() int {
	if macShim {
		return d64Name + 256 + 5
	}
	return 32 << 10
}

func (s *sysStream) open(fd int) error {
	if len(s.buf) != streamBufSize() {
		s.buf = make([]byte, streamBufSize())
	}
	s.fd, s.pos, s.end = fd, 0, 0
	return nil
}

func (s *sysStream) next() (ino uint64, dt uint8, name []byte, ok bool, err error) {
	for {
		if s.pos >= s.end {
			n, err := unix.Getdents(s.fd, s.buf)
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return 0, 0, nil, false, err
			}
			if n == 0 {
				return 0, 0, nil, false, nil
			}
			s.pos, s.end = 0, n
		}
		var d dirent
		next, ok := parseDirent64(s.buf[:s.end], s.pos, &d)
		if !ok {
			s.pos = s.end
			return 0, 0, nil, false, unix.EIO
		}
		dt := s.buf[s.pos+d64Type]
		s.pos = next
		if d.ino == 0 || macShim && isDots(d.name) {
			continue
		}
		if macShim {
			dt = unix.DT_UNKNOWN
		}
		return d.ino, dt, d.name, true, nil
	}
}

func (s *sysStream) close() {
	unix.Close(s.fd)
	s.fd = -1
}
