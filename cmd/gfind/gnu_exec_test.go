package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
)

// The differential tests of -exec, -execdir, -ok, -okdir and -delete.

// gnuExecCases run in a tree made of testtree.Basic, Links, WeirdNames
// and Deep, like gnuCases. Children print one path per line (printf
// rather than echo for "+") so that sorted output can be compared.
var gnuExecCases = []gnuCase{
	// -exec ... ;
	{args: ". -name *.txt -exec echo X {} ;"},
	{args: ". -name *.go -exec echo a{}b{}c {} ;"},
	{args: ". -name *.go -exec echo {{}} ;"},
	{args: ". -name x.go -exec echo ;"}, // no {}: run without the name
	{args: ". -name x.go -exec echo + ;"},
	{args: ". -print -exec echo X {} ;"}, // each X right after its path (-j1: GNU's order)
	{args: ". -name *.go -exec false ; -print"},
	{args: ". -name *.go -exec true ; -print"},
	{args: ". -name *.go ( -exec false ; -o -print )"},
	{args: "basic/x.go -exec nosuch-gfind-cmd {} ;"},
	{args: "basic/x.go -exec /nonexistent/cmd {} ;"},
	{args: "basic/x.go -exec / ;"},
	{args: "basic/x.go -exec ./nosuch ;"},
	{args: "basic/x.go basic/y.go -exec sh -c 'kill $$' ;"},
	{args: "basic/x.go -exec sh -c 'exit 3' ; -print"},
	{args: "basic/exec.sh -exec {} ;"}, // {} as the command itself
	{args: "-name bottom.txt -exec printf %s\\n {} ;", dir: "deep"},
	// -exec ... +
	{args: ". -exec printf %s\\n {} +"},
	{args: ". -name *.txt -exec printf <%s>\\n {} +"},
	{args: "basic -type f -exec printf %s\\n {} + -print"},
	{args: "basic -exec false {} + -print"},
	{args: "basic -exec sh -c 'kill $$' {} +"},
	{args: "basic/x.go -exec nosuch-gfind-cmd {} +"},
	{args: "basic/exec.sh -exec {} +"},
	{args: ". -name x.go -exec printf %s\\n {} + -quit"},
	{args: ". -exec printf %s\\n {} + -name b.txt -quit", serialOnly: true},
	{args: "basic -exec printf B%s\\n {} + -exec printf A%s\\n {} + -name b.txt -quit", serialOnly: true},
	{args: "basic -exec printf %s\\n {} + , -exec printf +%s\\n {} +"},
	{args: "deep -exec printf %s\\n {} +"}, // paths past PATH_MAX
	// -execdir
	{args: ". -name *.txt -execdir echo {} ;"},
	{args: ". -execdir printf %s\\n {} +"},
	{args: ". -print -execdir printf X%s\\n {} +"}, // -j1: batches at GNU's points
	{args: ". -name *.go -execdir sh -c 'echo $(basename $(pwd)) $0' {} ;"},
	{args: ". -maxdepth 0 -execdir echo {} ;"},
	{args: "basic/a/ basic/a/b -maxdepth 0 -execdir echo {} ;"},
	{args: "basic/a/a.txt -execdir sh -c 'basename $(pwd); echo $0' {} ;"},
	{args: "/ -maxdepth 0 -execdir echo {} ;"},
	{args: "deep -name bottom.txt -execdir cat {} ;"},
	{args: "deep -type d -execdir printf %s\\n {} +"},
	{args: "-L links -execdir printf %s\\n {} +"},
	{args: "basic -name x.go -execdir nosuch-gfind-cmd {} ;"},
	// -ok and -okdir with no answers (standard input is /dev/null).
	{args: "basic/x.go basic/y.go -ok echo {} ;", serialOnly: true}, // the prompts share a line
	{args: "basic/x.go -okdir echo {} ; -o -print"},
	// Parse errors.
	{args: ". -exec"},
	{args: ". -exec ;"},
	{args: ". -exec echo"},
	{args: ". -exec echo {}"},
	{args: ". -exec echo {} {} +"},
	{args: ". -execdir echo {} {} +"},
	{args: ". -ok echo {} +"},
	{args: ". -okdir echo {}x +"},
	{args: ". -exec echo {} + ;"},
	{args: ". -foo -exec echo {} ;"},
	{args: ". -exec echo {} ; -foo"},

	// GNU 4.10 and 4.11: a '+' ends -exec's and -execdir's command only
	// right after an argument that is exactly {} (bug 66365): elsewhere
	// it is an argument, and the command needs its ';'. GNU 4.9 took
	// "x{} +" as the end, and refused it ("In '-exec ... {} +' the '{}'
	// must appear by itself").
	{args: ". -exec echo {}x +", gnu411: &gnu411{stderr: []string{"find: missing argument to `-exec'"}, code: 1}},
	{args: ". -execdir echo x{} +", gnu411: &gnu411{stderr: []string{"find: missing argument to `-execdir'"}, code: 1}},
	{args: ". -exec echo {} x{} +", gnu411: &gnu411{stderr: []string{"find: missing argument to `-exec'"}, code: 1}},
	{args: "basic/x.go -exec echo x{} + ;", gnu411: &gnu411{stdout: []string{"xbasic/x.go +"}}},
	{args: "basic/x.go -execdir echo {}x + ;", gnu411: &gnu411{stdout: []string{"./x.gox +"}}},
	{args: "basic/x.go -exec echo {}{} + -print ;", gnu411: &gnu411{stdout: []string{"basic/x.gobasic/x.go + -print"}}},
	{args: ". -exec echo x{} {} +"},
	{args: ". -maxdepth 0 -exec echo {} x{} + ;", gnu411: &gnu411{stdout: []string{". x. +"}}},
	// GNU 4.10 and 4.11: -execdir and -okdir refuse a {} in the
	// command's name (4.9 ran ./NAME), gfind with GNU's message alone.
	{args: "basic/x.go -execdir {} ;", gnu411: &gnu411{stderr: []string{"find: You may not use {} within the utility name for -execdir and -okdir, because this is a potential security problem."}, code: 1}},
	{args: "basic/x.go -okdir ./{}.sh ;", gnu411: &gnu411{stderr: []string{"find: You may not use {} within the utility name for -execdir and -okdir, because this is a potential security problem."}, code: 1}},
	{args: "basic/x.go -execdir {}", gnu411: &gnu411{stderr: []string{"find: You may not use {} within the utility name for -execdir and -okdir, because this is a potential security problem."}, code: 1}},
}

