package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
	"golang.org/x/sys/unix"
)

// gnuLinksCases run in the tree makeLinksTree builds: -lname, -ilname
// and -xtype under -P, -L and -H, -regex and -iregex in several
// -regextype syntaxes, and -fstype on a few mounts.
var gnuLinksCases = []gnuCase{
	// -lname, -ilname: fnmatch on the target of a link.
	{args: "lk -lname *"},
	{args: "lk -lname file"},
	{args: "lk -lname *file"},
	{args: "lk -lname FILE*"},
	{args: "lk -ilname *file*"},
	{args: "lk -ilname *.TXT"},
	{args: "lk -lname /*"},
	{args: "lk -lname ../*"},
	{args: "lk -lname */*"},
	{args: "lk -lname ?"},
	{args: `lk -lname \*`}, // the link whose target is *
	{args: "lk -lname [*]"},
	{args: "lk -lname '\xff*'"},
	{args: "lk -lname *\n*"},
	{args: "lk -lname nowhere -o -lname loop"},
	{args: "lk -lname ''"},
	{args: "lk ! -lname *"},
	{args: "lk -type f -lname *"},
	{args: "lk/dir -lname *"},
	{args: "lk/to_dir -lname *"}, // a starting point under -P is itself
	{args: "lk/to_dir/ -lname *"},
	{args: "-L lk -lname *"}, // only links that cannot be followed
	{args: "-L lk -ilname *"},
	{args: "-L lk/to_file lk/dangling lk/notdir -lname *"},
	{args: "lk -follow -lname *"},
	{args: "-H lk -lname *"},
	{args: "-H lk/to_file lk/dangling lk/loop lk/notdir lk/chain -lname *"},
	{args: "lk -lname"},
	{args: "lk -ilname"},
	// -xtype: under -P the type of what a link points to; a link that
	// cannot be followed (dangling, through a non-directory: notdir ->
	// file/x) stays a link, silently. So does a loop (loop -> loop,
	// a -> b -> a) in GNU 4.10 (savannah bug 51926), which gfind
	// follows: GNU 4.9 reports the loop and the test is false. Those
	// rows state 4.10's result; under -L -xtype sees the link itself.
	{args: "lk -xtype l", gnu411: &gnu411{stdout: lkDangling(lkLoops...)}},
	{args: "lk -xtype f", gnu411: &gnu411{stdout: lkFiles}},
	{args: "lk -xtype d", gnu411: &gnu411{stdout: lkDirs}},
	{args: "lk -xtype p", gnu411: &gnu411{stdout: []string{"lk/fifo", "lk/to_fifo"}}},
	{args: "lk -xtype c", gnu411: &gnu411{stdout: []string{"lk/to_null"}}},
	{args: "lk -xtype f,d", gnu411: &gnu411{stdout: append(slices.Clone(lkFiles), lkDirs...)}},
	{args: "lk -xtype l,p,c", gnu411: &gnu411{stdout: lkDangling(append([]string{"lk/fifo", "lk/to_fifo", "lk/to_null"}, lkLoops...)...)}},
	{args: "lk ! -xtype l", gnu411: &gnu411{stdout: append(append(slices.Clone(lkFiles), lkDirs...), "lk/fifo", "lk/to_fifo", "lk/to_null")}},
	{args: "lk -type l -xtype d", gnu411: &gnu411{stdout: []string{"lk/dir/up", "lk/dot", "lk/to_dir", "lk/to_dir_slash"}}},
	{args: "lk -xtype l -lname *", gnu411: &gnu411{stdout: lkDangling(lkLoops...)}},
	{args: "lk -name loop ( -xtype l -o -xtype f )", gnu411: &gnu411{stdout: []string{"lk/loop"}}}, // 4.9 reports it twice
	{args: "lk/dir -xtype f"},
	{args: "lk/to_dir lk/to_file lk/loop lk/dangling -maxdepth 0 -xtype f,l", gnu411: &gnu411{stdout: []string{"lk/dangling", "lk/loop", "lk/to_file"}}},
	{args: "lk -xtype d -atime +14"}, // 4.9 evaluates -atime first: no loop reported there
	{args: "lk -atime +14 -xtype d"},
	{args: "-L lk -xtype l"},
	{args: "-L lk -xtype f"},
	{args: "-L lk -xtype d"},
	{args: "-L lk -xtype l,d,f,p,c"},
	{args: "-H lk -xtype l", gnu411: &gnu411{stdout: lkDangling(lkLoops...)}},
	{args: "-H lk -xtype d", gnu411: &gnu411{stdout: lkDirs}},
	// A starting point that loops is reported under -H and -L by GNU
	// 4.9 and 4.10 alike, and not visited.
	{args: "-H lk/to_file lk/to_dir lk/dangling lk/loop lk/chain -xtype l"},
	{args: "-L lk/loop lk/a lk/notdir lk/file -xtype l"},
	{args: "-H lk/to_file lk/to_dir lk/fifo -xtype f,d,p"},
	{args: "lk -follow -xtype l"},
	// A link whose target cannot be stat'ed: %Y says N for ENOENT and
	// ENOTDIR (notdir -> file/x) without a diagnostic, L for ELOOP; under
	// -L the walk reports ENOTDIR and ELOOP (GNU 4.9 and 4.10 alike) and
	// visits notdir as a link; a starting point that cannot be followed
	// under -H or -L is reported and not visited. The same through
	// -files0-from.
	{args: `lk -printf %p\t%y\t%Y\t%l\n`},
	{args: `-L lk -printf %p\t%y\t%Y\t%l\n`},
	{args: `-H lk -printf %p\t%y\t%Y\t%l\n`},
	{args: "lk -name *notdir* -ls"},
	{args: "-L lk -name *notdir* -ls"},
	{args: "-L lk -type l"},
	{args: "-L lk -type l -printf %Y"},
	{args: `lk/notdir lk/loop lk/dangling lk/a -printf %p\t%y\t%Y\n`},
	{args: `-H lk/notdir lk/loop lk/dangling lk/a lk/to_dir -maxdepth 0 -printf %p\t%y\t%Y\n`},
	{args: `-L lk/notdir lk/loop lk/dangling lk/a lk/to_dir -maxdepth 0 -printf %p\t%y\t%Y\n`},
	{args: `-files0-from links0 -printf %p\t%y\t%Y\n`},
	{args: `-H -files0-from links0 -printf %p\t%y\t%Y\n`},
	{args: `-L -files0-from links0 -printf %p\t%y\t%Y\n`},
	{args: "-files0-from links0 -xtype l", gnu411: &gnu411{stdout: []string{"lk/notdir", "lk/loop", "lk/a", "lk/dangling"}}},
	{args: "lk -xtype"},
	{args: "lk -xtype q"},
	{args: "lk -xtype f,"},
	{args: "lk -xtype fl"},
	{args: "lk -xtype d,d"},
	{args: "lk -xtype D"},
	{args: "lk -xtype ''"},
	// -regex, -iregex, -regextype.
	{args: "rx -regex .*/a.c"},
	{args: "rx -regex rx/a.c"},
	{args: "rx -regex a.c"}, // the whole path must match
	{args: "rx -iregex .*/abc"},
	{args: "rx -iregex .*/SUB/.*"},
	// GNU 4.11's emacs syntax has classes and intervals; 4.9's had not.
	{args: "rx -regex .*[[:upper:]].*", gnu411: &gnu411{stdout: []string{"rx/aXc", "rx/sub/Deep.TXT", "rx/ABC"}}},
	{args: "rx -regex '.*/a\\(b\\|X\\)c'"},
	{args: "rx -regex .*/a+"},
	{args: "rx -regex '.*/a\\{2\\}'", gnu411: &gnu411{stdout: []string{"rx/aa"}}},
	{args: "rx -regex .*/a{2}"},
	{args: "rx -regex '.*new.line'"},
	{args: "rx -regex rx/."}, // one byte, \xff included
	{args: "rx -regex rx/caf.."},
	{args: "rx -regex rx/caf."},
	{args: "rx -regex '.*\\<foo.bar\\>'"},
	{args: "rx -regex '.*foo\\>.bar'"},
	{args: "rx -regex '.*\\bbar'"},
	{args: "rx -regex '.*\\w+_\\w+'"},
	{args: "rx -regex '\\`rx.*\\.txt\\''"},
	{args: "rx -regextype findutils-default -regex '.*new.line'"},
	{args: "rx -regextype emacs -regex .*/a+"},
	{args: "rx -regextype posix-basic -regex '.*/a\\{2\\}'"},
	{args: "rx -regextype posix-basic -regex .*/a+c"},
	{args: "rx -regextype posix-basic -regex '.*/[[:upper:]]*'"},
	{args: "rx -regextype posix-minimal-basic -regex '.*/a\\|b'"},
	{args: "rx -regextype ed -regex '.*/a\\{1,2\\}'"},
	{args: "rx -regextype sed -regex '.*/[[:alpha:]]\\{3\\}'"},
	{args: "rx -regextype grep -regex '.*/abc\n.*/aa'"},
	{args: "rx -regextype posix-extended -regex '.*/a[+*.]c'"},
	{args: "rx -regextype posix-extended -regex '.*/(a|b)+'"},
	{args: "rx -regextype posix-extended -regex '.*/a{2}'"},
	{args: "rx -regextype posix-extended -regex '.*new$.*'"},
	{args: "rx -regextype posix-extended -regex '.*^line'"},
	{args: "rx -regextype posix-extended -iregex '.*/(abc|sub)'"},
	{args: "rx -regextype egrep -regex '*.*c'"},
	{args: "rx -regextype posix-egrep -regex '.*/a{x}'"},
	{args: "rx -regextype awk -regex '.*[\\]].*'"},
	{args: "rx -regextype posix-awk -regex '.*\\<a.*'"},
	{args: "rx -regextype gnu-awk -regex '.*\\<a.*'"},
	{args: "rx -regex rx/a -o -regextype posix-extended -regex 'rx/(a|b)+'"},
	{args: "rx -regextype posix-extended -regex 'rx/a+' -o -regextype emacs -regex 'rx/a\\{2\\}'", gnu411: &gnu411{stdout: []string{"rx/aa"}}},
	{args: "rx -regex .*sub.* -prune -o -print"},
	{args: "rx -regextype posix-extended"}, // only checked
	{args: "rx -regex '\\('"},
	{args: "rx -regex '['"},
	{args: "rx -regex 'a\\'"},
	{args: "rx -regextype posix-extended -regex '(a'"},
	{args: "rx -regextype posix-extended -regex '*a'"},
	{args: "rx -regextype posix-basic -regex 'a\\{99999\\}'"},
	{args: "rx -regextype posix-basic -regex '[[:nope:]]'"},
	// GNU 4.11 lists the types in another order.
	{args: "rx -regextype foo", gnu411: &gnu411{stderr: []string{"find: Unknown regular expression type 'foo'; valid types are 'findutils-default', 'awk', 'ed', 'egrep', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'posix-basic', 'posix-egrep', 'posix-extended', 'posix-minimal-basic', 'sed'."}, code: 1}},
	{args: "rx -regextype"},
	{args: "rx -regex"},
	{args: "rx -iregex"},
	// -fstype: the type the mount table gives the file's device.
	{args: "/ /proc /dev /dev/shm /sys -maxdepth 0 -fstype proc"},
	{args: "/ /proc /dev /dev/shm /sys -maxdepth 0 -fstype tmpfs"},
	{args: "/ /proc /dev /dev/shm /sys -maxdepth 0 -fstype sysfs"},
	{args: "/ /proc /dev /dev/shm /sys -maxdepth 0 -fstype devtmpfs"},
	{args: "/ /proc /dev /dev/shm /sys -maxdepth 0 ! -fstype ext4"},
	{args: "/ -maxdepth 1 -fstype ext4"},
	{args: "/ -maxdepth 1 ! -fstype ext4"},
	{args: "/proc/sys -maxdepth 1 -fstype proc"},
	{args: "-O2 -L /proc/self/ns -maxdepth 1 -fstype unknown"}, // never true at -O2 (gnu411_test.go has -O1)
	{args: "lk rx -fstype nosuchfs"},
	{args: "lk -maxdepth 0 ( -fstype ext4 -o -fstype tmpfs -o -fstype overlay -o -fstype xfs -o -fstype btrfs )"},
	{args: "lk -fstype"},
}

