package walker

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// atName returns a pointer to the NUL-terminated name to give the *at
// calls with e.dirfd, or nil when there is none to give.
func (e *Entry) atName() *byte {
	if e.dirfd < 0 && e.dirfd != unix.AT_FDCWD || e.atOff >= len(e.Path) {
		// A Synthetic Entry (no NUL after its Path), or the empty
		// starting point "".
		return nil
	}
	return (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(e.Path)), e.atOff))
}

func (e *Entry) fstatat(st *unix.Stat_t, flags int) error {
	name := e.atName()
	if name == nil {
		return e.noName()
	}
	e.nstat++
	if s := &e.smp; s.a != nil {
		if pr, ok := s.sample(&s.stats, statSample); ok {
			err := fstatat(e.dirfd, name, st, flags)
			s.sampled(pr, statSample)
			return err
		}
	}
	return fstatat(e.dirfd, name, st, flags)
}

func (e *Entry) readlinkat(buf []byte) (int, error) {
	name := e.atName()
	if name == nil {
		return 0, e.noName()
	}
	return readlinkat(e.dirfd, name, buf)
}

// noName is the error for a call that has no file to ask: "" names no
// file (ENOENT, as the kernel says for find ""), and a Synthetic Entry
// has no directory (EBADF).
func (e *Entry) noName() error {
	if e.dirfd == unix.AT_FDCWD {
		return unix.ENOENT
	}
	return unix.EBADF
}
