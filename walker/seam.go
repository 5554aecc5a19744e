package walker

import (
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// beforeOpen is the test seam between reading a directory and opening
// one of its subdirectories: the window in which a directory can be
// swapped for a symbolic link or for another directory. It is nil
// outside tests. An atomic pointer rather than a plain variable, so that
// a test setting it does not race with walks of parallel tests (which
// see the hook too: a hook must act on its own tree only).
var beforeOpen atomic.Pointer[func(path string)]

// SetBeforeOpenHook is for tests only. It installs f, to be called with
// the path of each directory the walk is about to open (a starting
// point, or a subdirectory after its parent was read and, in pre-order,
// after its visit), from the goroutine that opens it, and returns a
// function that restores the previous hook. It exists so that tests, of
// this package and of the packages built on it (predicate's -delete and
// -exec), can make the race of a directory replaced during the walk
// deterministic. Production code never calls it; a nil hook costs one
// atomic load per opened directory.
func SetBeforeOpenHook(f func(path string)) (restore func()) { return setHook(&beforeOpen, f) }

// setHook installs f as the hook at h and returns the restore function.
func setHook(h *atomic.Pointer[func(string)], f func(string)) (restore func()) {
	var p *func(string)
	if f != nil {
		p = &f
	}
	old := h.Swap(p)
	return func() { h.Store(old) }
}

// hookBeforeOpen calls the test hook, if any, for d.
func hookBeforeOpen(d *dir) {
	if f := beforeOpen.Load(); f != nil {
		(*f)(d.path())
	}
}

// replaced reports whether the directory open as fd, whose status is st
// and whose "." record has d_ino dotIno, is not the directory the walk
// saw under that name: the name was swapped (by rename(2)) for another
// directory between the read of its parent and the open. O_NOFOLLOW
// already refuses a symbolic link put there; this catches a directory.
// It is called only when dotIno differs from the identity recorded for
// d (dotCheck's slow path), so it costs nothing on the common path.
//
// A mismatch is not an error when
//   - the device differs: a mount point, whose record in the parent
//     carries the covered directory's inode (a rename cannot cross
//     file systems, so a swapped directory keeps the device);
//   - the identity came from a record's d_ino and this file system's
//     "." d_ino is not st_ino (overlayfs across file systems, some
//     FUSE): its d_ino cannot be compared with a stat;
//   - the directory is the root of a mount (a bind mount from the same
//     file system keeps the device, and its record still carries the
//     covered directory's inode), or may be one: where mountRoot cannot
//     tell (Linux < 5.8), nothing is reported.
func replaced(d *dir, fd int, st *unix.Stat_t, dotIno uint64) bool {
	if uint64(st.Dev) != d.id.dev || uint64(st.Ino) == d.id.ino {
		return false
	}
	if !d.idExact && dotIno != uint64(st.Ino) {
		return false
	}
	root, known := mountRoot(fd)
	return known && !root
}

// beforeRead is the test seam before each getdents call of the parallel
// walk, inside the time the walk measures: a hook that blocks makes the
// directory reads look like those of a cold cache or a remote file
// system. Nil outside tests.
var beforeRead atomic.Pointer[func(path string)]

// SetBeforeReadHook is for tests only: it installs f, called with the
// path of each directory before each of its reads in the parallel walk,
// and returns a function that restores the previous hook.
func SetBeforeReadHook(f func(path string)) (restore func()) { return setHook(&beforeRead, f) }

// hookBeforeRead calls the test hook, if any, for d.
func hookBeforeRead(d *dir) {
	if f := beforeRead.Load(); f != nil {
		(*f)(d.path())
	}
}

// beforePiece is the test seam before a worker visits a piece of a big
// directory handed to it (processChunk): a hook that blocks holds the
// piece back while the walk goes on elsewhere. Nil outside tests.
var beforePiece atomic.Pointer[func(path string)]

// SetBeforePieceHook is for tests only: it installs f, called with the
// path of the directory before each piece of it handed out by the
// parallel walk is visited, and returns a function that restores the
// previous hook.
func SetBeforePieceHook(f func(path string)) (restore func()) { return setHook(&beforePiece, f) }

// hookBeforePiece calls the test hook, if any, for d.
func hookBeforePiece(d *dir) {
	if f := beforePiece.Load(); f != nil {
		(*f)(d.path())
	}
}
