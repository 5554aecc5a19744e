package testtool

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// CI reports whether the tests run under CI, where every outside program
// must be present.
func CI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "0" && v != "false"
}

// Missing ends t because what names cannot be had: a skip off CI, a failure
// under CI. pkg is the Debian package that provides it.
func Missing(t testing.TB, what, pkg string, err error) {
	t.Helper()
	if CI() {
		t.Fatalf("%s is missing under CI (.ci/run installs Debian package %s): %v", what, pkg, err)
	}
	t.Skipf("%s is missing: install Debian package %s to run this test (%v)", what, pkg, err)
}

// Need returns the path of program prog, looked up in PATH (or taken as
// is when it holds a slash), or ends t through Missing. pkg is the Debian
// package that provides prog.
func Need(t testing.TB, prog, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(prog)
	if err != nil {
		Missing(t, prog, pkg, err)
	}
	return path
}

// GNUFindPath is where Debian's findutils installs GNU find: the
// reference of the differential tests when GNUFindEnv is not set.
const GNUFindPath = "/usr/bin/find"

// GNUFindEnv names the environment variable that points the
// differential tests at another GNU find: the reference release, 4.11,
// built by .ci/gnufind. .ci/run sets it.
const GNUFindEnv = "GFIND_GNU_FIND"

// RefVersion is the GNU find release gfind follows. A GNU find older than
// it (Debian 12's 4.9) still serves as the tests' oracle, with each
// difference between the two written out in the test that meets it.
const RefVersion = "4.11.0"

// gnuFindPlaces are where GNU find is looked for after GNUFindPath and
// before PATH: Homebrew's findutils keeps find under its own name in
// gnubin (on Apple silicon under /opt/homebrew, on Intel Macs under
// /usr/local), which is not on PATH unless the user put it there.
var gnuFindPlaces = []string{
	GNUFindPath,
	"/opt/homebrew/opt/findutils/libexec/gnubin/find",
	"/usr/local/opt/findutils/libexec/gnubin/find",
}

// gnuFindNames are the names GNU find goes by on PATH, in the order
// they are looked for: "gfind" where the system's find is BSD find
// (Homebrew, FreeBSD's and OpenBSD's packages and pkgsrc install GNU
// find with a "g" prefix), then "find".
var gnuFindNames = []string{"gfind", "find"}

type gnuFindInfo struct {
	path, version string
}

var gnuFind = sync.OnceValues(func() (gnuFindInfo, error) {
	return lookGNUFind(os.Getenv(GNUFindEnv), gnuFindPlaces, os.Getenv("PATH"))
})

// lookGNUFind finds GNU find: env (GNUFindEnv's value) if set, which
// must be GNU find; otherwise the first GNU find among places, then
// among every "gfind" and every "find" in the directories of path.
//
// A program is GNU find when the first line of its --version is "find
// (GNU findutils) VERSION", which GNU find prints whatever its name.
// That rules out the BSD finds of macOS and the BSDs (which reject
// --version) and gfind itself, which is also called gfind and whose
// --version begins "gfind VERSION": a gfind earlier on PATH (go install
// puts it there) must not be taken for the oracle it is compared with.
func lookGNUFind(env string, places []string, path string) (gnuFindInfo, error) {
	if env != "" {
		return gnuFindVersion(env)
	}
	var cands []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			cands = append(cands, p)
		}
	}
	for _, p := range places {
		add(p)
	}
	for _, name := range gnuFindNames {
		for _, dir := range filepath.SplitList(path) {
			// As exec.LookPath, a relative directory (or "", the
			// current one) is not searched.
			if filepath.IsAbs(dir) {
				add(filepath.Join(dir, name))
			}
		}
	}
	var tried []string
	for _, p := range cands {
		if !isExecutable(p) {
			continue
		}
		g, err := gnuFindVersion(p)
		if err == nil {
			return g, nil
		}
		tried = append(tried, err.Error())
	}
	if len(tried) == 0 {
		return gnuFindInfo{}, errors.New("no find or gfind found (on macOS: brew install findutils)")
	}
	return gnuFindInfo{}, fmt.Errorf("no GNU find found (on macOS: brew install findutils): %s", strings.Join(tried, "; "))
}