// execEnv is the test environment with a $PATH -execdir accepts.
func execEnv() []string {
	env := testEnv()
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=/usr/local/bin:/usr/bin:/bin"
		}
	}
	return env
}

func TestExecAgainstGNU(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := testtree.Make(t, testtree.Basic, testtree.Links, testtree.WeirdNames, testtree.Deep)
	for _, c := range gnuExecCases {
		args := shellWords(c.args)
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(root, c.dir)
			run := func(prog, name string, args []string) findResult {
				return runWith(t, dir, execEnv(), "", prog, name, args)
			}
			if c.gnu411 != nil {
				compareStated(t, run, gnu, gfind, args, c.gnu411)
				return
			}
			compareRuns(t, run, gnu, gfind, args, c.serialOnly)
		})
	}
}

// runWith runs prog (argv[0] name) with args in dir with the
// environment env and standard input stdin.
func runWith(t *testing.T, dir string, env []string, stdin, prog, name string, args []string) findResult {
	t.Helper()
	return runProg(t, runOpts{dir: dir, env: env, stdin: stdin}, prog, name, args)
}

// TestOkAgainstGNU feeds answers to -ok and -okdir: the prompts, the
// answers read and the children run must be GNU's. The order of the
// questions is the walk's, so only -j1 is compared.
func TestOkAgainstGNU(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := testtree.Make(t, testtree.Basic)
	cases := []struct{ args, stdin string }{
		{"basic -name *.txt -ok echo X {} ;", "y\nn\nyes\nNo\n"},
		{"basic -name *.txt -okdir echo X {} ;", "Y\n\ny"},         // an empty line is no; "y" without newline is yes
		{"basic -name *.go -ok echo {} ; -print", "yy\nnope\n"},    // -print only where the answer was yes
		{"basic -name *.go -okdir cat ;", "y\ny\n"},                // the child's stdin is not find's
		{"basic -name *.go -print -ok echo {} ; -print", "n\ny\n"}, // stdout is flushed before each prompt
		{"basic -name *.go -ok nosuch-gfind-cmd ;", "y\ny\n"},
	}
	for _, c := range cases {
		args := shellWords(c.args)
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			want := runWith(t, root, execEnv(), c.stdin, gnu, "find", args)
			got := runWith(t, root, execEnv(), c.stdin, gfind, "gfind", append([]string{"-j1"}, args...))
			if strings.Contains(c.args, "cat") {
				// GNU 4.9's child reads a standard input it cannot
				// read ("cat: -: Bad file descriptor"); gfind's reads
				// /dev/null. Compare the rest.
				want.stderr = dropLines(want.stderr, "cat: ")
			}
			// Messages follow a prompt on its line.
			got.stderr = strings.ReplaceAll(got.stderr, "gfind: ", "find: ")
			compare(t, "-j1", want, got, false)
			if want.stderr != got.stderr {
				t.Errorf("stderr %q, GNU find %q", got.stderr, want.stderr)
			}
		})
	}
}

