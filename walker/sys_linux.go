package walker

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// What the walk asks of Linux beyond the directory calls (those are in
// sys_linux_raw.go, or sys_portable.go and sys_stream.go under the
// gfind_portable tag).

// getdents64's records (dirent.go); the stream reader writes the same.
const direntName = d64Name

func nextDirent(buf []byte, pos int, d *dirent) (next int, ok bool) {
	return parseDirent64(buf, pos, d)
}

// The layout constants are unix.Dirent's: checked at compile time (an
// index out of range, or a negative constant, if one differs).
var (
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Ino)-direntIno]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Off)-d64Off]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Reclen)-d64Reclen]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Type)-d64Type]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Name)-d64Name]
)

// File system magic numbers (statfs f_type) on which fts skips the
// inode sort.
const (
	magicTmpfs = 0x01021994
	magicNFS   = 0x6969
	magicCIFS  = 0xFF534D42
)

// inodeSortUseless says that the file system of fd is one where gnulib
// fts does not sort a big batch by inode number (tmpfs, NFS, CIFS: only
// Linux's fts asks; elsewhere it always sorts).
func inodeSortUseless(fd int) bool {
	switch fsType(fd) {
	case magicTmpfs, magicNFS, magicCIFS:
		return true
	}
	return false
}

// fsType returns the file system magic number (statfs f_type) of fd, or
// 0 when it cannot tell. f_type is a signed word whose width depends on
// the architecture; the magic numbers are 32-bit (CIFS's has the top bit
// set), so compare the low 32 bits, as C's int-to-unsigned conversion in
// gnulib's switch does.
func fsType(fd int) uint32 {
	var s unix.Statfs_t
	if unix.Fstatfs(fd, &s) != nil {
		return 0
	}
	return uint32(s.Type)
}

// mountRoot says whether the directory open as fd is the root of a
// mount, and whether that could be told (STATX_ATTR_MOUNT_ROOT, Linux
// 5.8): a bind mount from the same file system keeps the device, so
// only this tells it from a directory swapped in (seam.go).
func mountRoot(fd int) (root, known bool) {
	var stx unix.Statx_t
	if unix.Statx(fd, "", unix.AT_EMPTY_PATH|unix.AT_STATX_DONT_SYNC, 0, &stx) != nil ||
		stx.Attributes_mask&unix.STATX_ATTR_MOUNT_ROOT == 0 {
		return false, false
	}
	return stx.Attributes&unix.STATX_ATTR_MOUNT_ROOT != 0, true
}

// threadSleeps returns the number of times the calling thread slept
// (ru_nvcsw), for the adaptive walk's probes (adapt.go).
func threadSleeps() int64 {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_THREAD, &ru) != nil {
		return 0
	}
	return int64(ru.Nvcsw) // int32 on 32-bit Linux
}

// osYield gives the CPU to another thread (sched_yield): a raw call,
// since it never blocks (owned.go says why not runtime.Gosched).
func osYield() {
	unix.RawSyscall(unix.SYS_SCHED_YIELD, 0, 0, 0)
}

// clockProcessCPU is the clock of the CPU time the process has used.
const clockProcessCPU = unix.CLOCK_PROCESS_CPUTIME_ID
