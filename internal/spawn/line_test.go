package spawn

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestRoom: the room is the system's argMax less GNU's headroom and
// the environment, strings and pointers, and none is left by an
// environment as large as argMax.
func TestRoom(t *testing.T) {
	limit := argMax()
	room, ok := Room(nil)
	if want := int(limit) - headroom - ptrSize; !ok || room != want {
		t.Errorf("Room(nil) = %d, %v; want %d (argMax %d)", room, ok, want, limit)
	}
	if limit < 128<<10 {
		t.Errorf("argMax() = %d, below any system's ARG_MAX", limit)
	}
	env := []string{strings.Repeat("x", 1000)}
	if r, _ := Room(env); r != room-1001-ptrSize {
		t.Errorf("a 1000-byte variable leaves %d, want %d", r, room-1001-ptrSize)
	}
	if _, ok := Room([]string{strings.Repeat("x", int(limit))}); ok {
		t.Errorf("an environment of argMax (%d) bytes leaves room", limit)
	}
}

// runAll runs every line b builds from files (through Add, then
// Pending) and returns the files refused alone.
func runAll(t *testing.T, b *Builder, files []string, dir Dir) []string {
	t.Helper()
	var refused []string
	run := func(l *Line) {
		b.Run(l, func(j Job) Outcome {
			res, err := runJob(t, j, io.Discard)
			if err != nil {
				t.Errorf("reported %v", err)
			}
			return res
		}, func(file string) { refused = append(refused, file) })
	}
	for _, f := range files {
		b.Add(nil, f, dir, run)
	}
	for _, l := range b.Pending() {
		run(l)
	}
	return refused
}

// TestBuilderRun: every file is passed once, in as many children as the
// room allows, and a child refused with E2BIG is retried with fewer.
func TestBuilderRun(t *testing.T) {
	list := filepath.Join(t.TempDir(), "list")
	cmd := []string{"sh", "-c", `printf '%s\n' "$@" >>` + list + `; echo $# >>` + list + `.n`, "sh"}
	full, ok := Room(os.Environ())
	if !ok {
		t.Fatal("no room")
	}
	b := NewBuilder(cmd, full)

	check := func(t *testing.T, paths []string, wantChildren func(int) bool) {
		t.Helper()
		os.Remove(list)
		os.Remove(list + ".n")
		if refused := runAll(t, b, paths, Dir{}); refused != nil {
			t.Errorf("refused %d files", len(refused))
		}
		got, err := os.ReadFile(list)
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n"); !slices.Equal(lines, paths) {
			t.Errorf("%d paths passed, want %d (each once, in order)", len(lines), len(paths))
		}
		counts, _ := os.ReadFile(list + ".n")
		if k := strings.Count(string(counts), "\n"); !wantChildren(k) {
			t.Errorf("%d children", k)
		}
	}
	var paths []string
	for i := range 3000 {
		paths = append(paths, fmt.Sprintf("%s/%06d", strings.Repeat("p", 1000), i))
	}
	room := b.room
	t.Run("fits", func(t *testing.T) {
		// 3 MB of paths: more than one child with an 8 MiB stack limit,
		// few in any case.
		check(t, paths, func(k int) bool { return k >= (3000*1016)/room && k <= (3000*1016)/room+1 })
	})
	t.Run("small room", func(t *testing.T) {
		b.room = 10 * 1016
		defer func() { b.room = room }()
		check(t, paths[:100], func(k int) bool { return k == 10 })
	})
	t.Run("E2BIG", func(t *testing.T) {
		b.room = 1 << 30 // more than the kernel takes: execve says E2BIG
		defer func() { b.room = room }()
		check(t, paths, func(k int) bool { return k >= 2 })
	})
}

// TestBuilderRefused: a file the kernel refuses even alone on a line
// is given to refused, and the files after it are still tried.
func TestBuilderRefused(t *testing.T) {
	// The command's own words are past any system's limit.
	cmd := []string{"true"}
	for range 80 {
		cmd = append(cmd, strings.Repeat("w", 100<<10))
	}
	b := NewBuilder(cmd, 1<<30) // as if they fitted
	if refused := runAll(t, b, []string{"a", "b"}, Dir{}); !slices.Equal(refused, []string{"a", "b"}) {
		t.Errorf("refused %q, want both files", refused)
	}
}

// TestBuilderDirs: a directory's line runs when its last user leaves,
// not while a user is in it, and stays for Pending when kept; Pending
// gives the shared line first, then the directories' by name. A line
// owns a duplicate of its directory's descriptor, closed once it ran.
func TestBuilderDirs(t *testing.T) {
	b := NewBuilder([]string{"true"}, 1<<20)
	nop := func(*Line) { t.Error("a line filled up") }
	dir := t.TempDir()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)

	a := b.Enter("a")
	if b.Enter("a") != a {
		t.Fatal("two lines for one directory")
	}
	b.Add(a, "./1", DirAt(fd, dir), nop)
	if !a.dir.open || a.dir.fd == fd {
		t.Errorf("the line's descriptor is %d (%v), want a duplicate of %d", a.dir.fd, a.dir.open, fd)
	}
	owned := a.dir.fd
	if l := b.Leave("a", false); l != nil {
		t.Error("the line ran with a user in its directory")
	}
	if l := b.Leave("a", false); l != a {
		t.Fatal("the last user left and the line did not run")
	}
	b.Run(a, func(Job) Outcome { return OK }, nil)
	if err := unix.Fstat(owned, &unix.Stat_t{}); err == nil {
		t.Error("the line's descriptor is still open after it ran")
	}
	if l := b.Leave("a", false); l != nil {
		t.Error("a line ran twice")
	}
	for _, k := range []string{"c", "b"} {
		b.Add(b.Enter(k), "./x", Dir{}, nop)
		if l := b.Leave(k, true); l != nil {
			t.Errorf("%s: a kept line ran", k)
		}
	}
	empty := b.Enter("d")
	if l := b.Leave("d", false); l != nil || empty.users != 0 {
		t.Error("an empty line ran")
	}
	b.Add(nil, "shared", Dir{}, nop)
	var keys []string
	for _, l := range b.Pending() {
		keys = append(keys, l.key)
	}
	if want := []string{"", "b", "c"}; !slices.Equal(keys, want) {
		t.Errorf("Pending gives %q, want %q", keys, want)
	}
}
