package gitignore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestRead checks what ReadAt and ReadPath make of each kind of
// .gitignore: a regular file is read; none, a symbolic link (git does
// not follow one; the errno O_NOFOLLOW gives differs per OS), a
// directory and a FIFO (read without blocking) are no ignore file.
func TestRead(t *testing.T) {
	for _, tt := range []struct {
		name string
		make func(path string) error
		want string // "" for no ignore file
	}{
		{"regular", func(p string) error { return os.WriteFile(p, []byte("*.o\n"), 0o644) }, "*.o\n"},
		{"none", func(string) error { return nil }, ""},
		{"symbolic link", func(p string) error {
			if err := os.WriteFile(p+".real", []byte("*.o\n"), 0o644); err != nil {
				return err
			}
			return os.Symlink(".gitignore.real", p)
		}, ""},
		{"dangling symbolic link", func(p string) error { return os.Symlink("nowhere", p) }, ""},
		{"directory", func(p string) error { return os.Mkdir(p, 0o755) }, ""},
		{"FIFO", func(p string) error { return unix.Mkfifo(p, 0o644) }, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ".gitignore")
			if err := tt.make(path); err != nil {
				t.Fatal(err)
			}
			fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer unix.Close(fd)
			for _, read := range []struct {
				how string
				fn  func() ([]byte, error)
			}{
				{"ReadAt", func() ([]byte, error) { return ReadAt(fd, path) }},
				{"ReadPath", func() ([]byte, error) { return ReadPath(path) }},
			} {
				got, err := read.fn()
				if err != nil || string(got) != tt.want {
					t.Errorf("%s = %q, %v; want %q, nil", read.how, got, err, tt.want)
				}
			}
		})
	}
}

// TestReadError checks that a .gitignore that is there but cannot be
// opened is an error, not taken for none: a name too long (which fails
// for root too, unlike a file without read permission).
func TestReadError(t *testing.T) {
	path := filepath.Join(t.TempDir(), strings.Repeat("x", 300), ".gitignore")
	if data, err := ReadPath(path); err == nil {
		t.Errorf("ReadPath(%s) = %q, nil; want ENAMETOOLONG", path, data)
	}
}

// TestHasGitAt checks that ".git" counts as a directory, a file (linked
// work trees, submodules) or even a symbolic link, and that its absence
// does not.
func TestHasGitAt(t *testing.T) {
	for _, tt := range []struct {
		name string
		make func(path string) error
		want bool
	}{
		{"directory", func(p string) error { return os.Mkdir(p, 0o755) }, true},
		{"file", func(p string) error { return os.WriteFile(p, []byte("gitdir: x\n"), 0o644) }, true},
		{"dangling symbolic link", func(p string) error { return os.Symlink("nowhere", p) }, true},
		{"none", func(string) error { return nil }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tt.make(filepath.Join(dir, ".git")); err != nil {
				t.Fatal(err)
			}
			fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer unix.Close(fd)
			if got := HasGitAt(fd); got != tt.want {
				t.Errorf("HasGitAt = %v, want %v", got, tt.want)
			}
		})
	}
}
