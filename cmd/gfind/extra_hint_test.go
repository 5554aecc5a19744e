package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/predicate"
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
		{". -bmin 1", "did you mean `-cmin' or `-mmin'?"},
		{". -nsmr x", "did you mean `-name'?"},
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

// bfsTypos are typos of names bfs and gfind share, each one or more keys
// off (bfs weighs a typo by the keyboard: typo.c), a letter missing or
// extra, or a transposition bfs also gets right. gfind must suggest what
// bfs 4.1 suggests.
var bfsTypos = []string{
	// Every wrong key next to the right one.
	"-nsmr", "-rupe", "-tyoe", "-typr", "-namw", "-bame", "-mame", "-prinr", "-oruint",
	"-prijt", "-delere", "-exwc", "-exex", "-mzxdepth", "-maxdepyh", "-mindeprh", "-inamr",
	"-pqth", "-lnamr", "-regez", "-emptu", "-sizw", "-perk", "-newet", "-uswr", "-grouo",
	"-mtimr", "-amim", "-xtypr", "-printg", "-fprimt", "-quir", "-prunw", "-follpw", "-depyh",
	"-execdur", "-wholenane", "-samefike", "-readablw", "-writabke", "-executabke", "-inim",
	"-linka", "-ipatj", "-iregez", "-regextupe", "-printo", "-nouaer", "-nogrouo", "-falsr",
	"-trie", "-dayatart", "-ignore_readdir_racr", "-xdeb", "-okdie", "-fstyoe",
	// bfs's extras.
	"-hiddem", "-uniqie", "-statis", "-limir", "-noerrot", "-exclkde", "-nohiddem", "-xattt",
	// Letters missing, extra or swapped.
	"-nmae", "-nam", "-printff", "-exce", "-delte", "-maxdpeth", "-nto", "-dept", "-emtpy",
	"-noleaf2", "-mount2", "-ls2", "-colr", "--versoin",
}

// bfsTypoDifferences are the words for which gfind suggests another
// name than bfs, on purpose, with what each says ("" for no hint).
var bfsTypoDifferences = []struct{ word, bfs, gfind string }{
	// A transposition is one slip for gfind; bfs counts two wrong keys,
	// and finds a nearer name with two keys less far off.
	{"-tpye", "-true", "-type"},
	{"-prnit", "-limit", "-print"},
	// Dashes are not letters typed wrong: bfs weighs them as keys.
	{"--name", "-lname", "-name"},
	// bfs suggests a name for any word; gfind only for one close enough,
	// and not for a word of one or two letters.
	{"-ld", "-ls", ""},
	{"-foo", "-ok", ""},
	{"-hello", "-help", ""},
	{"-xyzzy", "-size", ""},
}

// bfsMeantRe is bfs's hint, in its message about an unknown argument.
var bfsMeantRe = regexp.MustCompile(`did you mean (\S+)\?`)

// TestTypoHintAgainstBFS asks bfs 4.1 what it suggests for each of
// bfsTypos and compares gfind's hint (the one shown on a terminal, after
// the starting points) with it; bfsTypoDifferences are checked to stay
// what they are on both sides.
func TestTypoHintAgainstBFS(t *testing.T) {
	if gnuMode() {
		t.Skip("gfind's typo hints")
	}
	bfs := testtool.BFS4(t)
	dir := t.TempDir()
	flags := ownFlags()
	cands := hintCandidates(predicate.Primaries(), flags)
	bfsMeant := func(word string) string {
		t.Helper()
		r := runFind(t, dir, false, bfs, "bfs", []string{".", word})
		m := bfsMeantRe.FindStringSubmatch(r.stderr)
		if r.code != 1 || m == nil {
			t.Fatalf("bfs . %s: exit status %d, stderr %q: no hint", word, r.code, r.stderr)
		}
		return m[1]
	}
	hint := func(name string) string {
		if name == "" {
			return ""
		}
		return "did you mean `" + name + "'?"
	}
	for _, word := range bfsTypos {
		want := hint(bfsMeant(word))
		if got := typoHint(word, false, flags, cands); got != want {
			t.Errorf("%s: gfind %q, bfs %q", word, got, want)
		}
	}
	for _, c := range bfsTypoDifferences {
		if b := bfsMeant(c.word); b != c.bfs {
			t.Errorf("%s: bfs suggests %s, this test expects %s of bfs 4.1", c.word, b, c.bfs)
		}
		if got, want := typoHint(c.word, false, flags, cands), hint(c.gfind); got != want {
			t.Errorf("%s: gfind %q, want %q (bfs: %s)", c.word, got, want, c.bfs)
		}
	}
}
