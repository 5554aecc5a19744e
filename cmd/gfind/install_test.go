package main

// The install step (the Makefile at the module's root), tested as a
// packager and then a user meet it: make install into a DESTDIR, then
// each file where the conventions put it, the binary's version, and the
// man page and completions found by man and the three shells from
// there, not from the source tree.

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
)

// makeRun runs make in the module's root with args, failing t if it
// fails or takes more than five minutes (it builds gfind).
func makeRun(t *testing.T, args ...string) {
	t.Helper()
	mk := testtool.Need(t, "make", "make")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, mk, append([]string{"-s", "-C", mustAbs(t, "../..")}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make %q: %v\n%s", args, err, out)
	}
}

// installed lists the regular files and links under dest, relative.
func installed(t *testing.T, dest string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dest, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dest, p)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

// TestMakeInstall: make install with PREFIX, DESTDIR and VERSION puts
// the binary, the man page and the completions where GNU's conventions
// and the shells look; gfind --version names the stamped version and
// the commit git says the tree is at; man finds the page under the
// prefix and renders it without a warning; bash (bash-completion's
// loader, XDG_DATA_DIRS), zsh (compinit, fpath) and fish (its vendor
// directories, XDG_DATA_DIRS) load the completions from there and
// complete with them; make uninstall leaves no file behind.
func TestMakeInstall(t *testing.T) {
	dest := t.TempDir()
	bin := filepath.Join(t.TempDir(), "gfind")
	// Not /usr/local, the default: the prefix must be honoured.
	const prefix, version = "/opt/gfind-test", "9.8.7-test"
	vars := []string{"DESTDIR=" + dest, "PREFIX=" + prefix, "BIN=" + bin}
	makeRun(t, append([]string{"install", "VERSION=" + version}, vars...)...)

	want := []string{
		"opt/gfind-test/bin/gfind",
		"opt/gfind-test/share/bash-completion/completions/gfind",
		"opt/gfind-test/share/fish/vendor_completions.d/gfind.fish",
		"opt/gfind-test/share/man/man1/gfind.1",
		"opt/gfind-test/share/zsh/site-functions/_gfind",
	}
	if got := installed(t, dest); !slices.Equal(got, want) {
		t.Fatalf("installed %q, want %q", got, want)
	}
	for _, f := range want {
		fi, err := os.Stat(filepath.Join(dest, f))
		if err != nil {
			t.Fatal(err)
		}
		mode := fs.FileMode(0o644)
		if strings.HasSuffix(f, "/bin/gfind") {
			mode = 0o755
		}
		if fi.Mode() != mode {
			t.Errorf("%s: mode %v, want %v", f, fi.Mode(), mode)
		}
	}
	root := filepath.Join(dest, prefix)
	share := filepath.Join(root, "share")

	// The version, and the commit from git, the oracle.
	out, err := exec.Command(filepath.Join(root, "bin/gfind"), "--version").Output()
	if err != nil {
		t.Fatalf("installed gfind --version: %v", err)
	}
	ver := string(out)
	if first, _, _ := strings.Cut(ver, "\n"); first != "gfind "+version {
		t.Errorf("installed gfind --version begins %q, want %q", first, "gfind "+version)
	}
	git := testtool.Need(t, "git", "git")
	head, err := exec.Command(git, "-C", mustAbs(t, "../.."), "rev-parse", "HEAD").Output()
	if err != nil {
		t.Logf("not a git clone (%v): the revision is not checked", err)
	} else {
		status, err := exec.Command(git, "-C", mustAbs(t, "../.."), "status", "--porcelain").Output()
		if err != nil {
			t.Fatal(err)
		}
		rev := "Revision: " + strings.TrimSpace(string(head))
		if len(status) > 0 {
			rev += " (modified)"
		}
		if !slices.Contains(strings.Split(ver, "\n"), rev) {
			t.Errorf("installed gfind --version has no line %q:\n%s", rev, ver)
		}
	}

	// man: found under the prefix's man directory, rendered clean, the
	// version in its footer.
	manDir := filepath.Join(share, "man")
	where, _ := render(t, ".", nil, "man", "-M", manDir, "-w", "gfind")
	if got, want := strings.TrimSpace(where), filepath.Join(manDir, "man1/gfind.1"); got != want {
		t.Errorf("man -M %s -w gfind = %q, want %q", manDir, got, want)
	}
	page, errs := render(t, ".", []string{"MANWIDTH=80", "MANPAGER=cat", "PAGER=cat", "LC_ALL=C.UTF-8"},
		"man", "--warnings", "-M", manDir, "gfind")
	if errs != "" {
		t.Errorf("man --warnings gfind reports:\n%s", errs)
	}
	if !strings.Contains(page, "gfind "+version) {
		t.Errorf("the installed man page does not name version %s", version)
	}

	// The shells, each loading from the installed tree.
	dir := complTree(t)
	const line = "gfind --col"
	path := "PATH=" + filepath.Join(root, "bin") + ":" + os.Getenv("PATH")
	loader := "/usr/share/bash-completion/bash_completion"
	if _, err := os.Stat(loader); err != nil {
		testtool.Missing(t, "bash-completion's loader", "bash-completion", err)
	}
	home := t.TempDir()
	// bash-completion 2.12 renamed the loader _comp_load.
	load := `source ` + loader + ` || exit 1
if declare -F _comp_load >/dev/null; then _comp_load gfind; else __load_completion gfind; fi || exit 1
complete -p gfind | grep -q -- '-F _gfind' || exit 1`
	bashEnv := []string{path, "XDG_DATA_DIRS=" + share, "HOME=" + home, "XDG_DATA_HOME=" + home, "BASH_COMPLETION_USER_DIR=" + home}
	if got := bashCompleteWith(t, dir, bashEnv, load, line); !slices.Contains(got, "--color") {
		t.Errorf("bash, through bash-completion's loader: %q offers %q, no --color", line, got)
	}
	zdir := filepath.Join(share, "zsh/site-functions")
	if got := zshCompleteFrom(t, dir, zdir, []string{line}); !slices.Contains(got[0], "--color") {
		t.Errorf("zsh, %s in fpath: %q offers %q, no --color", zdir, line, got[0])
	}
	// fish finds a command's completions by its name, for a command on
	// PATH, in its completion path, which its own configuration makes
	// from XDG_DATA_DIRS (so not --no-config).
	got := fishCompleteWith(t, dir, []string{path, "XDG_DATA_DIRS=" + share}, []string{"-c", `complete -C $argv[1]`, line})
	if !slices.Contains(got, "--color") {
		t.Errorf("fish, XDG_DATA_DIRS=%s: %q offers %q, no --color", share, line, got)
	}

	makeRun(t, append([]string{"uninstall"}, vars...)...)
	if left := installed(t, dest); len(left) > 0 {
		t.Errorf("make uninstall left %q", left)
	}

	// Without VERSION the man page's footer takes the version the
	// built binary reports (this one, not a gfind on PATH).
	dest2 := t.TempDir()
	makeRun(t, "install", "DESTDIR="+dest2, "PREFIX="+prefix, "BIN="+bin)
	out, err = exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	man, err := os.ReadFile(filepath.Join(dest2, prefix, "share/man/man1/gfind.1"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(man), `"`+first+`"`) {
		t.Errorf("without VERSION, the installed man page's footer is not %q", first)
	}
}
