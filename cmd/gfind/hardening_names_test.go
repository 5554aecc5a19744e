package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
)

// Issue 6 item 7: names holding every byte but '/' and NUL
// (testtree.ByteNames). Not on a terminal, every way out (-print,
// -print0, -printf, -exec, -execdir, -delete) gets the exact bytes; on a
// terminal, -print and -printf show control characters as GNU does.

// byteNamePaths returns the paths, as "bytes/..." and sorted, that the
// ByteNames part holds below bytes/.
func byteNamePaths() []string {
	var paths []string
	seen := map[string]bool{}
	for _, n := range testtree.ByteNameList {
		if !seen[n] {
			seen[n] = true
			paths = append(paths, "bytes/"+n)
		}
	}
	all := "bytes/" + testtree.AllBytesName
	paths = append(paths, all, all+"/"+testtree.AllBytesName)
	slices.Sort(paths)
	return paths
}

// TestByteNamesExact checks gfind's output against the names the tree
// was built with (not against GNU find): each expression prints each
// path below bytes/ once, NUL-terminated, exactly as created.
func TestByteNamesExact(t *testing.T) {
	gfind := gfindBin(t)
	root := testtree.Make(t, testtree.ByteNames)
	want := byteNamePaths()
	for _, expr := range []string{
		`bytes -mindepth 1 -print0`,
		`bytes -mindepth 1 -printf %p\0`,
		`bytes -mindepth 1 -exec printf %s\0 {} +`,
		`bytes -mindepth 1 -exec printf %s\0 {} ;`,
		`bytes -mindepth 1 -exec sh -c 'printf "%s\0" "$@"' sh {} +`,
		`bytes -mindepth 1 -fprint0 OUT`,
		`bytes -mindepth 1 -name * -print0`,
	} {
		for _, j := range []string{"-j1", "-j4"} {
			if strings.HasSuffix(expr, ";") && j != "-j1" {
				continue // a child per file: once is enough
			}
			t.Run(j+" "+expr, func(t *testing.T) {
				t.Parallel()
				out := filepath.Join(t.TempDir(), "out")
				args := []string{j}
				for _, w := range shellWords(expr) {
					args = append(args, strings.ReplaceAll(w, "OUT", out))
				}
				r := runProg(t, runOpts{dir: root, env: execEnv()}, gfind, "gfind", args)
				if r.code != 0 || r.stderr != "" {
					t.Fatalf("status %d, stderr %q", r.code, r.stderr)
				}
				if strings.Contains(expr, "OUT") {
					b, err := os.ReadFile(out)
					if err != nil {
						t.Fatal(err)
					}
					r.stdout = string(b)
				}
				got := splitRecords(r.stdout, "\x00")
				slices.Sort(got)
				diffLines(t, "paths", quoteAll(want), quoteAll(got))
			})
		}
	}
	// -print and -printf '%p\n' write the same raw bytes as -print0,
	// with a newline for the NUL, in the same (-j1) order; -execdir
	// passes "./" and the raw name.
	p0 := runProg(t, runOpts{dir: root, env: execEnv()}, gfind, "gfind", []string{"-j1", "bytes", "-print0"})
	nl := strings.ReplaceAll(p0.stdout, "\x00", "\n")
	for _, args := range [][]string{
		{"-j1", "bytes", "-print"},
		{"-j1", "bytes", "-printf", `%p\n`},
		{"-j1", "bytes", "-printf", `%h/%f\n`},
	} {
		r := runProg(t, runOpts{dir: root, env: execEnv()}, gfind, "gfind", args)
		if args[2] == "-printf" && args[3] == `%h/%f\n` {
			// %h of the starting point "bytes" is ".".
			r.stdout = strings.Replace(r.stdout, "./bytes\n", "bytes\n", 1)
		}
		if r.stdout != nl {
			t.Errorf("%q differs from -print0's bytes", args)
		}
	}
	r := runProg(t, runOpts{dir: root, env: execEnv()}, gfind, "gfind",
		[]string{"bytes", "-mindepth", "1", "-execdir", "printf", `%s\0`, "{}", "+"})
	var wantDir []string
	for _, p := range want {
		wantDir = append(wantDir, "./"+filepath.Base(p))
	}
	slices.Sort(wantDir)
	got := splitRecords(r.stdout, "\x00")
	slices.Sort(got)
	diffLines(t, "-execdir", quoteAll(wantDir), quoteAll(got))
}

