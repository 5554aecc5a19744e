package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

// -quit and -exec ... + with many workers. The walk's order differs
// from run to run, so each case runs many times with -j8 on a tree where
// every file matches at once, and what must hold in every run is
// compared with GNU find: how many commands ran, lines were printed or
// files deleted.

// quitRuns is how many times each case runs.
func quitRuns() int {
	if testing.Short() {
		return 10
	}
	return 50
}

// makeDirs makes under root/name dirs directories of files files each,
// named dNN/fNNN; suffix ends every file name.
func makeDirs(t *testing.T, root, name string, dirs, files int, suffix string) {
	t.Helper()
	for d := range dirs {
		dir := filepath.Join(root, name, fmt.Sprintf("d%02d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d%s", f, suffix)), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestQuitOneActionParallel: after -quit nothing more happens. In every
// run of `-j8 ... ACTION -quit` on 800 files that all match, the action
// happens once, as in GNU find: one command run (the case, the
// same file reached from two starting points, among them), one line
// printed to standard output or to an -fprint file, one -ok question,
// one file deleted.
func TestQuitOneActionParallel(t *testing.T) {
	t.Parallel()
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "tree/deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "tree/deep/needle_deep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	makeDirs(t, root, "w", 16, 50, "")
	yes := strings.Repeat("y\n", 1000)
	cases := []struct {
		args  string
		stdin string
		file  string // the -fprint file whose records are counted; "" for stdout
	}{
		{args: "tree/deep tree -name needle_deep -exec echo found {} ; -quit"},
		{args: "w -type f -exec echo found {} ; -quit"},
		{args: "w -type f -exec echo found {} ; -print -quit"},
		{args: "w -type f -print -quit"},
		{args: "w -type f -printf %p\\n -quit"},
		{args: "w -type f -ls -quit"},
		{args: "w -type f -ok echo found {} ; -quit", stdin: yes},
		{args: "w -type f -okdir echo found {} ; -quit", stdin: yes},
		{args: "w -type f -fprint OUT -quit", file: "OUT"},
		{args: "w -type f -fprint0 OUT -quit", file: "OUT"},
		{args: "w -type f -fprintf OUT %p\\n -quit", file: "OUT"},
		{args: "w -type f -fls OUT -quit", file: "OUT"},
		{args: "w -type f -fprint OUT -print -quit", file: "OUT"},
	}
	for _, c := range cases {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			run := func(prog, name string, args []string) (findResult, []string) {
				out := filepath.Join(t.TempDir(), "out")
				argv := slices.Clone(args)
				for i, a := range argv {
					if a == "OUT" {
						argv[i] = out
					}
				}
				r := runWith(t, root, execEnv(), c.stdin, prog, name, argv)
				if c.file == "" {
					return r, splitRecords(r.stdout, "\n")
				}
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				sep := "\n"
				if strings.Contains(c.args, "-fprint0") {
					sep = "\x00"
				}
				return r, splitRecords(string(b), sep)
			}
			args := shellWords(c.args)
			want, wantRecs := run(gnu, "find", args)
			if want.code != 0 || len(wantRecs) == 0 {
				t.Fatalf("GNU find: status %d, %d records, stderr %q", want.code, len(wantRecs), want.stderr)
			}
			wantPrompts := strings.Count(want.stderr, "< echo ")
			for i := range quitRuns() {
				got, gotRecs := run(gfind, "gfind", append([]string{"-j8"}, args...))
				if got.code != want.code || len(gotRecs) != len(wantRecs) || strings.Count(got.stderr, "< echo ") != wantPrompts {
					t.Fatalf("run %d: status %d, %d records %q, stderr %q; GNU find: status %d, %d records, %d prompts",
						i+1, got.code, len(gotRecs), gotRecs, got.stderr, want.code, len(wantRecs), wantPrompts)
				}
				if strings.HasPrefix(c.args, "tree/") && got.stdout != want.stdout {
					t.Fatalf("run %d: stdout %q, GNU find %q", i+1, got.stdout, want.stdout)
				}
			}
		})
	}
}

