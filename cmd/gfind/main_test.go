package main

// The CLI tests: testscript cases under testdata/script (TestScripts) and
// the differential test against GNU find (gnu_test.go).
//
// The test binary doubles as gfind. TestMain copies it, as "gfind", into
// a directory everyone can read (testBin), so that the differential test
// can run it and so that it can run as nobody; testscript.Main dispatches
// on the program name, so any copy named gfind is gfind.
//
// Self-check: with -gnu (or GFIND_TEST_GNU=1 in the environment) the
// "gfind" under test is GNU find itself, run with argv[0] "gfind" so that
// its messages say "gfind:". Every testscript whose expectations came from
// GNU find, and every differential row, must then pass:
//
//	go test ./cmd/gfind -run 'TestScripts|TestAgainstGNU' -gnu
//
// -update rewrites the golden files that a failing cmp compares with;
// together with -gnu it takes a new script's expectations from GNU find
// (read them before committing):
//
//	go test ./cmd/gfind -run TestScripts/name_glob -gnu -update
//
// Scripts have, besides testscript's built-ins:
//   - exec gfind ARGS: gfind (a re-exec of the test binary);
//   - exec asnobody PROG ARGS: PROG as uid/gid 65534 with no groups when
//     the tests run as root (gfind is then the world-readable copy);
//   - exec wantstatus N PROG ARGS: succeeds only if PROG exits with N;
//   - sortlines [-0] IN OUT: sort lines (NUL-terminated records) bytewise;
//   - conditions [root] and [gnufind].
//
// Scripts run with LC_ALL=C and TZ=UTC.

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
	"github.com/rogpeppe/go-internal/testscript"
)

var (
	update  = flag.Bool("update", false, "rewrite the golden files of failing testscript cmp commands")
	gnuFlag = flag.Bool("gnu", false, "test GNU find in place of gfind (a check of the tests themselves)")
)

const (
	// gnuEnv set to 1 makes every run of "gfind" in these tests run GNU
	// find instead (see -gnu).
	gnuEnv = "GFIND_TEST_GNU"
	// binEnv holds the path of the world-readable copy of the test
	// binary named gfind.
	binEnv = "GFIND_TEST_BIN"
	// graceEnv set to "CHILD WRITE" (two durations) makes the gfind of
	// the test binary use them as childGrace and writeGrace.
	graceEnv = "GFIND_TEST_GRACE"
)

// testCommands are the programs the test binary runs as, by name; the
// Linux-only tests add theirs (gnu_nss_linux_test.go).
var testCommands = map[string]func(){
	"gfind":      gfindMain,
	"asnobody":   asNobodyMain,
	"wantstatus": wantStatusMain,
}

func TestMain(m *testing.M) {
	testscript.Main(testBin{m}, testCommands)
}

// gfindMain is the test binary run as gfind.
func gfindMain() {
	if os.Getenv(gnuEnv) == "1" {
		execGNU(os.Args[1:])
	}
	setGraces(os.Getenv(graceEnv))
	os.Exit(run(os.Args[1:]))
}

// setGraces sets childGrace and writeGrace (signal.go) from v, "CHILD
// WRITE" as two durations, so that the signal tests can make the grace
// they do not measure longer than any delay a busy machine causes.
func setGraces(v string) {
	child, write, ok := strings.Cut(v, " ")
	if !ok {
		return
	}
	c, err1 := time.ParseDuration(child)
	w, err2 := time.ParseDuration(write)
	if err1 != nil || err2 != nil {
		fmt.Fprintf(os.Stderr, "gfind test: bad %s=%q\n", graceEnv, v)
		os.Exit(2)
	}
	childGrace, writeGrace = c, w
}

// gfindOnly matches gfind's own leading options, which GNU find lacks.
var gfindOnly = regexp.MustCompile(`^(-j[0-9]+|--threads=[0-9]+)$`)

// execGNU replaces the process with GNU find, called "gfind", dropping
// gfind's own worker-count options from the leading options.
func execGNU(args []string) {
	var kept []string
	lead := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !lead:
		case gfindOnly.MatchString(a):
			continue
		case a == "-D" && i+1 < len(args):
			kept = append(kept, a)
			i++
			a = args[i]
		case a == "-H", a == "-L", a == "-P", strings.HasPrefix(a, "-O"):
		default: // "--", a root or the expression
			lead = false
		}
		kept = append(kept, a)
	}
	path, err := testtool.GNUFindErr()
	if err == nil {
		err = syscall.Exec(path, append([]string{"gfind"}, kept...), os.Environ())
	}
	fmt.Fprintf(os.Stderr, "gfind test: running GNU find: %v\n", err)
	os.Exit(2)
}

// asNobodyMain runs "asnobody PROG ARGS..." as the user nobody (when the
// tests run as root; as itself otherwise) and exits with PROG's status.
// PROG "gfind" is the world-readable copy of the test binary.
func asNobodyMain() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: asnobody prog [args...]")
		os.Exit(2)
	}
	prog := os.Args[1]
	if prog == "gfind" {
		prog = os.Getenv(binEnv)
	}
	cmd := exec.Command(prog, os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	testtree.AsNobody(cmd)
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "asnobody: %v\n", err)
		os.Exit(2)
	}
	os.Exit(0)
}

