package walker

import (
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// What the walk asks of macOS. Apple supports no system calls but
// through libSystem, so the directory stream is libc's (the stream
// reader, sys_stream.go, over fdopendir, readdir_r and closedir) and
// the per-file calls are x/sys's wrappers (sys_portable.go).

// The stream reader writes linux_dirent64's layout (dirent.go).
const direntName = d64Name

func nextDirent(buf []byte, pos int, d *dirent) (next int, ok bool) {
	return parseDirent64(buf, pos, d)
}

// libSystem's directory stream, as the standard library's os package
// reaches it: the syscall package exports these three to it, and its
// build for macOS declares them (syscall/linkname_darwin.go), which is
// what lets a package outside the standard library link to them. (The
// empty sys_darwin.s lets this file declare functions without bodies.)

//go:linkname fdopendir syscall.fdopendir
func fdopendir(fd int) (dir uintptr, err error)

//go:linkname readdir_r syscall.readdir_r
func readdir_r(dir uintptr, entry *syscall.Dirent, result **syscall.Dirent) (res syscall.Errno)

//go:linkname closedir syscall.closedir
func closedir(dir uintptr) (err error)

// sysStream is one libc directory stream. entry is readdir_r's record:
// in the stream, not on the stack, since it is 1 KiB.
type sysStream struct {
	dir   uintptr
	entry syscall.Dirent
}

// open makes a stream of the directory open as fd, which the stream then
// owns (closedir closes it).
func (s *sysStream) open(fd int) error {
	for {
		dir, err := fdopendir(fd)
		if err == nil {
			s.dir = dir
			return nil
		}
		if err != syscall.EINTR {
			return err
		}
	}
}

// next returns the stream's next record; ok is false at the end. name
// is valid until the next call.
func (s *sysStream) next() (ino uint64, dt uint8, name []byte, ok bool, err error) {
	for {
		var result *syscall.Dirent
		if errno := readdir_r(s.dir, &s.entry, &result); errno != 0 {
			if errno == syscall.EINTR {
				continue
			}
			return 0, 0, nil, false, errno
		}
		if result == nil {
			return 0, 0, nil, false, nil
		}
		n := min(int(s.entry.Namlen), len(s.entry.Name))
		name = unsafe.Slice((*byte)(unsafe.Pointer(&s.entry.Name[0])), n)
		return s.entry.Ino, s.entry.Type, name, true, nil
	}
}

// close ends the stream and closes its descriptor.
func (s *sysStream) close() {
	closedir(s.dir)
	s.dir = 0
}

// inodeSortUseless: gnulib fts asks the file system type only on Linux;
// elsewhere it sorts every big batch by inode number.
func inodeSortUseless(fd int) bool { return false }

// mountRoot: macOS has no bind mounts; a mount has a device of its own,
// so a directory with its parent's device is never a mount's root.
func mountRoot(fd int) (root, known bool) { return false, true }

// threadSleeps: macOS has no per-thread rusage. With no count the
// adaptive walk's probes never see a blocked call, and the walk keeps
// the workers it started with (-j sets them).
func threadSleeps() int64 { return 0 }

// osYield lets other goroutines run while a worker spins: macOS has
// sched_yield only through libc, and the Go scheduler's yield serves.
func osYield() { runtime.Gosched() }

// clockProcessCPU is the clock of the CPU time the process has used.
const clockProcessCPU = unix.CLOCK_PROCESS_CPUTIME_ID
