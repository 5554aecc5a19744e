package predicate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// execParseTests: the argument lists after "." and what they parse to
// (want, the expression's Args) or GNU find 4.11's message (wantErr).
// Words are separated by single spaces.
var execParseTests = []struct {
	args, want, wantErr string
}{
	{args: "-exec echo {} ;", want: "-exec echo {} ;"},
	{args: "-exec echo ;", want: "-exec echo ;"},
	{args: "-exec echo a{}b{} ;", want: "-exec echo a{}b{} ;"},
	{args: "-exec echo {} +", want: "-exec echo {} +"},
	{args: "-exec {} +", want: "-exec {} +"},
	{args: "-exec echo + ;", want: "-exec echo + ;"}, // + ends it only after {}
	{args: "-exec echo {} + -print", want: "-exec echo {} + -a -print"},
	{args: "-execdir echo {} ;", want: "-execdir echo {} ;"},
	{args: "-execdir echo {} +", want: "-execdir echo {} +"},
	{args: "-ok echo {} ;", want: "-ok echo {} ;"},
	{args: "-okdir echo {} ;", want: "-okdir echo {} ;"},
	{args: "-exec echo {} ; -exec echo {} +", want: "-exec echo {} ; -a -exec echo {} +"},
	{args: "-exec", wantErr: "missing argument to `-exec'"},
	{args: "-exec echo", wantErr: "missing argument to `-exec'"},
	{args: "-exec echo {}", wantErr: "missing argument to `-exec'"},
	{args: "-exec ;", wantErr: "invalid argument `;' to `-exec'"},
	{args: "-execdir ;", wantErr: "invalid argument `;' to `-execdir'"},
	{args: "-ok echo {} +", wantErr: "missing argument to `-ok'"},
	{args: "-okdir echo {} +", wantErr: "missing argument to `-okdir'"},
	{args: "-exec echo {} {} +", wantErr: "Only one instance of {} is supported with -exec ... +"},
	{args: "-exec {} echo {} +", wantErr: "Only one instance of {} is supported with -exec ... +"},
	{args: "-execdir echo {} {} +", wantErr: "Only one instance of {} is supported with -execdir ... +"},
	// A '+' ends the command only right after an argument that is
	// exactly {} (GNU 4.11, bug 66365; 4.9 took "x{} +" as the end and
	// refused it with "In '-exec ... {} +' the '{}' must appear by
	// itself").
	{args: "-exec echo {}x +", wantErr: "missing argument to `-exec'"},
	{args: "-execdir echo x{} +", wantErr: "missing argument to `-execdir'"},
	{args: "-exec echo {}{} +", wantErr: "missing argument to `-exec'"},
	{args: "-exec echo {} x{} +", wantErr: "missing argument to `-exec'"},
	{args: "-exec echo x{} {} +", wantErr: "Only one instance of {} is supported with -exec ... +"},
	{args: "-exec echo x{} + ;", want: "-exec echo x{} + ;"},
	{args: "-execdir echo {}x + ;", want: "-execdir echo {}x + ;"},
	{args: "-exec echo {} x{} + ;", want: "-exec echo {} x{} + ;"},
	{args: "-exec echo x{} + ; -exec echo {} +", want: "-exec echo x{} + ; -a -exec echo {} +"},
	{args: "-execdir {} ;", wantErr: "You may not use {} within the utility name for -execdir and -okdir, because this is a potential security problem."},
	{args: "-okdir ./{}.sh ;", wantErr: "You may not use {} within the utility name for -execdir and -okdir, because this is a potential security problem."},
	{args: "-execdir {}", wantErr: "You may not use {} within the utility name for -execdir and -okdir, because this is a potential security problem."},
	{args: "-exec echo {} + ;", wantErr: "paths must precede expression: `;'"},
}

func TestExecParse(t *testing.T) {
	t.Setenv("PATH", "/usr/bin:/bin")
	for _, tt := range execParseTests {
		t.Run(tt.args, func(t *testing.T) {
			cmd, err := Parse(append([]string{"."}, parseArgs(tt.args)...), Config{})
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(cmd.Expr.Args(), " "); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if cmd.Expr.Facts().Pure() || !cmd.Expr.Facts().Prints() {
				t.Errorf("Facts = %+v, want impure and printing (no implicit -print)", cmd.Expr.Facts())
			}
		})
	}
}

