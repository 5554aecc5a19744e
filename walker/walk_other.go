//go:build !linux

package walker

import (
	"errors"

	"golang.org/x/sys/unix"
)

// The walker is written against Linux's getdents64, openat and fstatat
// semantics; elsewhere it reports that it cannot run.
var errUnsupported = errors.New("walker: only Linux is supported")

func walkImpl(roots *rootSource, opt Options, visit func(*Entry) Action) error {
	return errUnsupported
}

func (e *Entry) fstatat(st *unix.Stat_t, flags int) error { return unix.ENOSYS }

func (e *Entry) readlinkat(buf []byte) (int, error) { return 0, unix.ENOSYS }

type adapt struct{}