// makeLinksTree builds, under a new root:
//
//	lk/
//	  file, FILE.txt, fifo
//	  dir/ inner.txt, back -> ../file, up -> ..
//	  to_file -> file, to_dir -> dir, to_dir_slash -> dir/,
//	  abs_file -> ROOT/lk/file, abs_dangling -> /nonexistent/gfind-test,
//	  dangling -> nowhere, loop -> loop, a -> b, b -> a,
//	  chain -> to_file, chain_dangling -> dangling,
//	  notdir -> file/x, odd -> "\xff\tx\ny", star -> "*",
//	  upper -> FILE.txt, dot -> ., to_fifo -> fifo, to_null -> /dev/null
//	links0: NUL-separated starting points for -files0-from
//	rx/
//	  abc ABC aXc a*c a+c a.c aa a{2} a|b "new\nline" "\xff" "café"
//	  "x y" [ab] foo_bar foo-bar "back\slash" (x) "tab\there"
//	  sub/ deep.txt Deep.TXT
func makeLinksTree(t *testing.T) string {
	t.Helper()
	root := testtree.Make(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	p := func(name string) string { return filepath.Join(root, name) }
	for _, d := range []string{"lk", "lk/dir", "rx", "rx/sub"} {
		must(os.Mkdir(p(d), 0o755))
	}
	for _, f := range []string{"lk/file", "lk/FILE.txt", "lk/dir/inner.txt",
		"rx/abc", "rx/ABC", "rx/aXc", "rx/a*c", "rx/a+c", "rx/a.c", "rx/aa", "rx/a{2}", "rx/a|b",
		"rx/new\nline", "rx/\xff", "rx/caf\xc3\xa9", "rx/x y", "rx/[ab]", "rx/foo_bar", "rx/foo-bar",
		"rx/back\\slash", "rx/(x)", "rx/tab\there", "rx/sub/deep.txt", "rx/sub/Deep.TXT"} {
		must(os.WriteFile(p(f), []byte("data\n"), 0o644))
	}
	must(unix.Mkfifo(p("lk/fifo"), 0o644))
	must(os.WriteFile(p("links0"), []byte("lk/notdir\x00lk/loop\x00lk/a\x00lk/dangling\x00lk/to_dir\x00lk/file\x00"), 0o644))
	for _, l := range []struct{ name, target string }{
		{"lk/dir/back", "../file"}, {"lk/dir/up", ".."},
		{"lk/to_file", "file"}, {"lk/to_dir", "dir"}, {"lk/to_dir_slash", "dir/"},
		{"lk/abs_file", p("lk/file")}, {"lk/abs_dangling", "/nonexistent/gfind-test"},
		{"lk/dangling", "nowhere"}, {"lk/loop", "loop"}, {"lk/a", "b"}, {"lk/b", "a"},
		{"lk/chain", "to_file"}, {"lk/chain_dangling", "dangling"}, {"lk/notdir", "file/x"},
		{"lk/odd", "\xff\tx\ny"}, {"lk/star", "*"}, {"lk/upper", "FILE.txt"}, {"lk/dot", "."},
		{"lk/to_fifo", "fifo"}, {"lk/to_null", "/dev/null"},
	} {
		must(os.Symlink(l.target, p(l.name)))
	}
	return root
}

// What -xtype finds in makeLinksTree under -P: the links that cannot be
// followed (lkDangling), those that loop (lkLoops), the regular files
// and links to them (lkFiles), the directories and links to them
// (lkDirs).
var (
	lkLoops = []string{"lk/a", "lk/b", "lk/loop"}
	lkFiles = []string{"lk/FILE.txt", "lk/abs_file", "lk/chain", "lk/dir/back", "lk/dir/inner.txt",
		"lk/file", "lk/to_file", "lk/upper"}
	lkDirs = []string{"lk", "lk/dir", "lk/dir/up", "lk/dot", "lk/to_dir", "lk/to_dir_slash"}
)

// lkDangling returns the links of makeLinksTree that dangle (notdir ->
// file/x among them), and more.
func lkDangling(more ...string) []string {
	return append([]string{"lk/abs_dangling", "lk/chain_dangling", "lk/dangling", "lk/notdir", "lk/odd", "lk/star"}, more...)
}

func TestAgainstGNULinks(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := makeLinksTree(t)
	for _, c := range gnuLinksCases {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			compareCase(t, filepath.Join(root, c.dir), false, gnu, gfind, c)
		})
	}
}

