package predicate

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

func init() {
	// A fuzzer or a table must not create files in the package
	// directory: relative names given to -fprint and friends open
	// /dev/null. Tests that look at a file's contents use absolute names
	// under t.TempDir().
	open := openOutputFile
	openOutputFile = func(name string) (*os.File, error) {
		if !filepath.IsAbs(name) {
			name = os.DevNull
		}
		return open(name)
	}
}

// setLocalUTC makes the local time zone UTC for the rest of the test.
func setLocalUTC(t *testing.T) {
	old := time.Local
	time.Local = time.UTC
	t.Cleanup(func() { time.Local = old })
}

var printfParseTests = []struct {
	args    string
	want    string // the expression's Args, joined by spaces
	warns   []string
	wantErr string
}{
	{args: "-printf %p\\n", want: "-printf %p\\n"},
	{args: "-printf %Q", want: "-printf %Q", warns: []string{"unrecognized format directive `%Q'"}},
	{args: "-printf \\q%A", want: "-printf \\q%A", warns: []string{"unrecognized escape `\\q'", "format directive `%A' should be followed by another character"}},
	{args: "-printf", wantErr: "missing argument to `-printf'"},
	{args: "-printf %", wantErr: "error: % at end of format string"},
	{args: "-printf %{", wantErr: "error: the format directive `%{' is reserved for future use"},
	{args: "-fprintf out %p", want: "-fprintf out %p"},
	{args: "-fprintf out", wantErr: "invalid argument `out' to `-fprintf'"},
	{args: "-fprintf", wantErr: "missing argument to `-fprintf'"},
	{args: "-fprintf /nonexistent/dir/x %p", wantErr: "'/nonexistent/dir/x': No such file or directory"},
	{args: "-fprint /nonexistent/dir/x -printf %", wantErr: "'/nonexistent/dir/x': No such file or directory"},
	{args: "-printf % -fprint /nonexistent/dir/x", wantErr: "error: % at end of format string"},
	{args: "-fprint out", want: "-fprint out"},
	{args: "-fprint0 out -fprint out", want: "-fprint0 out -a -fprint out"},
	{args: "-fprint", wantErr: "missing argument to `-fprint'"},
	{args: "-fprint0", wantErr: "missing argument to `-fprint0'"},
	{args: "-ls", want: "-ls"},
	{args: "-fls out", want: "-fls out"},
	{args: "-fls", wantErr: "missing argument to `-fls'"},
	{args: "-fprint /", wantErr: "'/': Is a directory"},
	{args: "-name x -ls , -printf %p", want: "-name x -a -ls , -printf %p"},
}