// TestByteNamesDelete: -delete removes every name, whatever its bytes.
func TestByteNamesDelete(t *testing.T) {
	gfind := gfindBin(t)
	for _, j := range []string{"-j1", "-j4"} {
		root := testtree.Make(t, testtree.ByteNames)
		r := runProg(t, runOpts{dir: root, env: testEnv()}, gfind, "gfind", []string{j, "bytes", "-mindepth", "1", "-delete"})
		if r.code != 0 || r.stderr != "" || r.stdout != "" {
			t.Errorf("%s: status %d, stdout %q, stderr %q", j, r.code, r.stdout, r.stderr)
		}
		left, err := os.ReadDir(filepath.Join(root, "bytes"))
		if err != nil || len(left) != 0 {
			t.Errorf("%s: %d names left (%v)", j, len(left), err)
		}
	}
}

// byteCases compare with GNU find on the ByteNames tree (not a terminal).
var byteCases = []string{
	"bytes -print",
	"bytes -print0",
	"bytes -printf %p\\0%f\\0%h\\0%P\\0",
	"bytes -ls",
	"bytes -name \\** -print",
	"bytes -name -print",
	"bytes -name ( -o -name ! -o -name , -o -name \\\\",
	"bytes -exec printf %s\\0 {} +",
	"bytes -execdir printf [%s]\\n {} ;",
}

func TestByteNamesAgainstGNU(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := testtree.Make(t, testtree.ByteNames)
	for _, c := range byteCases {
		t.Run(c, func(t *testing.T) {
			t.Parallel()
			args := shellWords(c)
			want := runProg(t, runOpts{dir: root, env: execEnv()}, gnu, "find", args)
			got := runProg(t, runOpts{dir: root, env: execEnv()}, gfind, "gfind", append([]string{"-j1"}, args...))
			compare(t, "-j1", want, got, false)
			if want.stdout != got.stdout {
				t.Errorf("-j1 stdout differs from GNU's byte for byte")
			}
		})
	}
}

// TestByteNamesTTY runs GNU find and gfind on a pseudo-terminal, in the
// C and C.UTF-8 locales: the bytes on the terminal must be the same
// (control characters and invalid bytes shown as '?', -print0 raw).
func TestByteNamesTTY(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := testtree.Make(t, testtree.ByteNames)
	for _, locale := range []string{"C", "C.UTF-8"} {
		for _, c := range []string{
			"bytes -print",
			"bytes -printf %p|%f|%h\\n",
			"bytes -print0",
			"bytes -fprint /dev/stdout",
			"bytes -ls",
		} {
			t.Run(locale+" "+c, func(t *testing.T) {
				args := shellWords(c)
				env := append(execEnv(), "LC_ALL="+locale)
				want := runOnPTY(t, root, env, gnu, "find", args)
				got := runOnPTY(t, root, env, gfind, "gfind", append([]string{"-j1"}, args...))
				if sgr.Match(got) && !sgr.Match(want) {
					// Reported: --color defaults to auto. The escaping is
					// still compared, without the colours.
					t.Errorf("gfind colours a GNU command line on a terminal: extras must be opt-in")
					got = sgr.ReplaceAll(got, nil)
				}
				if !bytes.Equal(want, got) {
					wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
					diffLines(t, "terminal", quoteAll(wl), quoteAll(gl))
				}
				if len(want) < 1000 {
					t.Errorf("GNU find printed only %q", want)
				}
			})
		}
	}
}

// sgr matches an ANSI colour sequence (ESC itself never reaches a
// terminal raw from a name: it is shown as '?').
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// runOnPTY runs prog with its standard output on a new pseudo-terminal
// (standard input /dev/null) and returns what reached the terminal.
func runOnPTY(t *testing.T, dir string, env []string, prog, name string, args []string) []byte {
	t.Helper()
	master, slave := ptyPair(t)
	cmd := exec.Command(prog, args...)
	cmd.Args[0] = name
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout = slave
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	done := make(chan []byte)
	go func() {
		var out []byte
		buf := make([]byte, 64<<10)
		for {
			n, err := master.Read(buf)
			out = append(out, buf[:n]...)
			if err != nil { // EIO once the last slave descriptor is closed
				break
			}
		}
		done <- out
	}()
	err := cmd.Wait()
	out := <-done
	if err != nil {
		t.Fatalf("%s %q: %v, %q", name, args, err, stderr.String())
	}
	return out
}

// quoteAll quotes every string, so that differences in control bytes
// show in failure messages.
func quoteAll(ss []string) []string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return q
}
