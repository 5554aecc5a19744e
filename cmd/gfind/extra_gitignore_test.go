package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

// TestGitignoredAgainstGit compares -gitignored and --gitignore with git
// itself on generated repositories: nested directories, .gitignore files
// at several depths with negations, directory-only, anchored and "**"
// patterns, classes, escapes, comments, CRLF and a byte order mark; odd
// names (spaces, '#', '!', brackets, '*', '?', a backslash, a trailing
// space); symbolic links (one a .gitignore, which git does not follow);
// info/exclude; core.excludesFile from a global configuration and from
// its default place; in half the repositories, some files in the index
// (ignored ones among them), which git does not ignore.
//
// The oracles: "git check-ignore --no-index --stdin" on every path
// (files and directories), but the tracked files and the directories
// that hold them (git ls-files --cached), is what -gitignored must say; "git ls-files --others
// --ignored --exclude-standard" lists the ignored files (not directories)
// and "git ls-files --others --cached --exclude-standard" the others,
// which is what --gitignore must keep (its non-directories). Each
// repository is also walked from a subdirectory, where the .gitignore
// files above the starting point count.
func TestGitignoredAgainstGit(t *testing.T) {
	if gnuMode() {
		t.Skip("a gfind extra")
	}
	git := testtool.Need(t, "git", "git")
	gfind := gfindBin(t)
	for seed := range uint64(24) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			g := newGitGen(t, seed)
			g.build()
			env := g.env()
			run := func(dir string, stdin string, prog string, args ...string) string {
				t.Helper()
				cmd := exec.Command(prog, args...)
				cmd.Dir, cmd.Env = dir, env
				cmd.Stdin = strings.NewReader(stdin)
				var stderr strings.Builder
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				// check-ignore exits 1 when nothing is ignored.
				if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1 && prog == git) {
					t.Fatalf("%s %q: %v\n%s", prog, args, err, stderr.String())
				}
				return string(out)
			}
			run(g.repo, "", git, "init", "-q")
			g.gitInfo()
			all := g.paths() // every path below the root, but .git
			if seed%2 == 1 {
				// Track some files, ignored ones among them: git
				// ignores no tracked file, nor a directory holding one.
				var add []string
				for _, p := range all {
					if st, err := os.Lstat(filepath.Join(g.repo, p)); err == nil && !st.IsDir() && g.r.IntN(5) == 0 {
						add = append(add, p)
					}
				}
				run(g.repo, strings.Join(add, "\x00")+"\x00", git, "update-index", "--add", "-z", "--stdin")
			}

			// check-ignore takes its paths for pathspecs, and leaves out
			// one that as a glob matches a tracked file ("[ab]" and a
			// tracked "a"): the rules come from it without the index,
			// and the index from ls-files.
			tracked := map[string]bool{}
			for _, p := range records(run(g.repo, "", git, "ls-files", "-z", "--cached")) {
				for ; p != "."; p = filepath.Dir(p) {
					tracked[p] = true // the file, and the directories holding it
				}
			}
			var ignored []string
			for _, p := range records(run(g.repo, strings.Join(all, "\x00")+"\x00", git,
				"check-ignore", "--no-index", "-z", "--stdin")) {
				if !tracked[p] {
					ignored = append(ignored, p)
				}
			}
			lsIgnored := records(run(g.repo, "", git, "ls-files", "-z", "--others", "--ignored", "--exclude-standard"))
			lsKept := records(run(g.repo, "", git, "ls-files", "-z", "--others", "--cached", "--exclude-standard"))
			t.Logf("git ignores %d of %d paths", len(ignored), len(all))

			got := gfindPaths(run(g.repo, "", gfind, ".", "-gitignored", "-print0"), "./")
			diffLines(t, "-gitignored vs git check-ignore", ignored, got)
			got = gfindPaths(run(g.repo, "", gfind, ".", "-gitignored", "!", "-type", "d", "-print0"), "./")
			diffLines(t, "-gitignored ! -type d vs git ls-files --ignored", lsIgnored, got)
			got = gfindPaths(run(g.repo, "", gfind, "--gitignore", ".", "!", "-type", "d", "-print0"), "./")
			diffLines(t, "--gitignore ! -type d vs git ls-files --others", lsKept, got)
			got = gfindPaths(run(g.repo, "", gfind, "-j1", "--gitignore", ".", "-depth", "!", "-type", "d", "-print0"), "./")
			diffLines(t, "-j1 --gitignore -depth ! -type d vs git ls-files --others", lsKept, got)

			// From a subdirectory, with paths relative to it.
			sub := g.someDir()
			if sub == "" {
				return
			}
			var want []string
			for _, p := range ignored {
				if r, ok := strings.CutPrefix(p, sub+"/"); ok {
					want = append(want, r)
				}
			}
			got = gfindPaths(run(filepath.Join(g.repo, sub), "", gfind, ".", "-mindepth", "1", "-gitignored", "-print0"), "./")
			diffLines(t, "-gitignored in "+sub, want, got)
		})
	}
}

// records splits NUL-terminated records and sorts them.
func records(s string) []string {
	r := splitRecords(s, "\x00")
	slices.Sort(r)
	return r
}

