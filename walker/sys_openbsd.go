package walker

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// OpenBSD's struct dirent (dirent.go).
const direntName = obsdName

func nextDirent(buf []byte, pos int, d *dirent) (next int, ok bool) {
	return parseOpenBSD(buf, pos, d)
}

// The layout constants are unix.Dirent's: checked at compile time (an
// index out of range, or a negative constant, if one differs).
var (
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Fileno)-direntIno]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Reclen)-obsdReclen]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Type)-obsdType]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Namlen)-obsdNamlen]
	_ = [1]int{}[unsafe.Offsetof(unix.Dirent{}.Name)-obsdName]
)

// threadSleeps returns the number of times the calling thread slept
// (ru_nvcsw of RUSAGE_THREAD), for the adaptive walk's probes (adapt.go).
func threadSleeps() int64 {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_THREAD, &ru) != nil {
		return 0
	}
	return int64(ru.Nvcsw)
}

// clockProcessCPU is the clock of the CPU time the process has used.
const clockProcessCPU = unix.CLOCK_PROCESS_CPUTIME_ID