// isExecutable reports whether path is a file that may be executed.
func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir() && st.Mode().Perm()&0o111 != 0
}

// gnuFindVersion runs path --version and returns path and the version,
// or an error when path is not GNU find.
//
// It runs without the tests' GFIND_ variables: a copy of a test binary
// that runs as gfind (cmd/gfind's tests put one named gfind on PATH)
// would, under GFIND_TEST_GNU=1, run GNU find and so search for it
// again, endlessly. LC_ALL=C keeps the line in English.
func gnuFindVersion(path string) (gnuFindInfo, error) {
	cmd := exec.Command(path, "--version")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GFIND_") && !strings.HasPrefix(kv, "LC_ALL=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		return gnuFindInfo{}, fmt.Errorf("%s --version: %v", path, err)
	}
	line, _, _ := strings.Cut(string(out), "\n")
	version, ok := strings.CutPrefix(line, "find (GNU findutils) ")
	if !ok || version == "" || strings.ContainsAny(version, " \t") {
		return gnuFindInfo{}, &notGNU{path}
	}
	return gnuFindInfo{path, version}, nil
}

// GNUFindVersion returns the version of the GNU find at path, or an
// error when path is not GNU find (by its --version, as the search for
// GNU find decides).
func GNUFindVersion(path string) (string, error) {
	g, err := gnuFindVersion(path)
	return g.version, err
}

type notGNU struct{ path string }

func (e *notGNU) Error() string { return e.path + " is not GNU find" }

// GNUFind returns the path of GNU find, or ends t through Missing. Under
// CI the reference release must be the one found (.ci/run builds it).
func GNUFind(t testing.TB) string {
	t.Helper()
	g, err := gnuFind()
	if err != nil {
		Missing(t, "GNU find", "findutils", err)
	}
	if CI() && g.version != RefVersion {
		t.Fatalf("GNU find %s (%s) is not the reference %s under CI: set %s=$(.ci/gnufind)", g.version, g.path, RefVersion, GNUFindEnv)
	}
	return g.path
}

// GNUVersion returns the version GNU find reports ("4.9.0"), or "" when
// there is none.
func GNUVersion() string {
	g, _ := gnuFind()
	return g.version
}

// GNURef reports whether the GNU find the tests compare with is the
// reference release. When it is not, a test that meets a 4.9-to-4.11
// difference compares gfind with the 4.11 result it states instead.
func GNURef() bool { return GNUVersion() == RefVersion }

// Lacking is Missing for what only part of a test needs (an extra
// implementation to compare with, say): off CI it logs pkg and the test
// goes on without that part; under CI, where .ci/run installs pkg, it
// fails the test and lets it go on.
func Lacking(t testing.TB, what, pkg string, err error) {
	t.Helper()
	if CI() {
		t.Errorf("%s is missing under CI (.ci/run installs Debian package %s): %v", what, pkg, err)
		return
	}
	t.Logf("%s is missing: install Debian package %s to run this part of the test too (%v)", what, pkg, err)
}

// Want is Need for a program that only part of a test uses: prog's path
// and true, or, through Lacking, false.
func Want(t testing.TB, prog, pkg string) (string, bool) {
	t.Helper()
	path, err := exec.LookPath(prog)
	if err != nil {
		Lacking(t, prog, pkg, err)
		return "", false
	}
	return path, true
}

// GNUFindErr is GNUFind for code that runs outside a test (a re-exec of
// the test binary, a testscript condition): GNU find's path, or why
// there is none.
func GNUFindErr() (string, error) {
	g, err := gnuFind()
	return g.path, err
}

// CC returns the path of the C compiler that builds the tests' C oracles,
// or ends t through Missing when the compiler or the C library's headers
// (which Debian's gcc only recommends) are missing.
func CC(t testing.TB) string {
	t.Helper()
	cc := Need(t, "cc", "gcc")
	if err := cHeaders(cc); err != nil {
		Missing(t, "the C library's headers", "libc6-dev", err)
	}
	return cc
}