func dropLines(s, prefix string) string {
	var out []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if i := strings.Index(l, prefix); i >= 0 {
			l = l[:i]
		}
		out = append(out, l)
	}
	return strings.Join(out, "")
}

// gnuDeleteCases run GNU find and gfind (parallel and -j1) each on its
// own copy of a tree made of Basic, Links, WeirdNames and Deep; the
// output, status and remaining tree must be the same.
var gnuDeleteCases = []gnuCase{
	{args: ". -delete"},
	{args: ". -name *.txt -delete"},
	{args: ". -type f -delete"},
	{args: ". -type d -delete"}, // non-empty directories: one message each
	{args: ". -name a -delete"},
	{args: ". -type l -delete"},
	{args: ". -print -delete"},
	{args: ". -delete -print"},
	{args: ". -name b.txt -delete -o -print"},
	{args: ". -empty -delete"},
	{args: ". -path ./basic/a -prune -o -delete"}, // refused
	{args: ". -name a -prune -delete"},
	{args: ". -depth -path ./basic/a -prune -o -delete"},
	{args: ". -delete -depth -name a -prune"},
	{args: ". -maxdepth 1 -name weird -delete"},
	{args: ". -mindepth 2 -maxdepth 2 -delete"},
	{args: ". -ignore_readdir_race -name *.go -delete"},
	// links/to_dir leads to links/dir: GNU reads the second after the
	// first was emptied; a parallel walk may read both first, and then
	// the second unlink of dir/inner.txt fails (ENOENT, reported as GNU
	// would report a file that vanished).
	{args: "-L links -delete", serialOnly: true},
	{args: "-L links basic -name to_dir -delete"},
	{args: "links/to_dir/ -delete"},
	{args: "basic/a/ -delete"},
	{args: "basic/a/a.txt/ -delete"},
	{args: "./ -delete"},
	{args: "basic/. -delete"},
	{args: "deep -delete"}, // past PATH_MAX
	{args: "deep -name d1* -delete"},
	{args: "nosuch basic/x.go -delete"},
	{args: ". -name x.go -delete -quit"},
	{args: ". -delete -exec echo {} ;"},
}