// gnuLinksNobodyCases run as nobody in a tree with a link into a
// directory nobody cannot search:
//
//	lkp/ file, locked/ (0700, root's) x, to_locked -> locked/x,
//	     to_locked_dir -> locked, locked_notdir -> locked/x/y,
//	     zero/ (mode 000) x, to_zero -> zero/x, to_zero_dir -> zero
var gnuLinksNobodyCases = []gnuCase{
	{args: "lkp -xtype f"}, // stat(to_locked): Permission denied
	{args: "lkp -xtype l"},
	{args: "lkp -xtype d"},
	{args: "lkp -maxdepth 1 -xtype f,d,l"},
	{args: "lkp -lname *"},
	{args: "lkp -lname locked*"},
	{args: "-L lkp/to_locked_dir -xtype l"},
	{args: "-L lkp/to_locked_dir -lname *"},
	{args: "-H lkp/to_locked lkp/to_locked_dir -xtype l"},
	{args: "lkp -regex '.*locked.*'"},
	// EACCES is no broken link: %Y says ? and reports it without
	// changing the exit status; -xtype reports it and is false; -L and
	// -H report it and visit the name (-L) or not (a starting point).
	{args: `lkp -printf %p\t%y\t%Y\n`},
	{args: `-L lkp -printf %p\t%y\t%Y\n`},
	{args: `-H lkp/to_locked lkp/to_locked_dir lkp/locked_notdir lkp/file -printf %p\t%y\t%Y\n`},
	{args: `-H lkp/to_zero lkp/to_zero_dir -printf %p\t%y\t%Y\n`},
	{args: `-L lkp/to_zero lkp/to_zero_dir -printf %p\t%y\t%Y\n`},
	{args: "lkp -name *zero* -xtype l"},
	{args: "-L lkp -name *zero* -ls"},
	{args: "lkp -xtype l -o -xtype f"},
	{args: "-L lkp -type l -ls"},
	{args: "lkp -fstype nosuchfs"},
}