func FuzzExecParse(f *testing.F) {
	for _, tt := range execParseTests {
		f.Add(strings.ReplaceAll(tt.args, " ", "\x00"))
	}
	f.Fuzz(fuzzRoundTrip)
}

// TestCheckPathSafety: GNU's messages for a $PATH that -execdir and
// -okdir refuse.
func TestCheckPathSafety(t *testing.T) {
	const cur = "The current directory is included in the PATH environment variable, which is insecure in combination with the %s action of find.  Please remove the current directory from your $PATH (that is, remove \".\", doubled colons, or leading or trailing colons)"
	const rel = "The relative path %s is included in the PATH environment variable, which is insecure in combination with the %s action of find.  Please remove that entry from $PATH"
	tests := []struct {
		path, op, wantErr string
	}{
		{"/usr/bin:/bin", "-execdir", ""},
		{".:/usr/bin", "-execdir", fmt.Sprintf(cur, "-execdir")},
		{"/usr/bin:", "-okdir", fmt.Sprintf(cur, "-okdir")},
		{"/bin::/usr/bin", "-execdir", fmt.Sprintf(cur, "-execdir")},
		{"", "-execdir", fmt.Sprintf(cur, "-execdir")},
		{"bin:/usr/bin", "-execdir", fmt.Sprintf(rel, "'bin'", "-execdir")},
		{"/usr/bin:./x", "-okdir", fmt.Sprintf(rel, "'./x'", "-okdir")},
		{".:/usr/bin", "-exec", ""}, // only the *dir actions care
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.op, func(t *testing.T) {
			t.Setenv("PATH", tt.path)
			_, err := Parse([]string{".", tt.op, "/bin/true", ";"}, Config{})
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr) {
				t.Errorf("error = %v, want %q", err, tt.wantErr)
			}
		})
	}
	t.Run("unset", func(t *testing.T) {
		t.Setenv("PATH", "")
		os.Unsetenv("PATH")
		if _, err := Parse([]string{".", "-execdir", "true", ";"}, Config{}); err != nil {
			t.Errorf("with PATH unset: %v", err)
		}
	})
}

// TestExecdirIgnoreRace: -execdir turns -ignore_readdir_race off where
// it stands, as GNU's parser does.
func TestExecdirIgnoreRace(t *testing.T) {
	t.Setenv("PATH", "/usr/bin:/bin")
	for args, want := range map[string]bool{
		"-ignore_readdir_race -execdir true ;": false,
		"-execdir true ; -ignore_readdir_race": true,
		"-ignore_readdir_race -exec true ;":    true,
	} {
		cmd, err := Parse(append([]string{"."}, parseArgs(args)...), Config{})
		if err != nil {
			t.Fatal(err)
		}
		if cmd.Walk.IgnoreReaddirRace != want {
			t.Errorf("%s: IgnoreReaddirRace = %v, want %v", args, cmd.Walk.IgnoreReaddirRace, want)
		}
	}
}

func TestSplitRoot(t *testing.T) {
	tests := []struct{ path, dir, base string }{
		{"a", ".", "a"},
		{".", ".", "."},
		{"..", ".", ".."},
		{"a/b", "a", "b"},
		{"a/b/", "a", "b/"},
		{"a//b//", "a", "b/"},
		{"a///", ".", "a/"},
		{".//", ".", "./"},
		{"a///b", "a", "b"},
		{"./a", ".", "a"},
		{"/", "/", "/"},
		{"//", "/", "/"},
		{"///", "/", "/"},
		{"//a", "/", "a"},
		{"//a//", "/", "a/"},
		{"/a", "/", "a"},
		{"/a/b", "/a", "b"},
		{"", ".", "."},
	}
	for _, tt := range tests {
		if dir, base := splitRoot(tt.path); dir != tt.dir || base != tt.base {
			t.Errorf("splitRoot(%q) = %q, %q, want %q, %q", tt.path, dir, base, tt.dir, tt.base)
		}
	}
}

// runResult is what one run of runCommand wrote.
type runResult struct {
	stdout, stderr string
	failed         bool
}

