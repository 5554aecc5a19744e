package walker

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// NetBSD's struct dirent (dirent.go).
const direntName = nbsdName

func nextDirent(buf []byte, pos int, d *dirent) (next int, ok bool) {
	return parseNetBSD(buf, pos, d)
}

// The layout constants are unix.Dirent's: checked at compile time (an
// index out of range, or a negative constant, if one differs).
var (
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Fileno)-direntIno]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Reclen)-nbsdReclen]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Type)-nbsdType]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Namlen)-nbsdNamlen]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Name)-nbsdName]
)

// threadSleeps: NetBSD counts sleeps per process only, which cannot tell
// a probe's thread from the others. With no count the probes never see
// a blocked call, and the walk keeps the workers it started with.
func threadSleeps() int64 { return 0 }

// clockProcessCPU is the clock of the CPU time the process has used
// (<time.h>; x/sys does not name it for NetBSD).
const clockProcessCPU = 0x40000000
