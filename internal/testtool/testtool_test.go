package testtool

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// fakeTB records how a helper ended the test.
type fakeTB struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Skipf(format string, args ...any) {
	f.skipped = true
	f.msg = fmt.Sprintf(format, args...)
	panic(f)
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = true
	f.msg = fmt.Sprintf(format, args...)
	panic(f)
}

func run(f *fakeTB, fn func()) {
	defer func() {
		if r := recover(); r != nil && r != f {
			panic(r)
		}
	}()
	fn()
}

func TestNeedMissing(t *testing.T) {
	for _, c := range []struct {
		ci         string
		skip, fail bool
	}{
		{"", true, false},
		{"false", true, false},
		{"true", false, true},
		{"1", false, true},
	} {
		t.Run("CI="+c.ci, func(t *testing.T) {
			t.Setenv("CI", c.ci)
			f := &fakeTB{TB: t}
			run(f, func() { Need(f, "gfind-no-such-program", "no-such-package") })
			if f.skipped != c.skip || f.failed != c.fail {
				t.Errorf("skipped %v failed %v, want %v %v", f.skipped, f.failed, c.skip, c.fail)
			}
			if !strings.Contains(f.msg, "no-such-package") {
				t.Errorf("message %q does not name the package", f.msg)
			}
		})
	}
}

func TestNeedFound(t *testing.T) {
	want, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	if got := Need(t, "sh", "dash"); got != want {
		t.Errorf("Need(sh) = %q, want %q", got, want)
	}
}

func TestGNUFind(t *testing.T) {
	path := GNUFind(t)
	out, err := exec.Command(path, "--version").Output()
	if err != nil || !strings.Contains(string(out), "GNU findutils") {
		t.Errorf("%s --version: %q, %v", path, out, err)
	}
}

func TestWantMissing(t *testing.T) {
	for _, c := range []struct {
		ci   string
		fail bool
	}{{"", false}, {"true", true}} {
		t.Run("CI="+c.ci, func(t *testing.T) {
			t.Setenv("CI", c.ci)
			f := &wantTB{TB: t}
			if path, ok := Want(f, "gfind-no-such-program", "no-such-package"); ok || path != "" {
				t.Errorf("Want = %q, %v for a missing program", path, ok)
			}
			if f.failed != c.fail {
				t.Errorf("failed %v, want %v", f.failed, c.fail)
			}
			if !strings.Contains(f.msg, "no-such-package") {
				t.Errorf("message %q does not name the package", f.msg)
			}
		})
	}
	if _, ok := Want(t, "sh", "dash"); !ok {
		t.Error("Want(sh) found no sh")
	}
}

// wantTB records Want's message and whether it failed the test, without
// ending it (Want reports through Errorf and Logf).
type wantTB struct {
	testing.TB
	failed bool
	msg    string
}

func (f *wantTB) Helper() {}
func (f *wantTB) Errorf(format string, args ...any) {
	f.failed = true
	f.msg = fmt.Sprintf(format, args...)
}
func (f *wantTB) Logf(format string, args ...any) { f.msg = fmt.Sprintf(format, args...) }

func TestPoll(t *testing.T) {
	n := 0
	if !Poll(func() bool { n++; return n == 3 }) || n != 3 {
		t.Errorf("Poll stopped after %d checks, want 3", n)
	}
}
