package output

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/walker"
)

// diagTests hold GNU find 4.9.0's stderr for the same situations, with
// "find" replaced by "gfind".
var diagTests = []struct {
	name  string
	style Style
	do    func(d *Diag)
	want  string
	fail  bool
}{
	{
		"enoent", StyleC,
		func(d *Diag) { d.FileError([]byte("a\nb"), syscall.ENOENT) },
		"gfind: 'a\\nb': No such file or directory\n", true,
	},
	{
		"eacces wrapped", StyleC,
		func(d *Diag) {
			d.FileError([]byte("./secret"), &fs.PathError{Op: "openat", Path: "secret", Err: syscall.EACCES})
		},
		"gfind: './secret': Permission denied\n", true,
	},
	{
		"enoent utf8", StyleUTF8,
		func(d *Diag) { d.FileError([]byte("it's"), syscall.ENOENT) },
		"gfind: \u2018it's\u2019: No such file or directory\n", true,
	},
	{
		// LC_ALL=C find -L lp (lp/self -> .)
		"loop", StyleC,
		func(d *Diag) {
			d.FileError([]byte("lp/self"), &walker.LoopError{Path: "lp/self", Ancestor: "lp"})
		},
		"gfind: File system loop detected; the following directory is part of the cycle: 'lp/self'\n", true,
	},
	{
		"loop utf8", StyleUTF8,
		func(d *Diag) {
			d.FileError([]byte("lp/a/b/up"), fmt.Errorf("walk: %w", &walker.LoopError{Path: "lp/a/b/up", Ancestor: "lp/a"}))
		},
		"gfind: File system loop detected; the following directory is part of the cycle: \u2018lp/a/b/up\u2019\n", true,
	},
	{
		// GNU writes `…' in parse errors whatever the locale.
		"parse error", StyleUTF8,
		func(d *Diag) { d.Errorf("unknown predicate `%s'", "-nosuch") },
		"gfind: unknown predicate `-nosuch'\n", true,
	},
	{
		// find . -warn -name a/b (warnings show when stdin is a tty)
		"warning", StyleC,
		func(d *Diag) {
			d.Warnf("%s matches against basenames only, but the given pattern contains a directory separator (%s), thus the expression will evaluate to false all the time.  Did you mean %s?",
				d.Quote("-name"), d.Quote("/"), d.Quote("-wholename"))
		},
		"gfind: warning: '-name' matches against basenames only, but the given pattern contains a directory separator ('/'), thus the expression will evaluate to false all the time.  Did you mean '-wholename'?\n", false,
	},
	{
		"warning utf8", StyleUTF8,
		func(d *Diag) { d.Warnf("Did you mean %s?", d.Quote("-wholename")) },
		"gfind: warning: Did you mean \u2018-wholename\u2019?\n", false,
	},
	{
		"fail only", StyleC,
		func(d *Diag) { d.Fail() },
		"", true,
	},
}

func TestDiag(t *testing.T) {
	for _, tt := range diagTests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			d := NewDiagStyle("gfind", &buf, tt.style)
			tt.do(d)
			if got := buf.String(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			if d.Failed() != tt.fail {
				t.Errorf("Failed() = %v, want %v", d.Failed(), tt.fail)
			}
		})
	}
}

// lineWriter records each Write call separately.
type lineWriter struct {
	mu     sync.Mutex
	writes []string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes = append(w.writes, string(p))
	w.mu.Unlock()
	return len(p), nil
}

// TestDiagConcurrent checks that each diagnostic is one Write of one
// whole line, whatever the number of goroutines reporting.
func TestDiagConcurrent(t *testing.T) {
	var w lineWriter
	d := NewDiagStyle("gfind", &w, StyleC)
	const workers, each = 8, 500
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			for i := range each {
				path := fmt.Sprintf("w%d/%s/%d", g, strings.Repeat("x", i%97), i)
				d.FileError([]byte(path), syscall.EACCES)
			}
		})
	}
	wg.Wait()
	if len(w.writes) != workers*each {
		t.Fatalf("%d writes, want %d", len(w.writes), workers*each)
	}
	seen := map[string]bool{}
	for _, line := range w.writes {
		if !strings.HasPrefix(line, "gfind: 'w") || !strings.HasSuffix(line, "': Permission denied\n") || strings.Count(line, "\n") != 1 {
			t.Fatalf("torn line %q", line)
		}
		if seen[line] {
			t.Fatalf("duplicate line %q", line)
		}
		seen[line] = true
	}
	if !d.Failed() {
		t.Error("Failed() = false after errors")
	}
}

// strerrorTests hold what every C library says alike; the glibc- and
// BSD-specific texts are in strerror_linux_test.go and strerror_bsd_test.go.
var strerrorTests = []struct {
	err  error
	want string
}{
	{syscall.ENOENT, "No such file or directory"},
	{syscall.EACCES, "Permission denied"},
	{syscall.ELOOP, "Too many levels of symbolic links"},
	{syscall.ENOTDIR, "Not a directory"},
	{syscall.ENAMETOOLONG, "File name too long"},
	{syscall.ENOSPC, "No space left on device"},
	{syscall.EIO, "Input/output error"},
	{syscall.EMFILE, "Too many open files"},
	{syscall.EPERM, "Operation not permitted"},
	{syscall.ENOTEMPTY, "Directory not empty"},
	{syscall.E2BIG, "Argument list too long"},
	{syscall.EBADF, "Bad file descriptor"},
	{syscall.EPIPE, "Broken pipe"},
	{&fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}, "No such file or directory"},
	{fmt.Errorf("a: %w", syscall.EACCES), "Permission denied"},
	{errors.New("not an errno"), "not an errno"},
}

func TestStrerror(t *testing.T) {
	for _, tt := range append(strerrorTests, libcStrerrorTests...) {
		if got := Strerror(tt.err); got != tt.want {
			t.Errorf("Strerror(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// TestStrerrorMatchesLibc compares every errno with the C library's
// strerror, through Python's os.strerror, where python3 exists.
func TestStrerrorMatchesLibc(t *testing.T) {
	py := testtool.Need(t, "python3", "python3")
	const max = 140
	out, err := exec.Command(py, "-c", "import os\nfor i in range("+strconv.Itoa(max)+"): print(os.strerror(i))").Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != max {
		t.Fatalf("python3 printed %d lines", len(lines))
	}
	for i, want := range lines {
		if got := Strerror(syscall.Errno(i)); got != want {
			t.Errorf("Strerror(%d) = %q, C library says %q", i, got, want)
		}
	}
}
