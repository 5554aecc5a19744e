//go:build !linux

package walker

// The counterparts of shim_linux_test.go on macOS and the BSDs: plain
// temporary directories, the descriptors counted by fcntl, directories
// read through the os package, and no mount namespaces (so no engine
// matrix mount cases, and no mount_linux_test.go).

import (
	"os"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// maxCountedFD bounds the descriptors countFDs looks at: a descriptor
// is given the lowest free number, and a test process has far fewer
// open.
const maxCountedFD = 4096

// countFDs counts this process's open descriptors below maxCountedFD
// (there is no /proc; the BSDs' /dev/fd shows 0 to 2 without fdescfs).
func countFDs() int {
	n := 0
	for fd := range maxCountedFD {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil {
			n++
		}
	}
	return n
}

// openFDs counts this process's open descriptors.
func openFDs(t testing.TB) int { return countFDs() }

// childFDs counts the open descriptors of a child process (matrixChild).
func childFDs() int { return countFDs() }

// privateMounts: no mount namespaces here, so the engine matrix's mount
// cases (matrixCase.setup) do not run.
const privateMounts = false

// fastTempDir is a temporary directory (there is no tmpfs to prefer:
// macOS has none, and the BSDs' are not mounted by default).
func fastTempDir(t testing.TB) string {
	t.Helper()
	return t.TempDir()
}

// readdirOrder lists the directory open as fd in the order the OS reads
// it (readdir on macOS, getdirentries on the BSDs, as the walker does),
// without "." and "..".
func readdirOrder(t testing.TB, fd int) []string {
	t.Helper()
	return refNames(t, fd)
}

// refNames reads the directory open as fd, on a descriptor of its own,
// through the os package.
func refNames(t testing.TB, fd int) []string {
	t.Helper()
	dfd, err := unix.Openat(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	must(t, err)
	f := os.NewFile(uintptr(dfd), ".")
	defer f.Close()
	names, err := f.Readdirnames(-1)
	must(t, err)
	return names
}

// moreBigDirBases: no other file system to test (fts sorts big
// directories by inode on every file system off Linux).
func moreBigDirBases(t testing.TB) []string { return nil }

// fsKind names the file system of base, in subtests' names.
func fsKind(t testing.TB, base string) string { return "tempdir" }

// refEnt is one entry of a directory as refSorted reads it.
type refEnt struct {
	name  []byte
	isDir bool
}

// refReadDir reads the directory open as fd, without "." and "..", for
// refSorted: through the os package, and whether an entry is a
// directory by fstatat, not the walker's reader.
func refReadDir(t testing.TB, fd int) []refEnt {
	t.Helper()
	names := refNames(t, fd)
	ents := make([]refEnt, 0, len(names))
	for _, n := range names {
		var st unix.Stat_t
		must(t, unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW))
		ents = append(ents, refEnt{[]byte(n), st.Mode&unix.S_IFMT == unix.S_IFDIR})
	}
	return ents
}

// sleepThread blocks the calling thread, not only its goroutine, in a
// system call (select with no descriptors: x/sys has no Nanosleep for
// macOS) for d, as a read of a cold disk would.
func sleepThread(d time.Duration) {
	tv := unix.NsecToTimeval(int64(d))
	unix.Select(0, nil, nil, nil, &tv)
}

// childAttr is a test child's process attributes (no Pdeathsig off
// Linux: a child left by a killed test binary goes on to its end).
func childAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred}
}
