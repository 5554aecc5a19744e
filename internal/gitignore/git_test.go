package gitignore

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

// TestWildmatchAgainstGit asks git about random patterns made of
// wildmatch's pieces (stars, "**", '?', brackets with ranges, negations,
// classes and escapes, malformed ones too) and random paths over a small
// alphabet that the pieces match: each pattern, anchored with a leading
// '/' (wildmatch with WM_PATHNAME) or not (base names), is the only line
// of a .gitignore, and "git check-ignore --no-index --stdin" says which
// of the paths (which need not exist) it ignores: the path itself, or a
// directory above it, as with ignoredIn.
func TestWildmatchAgainstGit(t *testing.T) {
	git, ok := testtool.Want(t, "git", "git")
	if !ok {
		return
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "r")
	env := gitEnv(dir)
	gitRun := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = repo, env, strings.NewReader(stdin)
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
			t.Fatalf("git %q: %v %s", args, err, ee.Stderr)
		}
		return string(out)
	}
	if err := os.Mkdir(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	gitRun("", "init", "-q")
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		pat := randPattern(r)
		if i%2 == 0 {
			pat = "/" + pat
		}
		var paths []string
		for range 40 {
			paths = append(paths, randPath(r, i%2 == 0))
		}
		slices.Sort(paths)
		paths = slices.Compact(paths)
		if err := os.WriteFile(filepath.Join(repo, ".gitignore"), []byte(pat+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, p := range strings.Split(gitRun(strings.Join(paths, "\x00")+"\x00", "check-ignore", "--no-index", "-z", "--stdin"), "\x00") {
			if p != "" {
				want = append(want, p)
			}
		}
		files := map[string]string{"": pat}
		var got []string
		for _, p := range paths {
			if ignoredIn(files, p, false) {
				got = append(got, p)
			}
		}
		if !slices.Equal(want, got) {
			t.Errorf("pattern %q: git ignores %q, we %q", pat, want, got)
		}
	}
}

// patternPieces are what randPattern joins.
var patternPieces = []string{
	"a", "b", "c", "a", "b", "-", "]", "!", "^", ":", "/", "/", "*", "*", "**", "**/", "/**", "?",
	"[a-c]", "[!b]", "[^a]", "[]a]", "[a-]", "[[:alpha:]]", "[[:digit:]x]", "[[:punct:]]", "[[:foo:]]",
	`\*`, `\[`, `\\`, `\a`, "[a", "[\\]]", "[[]", "[b-a]", "[--/]", "[!]]", "[[:]",
}

func randPattern(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(5) {
		b.WriteString(patternPieces[r.IntN(len(patternPieces))])
	}
	s := strings.TrimRight(b.String(), "/")
	if s == "" || s[0] == '#' || s[0] == '!' {
		s = "a" + s
	}
	return s
}

// randPath makes a path of 1 to 3 components (1 for base names) over
// bytes the pieces match.
func randPath(r *rand.Rand, deep bool) string {
	const alphabet = "abcabcx1-]![*\\^" // no ":", which starts a pathspec's magic
	n := 1
	if deep {
		n = 1 + r.IntN(3)
	}
	var parts []string
	for range n {
		var b strings.Builder
		for range 1 + r.IntN(3) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		parts = append(parts, b.String())
	}
	return fmt.Sprint(strings.Join(parts, "/"))
}
