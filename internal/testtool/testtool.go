package testtool

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
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

type gnuFindInfo struct {
	path, version string
}

var gnuFind = sync.OnceValues(func() (gnuFindInfo, error) {
	path := os.Getenv(GNUFindEnv)
	if path == "" {
		path = GNUFindPath
		if _, err := os.Stat(path); err != nil {
			if path, err = exec.LookPath("find"); err != nil {
				return gnuFindInfo{}, err
			}
		}
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return gnuFindInfo{}, fmt.Errorf("%s --version: %v", path, err)
	}
	line, _, _ := bytes.Cut(out, []byte("\n"))
	f := strings.Fields(string(line))
	if !bytes.Contains(line, []byte("GNU findutils")) || len(f) == 0 {
		return gnuFindInfo{}, &notGNU{path}
	}
	return gnuFindInfo{path, f[len(f)-1]}, nil
})

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
	if _, err := os.Stat("/usr/include/stdio.h"); err != nil {
		Missing(t, "the C library's headers", "libc6-dev", err)
	}
	return cc
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
