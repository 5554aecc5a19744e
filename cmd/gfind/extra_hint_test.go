package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

// TestTypoHintTerminal runs GNU find and gfind, both called "gfind", on
// a pseudo-terminal (script(1)): with standard error there, gfind shows
// exactly what GNU find shows, then the hint; with standard error
// redirected to a file, the file holds exactly GNU's bytes and the
// terminal nothing more. Off a terminal altogether the rows of gnuCases
// ("Typos") compare stderr with GNU's.
func TestTypoHintTerminal(t *testing.T) {
	if gnuMode() {
		t.Skip("gfind's typo hints")
	}
	gnu := testtool.GNUFind(t)
	scriptBin := testtool.Need(t, "script", "bsdutils")
	gnuDir := t.TempDir() // a "gfind" that is GNU find: GNU names itself by argv[0]
	if err := os.Symlink(gnu, filepath.Join(gnuDir, "gfind")); err != nil {
		t.Fatal(err)
	}
	ownDir := filepath.Dir(gfindBin(t))
	for _, c := range []struct {
		args string
		hint string // "": none
	}{
		{". -nmae x", "did you mean `-name'?"},
		{"-nmae", "did you mean `-name'?"},
		{". --nmae", "did you mean `-name'?"},
		{". -name x -o -tpye f", "did you mean `-type'?"},
		{". -bmin 1", "did you mean `-amin', `-cmin' or `-mmin'?"},
		{". -j4", "`-j4' is a gfind option: it goes before the starting points"},
		{". -j 4", "`-j' is a gfind option: it goes before the starting points"},
		{". --color=always", "`--color=always' is a gfind option: it goes before the starting points"},
		{"--colr=always .", "did you mean `--color=always'?"},
		{". --colr=always", "did you mean `--color=always' (before the starting points)?"},
		{"-P -sort .", "did you mean `--sort'?"},
		{"-- -j4", ""},
		{". -foo", ""},
		{". -x", ""},
		{". -name", ""},       // another error
		{". -newerxx y", ""},  // GNU: invalid predicate
		{". -name a b", ""},   // paths must precede expression
		{". -maxdepth 0", ""}, // no error
	} {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := shellWords(c.args)
			run := func(bin, redirect string) (string, int) {
				env := append(testEnv(), "PATH="+bin+":"+os.Getenv("PATH"))
				return onTerminal(t, scriptBin, dir, env, "exec "+shellLine("gfind", args)+redirect)
			}
			tail := ""
			if c.hint != "" {
				tail = "gfind: " + c.hint + "\r\n"
			}
			for _, redirect := range []string{"", " >/dev/null"} {
				want, wantCode := run(gnuDir, redirect)
				got, code := run(ownDir, redirect)
				if got != want+tail || code != wantCode {
					t.Errorf("stderr on the terminal%s:\nGNU find (exit status %d):\n%q\nwant it and the hint:\n%q\ngfind (exit status %d):\n%q",
						redirect, wantCode, want, tail, code, got)
				}
			}
			want, wantCode := run(gnuDir, " 2>gnu.err")
			got, code := run(ownDir, " 2>gfind.err")
			wantErr, err1 := os.ReadFile(filepath.Join(dir, "gnu.err"))
			gotErr, err2 := os.ReadFile(filepath.Join(dir, "gfind.err"))
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if got != want || code != wantCode || string(gotErr) != string(wantErr) {
				t.Errorf("stderr to a file: GNU find exit status %d, stderr %q, terminal %q; gfind exit status %d, stderr %q, terminal %q",
					wantCode, wantErr, want, code, gotErr, got)
			}
		})
	}
}