// runCommand runs "gfind args..." in the test process as cmd/gfind does
// (Parse, walker.Walk with the given number of workers, Close), with
// standard input, output and error redirected to files, which children
// inherit. It must not run in parallel with other tests.
func runCommand(t *testing.T, workers int, stdin string, args ...string) runResult {
	t.Helper()
	dir := t.TempDir()
	open := func(name string) *os.File {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	in, out, errf := open("stdin"), open("stdout"), open("stderr")
	defer in.Close()
	defer errf.Close()
	if _, err := in.WriteString(stdin); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	saved := [3]*os.File{os.Stdin, os.Stdout, os.Stderr}
	os.Stdin, os.Stdout, os.Stderr = in, out, errf
	defer func() { os.Stdin, os.Stdout, os.Stderr = saved[0], saved[1], saved[2] }()

	diag := output.NewDiagStyle("gfind", errf, output.StyleC)
	cmd, err := Parse(args, Config{})
	if err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	sink := output.NewSink(out, diag, output.WithTTY(false))
	if _, err := walkStates(cmd, sink, diag, workers, nil); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	return runResult{stdout: read("stdout"), stderr: read("stderr"), failed: diag.Failed()}
}

// walkStates walks cmd's roots with the given number of workers as
// cmd/gfind does, one State each: an entry with an error is reported to
// diag, any other goes to hook (when not nil) and then to its worker's
// State. Then the States are done, cmd is closed and sink too. It
// returns the States and the walk's error.
func walkStates(cmd *Command, sink *output.Sink, diag *output.Diag, workers int, hook func(*walker.Entry)) ([]*State, error) {
	opt := cmd.Walk
	opt.Workers = workers
	states := make([]*State, workers)
	for i := range states {
		states[i] = NewState(cmd, sink, diag)
	}
	if cmd.TracksPieces() {
		opt.PieceOut = func(worker int, dir []byte, held bool) { states[worker].PieceOut(dir, held) }
	}
	err := walker.Walk(cmd.Roots, opt, func(e *walker.Entry) walker.Action {
		if e.Err != nil {
			diag.FileError(e.Path, e.Err)
			return walker.Continue
		}
		if hook != nil {
			hook(e)
		}
		return states[e.Worker].Visit(cmd.Expr, e)
	})
	for _, s := range states {
		s.Done()
	}
	cmd.Close()
	sink.Close()
	return states, err
}

// smallTree makes root/{a/{1,2},b/{3},4} and returns root.
func smallTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"a", "b"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a/1", "a/2", "b/3", "4"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func sortedLines(s string) []string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(lines)
	return lines
}

func TestExecSemicolon(t *testing.T) {
	root := smallTree(t)
	r := runCommand(t, 2, "", root, "-type", "f", "-exec", "echo", "<{}>", "{}{}", ";")
	var want []string
	for _, f := range []string{"a/1", "a/2", "b/3", "4"} {
		p := root + "/" + f
		want = append(want, "<"+p+"> "+p+p)
	}
	slices.Sort(want)
	if got := sortedLines(r.stdout); !slices.Equal(got, want) {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if r.stderr != "" || r.failed {
		t.Errorf("stderr %q, failed %v", r.stderr, r.failed)
	}
}

// TestExecStatus: with ";" a failing child makes the test false and
// leaves the exit status alone; with "+" the test stays true and the
// exit status is 1. A command that cannot be run is reported as GNU's
// child reports it.
func TestExecStatus(t *testing.T) {
	root := smallTree(t)
	tests := []struct {
		args       []string
		stdout     string
		stderr     string
		wantFailed bool
	}{
		{[]string{"-exec", "false", ";", "-print"}, "", "", false},
		{[]string{"-exec", "true", ";", "-print"}, "F\n", "", false},
		{[]string{"-exec", "false", "{}", "+", "-print"}, "F\n", "", true},
		{[]string{"-exec", "nosuch-gfind-test", ";"}, "", "gfind: 'nosuch-gfind-test': No such file or directory\n", false},
		{[]string{"-exec", "nosuch-gfind-test", "{}", "+"}, "", "gfind: 'nosuch-gfind-test': No such file or directory\n", true},
		{[]string{"-exec", "/", ";"}, "", "gfind: '/': Permission denied\n", false},
		{[]string{"-exec", "sh", "-c", "kill $$", ";", "-print"}, "", "gfind: 'sh' terminated by signal 15\n", false},
		{[]string{"-exec", "sh", "-c", "kill -9 $$", "{}", "+", "-print"}, "F\n", "gfind: 'sh' terminated by signal 9\n", true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			f := filepath.Join(root, "4")
			r := runCommand(t, 1, "", append([]string{f}, tt.args...)...)
			r.stdout = strings.ReplaceAll(r.stdout, f, "F")
			if r.stdout != tt.stdout || r.stderr != tt.stderr || r.failed != tt.wantFailed {
				t.Errorf("got %q, %q, failed %v; want %q, %q, %v", r.stdout, r.stderr, r.failed, tt.stdout, tt.stderr, tt.wantFailed)
			}
		})
	}
}