// cHeaders reports whether the C library's headers are there: in
// /usr/include, where Linux and the BSDs keep them, or else wherever cc
// finds them (macOS keeps them in the SDK, which only the compiler
// knows), asked once with the preprocessor.
func cHeaders(cc string) error {
	if _, err := os.Stat("/usr/include/stdio.h"); err == nil {
		return nil
	}
	ccHeaders.once.Do(func() {
		cmd := exec.Command(cc, "-E", "-x", "c", "-")
		cmd.Stdin = strings.NewReader("#include <stdio.h>\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			line, _, _ := strings.Cut(string(out), "\n")
			ccHeaders.err = fmt.Errorf("%s -E of <stdio.h>: %v: %s", cc, err, line)
		}
	})
	return ccHeaders.err
}

// ccHeaders is cHeaders' one question to the preprocessor (cc is the
// same for every caller).
var ccHeaders struct {
	once sync.Once
	err  error
}

// WaitLimit bounds every wait of the tests for a condition: what they
// wait for takes milliseconds on an idle machine, and a minute is far
// beyond what a busy one adds.
const WaitLimit = time.Minute

// Poll checks cond every few milliseconds until it holds, and reports
// whether it did within WaitLimit. Tests wait through it, not through
// fixed sleeps, so that their outcome does not depend on the load.
func Poll(cond func() bool) bool {
	for deadline := time.Now().Add(WaitLimit); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// BFSEnv names the environment variable that points the tests of
// gfind's bfs-named extras at bfs 4.1, their oracle, fetched by .ci/bfs
// (Debian 12's bfs is 2.6.1). .ci/run sets it.
const BFSEnv = "GFIND_BFS"

var bfs = sync.OnceValues(func() (gnuFindInfo, error) {
	path := os.Getenv(BFSEnv)
	if path == "" {
		var err error
		if path, err = exec.LookPath("bfs"); err != nil {
			return gnuFindInfo{}, err
		}
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return gnuFindInfo{}, fmt.Errorf("%s --version: %v", path, err)
	}
	f := strings.Fields(string(out))
	if len(f) < 2 || f[0] != "bfs" {
		return gnuFindInfo{}, fmt.Errorf("%s is not bfs", path)
	}
	return gnuFindInfo{path, f[1]}, nil
})

// BFS returns the path of bfs (GFIND_BFS, or bfs in PATH) and its
// version, or ends t through Missing.
func BFS(t testing.TB) (path, version string) {
	t.Helper()
	b, err := bfs()
	if err != nil {
		Missing(t, "bfs", "bfs", err)
	}
	return b.path, b.version
}

// BFS4 returns the path of bfs 4.1 or newer, the oracle of the bfs-named
// extras, or ends t through Missing (set GFIND_BFS=$(.ci/bfs)).
func BFS4(t testing.TB) string {
	t.Helper()
	path, v := BFS(t)
	if major, rest, _ := strings.Cut(v, "."); major < "4" || len(major) != 1 || (major == "4" && rest < "1") {
		Missing(t, "bfs 4.1 (found bfs "+v+"; "+BFSEnv+"=$(.ci/bfs) fetches it)", "bfs", nil)
	}
	return path
}

// SoakEnv names the one switch for the soak sizes: with GFIND_SOAK=1 the
// tests that ask Soak build their biggest trees (chains of 2,000
// directories, a directory of 100,001 files) where the default builds
// trees just big enough for the same assertion (a chain deeper than
// PATH_MAX and than the descriptor limit, a directory of more than
// 10,000 files). .ci/run turns it on; the README's test command runs
// with it off.
const SoakEnv = "GFIND_SOAK"

// Soak reports whether the soak sizes are on (GFIND_SOAK=1, and not
// -short).
func Soak() bool { return os.Getenv(SoakEnv) == "1" && !testing.Short() }