func TestAgainstGNULinksAsNobody(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := testtree.Make(t)
	p := func(name string) string { return filepath.Join(root, name) }
	for _, err := range []error{
		os.Mkdir(p("lkp"), 0o755),
		os.WriteFile(p("lkp/file"), nil, 0o644),
		os.Mkdir(p("lkp/locked"), 0o700),
		os.WriteFile(p("lkp/locked/x"), nil, 0o644),
		os.Symlink("locked/x", p("lkp/to_locked")),
		os.Symlink("locked", p("lkp/to_locked_dir")),
		os.Symlink("locked/x/y", p("lkp/locked_notdir")),
		os.Mkdir(p("lkp/zero"), 0o755),
		os.WriteFile(p("lkp/zero/x"), nil, 0o644),
		os.Chmod(p("lkp/zero"), 0),
		func() error {
			// Let the temporary directory go whoever runs the test.
			t.Cleanup(func() { os.Chmod(p("lkp/zero"), 0o755) })
			return nil
		}(),
		os.Symlink("zero/x", p("lkp/to_zero")),
		os.Symlink("zero", p("lkp/to_zero_dir")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range gnuLinksNobodyCases {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			compareCase(t, filepath.Join(root, c.dir), true, gnu, gfind, c)
		})
	}
}

