package output

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

// helperEnv selects a helper mode: the test binary re-executed as a
// small program writing through a Sink, so that exit statuses, signals
// and the real standard output can be observed.
const helperEnv = "GFIND_OUTPUT_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode))
	}
	os.Exit(m.Run())
}

// runHelper prints many records through a Sink and returns what gfind's
// main would: 1 if the Diag recorded a failure.
func runHelper(mode string) int {
	d := NewDiagStyle("gfind", os.Stderr, StyleC)
	out := os.Stdout
	switch mode {
	case "fd3":
		out = os.NewFile(3, "fd3")
	case "ignore":
		signal.Ignore(syscall.SIGPIPE)
	}
	s := NewSink(out, d)
	b := s.NewBuffer()
	path := []byte("./some/directory/and/a/file/name.txt")
	for i := 0; i < 1<<20 && !s.Stopped(); i++ {
		b.Print(path, '\n')
	}
	b.Flush()
	s.Close()
	if d.Failed() {
		return 1
	}
	return 0
}

// helper starts the test binary in helper mode.
func helper(t *testing.T, mode string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	return cmd
}

// newFileSink returns a Sink writing to a new temporary file, and a
// function that returns the file's contents once the Sink is closed.
func newFileSink(t *testing.T, opts ...SinkOption) (*Sink, *bytes.Buffer, func() string) {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	var diag bytes.Buffer
	s := NewSink(f, NewDiagStyle("gfind", &diag, StyleC), opts...)
	return s, &diag, func() string {
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

// TestSinkConcurrent has several workers print numbered records, some
// in one call and some in several pieces, and checks that every record
// arrives exactly once and whole.
func TestSinkConcurrent(t *testing.T) {
	s, diag, contents := newFileSink(t, WithTTY(false))
	const workers, each = 8, 10000
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			b := s.NewBuffer()
			for i := range each {
				pad := strings.Repeat("p", (i*7+w)%300)
				if i%3 == 0 {
					// One record from several appends.
					fmt.Fprintf(b, "w%d ", w)
					b.WriteString(strconv.Itoa(i))
					b.WriteByte(' ')
					b.WriteName([]byte(pad))
					b.Write([]byte{'\n'})
					b.EndRecord()
					continue
				}
				b.Print([]byte(fmt.Sprintf("w%d %d %s", w, i, pad)), '\n')
			}
			b.Flush()
		})
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if diag.Len() != 0 {
		t.Fatalf("diagnostics: %s", diag)
	}
	seen := make([][]bool, workers)
	for w := range seen {
		seen[w] = make([]bool, each)
	}
	sc := bufio.NewScanner(strings.NewReader(contents()))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		f := strings.SplitN(line, " ", 3)
		if len(f) != 3 || len(f[0]) < 2 || f[0][0] != 'w' {
			t.Fatalf("torn record %q", line)
		}
		w, err1 := strconv.Atoi(f[0][1:])
		i, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || w < 0 || w >= workers || i < 0 || i >= each ||
			len(f[2]) != (i*7+w)%300 || strings.Trim(f[2], "p") != "" {
			t.Fatalf("torn record %q", line)
		}
		if seen[w][i] {
			t.Fatalf("record %q twice", line)
		}
		seen[w][i] = true
		n++
	}
	if n != workers*each {
		t.Fatalf("%d records, want %d", n, workers*each)
	}
}

func TestStop(t *testing.T) {
	s, _, contents := newFileSink(t, WithTTY(false))
	a, b := s.NewBuffer(), s.NewBuffer()
	a.Print([]byte("before"), '\n')
	a.Flush()
	if s.Stopped() {
		t.Fatal("Stopped before Stop")
	}
	b.Print([]byte("held by b"), '\n')
	s.Stop()
	if !s.Stopped() {
		t.Fatal("not Stopped after Stop")
	}
	a.Print([]byte("after"), '\n')
	a.Flush()
	b.Flush()
	s.Close()
	if got := contents(); got != "before\n" {
		t.Errorf("file holds %q, want only the record flushed before Stop", got)
	}
}

// TestFlushAndStop is -print -quit: the quitting worker's records
// appear, nothing else does afterwards.
func TestFlushAndStop(t *testing.T) {
	s, _, contents := newFileSink(t, WithTTY(false))
	a, b := s.NewBuffer(), s.NewBuffer()
	b.Print([]byte("other worker, not flushed"), '\n')
	a.Print([]byte("found"), '\n')
	a.FlushAndStop()
	if !s.Stopped() {
		t.Fatal("not Stopped")
	}
	b.Flush()
	a.Print([]byte("after quit"), '\n')
	a.Flush()
	s.Close()
	if got := contents(); got != "found\n" {
		t.Errorf("file holds %q, want %q", got, "found\n")
	}
}

