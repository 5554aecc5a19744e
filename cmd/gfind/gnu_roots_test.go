package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"

	"github.com/gfind/gfind/internal/testtree"
)

// The differential test of odd starting points: names made only of
// slashes ("/", "//", "///"), names with doubled or trailing slashes,
// and the starting points -files0-from reads (empty names, a missing
// final NUL, unreadable and missing lists, standard input). With -j1
// standard error must be GNU's line for line, not only sorted: GNU reads
// -files0-from's list one name at a time, and says what is wrong with a
// name when it reaches it, between the output of the names before and
// after it.

// A rootCase is one command: args as for gnuCase, with ROOT replaced by
// the tree's absolute path (so "/ROOT" is "//tmp/..."; the path is
// put back as ROOT in what the programs print), and stdin given
// to both programs (empty: /dev/null), or stdinFile, a file of the
// tree standard input is redirected from. gnu411 is as for gnuCase.
type rootCase struct {
	args       string
	stdin      string
	stdinFile  string
	serialOnly bool
	nobody     bool
	gnu411     *gnu411
}

// okSameStdin is GNU 4.11's refusal of a -files0-from list that is
// standard input under another name (GNU compares the device and inode
// of the two), with -ok or -okdir; 4.9 words it otherwise.
func okSameStdin(list string) *gnu411 {
	return &gnu411{
		stderr: []string{"find: when -ok or -okdir is in use, the option -files0-from cannot also read from standard input, but the file ('" + list + "') used for -files0-from appears to refer to the same file as the standard input"},
		code:   1,
	}
}

// rootLists are the -files0-from lists, made in the tree's lists/
// directory. Their names are relative to the tree's root.
var rootLists = map[string]string{
	"nul":       "\x00",
	"nul2":      "\x00\x00",
	"mid":       "basic/x.go\x00\x00basic/y.go\x00",
	"many":      "basic/x.go\x00\x00\x00basic/a\x00\x00",
	"first":     "\x00basic/x.go",
	"noend":     "basic/x.go\x00basic/y.go", // the last name without its NUL
	"empty":     "",
	"newline":   "basic/x.go\n\x00basic/y.go\x00\n",
	"expr":      "-name\x00(\x00!\x00,\x00)\x00-\x00basic/x.go\x00",
	"links":     "links/to_dir\x00links/dangling\x00links/loop\x00links/to_file\x00links/to_dir/\x00",
	"slashes":   "/\x00//\x00///\x00",
	"roots":     "basic//\x00.//\x00basic///a\x00basic//a//\x00./basic/./a/\x00",
	"nosuch":    "nosuch\x00basic/x.go\x00\x00nosuch/\x00",
	"dirs":      "basic/a\x00basic/empty\x00",
	"secret":    "basic/x.go\x00", // mode 0600: nobody cannot read it
	"odd name":  "basic/x.go\x00\x00",
	"new\nline": "\x00basic/y.go\x00\x00",
	// GNU 4.9 names the list, in the message about an empty name, by
	// the file the latest diagnostic before it named (see output's
	// slot0); a name of 256 bytes or more quoted leaves its first 256
	// there for good.
	"after":  "nosuch1\x00\x00basic/x.go\x00\x00",
	"long":   strings.Repeat("n", 300) + "\x00\x00nosuch2\x00\x00",
	"fits":   strings.Repeat("n", 253) + "\x00\x00nosuch2\x00\x00",
	"full":   strings.Repeat("n", 254) + "\x00\x00nosuch2\x00\x00",
	"loop":   "loopd\x00\x00",
	"locked": "locked\x00\x00basic/x.go\x00\x00",
	"yes":    "y\ny\ny\n", // answers to -ok
}