// TestExecInterleave: each child's output comes right after the record
// printed before it, with several workers too.
func TestExecInterleave(t *testing.T) {
	root := t.TempDir()
	for i := range 20 {
		d := filepath.Join(root, "d"+strconv.Itoa(i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for j := range 10 {
			if err := os.WriteFile(filepath.Join(d, strconv.Itoa(j)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, workers := range []int{1, 4} {
		r := runCommand(t, workers, "", root, "-print", "-exec", "echo", "X", "{}", ";")
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if len(lines) != 2*(1+20+200) {
			t.Fatalf("%d workers: %d lines, want %d", workers, len(lines), 2*221)
		}
		for i := 0; i < len(lines); i += 2 {
			if lines[i+1] != "X "+lines[i] {
				t.Fatalf("%d workers: line %d %q follows %q", workers, i+2, lines[i+1], lines[i])
			}
		}
	}
}

// TestExecdir: the child runs in the file's directory and gets ./name;
// a starting point's child runs in the directory that holds it.
func TestExecdir(t *testing.T) {
	root := smallTree(t)
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", "/usr/bin:/bin")
	r := runCommand(t, 2, "", root, "-execdir", "sh", "-c", `echo "$(pwd -P) $1"`, "sh", "{}", ";")
	want := []string{
		filepath.Dir(real) + " ./" + filepath.Base(root),
		real + " ./4", real + " ./a", real + " ./b",
		real + "/a ./1", real + "/a ./2", real + "/b ./3",
	}
	slices.Sort(want)
	if got := sortedLines(r.stdout); !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// "+": children run in the directory of all their files (how many
	// per directory depends on the readdir order, as in GNU).
	r = runCommand(t, 1, "", root, "-execdir", "sh", "-c", `echo "$(pwd -P)" "$@"`, "sh", "{}", "+")
	var got []string
	for _, l := range sortedLines(r.stdout) {
		w := strings.Fields(l)
		for _, f := range w[1:] {
			got = append(got, w[0]+" "+f)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestOk: the prompt goes to standard error, the answer is read from
// standard input, and the child's standard input is /dev/null.
func TestOk(t *testing.T) {
	root := smallTree(t)
	a1, a2 := filepath.Join(root, "a", "1"), filepath.Join(root, "a", "2")
	r := runCommand(t, 1, "y\nno\nyes\n", a1, a2, "b", "-ok", "cat", ";", "-print")
	wantErr := fmt.Sprintf("< cat ... %s > ? < cat ... %s > ? gfind: 'b': No such file or directory\n", a1, a2)
	if r.stdout != a1+"\n" || r.stderr != wantErr {
		t.Errorf("got %q, %q; want %q, %q", r.stdout, r.stderr, a1+"\n", wantErr)
	}
	// End of input is no.
	r = runCommand(t, 1, "", a1, "-okdir", "echo", "{}", ";")
	if r.stdout != "" || r.stderr != "< echo ... "+a1+" > ? " {
		t.Errorf("at end of input: got %q, %q", r.stdout, r.stderr)
	}
}

// TestQuitRunsPending: the batch pending at -quit runs (at Close), and
// so does every batch without -quit.
func TestQuitRunsPending(t *testing.T) {
	root := smallTree(t)
	r := runCommand(t, 1, "", root, "-exec", "echo", "{}", "+", "-name", "4", "-quit")
	if lines := strings.Fields(r.stdout); len(lines) < 2 || lines[0] != root || !slices.Contains(lines, root+"/4") {
		t.Errorf("got %q", r.stdout)
	}
	r = runCommand(t, 4, "", root, "-exec", "echo", "{}", "+")
	if got := strings.Fields(r.stdout); len(got) != 7 {
		t.Errorf("got %q, want the 7 paths", r.stdout)
	}
}

// TestExecSemicolonTooBig: a ";" command whose arguments the kernel
// refuses as a whole is reported as GNU's child reports it.
func TestExecSemicolonTooBig(t *testing.T) {
	root := smallTree(t)
	f := filepath.Join(root, "4")
	args := []string{f, "-exec", "true"}
	// 40 words of 100 KiB each: every one fits, together they do not.
	word := strings.Repeat("w", 100<<10) + "{}"
	for range 40 {
		args = append(args, word)
	}
	r := runCommand(t, 1, "", append(args, ";", "-o", "-print")...)
	if r.stdout != f+"\n" || r.stderr != "gfind: 'true': Argument list too long\n" || r.failed {
		t.Errorf("got %q, %q, failed %v", r.stdout, r.stderr, r.failed)
	}
}

// dirsTree makes root/dNN/fNNN, dirs directories of files files, and
// returns root.
func dirsTree(t *testing.T, dirs, files int) string {
	t.Helper()
	root := t.TempDir()
	for d := range dirs {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d", f)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

// TestQuitGateParallel: with 8 workers on files that all match, the
// actions before -quit happen for one file only (the gate, quit.go), an
// -fprint file gets that file's record only, and a pending batch holds
// exactly the files evaluated before the -quit. Run under -race too.
func TestQuitGateParallel(t *testing.T) {
	root := dirsTree(t, 16, 20)
	for i := range 10 {
		r := runCommand(t, 8, "", root, "-type", "f", "-exec", "echo", "X", "{}", ";", "-quit")
		if n := strings.Count(r.stdout, "X "); n != 1 {
			t.Fatalf("run %d: %d commands ran: %q", i+1, n, r.stdout)
		}
		out := filepath.Join(t.TempDir(), "out")
		r = runCommand(t, 8, "", root, "-type", "f", "-fprint", out, "-print", "-quit")
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(string(b), "\n") != 1 || string(b) != r.stdout {
			t.Fatalf("run %d: -fprint wrote %q, -print %q", i+1, b, r.stdout)
		}
		r = runCommand(t, 8, "", root, "-type", "f", "-print", "-exec", "printf", "B%s\\n", "{}", "+", "-name", "f010", "-quit")
		var printed, batched []string
		for _, l := range sortedLines(r.stdout) {
			if b, ok := strings.CutPrefix(l, "B"); ok {
				batched = append(batched, b)
			} else {
				printed = append(printed, l)
			}
		}
		if !slices.Equal(printed, batched) || len(printed) == 0 {
			t.Fatalf("run %d: printed %q, batch %q", i+1, printed, batched)
		}
	}
}

// TestExecBatchSharedParallel: 8 workers share one -exec ... + batch and
// one -execdir ... + batch per directory: 320 files give one command,
// and 16 directories 16 (each with its directory's 20 files).
func TestExecBatchSharedParallel(t *testing.T) {
	root := dirsTree(t, 16, 20)
	script := `echo "#$# $(basename "$PWD")"`
	for i := range 5 {
		r := runCommand(t, 8, "", root, "-type", "f", "-exec", "sh", "-c", script, "sh", "{}", "+")
		if got := sortedLines(r.stdout); len(got) != 1 || got[0] != "#320 "+filepath.Base(mustGetwd(t)) {
			t.Fatalf("run %d: -exec ... + children: %q", i+1, got)
		}
		r = runCommand(t, 8, "", root, "-type", "f", "-execdir", "sh", "-c", script, "sh", "{}", "+")
		got := sortedLines(r.stdout)
		var want []string
		for d := range 16 {
			want = append(want, fmt.Sprintf("#20 d%02d", d))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("run %d: -execdir ... + children: %q, want %q", i+1, got, want)
		}
	}
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

// TestExecdirBatchAlone: -execdir ... + evaluated on a State that does
// not know the node (made without its Command) still batches per
// directory.
func TestExecdirBatchAlone(t *testing.T) {
	root := dirsTree(t, 2, 3)
	list := filepath.Join(t.TempDir(), "list")
	cmd, err := Parse([]string{root, "-execdir", "sh", "-c", `echo "$#" >>` + list, "sh", "{}", "+"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestState()
	for _, p := range []string{"d00/f000", "d00/f001", "d01/f000", "d01/f001", "d01/f002"} {
		cmd.Expr.Eval(walker.Synthetic(filepath.Join(root, p), 2, walker.TypeRegular, &unix.Stat_t{}, nil), s)
	}
	cmd.Close()
	got, err := os.ReadFile(list)
	if err != nil || string(got) != "2\n3\n" {
		t.Errorf("children got %q (%v), want 2 then 3 files", got, err)
	}
}