func TestDeleteAgainstGNU(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	parts := []testtree.Part{testtree.Basic, testtree.Links, testtree.WeirdNames, testtree.Deep}
	for _, c := range gnuDeleteCases {
		args := shellWords(c.args)
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			run := func(prog, name string, args []string) (findResult, []string) {
				root := testtree.Make(t, parts...)
				r := runWith(t, filepath.Join(root, c.dir), execEnv(), "", prog, name, args)
				return r, listTree(t, gnu, root)
			}
			want, wantTree := run(gnu, "find", args)
			t.Logf("GNU find: %d bytes of stdout, stderr %q, exit status %d, %d files left", len(want.stdout), want.stderr, want.code, len(wantTree))
			if !c.serialOnly {
				got, gotTree := run(gfind, "gfind", args)
				compare(t, "sorted", want, got, true)
				diffLines(t, "sorted remaining tree", wantTree, gotTree)
			}
			got, gotTree := run(gfind, "gfind", append([]string{"-j1"}, args...))
			compare(t, "-j1", want, got, false)
			diffLines(t, "-j1 remaining tree", wantTree, gotTree)
		})
	}
}

// listTree lists what is left under root (with GNU find, which reaches
// past PATH_MAX), sorted: type and path.
func listTree(t *testing.T, gnu, root string) []string {
	t.Helper()
	cmd := exec.Command(gnu, ".", "-printf", `%y %p\n`)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("listing %s: %v", root, err)
	}
	lines := splitRecords(string(out), "\n")
	slices.Sort(lines)
	return lines
}

// TestExecPlusEveryPathOnce runs -exec ... + over 60,000 files: every
// path must reach a child exactly once. It logs how many children GNU
// find, gfind and bfs (when installed) start, and their sizes.
func TestExecPlusEveryPathOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("60,000 files")
	}
	const n = 60000
	root := testtree.Make(t, testtree.Wide(n))
	args := []string{"wide", "-type", "f", "-exec", "sh", "-c", `echo "#$#"; printf '%s\n' "$@"`, "sh", "{}", "+"}
	check := func(name string, r findResult) int {
		t.Helper()
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%s: exit status %d, stderr %q", name, r.code, r.stderr)
		}
		seen := make(map[string]int, n)
		var sizes []int
		for _, l := range splitRecords(r.stdout, "\n") {
			if k, ok := strings.CutPrefix(l, "#"); ok {
				v, _ := strconv.Atoi(k)
				sizes = append(sizes, v)
				continue
			}
			seen[l]++
		}
		for i := range n {
			p := fmt.Sprintf("wide/f%06d", i)
			if seen[p] != 1 {
				t.Errorf("%s: %s passed %d times", name, p, seen[p])
				return len(sizes)
			}
		}
		if len(seen) != n {
			t.Errorf("%s: %d distinct paths passed, want %d", name, len(seen), n)
		}
		t.Logf("%s: %d children, files per child %v", name, len(sizes), sizes)
		return len(sizes)
	}
	gfind := gfindBin(t)
	// The workers share one batch: names of one length pack the same way
	// in any order.
	par := check("gfind -j4", runWith(t, root, execEnv(), "", gfind, "gfind", append([]string{"-j4"}, args...)))
	if serial := check("gfind -j1", runWith(t, root, execEnv(), "", gfind, "gfind", append([]string{"-j1"}, args...))); par != serial {
		t.Errorf("gfind -j4 starts %d children, -j1 %d", par, serial)
	}
	if gnu, err := testtool.GNUFindErr(); err == nil {
		check("GNU find", runWith(t, root, execEnv(), "", gnu, "find", args))
	}
	if bfs, ok := testtool.Want(t, "bfs", "bfs"); ok {
		check("bfs", runWith(t, root, execEnv(), "", bfs, "bfs", args))
	}
}