var gnuRootCases = []rootCase{
	// Starting points made only of slashes: every directive that shows
	// a path or a part of one, and every action.
	{args: `/ // /// //// -maxdepth 0 -printf [%p][%h][%f][%P][%H][%d][%y][%Y][%l]\n`},
	{args: `/ // /// -maxdepth 1 -name tmp -printf [%p][%h][%f][%P][%H][%d][%y]\n`},
	{args: `// -maxdepth 0 -execdir echo {} ;`},
	{args: `/// -maxdepth 0 -execdir echo {} ;`},
	{args: `/ // /// -maxdepth 0 -execdir pwd ;`},
	{args: `// /// -maxdepth 0 -execdir printf [%s]\n {} +`},
	{args: `// -maxdepth 0 -execdir echo x{}y {}{} ;`},
	{args: `/// -maxdepth 1 -name tmp -execdir echo {} ;`},
	{args: `/// -maxdepth 1 -name tmp -execdir pwd ;`},
	{args: `// /// -maxdepth 0 -exec echo {} ;`},
	{args: `// /// -maxdepth 0 -exec printf [%s]\n {} +`},
	{args: `// /// -maxdepth 0 -print -print0 -fprint /dev/stdout`},
	{args: `// /// -maxdepth 0 -ls`},
	{args: `// /// -maxdepth 0 -name / -printf n%p\n -o -printf o%p\n`},
	{args: `// /// -maxdepth 0 -name // -printf n%p\n -o -printf o%p\n`},
	{args: `// /// -maxdepth 0 -name * -printf n%p\n`},
	{args: `// /// -maxdepth 0 -path // -printf n%p\n`},
	{args: `// /// -maxdepth 0 -path /// -printf n%p\n`},
	{args: `// -maxdepth 0 -path / -printf n%p\n`}, // warns: ends with '/'
	{args: `// -maxdepth 0 -regex //? -printf r%p\n`},
	{args: `// /// -prune`},
	{args: `// -maxdepth 1 -name tmp -prune -printf %p\n`},
	{args: `-H // -maxdepth 0 -printf '%p %y %Y\n'`},
	{args: `-L /// -maxdepth 0 -execdir echo {} ;`},
	{args: `// -maxdepth 0 -ok echo {} ;`, stdin: "y\n", serialOnly: true},
	{args: `/// -maxdepth 0 -okdir pwd ;`, stdin: "y\n", serialOnly: true},
	{args: `// /// -maxdepth 0 -okdir echo {} ;`, stdin: "n\ny\n", serialOnly: true},
	// Their neighbours: doubled and trailing slashes elsewhere.
	{args: `.// basic// basic/// basic///a basic//a// ./basic/./a/ /ROOT/basic -printf [%p][%h][%f][%P][%H][%d]\n`},
	{args: `./basic/a/ basic//a basic/a/b/ ./basic/a -printf [%p][%H][%P]\n`}, // overlapping starting points
	{args: `./basic/a/ basic//a basic/a/b/ ./basic/a -depth -printf [%p][%H][%P]\n`},
	{args: `.// -maxdepth 1 -execdir echo {} ;`},
	{args: `basic// -name a -execdir echo {} ;`},
	{args: `basic// basic/// basic///a basic//a// links/to_dir// -maxdepth 0 -execdir echo {} ;`},
	{args: `basic// basic//a// /ROOT/basic//a -maxdepth 0 -execdir pwd ;`},
	{args: `basic// basic//a// -maxdepth 0 -execdir printf [%s]\n {} +`},
	{args: `-L links/to_dir// -maxdepth 0 -execdir echo {} ;`},
	{args: `basic// basic/a// basic//x.go -maxdepth 0 -name a* -printf n%p\n`},
	{args: `basic// basic/a// -maxdepth 0 -path basic//* -printf n%p\n`},
	{args: `basic/a// -name b -prune -o -printf %p\n`},
	{args: `basic/a// basic//x.go/ -maxdepth 0 -ls`},
	{args: `basic/a// -ok echo {} ;`, stdin: "y\nn\ny\n", serialOnly: true},
	{args: `basic/a// -okdir echo {} ;`, stdin: "y\ny\nn\ny\n", serialOnly: true},

	// -files0-from: empty names, wherever they are.
	{args: `-files0-from lists/nul`},
	{args: `-files0-from lists/nul2`},
	{args: `-files0-from lists/mid`},
	{args: `-files0-from lists/many`},
	{args: `-files0-from lists/first`},
	{args: `-files0-from lists/noend`},
	{args: `-files0-from lists/empty`},
	{args: `-files0-from lists/newline`},
	{args: `-files0-from 'lists/odd name'`},
	{args: "-files0-from 'lists/new\nline'"},
	{args: `-files0-from - -maxdepth 0`, stdin: "\x00"},
	{args: `-files0-from - -maxdepth 0`, stdin: "basic/x.go\x00\x00basic\x00\x00"},
	{args: `-files0-from - -maxdepth 0`, stdin: "basic/x.go"},
	{args: `-files0-from -`}, // empty standard input: no starting point at all
	{args: `-files0-from /dev/null -print`},
	// Names that look like options or operators, links under -P, -H, -L.
	{args: `-files0-from lists/expr -maxdepth 0`},
	{args: `-files0-from lists/links -printf '%p %y %Y\n'`},
	{args: `-H -files0-from lists/links -printf '%p %y %Y\n'`},
	{args: `-L -files0-from lists/links -printf '%p %y %Y\n'`},
	{args: `-files0-from lists/slashes -maxdepth 0 -execdir echo {} ;`},
	{args: `-files0-from lists/roots -maxdepth 1 -printf [%p][%h][%f][%P][%H]\n`},
	{args: `-files0-from lists/roots -depth -printf [%p][%H][%P]\n`},
	{args: `-files0-from lists/nosuch`},
	{args: `-files0-from lists/dirs -mindepth 1 -execdir echo {} ;`},
	{args: `-files0-from lists/dirs -mindepth 1 -execdir echo {} +`, serialOnly: true},
	// Which name the message about an empty name shows.
	{args: `-files0-from lists/after`},
	{args: `-files0-from lists/long`},
	{args: `-files0-from lists/fits`},
	{args: `-files0-from lists/full`},
	// With several workers, the latest diagnostic before the empty name
	// is the one of any file walked by then.
	{args: `-L -files0-from lists/loop`, serialOnly: true},
	{args: `-files0-from lists/locked`, nobody: true, serialOnly: true},
	{args: `-files0-from lists/after -fprint /nonexistent/x`},
	// The list itself: missing, a directory, unreadable, given twice.
	{args: `-files0-from nosuch`},
	{args: `-files0-from ''`},
	{args: `-files0-from basic`},
	{args: `-files0-from basic -print`},
	{args: `-files0-from /proc/self/mem`},
	{args: `-files0-from lists/secret`, nobody: true},
	{args: `-files0-from lists/mid -files0-from lists/noend`},
	{args: `-files0-from lists/mid -files0-from nosuch`},
	{args: `-files0-from nosuch -files0-from lists/mid`},
	{args: `-files0-from lists/mid -files0-from ''`},
	{args: `-files0-from nosuch -foo`}, // the expression is parsed first
	{args: `-files0-from basic -fprint /nonexistent/x`},
	// With starting points on the command line.
	{args: `basic -files0-from lists/mid`},
	{args: `basic links -files0-from nosuch -print`},
	{args: `-files0-from lists/mid basic`},
	// Where the option stands: it adds nothing to the expression (unlike
	// -maxdepth, a test that is always true), and renames the operator
	// before it in GNU's messages.
	{args: `-files0-from lists/mid -name x.go -o -files0-from lists/mid`},
	{args: `-files0-from lists/mid -print -o -files0-from lists/mid`},
	{args: `-files0-from lists/mid -print , -files0-from lists/mid`},
	{args: `! -files0-from lists/mid -print`},
	{args: `! -files0-from lists/mid -name x.go`},
	{args: `( -files0-from lists/mid )`},
	{args: `-files0-from lists/mid ( -files0-from lists/mid )`},
	{args: `-files0-from lists/mid ( -files0-from lists/mid`},
	{args: `-files0-from lists/mid -a`},
	{args: `-files0-from lists/mid -name x.go -files0-from lists/mid -o -print`},
	{args: `-files0-from lists/mid -maxdepth 0 -o -print`},
	{args: `-files0-from lists/mid -files0-from lists/mid`},
	{args: `-files0-from lists/mid nosuch`},
	{args: `-files0-from`},
	// -quit: the rest of the list is not read.
	{args: `-files0-from lists/mid -quit`},
	{args: `-files0-from lists/mid -name y.go -print -quit`},
	{args: `-files0-from - -name x.go -quit`, stdin: "basic/x.go\x00\x00"},
	// -ok and -okdir: answers from standard input, which -files0-from -
	// cannot share.
	{args: `-files0-from lists/mid -ok echo {} ;`, stdin: "y\ny\n", serialOnly: true},
	{args: `-files0-from lists/many -okdir echo {} ;`, stdin: "y\nn\ny\ny\n", serialOnly: true},
	{args: `-files0-from - -files0-from lists/mid -ok echo {} ;`, stdin: "y\ny\n", serialOnly: true},
	{args: `-files0-from - -exec echo {} ;`, stdin: "basic/x.go\x00"},
	// GNU 4.10 and 4.11 word the refusal otherwise than 4.9 (above), and
	// refuse a list that is standard input under another name.
	{args: `-files0-from /dev/null -okdir echo {} ;`, gnu411: okSameStdin("/dev/null")},
	{args: `-files0-from - -ok echo {} ; -foo`, stdin: "basic/x.go\x00"},
	// Nor can a list that is standard input under another name: the
	// file standard input is redirected from, by its name or through a
	// link, /dev/stdin, /proc/self/fd/0. Nothing is run.
	{args: `-files0-from lists/mid -ok echo {} ;`, stdinFile: "lists/mid", gnu411: okSameStdin("lists/mid")},
	{args: `-files0-from lists/mid -okdir echo {} ;`, stdinFile: "lists/mid", gnu411: okSameStdin("lists/mid")},
	{args: `-files0-from lists/to_mid -ok echo {} ;`, stdinFile: "lists/mid", gnu411: okSameStdin("lists/to_mid")},
	{args: `-files0-from lists/mid -ok echo {} ;`, stdinFile: "lists/to_mid", gnu411: okSameStdin("lists/mid")},
	{args: `-files0-from lists/mid_hard -okdir echo {} ;`, stdinFile: "lists/mid", gnu411: okSameStdin("lists/mid_hard")},
	{args: `-files0-from ROOT/lists/mid -ok echo {} ;`, stdinFile: "lists/mid", gnu411: okSameStdin("ROOT/lists/mid")},
	{args: `-files0-from /dev/stdin -ok echo {} ;`, stdinFile: "lists/mid", gnu411: okSameStdin("/dev/stdin")},
	{args: `-files0-from /dev/stdin -ok echo {} ;`, stdin: "basic/x.go\x00", gnu411: okSameStdin("/dev/stdin")}, // a pipe
	{args: `-files0-from /proc/self/fd/0 -okdir echo {} ;`, stdin: "basic/x.go\x00", gnu411: okSameStdin("/proc/self/fd/0")},
	{args: `-files0-from - -files0-from lists/mid -ok echo {} ;`, stdinFile: "lists/mid", gnu411: okSameStdin("lists/mid")},
	{args: `-files0-from lists/mid -print -ok echo {} ; -print`, stdinFile: "lists/mid", gnu411: okSameStdin("lists/mid")},
	{args: `-files0-from lists/mid -false -ok echo {} ;`, stdinFile: "lists/mid", gnu411: okSameStdin("lists/mid")}, // an -ok never reached counts
	{args: "-files0-from 'lists/new\nline' -ok echo {} ;", stdinFile: "lists/new\nline", gnu411: okSameStdin(`lists/new\nline`)},
	// What GNU finds wrong first.
	{args: `-files0-from nosuch -ok echo {} ;`, stdinFile: "lists/mid"},
	{args: `-files0-from lists/mid -ok echo {} ; )`, stdinFile: "lists/mid"},
	{args: `-files0-from lists/mid -ok echo {} ; -foo`, stdinFile: "lists/mid"},
	{args: `-files0-from lists/mid -ok echo {} ; -o`, stdinFile: "lists/mid"},
	{args: `basic -files0-from lists/mid -ok echo {} ;`, stdinFile: "lists/mid"},
	// Without -ok the list may be standard input; and with it, another
	// file may be: -ok reads its answers from that.
	{args: `-files0-from lists/mid -exec echo {} ;`, stdinFile: "lists/mid"},
	{args: `-files0-from /dev/stdin -print`, stdinFile: "lists/mid"},
	{args: `-files0-from /dev/stdin -print`, stdin: "basic/x.go\x00"},
	{args: `-files0-from lists/mid -ok echo {} ;`, stdinFile: "lists/yes", serialOnly: true},
	{args: `-files0-from lists/to_mid -okdir echo {} ;`, stdinFile: "lists/yes", serialOnly: true},
	// A ")" with nothing before it: -files0-from inserts no predicate.
	{args: `-files0-from - )`, stdin: "basic/x.go\x00"},
	{args: `-files0-from - ) -print`, stdin: "basic/x.go\x00"},
	{args: `-files0-from lists/mid )`},
	{args: `-files0-from lists/mid ) ( -print`},
	{args: `-files0-from lists/mid ) -o -print`},
	{args: `-files0-from lists/mid -files0-from lists/mid )`},
	{args: `-files0-from lists/mid -depth )`},
	{args: `-files0-from - -print )`, stdin: "basic/x.go\x00"},
	{args: `-files0-from - (`, stdin: "basic/x.go\x00"},
	{args: `-files0-from - ( -print`, stdin: "basic/x.go\x00"},
	{args: `-files0-from - ( )`, stdin: "basic/x.go\x00"},
	{args: `-files0-from - ! )`, stdin: "basic/x.go\x00"},
	{args: `-files0-from - , )`, stdin: "basic/x.go\x00"},
	{args: `-files0-from - ) -ok echo {} ;`, stdin: "basic/x.go\x00"},
	// Nor does -daystart.
	{args: `basic -daystart )`},
	{args: `basic -daystart ) -print`},
	{args: `basic -daystart -daystart ) (`},
	{args: `basic -daystart -o -print`},
	{args: `basic -daystart , -print`},
	{args: `basic -daystart -a -print`},
	{args: `basic -daystart -a )`},
	{args: `basic -daystart -maxdepth 0 )`},
	{args: `basic -print -daystart -o`},
	{args: `basic -print -daystart basic`}, // "after predicate `-daystart'"
	{args: `basic -daystart -maxdepth 1`},
	{args: `basic ( -daystart ) -maxdepth 1`},
}

