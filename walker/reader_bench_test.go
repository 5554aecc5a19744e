package walker

import (
	"fmt"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkDirectorySize walks one flat directory of 1,000, 10,000 and
// 100,000 files, serially, and reports the time per entry: with the
// stream reader (-tags 'gfind_portable gfind_macshim': one record per
// libc-style read, no d_type, so a stat per entry, as on the worst
// macOS file system) it must stay flat as the directory grows, which a
// reader that reopens and skips (x/sys's Getdirentries on macOS) would
// not. Without the tags it measures the getdents reader. The
// directories are on tmpfs where there is one (fastTempDir).
func BenchmarkDirectorySize(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			root := filepath.Join(fastTempDir(b), "d")
			fd, err := unix.Open(filepath.Dir(root), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			must(b, err)
			must(b, unix.Mkdirat(fd, "d", 0o755))
			unix.Close(fd)
			fd, err = unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			must(b, err)
			for i := range n {
				f, err := unix.Openat(fd, fmt.Sprintf("f%07d", i), unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
				must(b, err)
				unix.Close(f)
			}
			unix.Close(fd)
			visits := 0
			for b.Loop() {
				visits = 0
				must(b, Walk([]string{root}, Options{Workers: 1, MaxDepth: -1}, func(e *Entry) Action {
					visits++
					return Continue
				}))
			}
			if visits != n+1 {
				b.Fatalf("%d visits, want %d", visits, n+1)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
		})
	}
}
