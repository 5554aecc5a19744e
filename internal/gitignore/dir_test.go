package gitignore

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

// ignoreCases are the rules of gitignore(5), one case each: the ignore
// files (by directory, "" for the root; "exclude" is info/exclude), a
// path and whether git ignores it. Where git is installed,
// TestIgnoredAgainstGit asks it about every case too.
var ignoreCases = []struct {
	name  string
	files map[string]string
	path  string
	kind  byte // 'f' file, 'd' directory, 'l' symbolic link
	want  bool
}{
	{"basename at any depth", m("", "*.o"), "a/b/x.o", 'f', true},
	{"leading slash anchors", m("", "/x.o"), "a/x.o", 'f', false},
	{"leading slash at the root", m("", "/x.o"), "x.o", 'f', true},
	{"middle slash anchors", m("", "a/x.o"), "b/a/x.o", 'f', false},
	{"middle slash", m("", "a/x.o"), "a/x.o", 'f', true},
	{"directory only, a file", m("", "build/"), "build", 'f', false},
	{"directory only, a directory", m("", "build/"), "build", 'd', true},
	{"directory only, a link", m("", "build/"), "build", 'l', false},
	{"inside an ignored directory", m("", "build/"), "build/f", 'f', true},
	{"negation", m("", "*.log\n!keep.log"), "a/keep.log", 'f', false},
	{"negation, the others", m("", "*.log\n!keep.log"), "a/x.log", 'f', true},
	{"no re-include in an ignored directory", m("", "build/\n!build/keep"), "build/keep", 'f', true},
	{"re-include below build/*", m("", "build/*\n!build/keep"), "build/keep", 'f', false},
	{"build/* ignores the rest", m("", "build/*\n!build/keep"), "build/other", 'f', true},
	{"last line wins", m("", "!x\nx"), "x", 'f', true},
	{"last line wins, negated", m("", "x\n!x"), "x", 'f', false},
	{"deeper file wins", m("", "*.log", "a", "!x.log"), "a/x.log", 'f', false},
	{"deeper file, not its siblings", m("", "*.log", "a", "!x.log"), "x.log", 'f', true},
	{".gitignore over info/exclude", m("exclude", "*.tmp", "", "!a.tmp"), "a.tmp", 'f', false},
	{"info/exclude", m("exclude", "*.tmp", "", "!a.tmp"), "b/c.tmp", 'f', true},
	{"escaped hash", m("", `\#hash`), "#hash", 'f', true},
	{"comment", m("", "#hash"), "#hash", 'f', false},
	{"escaped bang", m("", `\!bang`), "!bang", 'f', true},
	{"trailing spaces trimmed", m("", "sp  "), "sp", 'f', true},
	{"trailing spaces trimmed, not matched", m("", "sp  "), "sp ", 'f', false},
	{"escaped trailing space", m("", `sp\ `), "sp ", 'f', true},
	{"escaped trailing space, not without", m("", `sp\ `), "sp", 'f', false},
	{"CRLF", m("", "a.o\r\nb.o\r\n"), "a.o", 'f', true},
	{"byte order mark", m("", "\ufeffa.o"), "a.o", 'f', true},
	{"no newline at the end", m("", "x\ny"), "y", 'f', true},
	{"**/ at the start", m("", "**/foo"), "foo", 'f', true},
	{"**/ deep", m("", "**/foo"), "a/b/foo", 'f', true},
	{"/**/ none", m("", "a/**/b"), "a/b", 'f', true},
	{"/**/ several", m("", "a/**/b"), "a/x/y/b", 'f', true},
	{"/** below", m("", "abc/**"), "abc/x/y", 'f', true},
	{"/** not itself", m("", "abc/**"), "abc", 'd', false},
	{"* does not cross /", m("", "a/*.txt"), "a/b/c.txt", 'f', false},
	{"subdirectory pattern", m("a", "doc/**/*.txt"), "a/doc/x/y.txt", 'f', true},
	{"anchored in a subdirectory", m("a", "/x"), "a/x", 'f', true},
	{"anchored in a subdirectory, not deeper", m("a", "/x"), "a/b/x", 'f', false},
	{"a subdirectory's pattern stays there", m("a", "x"), "b/x", 'f', false},
	{"bracket", m("", "[ab].c"), "b.c", 'f', true},
	{"negated bracket", m("", "[!ab].c"), "b.c", 'f', false},
	{"class", m("", "[[:digit:]]*"), "7up", 'f', true},
	{"escaped bracket", m("", `\[ab]`), "[ab]", 'f', true},
	{"escaped star", m("", `st\*r`), "star", 'f', false},
	{"unterminated bracket", m("", "[ab"), "[ab", 'f', false},
	{"lone bang", m("", "!"), "x", 'f', false},
	{"trailing backslash", m("", `x\`), `x\`, 'f', false},
	{"ignored directory's .gitignore is not read", m("", "d/", "d", "!x"), "d/x", 'f', true},
	{"a directory matched by name", m("", "d"), "d/x", 'f', true},
	{"case matters", m("", "foo"), "Foo", 'f', false},
}

// m makes the files of a case from pairs of directory and contents.
func m(kv ...string) map[string]string {
	out := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// memFS is a directory for Child whose .gitignore is given.
type memFS struct {
	ignore string
	ok     bool
}

func (f memFS) ReadIgnore() ([]byte, error) {
	if !f.ok {
		return nil, nil
	}
	return []byte(f.ignore), nil
}

func (memFS) HasGit() bool { return false }

// ignoredIn builds the Dirs of a case from its files and asks about path.
func ignoredIn(files map[string]string, path string, isDir bool) bool {
	repo := &Repo{root: "/r", work: true}
	repo.once.Do(func() {})
	repo.trackedOnce.Do(func() {})
	if x, ok := files["exclude"]; ok {
		repo.global = []List{Parse([]byte(x), "")}
	}
	d := &Dir{repo: repo}
	if x, ok := files[""]; ok {
		l := Parse([]byte(x), "")
		d.rules = &l
	}
	var scratch []byte
	noErr := func(error) {}
	parts := strings.Split(path, "/")
	for i, c := range parts[:len(parts)-1] {
		x, ok := files[strings.Join(parts[:i+1], "/")]
		d, _ = d.Child(c, memFS{x, ok}, &scratch, noErr)
	}
	return d.Ignored([]byte(parts[len(parts)-1]), isDir, &scratch, noErr)
}

func TestIgnored(t *testing.T) {
	for _, c := range ignoreCases {
		if got := ignoredIn(c.files, c.path, c.kind == 'd'); got != c.want {
			t.Errorf("%s: %q with %q: ignored %v, want %v", c.name, c.path, c.files, got, c.want)
		}
	}
}

// TestIgnoredAgainstGit checks ignoreCases' answers with "git
// check-ignore --no-index" in a repository made for each.
func TestIgnoredAgainstGit(t *testing.T) {
	git, ok := testtool.Want(t, "git", "git")
	if !ok {
		return
	}
	for _, c := range ignoreCases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			env := gitEnv(dir)
			gitRun := func(args ...string) error {
				cmd := exec.Command(git, args...)
				cmd.Dir, cmd.Env = filepath.Join(dir, "r"), env
				return cmd.Run()
			}
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(os.Mkdir(filepath.Join(dir, "r"), 0o755))
			must(gitRun("init", "-q"))
			p := filepath.Join(dir, "r", c.path)
			must(os.MkdirAll(filepath.Dir(p), 0o755))
			for d, x := range c.files {
				name := filepath.Join(dir, "r", d, ".gitignore")
				if d == "exclude" {
					name = filepath.Join(dir, "r", ".git", "info", "exclude")
				}
				must(os.MkdirAll(filepath.Dir(name), 0o755))
				must(os.WriteFile(name, []byte(x), 0o644))
			}
			switch c.kind {
			case 'd':
				must(os.Mkdir(p, 0o755))
			case 'l':
				must(os.Symlink(".", p))
			default:
				must(os.WriteFile(p, nil, 0o644))
			}
			err := gitRun("check-ignore", "-q", "--no-index", c.path)
			if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
				t.Fatal(err)
			}
			if got := err == nil; got != c.want {
				t.Errorf("git check-ignore says %v, the case %v", got, c.want)
			}
		})
	}
}

// gitEnv is the environment of a git the tests ask: no system or global
// configuration (the global one would be in dir), no default excludes
// file.
func gitEnv(dir string) []string {
	return append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "XDG_CONFIG_HOME="+dir,
		"GIT_CONFIG_GLOBAL="+filepath.Join(dir, "none"))
}