// gfindPaths are gfind's records without prefix, sorted; the starting
// point itself and what is in .git are left out, as git never names them.
func gfindPaths(s, prefix string) []string {
	var out []string
	for _, p := range splitRecords(s, "\x00") {
		p = strings.TrimPrefix(p, prefix)
		if p == "." || p == ".git" || strings.HasPrefix(p, ".git/") {
			continue
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// gitGen makes one random repository.
type gitGen struct {
	t    *testing.T
	r    *rand.Rand
	top  string // holds repo, home and the global configuration
	repo string
	dirs []string // relative to repo, "" for the root
	// files and dirs as made, relative to repo
	entries                 []string
	excludesFile, xdgIgnore bool
}

func newGitGen(t *testing.T, seed uint64) *gitGen {
	top := t.TempDir()
	g := &gitGen{t: t, r: rand.New(rand.NewPCG(seed, 0x61746967)), top: top, repo: filepath.Join(top, "repo")}
	g.excludesFile = seed%3 == 1
	g.xdgIgnore = seed%3 == 2
	return g
}

// gitNames are the names the tree is made of: plain ones, which the
// patterns mostly match, and odd ones for the escapes.
var gitNames = []string{
	"a", "b", "c", "ab", "aab", "foo", "Foo", "bar.o", "x.log", "keep.log", "build", "doc",
	"a b", "#hash", "!bang", "[ab]", "q?", "st*r", "sp ", `back\sl`, "caf\u00e9", ".hid", "-dash", "e[x]", "t\tab",
}

func (g *gitGen) pick(s []string) string { return s[g.r.IntN(len(s))] }

func (g *gitGen) must(err error) {
	g.t.Helper()
	if err != nil {
		g.t.Fatal(err)
	}
}

// build makes the tree, its .gitignore files and links.
func (g *gitGen) build() {
	g.must(os.MkdirAll(g.repo, 0o755))
	g.dirs = []string{""}
	g.fill("", 0)
	// Links: to a directory and to a file (git sees both as files), and
	// one that dangles.
	for i, target := range []string{g.pick(g.dirs), "nowhere"} {
		if target == "" {
			target = "."
		}
		name := []string{"lnk", "dangling"}[i]
		g.must(os.Symlink(target, filepath.Join(g.repo, name)))
		g.entries = append(g.entries, name)
	}
	// .gitignore files in about half the directories, and one that is a
	// link to a file of patterns, which git does not follow.
	for _, d := range g.dirs {
		if d == "" || g.r.IntN(2) == 0 {
			g.writeIgnore(filepath.Join(g.repo, d, ".gitignore"), d)
		}
	}
	pats := filepath.Join(g.repo, "patterns")
	g.writeIgnore(pats, "")
	g.entries = append(g.entries, "patterns")
	for _, d := range g.dirs[1:] {
		p := filepath.Join(g.repo, d, ".gitignore")
		if _, err := os.Lstat(p); err != nil {
			g.must(os.Symlink(pats, p))
			g.entries = append(g.entries, filepath.Join(d, ".gitignore"))
			break
		}
	}
}

// fill makes 3 to 9 entries in dir (relative), a third of them
// directories, down to depth 3.
func (g *gitGen) fill(dir string, depth int) {
	n := 3 + g.r.IntN(7)
	seen := map[string]bool{}
	for range n {
		name := g.pick(gitNames)
		if seen[name] {
			continue
		}
		seen[name] = true
		rel := filepath.Join(dir, name)
		g.entries = append(g.entries, rel)
		if depth < 3 && g.r.IntN(3) == 0 {
			g.must(os.Mkdir(filepath.Join(g.repo, rel), 0o755))
			g.dirs = append(g.dirs, rel)
			g.fill(rel, depth+1)
			continue
		}
		g.must(os.WriteFile(filepath.Join(g.repo, rel), nil, 0o644))
	}
}

// writeIgnore writes a random ignore file at path whose patterns are
// mostly about the paths below dir.
func (g *gitGen) writeIgnore(path, dir string) {
	var below []string
	for _, e := range g.entries {
		if dir == "" {
			below = append(below, e)
		} else if r, ok := strings.CutPrefix(e, dir+"/"); ok {
			below = append(below, r)
		}
	}
	var lines []string
	for range 1 + g.r.IntN(7) {
		lines = append(lines, g.pattern(below))
	}
	eol := "\n"
	if g.r.IntN(6) == 0 {
		eol = "\r\n"
	}
	text := strings.Join(lines, eol)
	if g.r.IntN(2) == 0 {
		text += eol // a last line without its end is read too
	}
	if g.r.IntN(6) == 0 {
		text = "\ufeff" + text
	}
	g.must(os.WriteFile(path, []byte(text), 0o644))
}

// noise are lines that are not about one path.
// The ones that ignore nearly everything ("**", "*/") are in gitWide.
var gitNoise = []string{
	"", "# a comment", "*.o", "!*.o", "*.log", "!keep.log", "build/", "/build", "doc/**", "**/doc",
	"[[:alpha:]]", "[[:digit:][:punct:]]*", "[!a-c]*.?", "a/*/c", "!**/", "?", "\\#hash",
	"\\!bang", "sp\\ ", "sp ", "*[ab]*", "a\\ b", "[[:space:]]*", "t[[:blank:]]ab", "e\\[x]", "st\\*r",
	"**/a/**", "a/**/b", "/a", "!/a", "foo/", "!foo/", "Foo", "a**", "[a", "\\", "b/**/", "!*", "!*/",
}

var gitWide = []string{"*", "**", "***", "*/", "**/*", "*/*/"}

// pattern makes one line: noise, or a pattern made from a path below
// the file's directory: its base name or its whole path (anchored),
// with some bytes escaped or turned into wildcards, "**" around it, a
// trailing '/', a negation.
func (g *gitGen) pattern(below []string) string {
	switch {
	case g.r.IntN(150) == 0:
		return g.pick(gitWide)
	case len(below) == 0 || g.r.IntN(4) == 0:
		return g.pick(gitNoise)
	}
	p := g.pick(below)
	parts := strings.Split(p, "/")
	var s string
	switch g.r.IntN(6) {
	case 0, 1: // the base name, at any depth
		s = g.glob(parts[len(parts)-1])
	case 2: // the whole path, anchored
		for i, c := range parts {
			parts[i] = g.glob(c)
		}
		s = "/" + strings.Join(parts, "/")
	case 3: // anchored by a slash in the middle
		for i, c := range parts {
			parts[i] = g.glob(c)
		}
		s = strings.Join(parts, "/")
		if len(parts) == 1 {
			s = "**/" + s
		}
	case 4: // "**" for the directories
		if len(parts) > 1 {
			s = g.glob(parts[0]) + "/**/" + g.glob(parts[len(parts)-1])
		} else {
			s = "**/" + g.glob(parts[0])
		}
	case 5:
		s = g.glob(parts[0]) + "/**"
	}
	if g.r.IntN(4) == 0 {
		s += "/"
	}
	if g.r.IntN(3) == 0 {
		s = "!" + s
	}
	if g.r.IntN(8) == 0 {
		s += "  " // trailing spaces are trimmed
	}
	return s
}

// glob turns a name into a pattern that matches it (or, now and then,
// one that does not quite): special bytes escaped, a leading '#' or '!'
// escaped, a trailing space escaped (or left to be trimmed), and now and
// then a byte replaced by '?', '*' or a bracket expression.
func (g *gitGen) glob(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case g.r.IntN(8) == 0 && c < 0x80:
			// A short name is not made a lone '*', which would match
			// nearly everything.
			switch g.r.IntN(5) {
			case 1:
				if len(name) <= 2 {
					b.WriteByte('?')
					break
				}
				b.WriteByte('*')
			case 0:
				b.WriteByte('?')
			case 2:
				fmt.Fprintf(&b, "[%c-%c]", max(c-1, ' '), c)
			case 3:
				b.WriteString("[!z]")
			case 4:
				b.WriteString("[[:alnum:]]")
			}
		case strings.IndexByte(`*?[\`, c) >= 0,
			i == 0 && (c == '#' || c == '!'),
			c == ' ' && i == len(name)-1 && g.r.IntN(3) > 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// gitInfo writes .git/info/exclude and the excludes files.
func (g *gitGen) gitInfo() {
	g.must(os.MkdirAll(filepath.Join(g.repo, ".git", "info"), 0o755))
	g.writeIgnore(filepath.Join(g.repo, ".git", "info", "exclude"), "")
	cfg := filepath.Join(g.top, "gitconfig")
	conf := ""
	if g.excludesFile {
		g.writeIgnore(filepath.Join(g.top, "excludes"), "")
		conf = "[core]\n\texcludesFile = " + filepath.Join(g.top, "excludes") + "\n"
	}
	g.must(os.WriteFile(cfg, []byte(conf), 0o644))
	if g.xdgIgnore {
		g.must(os.MkdirAll(filepath.Join(g.top, "xdg", "git"), 0o755))
		g.writeIgnore(filepath.Join(g.top, "xdg", "git", "ignore"), "")
	}
}

// env is the environment of git and gfind: no system configuration, the
// global one and the default excludes file in the test's directory.
func (g *gitGen) env() []string {
	return append(testEnv(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+g.top,
		"GIT_CONFIG_GLOBAL="+filepath.Join(g.top, "gitconfig"),
		"XDG_CONFIG_HOME="+filepath.Join(g.top, "xdg"))
}

// paths returns every path in the repository but .git, relative to it.
func (g *gitGen) paths() []string {
	var out []string
	g.must(filepath.Walk(g.repo, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(g.repo, p)
		switch {
		case rel == ".":
			return nil
		case rel == ".git":
			return filepath.SkipDir
		}
		out = append(out, rel)
		return nil
	}))
	slices.Sort(out)
	return out
}

// someDir returns a directory of the tree below its root, or "".
func (g *gitGen) someDir() string {
	if len(g.dirs) < 2 {
		return ""
	}
	return g.dirs[1+g.r.IntN(len(g.dirs)-1)]
}