func TestPrintfParse(t *testing.T) {
	for _, tt := range printfParseTests {
		t.Run(tt.args, func(t *testing.T) {
			var warns []string
			cmd, err := Parse(append([]string{"."}, strings.Fields(tt.args)...), Config{Warn: func(s string) { warns = append(warns, s) }})
			if !slices.Equal(warns, tt.warns) {
				t.Errorf("warnings %q, want %q", warns, tt.warns)
			}
			if tt.wantErr != "" || err != nil {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			defer cmd.Close()
			if got := strings.Join(cmd.Expr.Args(), " "); got != tt.want {
				t.Errorf("Args %q, want %q", got, tt.want)
			}
			if !cmd.Expr.Facts().Prints() {
				t.Errorf("the implicit -print was added")
			}
		})
	}
}

func TestPrintfFacts(t *testing.T) {
	for _, tt := range []struct {
		args string
		cost float64
	}{
		{"-printf %p", costPrint},
		{"-printf %y", costPrint},
		{"-printf %s", costPrint + costStat},
		{"-printf %y%TT", costPrint + costStat},
		{"-ls", costPrint + costStat},
		{"-fprint0 out", costPrint},
	} {
		cmd, err := Parse(append([]string{"."}, strings.Fields(tt.args)...), Config{})
		if err != nil {
			t.Fatal(err)
		}
		f := cmd.Expr.Facts()
		if f.Cost != tt.cost || f.Pure() || !f.Prints() {
			t.Errorf("%s: %+v, want cost %v, impure, printing", tt.args, f, tt.cost)
		}
		cmd.Close()
	}
}

// testCommand parses args and returns the command with a State whose
// standard output is the file out (in a temporary directory).
func testCommand(t *testing.T, args ...string) (*Command, *State, string, *bytes.Buffer) {
	t.Helper()
	cmd, err := Parse(append([]string{"root"}, args...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "stdout")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	diag := output.NewDiagStyle("gfind", &stderr, output.StyleC)
	return cmd, NewState(cmd, output.NewSink(f, diag, output.WithTTY(false)), diag), out, &stderr
}

// finish flushes s, closes cmd and returns what was written to out.
func finish(t *testing.T, cmd *Command, s *State, out string) string {
	t.Helper()
	s.Done()
	cmd.Close()
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPrintfEval(t *testing.T) {
	setLocalUTC(t)
	st := &unix.Stat_t{Mode: unix.S_IFREG | 0o644, Size: 42, Nlink: 1, Mtim: unix.Timespec{Sec: 1614834367, Nsec: 5}}
	cmd, s, out, stderr := testCommand(t, "-printf", `%p %s %m %y %TY %d|%-6f|\n`)
	for _, e := range []*walker.Entry{
		walker.Synthetic("root", 0, walker.TypeRegular, st, nil),
		walker.Synthetic("root/a b", 1, walker.TypeRegular, st, nil),
		walker.Synthetic("root/gone", 1, walker.TypeRegular, nil, nil), // the stat fails: false, nothing printed
	} {
		want := e.Path[len(e.Path)-1] != 'e'
		if got := cmd.Expr.Eval(e, s); got != want {
			t.Errorf("%s: Eval = %v", e.Path, got)
		}
	}
	want := "root 42 644 f 2021 0|root  |\nroot/a b 42 644 f 2021 1|a b   |\n"
	if got := finish(t, cmd, s, out); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !strings.Contains(stderr.String(), "gfind: 'root/gone': No such file or directory") {
		t.Errorf("stderr %q", stderr)
	}
}

// TestPrintfNoStat checks that a format without status directives
// prints without asking for one.
func TestPrintfNoStat(t *testing.T) {
	cmd, s, out, _ := testCommand(t, "-printf", `%p %y %d %H %P\n`)
	e := walker.Synthetic("root/x", 1, walker.TypeDir, nil, nil) // no status at all
	if !cmd.Expr.Eval(e, s) {
		t.Fatal("false")
	}
	if got := finish(t, cmd, s, out); got != "root/x d 1 root x\n" {
		t.Errorf("got %q", got)
	}
}

func TestPrintfOverflow(t *testing.T) {
	cmd, s, out, stderr := testCommand(t, "-printf", `ab%2147483648p|\n`)
	st := &unix.Stat_t{Mode: unix.S_IFREG}
	cmd.Expr.Eval(walker.Synthetic("root", 0, walker.TypeRegular, st, nil), s)
	if got := finish(t, cmd, s, out); got != "ab|\n" {
		t.Errorf("got %q", got)
	}
	if got := stderr.String(); got != "gfind: 'standard output': Value too large for defined data type\n" {
		t.Errorf("stderr %q", got)
	}
}

// TestFileOutputs writes through -fprint, -fprint0, -fprintf and -fls
// from two workers, with one file named twice, and checks what the
// files hold after Close.
func TestFileOutputs(t *testing.T) {
	setLocalUTC(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, []byte("old contents\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The second name for a is another path to the same file.
	cmd, s1, out, _ := testCommand(t, "-fprint", a, "-fprint0", dir+"/./a", "-fprintf", b, `[%f]`, "-fprint", "/dev/stdout")
	s2 := NewState(cmd, s1.sink, s1.Diag)
	st := &unix.Stat_t{Mode: unix.S_IFREG}
	cmd.Expr.Eval(walker.Synthetic("root/x", 1, walker.TypeRegular, st, nil), s1)
	cmd.Expr.Eval(walker.Synthetic("root/y", 1, walker.TypeRegular, st, nil), s2)
	cmd.Expr.Eval(walker.Synthetic("root/z", 1, walker.TypeRegular, st, nil), s1)
	s1.Done()
	if got := finish(t, cmd, s2, out); got != "root/x\nroot/z\nroot/y\n" {
		t.Errorf("standard output %q", got)
	}
	for name, want := range map[string]string{
		a: "root/x\nroot/x\x00root/z\nroot/z\x00root/y\nroot/y\x00",
		b: "[x][z][y]",
	} {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s holds %q, want %q", filepath.Base(name), got, want)
		}
	}
	if err := cmd.Close(); err != nil { // idempotent
		t.Error(err)
	}
}

// TestFileNotWritten checks that a file no record reaches is still
// created empty (truncated) and closed.
func TestFileNotWritten(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd, s, out, _ := testCommand(t, "-false", "-fls", name)
	cmd.Expr.Eval(walker.Synthetic("root", 0, walker.TypeDir, &unix.Stat_t{Mode: unix.S_IFDIR}, nil), s)
	finish(t, cmd, s, out)
	if fi, err := os.Stat(name); err != nil || fi.Size() != 0 || fi.Mode().Perm() != 0o600 {
		t.Errorf("%v %v", fi, err)
	}
}

func TestFileStderr(t *testing.T) {
	cmd, err := Parse([]string{".", "-fprint", "/dev/stderr", "-fprintf", "/dev/stderr", "%p\\n"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer cmd.Close()
	var files []*outFile
	forEachNode(cmd.Expr, func(n Node) {
		if u, ok := n.(fileUser); ok {
			files = append(files, u.outputFile())
		}
	})
	if len(files) != 2 || files[0] != files[1] || !files[0].stderr || files[0].f != os.Stderr {
		t.Errorf("files %+v", files)
	}
}

func TestPrintfEvalAllocs(t *testing.T) {
	cmd, s, out, _ := testCommand(t, "-printf", `%p %f %s %m %y %d\n`)
	defer finish(t, cmd, s, out)
	e := walker.Synthetic("root/dir/file", 2, walker.TypeRegular, &unix.Stat_t{Mode: unix.S_IFREG | 0o644, Size: 9}, nil)
	cmd.Expr.Eval(e, s) // the first evaluation completes the Env
	if n := testing.AllocsPerRun(200, func() { cmd.Expr.Eval(e, s) }); n != 0 {
		t.Errorf("%v allocations per -printf", n)
	}
}

// TestFileOutputsConcurrent has several workers write to shared files
// at once (run it with -race): every record arrives whole, once.
func TestFileOutputsConcurrent(t *testing.T) {
	setLocalUTC(t)
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	cmd, s0, out, _ := testCommand(t, "-fprint", a, "-fprintf", a, `%p %s\n`, "-fls", a, "-printf", `%f\n`)
	const workers, each = 4, 500
	states := []*State{s0}
	for len(states) < workers {
		states = append(states, NewState(cmd, s0.sink, s0.Diag))
	}
	done := make(chan struct{})
	for w, s := range states {
		go func() {
			defer func() { done <- struct{}{} }()
			st := &unix.Stat_t{Mode: unix.S_IFREG | 0o644, Size: int64(w), Nlink: 1}
			for i := range each {
				e := walker.Synthetic("root/w"+strconv.Itoa(w)+"-"+strconv.Itoa(i), 1, walker.TypeRegular, st, nil)
				cmd.Expr.Eval(e, s)
			}
		}()
	}
	for range states {
		<-done
	}
	for _, s := range states[1:] {
		s.Done()
	}
	lines := strings.Split(strings.TrimSuffix(finish(t, cmd, s0, out), "\n"), "\n")
	if len(lines) != workers*each {
		t.Errorf("standard output: %d lines, want %d", len(lines), workers*each)
	}
	b, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "root/w") && !strings.Contains(l, " "):
			counts["fprint"]++
		case strings.HasPrefix(l, "root/w"):
			counts["fprintf"]++
		case strings.Contains(l, " -rw-r--r-- "):
			counts["fls"]++
		default:
			t.Errorf("broken record %q", l)
		}
	}
	for _, k := range []string{"fprint", "fprintf", "fls"} {
		if counts[k] != workers*each {
			t.Errorf("%s: %d records, want %d", k, counts[k], workers*each)
		}
	}
}