// makeRootsTree builds Basic and Links, the -files0-from lists, and
// locked/, a directory only root may read, and loopd/self -> ., a loop
// under -L.
func makeRootsTree(t *testing.T) string {
	t.Helper()
	root := testtree.Make(t, testtree.Basic, testtree.Links)
	lists := filepath.Join(root, "lists")
	for _, err := range []error{
		os.Mkdir(lists, 0o755),
		os.Mkdir(filepath.Join(root, "locked"), 0o700),
		os.WriteFile(filepath.Join(root, "locked/f"), nil, 0o644),
		os.Mkdir(filepath.Join(root, "loopd"), 0o755),
		os.Symlink(".", filepath.Join(root, "loopd/self")),
		os.Symlink("mid", filepath.Join(lists, "to_mid")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range rootLists {
		mode := os.FileMode(0o644)
		if name == "secret" {
			mode = 0o600
		}
		if err := os.WriteFile(filepath.Join(lists, name), []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(lists, name), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(lists, "mid"), filepath.Join(lists, "mid_hard")); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestRootsAgainstGNU(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := makeRootsTree(t)
	for _, c := range gnuRootCases {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			var args []string
			for _, a := range shellWords(c.args) {
				args = append(args, strings.ReplaceAll(a, "ROOT", root))
			}
			run := func(prog, name string, args []string) findResult {
				r := runProg(t, runOpts{dir: root, env: execEnv(), stdin: c.stdin, stdinFile: c.stdinFile, nobody: c.nobody}, prog, name, args)
				r.stdout = strings.ReplaceAll(r.stdout, root, "ROOT")
				r.stderr = strings.ReplaceAll(r.stderr, root, "ROOT")
				// Messages follow -ok's prompts on their lines.
				r.stderr = strings.ReplaceAll(r.stderr, "gfind: ", "find: ")
				return r
			}
			want := run(gnu, "find", args)
			t.Logf("GNU find: stdout %q, stderr %q, exit status %d", want.stdout, want.stderr, want.code)
			if c.gnu411 != nil {
				want = want411(t, want, c.gnu411)
			}
			if !c.serialOnly {
				compare(t, "sorted", want, run(gfind, "gfind", args), true)
			}
			got := run(gfind, "gfind", append([]string{"-j1"}, args...))
			compare(t, "-j1", want, got, false)
			// Messages in GNU's order.
			if want.stderr != got.stderr {
				t.Errorf("-j1: stderr %q, GNU find %q", got.stderr, want.stderr)
			}
		})
	}
}
