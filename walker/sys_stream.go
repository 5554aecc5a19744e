//go:build darwin || (linux && gfind_portable)

package walker

import (
	"encoding/binary"
	"sync"

	"golang.org/x/sys/unix"
)

// The stream reader: the walk's directory calls (getdents, seekDir,
// tellDir, closeFD) over a stream that hands out one record at a time,
// as readdir(3) does. macOS has no supported call that reads a
// directory a chunk at a time: getdirentries is not for programs, and
// x/sys's Getdirentries reopens the directory and skips the records
// already read at each call, which is quadratic in the directory's size.
// So each directory gets one libc stream (fdopendir, readdir_r,
// closedir: sys_darwin.go), read to its end; the records are copied
// into the walk's chunks in linux_dirent64's layout (dirent.go), so the
// engines above see what they see on Linux.
//
// A stream takes over its descriptor (closedir closes it), so the
// streams are kept by descriptor, and closeFD closes the stream if there
// is one. A stream gives no seek cookie the walk could keep: a record's
// position is its count, and a read resumed on a reopened descriptor
// (after an eviction) reads and drops that many records first.
//
// Under the gfind_portable tag Linux uses this reader too, its stream
// made of getdents (sys_stream_linux.go), so that the engines are tested
// with it; the gfind_macshim tag adds what macOS's stream may do and
// Linux's does not: no "." or ".." records, no d_type.

// streams holds the open streams by descriptor.
var streams struct {
	mu   sync.Mutex
	m    map[int]*stream
	free []*stream // closed ones, for reuse
}

// stream is one directory's stream and where the walk is in it.
type stream struct {
	sys   sysStream // the OS's stream (sys_darwin.go, sys_stream_linux.go)
	count int64     // records handed out
	// held is a record read that did not fit in the caller's buffer: it
	// goes first into the next one.
	held  bool
	hino  uint64
	hdt   uint8
	hname []byte
	err   error // a read error after records were handed out: given next
}

// streamFor returns fd's stream, opening one if there is none.
func streamFor(fd int) (*stream, error) {
	streams.mu.Lock()
	defer streams.mu.Unlock()
	if s := streams.m[fd]; s != nil {
		return s, nil
	}
	s, _ := popLast(&streams.free)
	if s == nil {
		s = new(stream)
	}
	if err := s.sys.open(fd); err != nil {
		pushSpare(&streams.free, s, maxSpareStreams)
		return nil, err
	}
	if streams.m == nil {
		streams.m = make(map[int]*stream)
	}
	streams.m[fd] = s
	return s, nil
}

// maxSpareStreams bounds the free list: one per worker is the most a
// walk reads at a time.
const maxSpareStreams = 64

// getdents copies the next records of fd's stream into buf, in
// linux_dirent64's layout, and returns their length: 0 at the end.
func getdents(fd int, buf []byte) (int, error) {
	s, err := streamFor(fd)
	if err != nil {
		return 0, err
	}
	if s.err != nil {
		err, s.err = s.err, nil
		return 0, err
	}
	n := 0
	for {
		var ino uint64
		var dt uint8
		var name []byte
		if s.held {
			ino, dt, name = s.hino, s.hdt, s.hname
		} else {
			var ok bool
			ino, dt, name, ok, err = s.sys.next()
			if err != nil {
				if n == 0 {
					return 0, err
				}
				s.err = err
				return n, nil
			}
			if !ok {
				return n, nil
			}
		}
		reclen := (d64Name + len(name) + 1 + 7) &^ 7
		if n+reclen > len(buf) {
			if n == 0 {
				return 0, unix.EINVAL // a buffer too small for one record
			}
			if !s.held {
				s.held, s.hino, s.hdt = true, ino, dt
				s.hname = append(s.hname[:0], name...)
			}
			return n, nil
		}
		s.held = false
		s.count++
		r := buf[n : n+reclen]
		binary.NativeEndian.PutUint64(r[direntIno:], ino)
		binary.NativeEndian.PutUint64(r[d64Off:], uint64(s.count))
		binary.NativeEndian.PutUint16(r[d64Reclen:], uint16(reclen))
		r[d64Type] = dt
		clear(r[d64Name+copy(r[d64Name:], name):])
		n += reclen
	}
}

// tellDir returns how many records of fd's stream were handed out.
func tellDir(fd int) (int64, error) {
	streams.mu.Lock()
	defer streams.mu.Unlock()
	if s := streams.m[fd]; s != nil {
		return s.count, nil
	}
	return 0, nil
}

// seekDir makes the stream of fd, a directory just reopened, resume
// after pos records, by reading and dropping them: the records of a
// directory not changed since are handed out once each.
func seekDir(fd int, pos int64) error {
	s, err := streamFor(fd)
	if err != nil {
		return err
	}
	for s.count < pos {
		_, _, _, ok, err := s.sys.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		s.count++
	}
	return nil
}

// closeFD closes fd, through its stream if it has one. Errors are
// ignored: a directory opened read-only has nothing to flush, and a
// retried close could close a descriptor another goroutine has just
// been given. The stream leaves the table first, for the same reason.
func closeFD(fd int) {
	streams.mu.Lock()
	s := streams.m[fd]
	delete(streams.m, fd)
	streams.mu.Unlock()
	if s == nil {
		unix.Close(fd)
		return
	}
	s.sys.close()
	*s = stream{sys: s.sys, hname: s.hname[:0]}
	streams.mu.Lock()
	pushSpare(&streams.free, s, maxSpareStreams)
	streams.mu.Unlock()
}