// TestExecInterleaveParallel: in parallel mode too, each "X path" line
// comes right after its "path" line (the records before a child are
// written first, and nothing is written while it runs).
func TestExecInterleaveParallel(t *testing.T) {
	root := testtree.Make(t, testtree.Basic, testtree.WeirdNames, testtree.Wide(300))
	r := runWith(t, root, execEnv(), "", gfindBin(t), "gfind", []string{"-j4", ".", "-name", "*\n*", "-prune", "-o", "-print", "-exec", "echo", "X", "{}", ";"})
	lines := splitRecords(r.stdout, "\n")
	if len(lines) < 600 || len(lines)%2 != 0 {
		t.Fatalf("%d lines", len(lines))
	}
	for i := 0; i < len(lines); i += 2 {
		if lines[i+1] != "X "+lines[i] {
			t.Fatalf("line %d: %q follows %q", i+2, lines[i+1], lines[i])
		}
	}
}

// TestExecChildKilled: a child killed by SIGTERM is reported as GNU
// does ('sh' terminated by signal 15), -exec ... ; is then false, and
// the walk goes on. Then find itself gets SIGTERM while a child runs:
// both die of it; GNU find leaves the child, which the signal was not
// sent to, running, and gfind ends it.
func TestExecChildKilled(t *testing.T) {
	root := testtree.Make(t, testtree.Basic)
	pids := filepath.Join(t.TempDir(), "pids")
	script := `echo $$ >> ` + pids + `; exec sleep 3600`
	for _, prog := range []struct{ name, path string }{{"gfind", gfindBin(t)}, {"find", ""}} {
		if prog.path == "" {
			gnu, err := testtool.GNUFindErr()
			if err != nil {
				continue
			}
			prog.path = gnu
		}
		t.Run(prog.name, func(t *testing.T) {
			os.Remove(pids)
			args := []string{"basic/x.go", "basic/y.go", "-exec", "sh", "-c", script, ";", "-o", "-print"}
			if prog.name == "gfind" {
				args = append([]string{"-j1"}, args...)
			}
			cmd := exec.Command(prog.path, args...)
			cmd.Args[0] = prog.name
			cmd.Dir, cmd.Env = root, execEnv()
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= 2; i++ {
				pid := waitPid(t, pids, i)
				if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
			}
			err := cmd.Wait()
			want := prog.name + ": 'sh' terminated by signal 15\n"
			if err != nil || stderr.String() != want+want || stdout.String() != "basic/x.go\nbasic/y.go\n" {
				t.Errorf("status %v, stdout %q, stderr %q", err, stdout.String(), stderr.String())
			}

			// SIGTERM to find itself.
			os.Remove(pids)
			cmd = exec.Command(prog.path, "basic/x.go", "-exec", "sh", "-c", script, ";")
			cmd.Dir, cmd.Env = root, execEnv()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := waitPid(t, pids, 1)
			defer syscall.Kill(pid, syscall.SIGKILL)
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
				t.Errorf("%s got SIGTERM while a child ran: %v, want death by the signal", prog.name, err)
			}
			// GNU find leaves the child, which the signal was not sent
			// to, running; gfind ends it first (hardening_signal_test.go).
			if prog.name == "gfind" && alive(pid) {
				t.Errorf("%s got SIGTERM: its child %d still runs", prog.name, pid)
			}
			if prog.name != "gfind" {
				if s := procState(fmt.Sprintf("/proc/%d", pid)); s == 0 || s == 'Z' {
					t.Errorf("%s got SIGTERM: its child %d is gone (state %q)", prog.name, pid, s)
				}
			}
		})
	}
}

// waitPid waits until file holds at least n lines and returns the pid on
// line n.
func waitPid(t *testing.T, file string, n int) int {
	t.Helper()
	var lines []string
	waitFor(t, fmt.Sprintf("child %d to start", n), func() bool {
		b, _ := os.ReadFile(file)
		lines = splitRecords(string(b), "\n")
		return len(lines) >= n && strings.HasSuffix(string(b), "\n")
	})
	pid, err := strconv.Atoi(lines[n-1])
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