// TestDeleteLinksAgainstGNU runs -delete on the links of makeLinksTree
// whose targets cannot be stat'ed (dangling, notdir -> file/x, loops)
// under -P, -H and -L, in a fresh tree for each program, and compares
// what they print and what they leave.
func TestDeleteLinksAgainstGNU(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	for _, a := range []string{
		"lk -type l -delete",
		"lk -name *notdir* -delete",
		"-L lk -xtype l -delete",
		"-L lk -type l -delete",
		"-L lk -name *notdir* -delete",
		"lk/notdir lk/loop lk/dangling lk/a -delete",
		"-H lk/notdir lk/loop lk/dangling lk/a lk/to_file -delete",
		"-L lk/notdir lk/loop lk/dangling lk/a lk/to_dir -delete",
		"-files0-from links0 -delete",
		"-L -files0-from links0 -delete",
	} {
		t.Run(a, func(t *testing.T) {
			t.Parallel()
			var res [2]findResult
			var left [2][]string
			for i, prog := range []string{gnu, gfind} {
				root := makeLinksTree(t)
				args := shellWords(a)
				name := "find"
				if i == 1 {
					name, args = "gfind", append([]string{"-j1"}, args...)
				}
				res[i] = runFind(t, root, false, prog, name, args)
				err := filepath.WalkDir(filepath.Join(root, "lk"), func(path string, _ os.DirEntry, err error) error {
					left[i] = append(left[i], path[len(root):])
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			compare(t, "-j1", res[0], res[1], false)
			diffLines(t, "files left", left[0], left[1])
		})
	}
}