// wantStatusMain runs "wantstatus N PROG ARGS...": it runs PROG with
// its own standard streams and exits 0 if PROG exited with status N, and
// 1 with a message otherwise. `! exec` alone cannot tell exit status 1
// (a find error) from 2 (a Go panic).
func wantStatusMain() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: wantstatus n prog [args...]")
		os.Exit(2)
	}
	want, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "wantstatus: %v\n", err)
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	got := 0
	if ee, ok := err.(*exec.ExitError); ok {
		got = ee.ExitCode()
	} else if err != nil {
		fmt.Fprintf(os.Stderr, "wantstatus: %v\n", err)
		os.Exit(2)
	}
	if got != want {
		fmt.Fprintf(os.Stderr, "wantstatus: %s exited with status %d, want %d\n", os.Args[2], got, want)
		os.Exit(1)
	}
	os.Exit(0)
}

// testBin wraps testing.M so that the world-readable copy of the test
// binary exists exactly while the tests run. (go test puts the binary in
// a 0700 directory, and testscript copies it into another.)
type testBin struct{ m *testing.M }

func (b testBin) Run() int {
	dir, err := os.MkdirTemp("", "gfind-test-bin")
	if err == nil {
		defer os.RemoveAll(dir)
		err = os.Chmod(dir, 0o755)
	}
	var self string
	if err == nil {
		self, err = os.Executable()
	}
	bin := filepath.Join(dir, "gfind")
	if err == nil {
		err = copyExe(self, bin)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gfind test: cannot make a shared gfind binary: %v\n", err)
		return 2
	}
	os.Setenv(binEnv, bin)
	return b.m.Run()
}

func copyExe(from, to string) error {
	if os.Link(from, to) == nil {
		return os.Chmod(to, 0o755)
	}
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// gnuMode reports whether GNU find stands in for gfind (-gnu or
// GFIND_TEST_GNU=1).
func gnuMode() bool { return *gnuFlag || os.Getenv(gnuEnv) == "1" }

// gfindBin returns the world-readable gfind binary made by testBin.
func gfindBin(t testing.TB) string {
	t.Helper()
	bin := os.Getenv(binEnv)
	if bin == "" {
		t.Fatalf("%s is not set; TestMain did not run", binEnv)
	}
	return bin
}

// TestVersionNotGNUFind checks that the tests cannot take gfind for the
// GNU find they compare it with: they look for GNU find under the name
// gfind too (as Homebrew and the BSDs install it), and gfind's --version
// must not read as GNU find's.
func TestVersionNotGNUFind(t *testing.T) {
	if os.Getenv(gnuEnv) == "1" {
		t.Skip("gfind is GNU find under -gnu")
	}
	if v, err := testtool.GNUFindVersion(gfindBin(t)); err == nil {
		t.Errorf("gfind --version reads as GNU find %s's", v)
	}
}

// testEnv is the environment every gfind and GNU find in these tests
// runs with.
func testEnv() []string {
	env := []string{"LC_ALL=C", "TZ=UTC", "PATH=" + os.Getenv("PATH"), binEnv + "=" + os.Getenv(binEnv)}
	if gnuMode() {
		env = append(env, gnuEnv+"=1")
	}
	return env
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup:               setupScript,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"sortlines": sortLines},
		Condition:           condition,
	})
}

// setupScript sets the locale and time zone, and lets nobody reach $WORK
// (testscript makes it and its parent 0700).
func setupScript(env *testscript.Env) error {
	for _, d := range []string{filepath.Dir(env.WorkDir), env.WorkDir} {
		if err := os.Chmod(d, 0o755); err != nil {
			return err
		}
	}
	for _, kv := range testEnv() {
		k, v, _ := strings.Cut(kv, "=")
		if k != "PATH" { // testscript's PATH leads with its command directory
			env.Setenv(k, v)
		}
	}
	return nil
}

// condition implements [root] (running as root, so permission checks are
// bypassed unless a command runs through asnobody) and [gnufind] (GNU
// find is installed, as needed by scripts that run it for comparison;
// under CI a missing GNU find is an error).
func condition(cond string) (bool, error) {
	switch cond {
	case "root":
		return os.Geteuid() == 0, nil
	case "gnufind":
		// Off CI the lines that need GNU find are left out (testscript
		// -v shows them as not met); under CI they must run.
		_, err := testtool.GNUFindErr()
		if err != nil && testtool.CI() {
			return false, fmt.Errorf("GNU find is missing under CI (.ci/run installs Debian package findutils): %v", err)
		}
		return err == nil, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// sortLines implements
//
//	sortlines [-0] IN OUT
//
// which sorts the lines of IN bytewise into the file OUT. IN may be
// stdout or stderr, meaning the output of the last exec. With -0 the
// records are NUL-terminated instead. Every record in OUT is terminated,
// including a last one that was not.
func sortLines(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! sortlines")
	}
	sep := "\n"
	if len(args) > 0 && args[0] == "-0" {
		sep, args = "\x00", args[1:]
	}
	if len(args) != 2 {
		ts.Fatalf("usage: sortlines [-0] stdout|stderr|file out")
	}
	recs := splitRecords(ts.ReadFile(args[0]), sep)
	slices.Sort(recs)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(joinRecords(recs, sep)), 0o666))
}

// splitRecords splits s into sep-terminated records; a last record
// without its terminator counts too.
func splitRecords(s, sep string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, sep), sep)
}

func joinRecords(recs []string, sep string) string {
	var b strings.Builder
	for _, r := range recs {
		b.WriteString(r)
		b.WriteString(sep)
	}
	return b.String()
}