// TestDevFull: a write error is reported once, in GNU's words for a
// -fprint file (find . -fprint /dev/full), and stops the Sink.
func TestDevFull(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	var diag bytes.Buffer
	d := NewDiagStyle("gfind", &diag, StyleC)
	s := NewSink(f, d, WithTTY(false))
	b := s.NewBuffer()
	for i := 0; i < 3*FlushSize/8 && !s.Stopped(); i++ {
		b.Print([]byte("./x/y/z"), '\n')
	}
	if !s.Stopped() {
		t.Fatal("not Stopped after a write error")
	}
	b.Print([]byte("more"), '\n')
	b.Flush()
	if err := s.Close(); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Close() = %v, want ENOSPC", err)
	}
	want := "gfind: '/dev/full': No space left on device\n"
	if diag.String() != want {
		t.Errorf("diagnostics %q, want %q", diag.String(), want)
	}
	if !d.Failed() {
		t.Error("Diag not Failed")
	}
}

// TestStdoutDevFull: `gfind > /dev/full` says what GNU find says and
// exits 1 (find /usr/share/doc > /dev/full; echo $?).
func TestStdoutDevFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	cmd := helper(t, "stdout")
	cmd.Stdout = full
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1", err)
	}
	want := "gfind: 'standard output': No space left on device\ngfind: write error\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}

// brokenPipe runs the helper with its output (stdout, or fd 3) on a
// pipe whose reader goes away after the first bytes.
func brokenPipe(t *testing.T, mode string) (*os.ProcessState, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := helper(t, mode)
	if mode == "fd3" {
		cmd.ExtraFiles = []*os.File{w}
	} else {
		cmd.Stdout = w
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	// Read a little, as `| head -1` would, then close the pipe.
	if _, err := io.ReadFull(r, make([]byte, 10)); err != nil {
		t.Fatalf("no output: %v", err)
	}
	r.Close()
	cmd.Wait()
	return cmd.ProcessState, stderr.String()
}

// TestBrokenPipe: gfind | head -1 ends gfind by SIGPIPE, silently, as
// it does GNU find (status 141 in the shell), for standard output and
// for any other file.
func TestBrokenPipe(t *testing.T) {
	for _, mode := range []string{"stdout", "fd3"} {
		t.Run(mode, func(t *testing.T) {
			ps, stderr := brokenPipe(t, mode)
			ws := ps.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != syscall.SIGPIPE {
				t.Errorf("helper ended with %v, want killed by SIGPIPE", ps)
			}
			if stderr != "" {
				t.Errorf("stderr %q, want nothing", stderr)
			}
		})
	}
}

// TestBrokenPipeIgnored: with SIGPIPE ignored (signal.Ignore), EPIPE is
// an ordinary write error, worded as GNU words it for a shell that
// ignores SIGPIPE: (trap "" PIPE; find /usr | head -1).
func TestBrokenPipeIgnored(t *testing.T) {
	ps, stderr := brokenPipe(t, "ignore")
	if ps.ExitCode() != 1 {
		t.Errorf("helper ended with %v, want exit status 1", ps)
	}
	want := "gfind: 'standard output': Broken pipe\ngfind: write error\n"
	if stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// TestTTY: on a terminal, -print shows unprintable characters as '?'
// and each record is written at once; -print0 stays raw.
func TestTTY(t *testing.T) {
	for _, tt := range []struct {
		style    Style
		path     string
		term     byte
		want     string
		wantName string
	}{
		{StyleC, "a\nb", '\n', "a?b\n", "a?b"},
		{StyleC, "é\x1b", '\n', "???\n", "???"},
		{StyleUTF8, "é\x1b\xff", '\n', "é??\n", "é??"},
		{StyleC, "a\nb", 0, "a\nb\x00", "a?b"},
	} {
		s, _, contents := newFileSink(t, WithTTY(true))
		s.style = tt.style
		if !s.TTY() {
			t.Fatal("TTY() = false with WithTTY(true)")
		}
		b := s.NewBuffer()
		b.Print([]byte(tt.path), tt.term)
		if b.Len() != 0 {
			t.Errorf("%q: record still buffered in terminal mode", tt.path)
		}
		if got := contents(); got != tt.want {
			t.Errorf("Print(%q, %q) wrote %q, want %q", tt.path, tt.term, got, tt.want)
		}
		b.WriteName([]byte(tt.path))
		b.EndRecord()
		if got := strings.TrimPrefix(contents(), tt.want); got != tt.wantName {
			t.Errorf("WriteName(%q) wrote %q, want %q", tt.path, got, tt.wantName)
		}
		s.Close()
	}
	// Not a terminal: raw bytes, held until FlushSize.
	s, _, contents := newFileSink(t)
	if s.TTY() {
		t.Fatal("a regular file is a terminal")
	}
	b := s.NewBuffer()
	b.Print([]byte("a\nb"), '\n')
	if contents() != "" {
		t.Error("record written before FlushSize")
	}
	b.Flush()
	if got := contents(); got != "a\nb\n" {
		t.Errorf("wrote %q", got)
	}
}

// TestTTYDetect checks that NewSink notices a real terminal.
func TestTTYDetect(t *testing.T) {
	_, slave := testtool.OpenPTY(t)
	s := NewSink(slave, NewDiagStyle("gfind", io.Discard, StyleC))
	if !s.TTY() {
		t.Error("pty slave not detected as a terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if NewSink(w, NewDiagStyle("gfind", io.Discard, StyleC)).TTY() {
		t.Error("pipe detected as a terminal")
	}
}

// BenchmarkPrint is the -print hot path: one record appended to a
// worker's Buffer, with a write(2) of 64 KiB now and then.
func BenchmarkPrint(b *testing.B) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	s := NewSink(f, NewDiagStyle("gfind", io.Discard, StyleC), WithTTY(false))
	buf := s.NewBuffer()
	path := []byte("./usr/share/doc/libfoo-dev/examples/frobnicate.c")
	b.SetBytes(int64(len(path) + 1))
	b.ReportAllocs()
	for b.Loop() {
		buf.Print(path, '\n')
	}
	buf.Flush()
}

// BenchmarkPrintParallel measures the shared Sink under contention.
func BenchmarkPrintParallel(b *testing.B) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	s := NewSink(f, NewDiagStyle("gfind", io.Discard, StyleC), WithTTY(false))
	path := []byte("./usr/share/doc/libfoo-dev/examples/frobnicate.c")
	b.SetBytes(int64(len(path) + 1))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		buf := s.NewBuffer()
		for pb.Next() {
			buf.Print(path, '\n')
		}
		buf.Flush()
	})
}