// TestQuitDeleteParallel: `-j8 w -type f -print -delete -quit` deletes
// one file, the one it printed, in every run, as GNU find does.
func TestQuitDeleteParallel(t *testing.T) {
	t.Parallel()
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	args := shellWords("w -type f -print -delete -quit")
	run := func(prog, name string, args []string) (findResult, []string) {
		root := t.TempDir()
		makeDirs(t, root, "w", 16, 20, "")
		r := runWith(t, root, execEnv(), "", prog, name, args)
		var gone []string
		for d := range 16 {
			for f := range 20 {
				p := fmt.Sprintf("w/d%02d/f%03d", d, f)
				if _, err := os.Lstat(filepath.Join(root, p)); os.IsNotExist(err) {
					gone = append(gone, p)
				}
			}
		}
		return r, gone
	}
	want, wantGone := run(gnu, "find", args)
	if want.code != 0 || len(wantGone) != 1 || want.stdout != wantGone[0]+"\n" {
		t.Fatalf("GNU find: status %d, stdout %q, deleted %q", want.code, want.stdout, wantGone)
	}
	for i := range quitRuns() {
		got, gotGone := run(gfind, "gfind", append([]string{"-j8"}, args...))
		if got.code != 0 || got.stderr != "" || len(gotGone) != 1 || got.stdout != gotGone[0]+"\n" {
			t.Fatalf("run %d: status %d, stdout %q, stderr %q, deleted %q; GNU find deletes one, the one it prints",
				i+1, got.code, got.stdout, got.stderr, gotGone)
		}
	}
}

// TestQuitPendingBatchParallel: the -exec ... + batch pending at -quit
// runs, after every record printed before the -quit, and holds exactly
// the files evaluated before it: each printed path is in the batch, and
// nothing else is (GNU's cleanup after -quit). Every file is printed
// before it is added, so a path added after the -quit would show as a
// batch line with no printed line, and a printed file left out of the
// batch as the reverse.
func TestQuitPendingBatchParallel(t *testing.T) {
	t.Parallel()
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := t.TempDir()
	makeDirs(t, root, "w", 16, 50, "")
	for _, args := range []string{
		"w -type f -print -exec printf B%s\\n {} + -name f025 -quit",
		"w -type f -print -execdir printf B%s\\n {} + -name f025 -quit",
	} {
		t.Run(args, func(t *testing.T) {
			t.Parallel()
			argv := shellWords(args)
			check := func(name string, r findResult) {
				t.Helper()
				var printed, batched []string
				lines := splitRecords(r.stdout, "\n")
				for i, l := range lines {
					if b, ok := strings.CutPrefix(l, "B"); ok {
						batched = append(batched, b)
						continue
					}
					if len(batched) > 0 && !strings.Contains(args, "-execdir") {
						// (-execdir's batches run as the walk leaves
						// their directories.)
						t.Fatalf("%s: line %d %q comes after the batch's output", name, i+1, l)
					}
					if strings.Contains(args, "-execdir") {
						l = "./" + filepath.Base(l)
					}
					printed = append(printed, l)
				}
				slices.Sort(printed)
				slices.Sort(batched)
				quit := slices.ContainsFunc(printed, func(p string) bool { return strings.HasSuffix(p, "/f025") })
				if r.code != 0 || r.stderr != "" || !quit || !slices.Equal(printed, batched) {
					t.Fatalf("%s: status %d, stderr %q, %d printed, %d in the batch (a -quit file among the printed: %v):\nprinted %q\nbatch %q",
						name, r.code, r.stderr, len(printed), len(batched), quit, printed, batched)
				}
			}
			check("GNU find", runWith(t, root, execEnv(), "", gnu, "find", argv))
			for i := range quitRuns() {
				check(fmt.Sprintf("gfind run %d", i+1), runWith(t, root, execEnv(), "", gfind, "gfind", append([]string{"-j8"}, argv...)))
			}
		})
	}
}

