package walker

// What the OS-neutral tests need that is done in Linux's own way here:
// /proc, tmpfs on /dev/shm, getdents64, mount namespaces. The other
// systems' versions are in shim_other_test.go.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openFDs counts this process's open descriptors.
func openFDs(t testing.TB) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents) - 1 // the one ReadDir used
}

// childFDs counts the open descriptors of a child process (matrixChild),
// plus one: the one the count uses, the same every time.
func childFDs() int {
	ents, _ := os.ReadDir("/proc/self/fd")
	return len(ents)
}

// privateMounts says that the tests can mount in a private mount
// namespace (unshare(1), mount(8)), as the engine matrix's mount cases
// do (matrixCase.setup). The other mount tests are in
// mount_linux_test.go.
const privateMounts = true

// fastTempDir returns a temporary directory on tmpfs when there is one:
// building big trees there is much faster, and tmpfs lists a directory
// newest first, which mkdeep relies on to need no retries.
func fastTempDir(t testing.TB) string {
	t.Helper()
	var sfs unix.Statfs_t
	if unix.Statfs("/dev/shm", &sfs) == nil && sfs.Type == magicTmpfs {
		if dir, err := os.MkdirTemp("/dev/shm", "walkertest"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// readdirOrder lists the directory open as fd in getdents order.
func readdirOrder(t testing.TB, fd int) []string {
	t.Helper()
	dfd, err := unix.Openat(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	must(t, err)
	defer unix.Close(dfd)
	var names []string
	buf := make([]byte, 8192)
	for {
		n, err := unix.Getdents(dfd, buf)
		must(t, err)
		if n == 0 {
			return names
		}
		for pos := 0; ; {
			var de dirent
			next, ok := nextDirent(buf[:n], pos, &de)
			if !ok {
				break
			}
			names = append(names, string(de.name))
			pos = next
		}
	}
}

// moreBigDirBases gives TestBigDirectoryOrder's bases besides the
// temporary directory: one on /dev/shm when that is tmpfs, where fts
// does not sort a big directory by inode.
func moreBigDirBases(t testing.TB) []string {
	t.Helper()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() && fsType(mustOpen(t, "/dev/shm")) == magicTmpfs {
		shm, err := os.MkdirTemp("/dev/shm", "walkertest")
		must(t, err)
		t.Cleanup(func() { os.RemoveAll(shm) })
		return []string{shm}
	}
	return nil
}

// fsKind names the file system of base, in subtests' names.
func fsKind(t testing.TB, base string) string {
	t.Helper()
	return fmt.Sprintf("fstype=%#x", fsType(mustOpen(t, base)))
}

// refEnt is one entry of a directory as refSorted reads it.
type refEnt struct {
	name  []byte
	isDir bool
}

// refReadDir reads the directory open as fd to its end, without "."
// and "..", for refSorted: through getdents64 and a parser of its own,
// not the walker's.
func refReadDir(t testing.TB, fd int) []refEnt {
	t.Helper()
	var ents []refEnt
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		must(t, err)
		if n == 0 {
			break
		}
		for p := 0; p < n; {
			reclen := int(binary.NativeEndian.Uint16(buf[p+16:]))
			name := buf[p+19 : p+reclen]
			name = name[:bytes.IndexByte(name, 0)]
			if string(name) != "." && string(name) != ".." {
				ents = append(ents, refEnt{bytes.Clone(name), buf[p+18] == unix.DT_DIR})
			}
			p += reclen
		}
	}
	return ents
}

// sleepThread blocks the calling thread, not only its goroutine, in a
// system call (nanosleep) for d, as a read of a cold disk would.
func sleepThread(d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	unix.Nanosleep(&ts, nil)
}

// childAttr is a test child's process attributes: killed when the test
// that started it ends (Pdeathsig), so that a walk that never ends (a
// bug) does not outlive a test binary killed by its -timeout.
func childAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
}