// TestHold: under Hold a Buffer's records go to the caller's slice, none
// to the Sink, past FlushSize and through Flush too; after Release they
// go to the Sink again.
func TestHold(t *testing.T) {
	s, _, contents := newFileSink(t)
	b := s.NewBuffer()
	b.Capture(make([]byte, 0, 16))
	big := strings.Repeat("x", FlushSize)
	b.Print([]byte("held1"), '\n')
	b.Print([]byte(big), '\n')
	b.Flush()
	b.WriteString("held2")
	b.EndRecord()
	if got := b.Len(); got != len("held1\n")+len(big)+1+len("held2") {
		t.Errorf("Len under Hold = %d", got)
	}
	held := b.Release()
	if want := "held1\n" + big + "\nheld2"; string(held) != want {
		t.Errorf("Release returned %d bytes, want %d", len(held), len(want))
	}
	b.Print([]byte("after"), '\n')
	b.Flush()
	s.Close()
	if got := contents(); got != "after\n" {
		t.Errorf("the Sink got %q, want only the record after Release", got)
	}
}

// TestBufferSize: a Buffer hands its records over once they reach its
// size, and not before; NewBufferSize with no size is NewBuffer.
func TestBufferSize(t *testing.T) {
	const rec = "0123456789abcdef" // with its newline, 17 bytes
	for _, tc := range []struct{ size, want int }{
		{0, FlushSize},
		{-1, FlushSize},
		{100, 100},
		{FlushSize / 4, FlushSize / 4},
	} {
		s, _, contents := newFileSink(t, WithTTY(false))
		b := s.NewBufferSize(tc.size)
		n := 0
		for contents() == "" {
			b.Print([]byte(rec), '\n')
			n++
			if n*(len(rec)+1) > 2*FlushSize {
				t.Fatalf("size %d: nothing handed over after %d bytes", tc.size, n*(len(rec)+1))
			}
		}
		// The record that reached the size was the first handed over with it.
		if got, want := n, (tc.want+len(rec))/(len(rec)+1); got != want {
			t.Errorf("size %d: first hand-over after %d records, want %d", tc.size, got, want)
		}
		if got := len(contents()); got != n*(len(rec)+1) {
			t.Errorf("size %d: %d bytes handed over, want all %d buffered", tc.size, got, n*(len(rec)+1))
		}
		s.Close()
	}
}