// TestExecPlusOneCommandParallel: 2,400 files in 80 directories, about
// 30 KiB of names, fit in one command line: GNU find runs -exec ... +
// once, and so must gfind whatever the number of workers (wc prints one
// "total" line per command). -execdir ... + runs once per directory,
// here 80 times, in GNU and in gfind. Every file is passed once.
func TestExecPlusOneCommandParallel(t *testing.T) {
	t.Parallel()
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := t.TempDir()
	makeDirs(t, root, "eb", 80, 30, ".c")
	cases := []struct {
		args    string
		command string // the line each command prints once
	}{
		{"eb -name *.c -exec wc -l {} +", " total"},
		{"eb -name *.c -exec sh -c 'echo x; printf %s\\\\n \"$@\"' sh {} +", "x"},
		{"eb -name *.c -execdir sh -c 'echo x; printf %s\\\\n \"$@\"' sh {} +", "x"},
		{"eb -type f -print -exec sh -c 'echo x; printf %s\\\\n \"$@\"' sh {} +", "x"},
	}
	count := func(r findResult, command string) (commands int, files map[string]int) {
		files = map[string]int{}
		for _, l := range splitRecords(r.stdout, "\n") {
			switch {
			case l == command || strings.HasSuffix(l, command) && command == " total":
				commands++
			case strings.HasSuffix(l, ".c"):
				files[strings.Fields(l)[len(strings.Fields(l))-1]]++
			}
		}
		return commands, files
	}
	for _, c := range cases {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			args := shellWords(c.args)
			want := runWith(t, root, execEnv(), "", gnu, "find", args)
			wantN, wantFiles := count(want, c.command)
			passed := 0
			for _, k := range wantFiles {
				passed += k
			}
			if want.code != 0 || wantN == 0 || passed < 2400 {
				t.Fatalf("GNU find: status %d, %d commands, %d files passed", want.code, wantN, passed)
			}
			t.Logf("GNU find: %d commands, %d files passed", wantN, passed)
			for _, j := range []string{"-j8", "-j3", "-j1"} {
				runs := 6
				if j == "-j1" {
					runs = 1
				}
				for i := range runs {
					got := runWith(t, root, execEnv(), "", gfind, "gfind", append([]string{j}, args...))
					n, files := count(got, c.command)
					if got.code != 0 || got.stderr != "" || n != wantN {
						t.Fatalf("%s run %d: status %d, stderr %q, %d commands; GNU find %d", j, i+1, got.code, got.stderr, n, wantN)
					}
					for f, k := range wantFiles {
						if files[f] != k {
							t.Fatalf("%s run %d: %s passed %d times, GNU find %d", j, i+1, f, files[f], k)
						}
					}
				}
			}
		})
	}
}

// TestQuitRootsInTurnParallel: after -quit GNU find starts no other
// starting point. gfind with -quit walks the starting points (and
// -files0-from's names) one after another, each in parallel inside, so
// that none of the next one is visited or reported even when the -quit
// comes at the very end of a starting point's walk (-depth: the
// starting point itself, after all its contents). In every run with -j8
// the output, sorted, and the messages are GNU's; walking them together
// printed files of b and reported nosuch in most runs.
func TestQuitRootsInTurnParallel(t *testing.T) {
	t.Parallel()
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := t.TempDir()
	for _, name := range []string{"a", "b", "c"} {
		makeDirs(t, root, name, 16, 20, "")
	}
	if err := os.WriteFile(filepath.Join(root, "list"), []byte("a\x00nosuch\x00b\x00c\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		"a b c -depth -print -name a -quit",
		"a b c -depth -name a -quit -o -print",
		"a nosuch b -depth -name a -quit",
		"a nosuch b -name d07 -quit",
		"a b c -depth -name a -quit -o -exec printf %s\\n {} +",
		"-files0-from list -depth -print -name a -quit",
		"b a c -depth -print -path a -quit", // a's -quit comes after all of b
	} {
		t.Run(args, func(t *testing.T) {
			t.Parallel()
			argv := shellWords(args)
			want := runWith(t, root, execEnv(), "", gnu, "find", argv)
			if want.code != 0 || want.stderr != "" {
				t.Fatalf("GNU find: status %d, stderr %q", want.code, want.stderr)
			}
			wantOut := sortedLines(want.stdout)
			for i := range quitRuns() {
				got := runWith(t, root, execEnv(), "", gfind, "gfind", append([]string{"-j8"}, argv...))
				if gotOut := sortedLines(got.stdout); got.code != want.code || got.stderr != want.stderr || !slices.Equal(gotOut, wantOut) {
					var extra []string
					for _, l := range gotOut {
						if _, found := slices.BinarySearch(wantOut, l); !found {
							extra = append(extra, l)
						}
					}
					t.Fatalf("run %d: status %d, stderr %q, %d lines, %d not GNU's (%.200q); GNU find: status %d, %d lines",
						i+1, got.code, got.stderr, len(gotOut), len(extra), extra, want.code, len(wantOut))
				}
			}
		})
	}
}
