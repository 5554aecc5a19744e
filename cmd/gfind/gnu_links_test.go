package main

import (
	"os"
	"path/filepath"
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
	// -xtype: under -P the type of what a link points to (a link that
	// cannot be followed stays a link, a loop is an error), under -L
	// the link itself.
	{args: "lk -xtype l"},
	{args: "lk -xtype f"},
	{args: "lk -xtype d"},
	{args: "lk -xtype p"},
	{args: "lk -xtype c"},
	{args: "lk -xtype f,d"},
	{args: "lk -xtype l,p,c"},
	{args: "lk ! -xtype l"},
	{args: "lk -type l -xtype d"},
	{args: "lk -xtype l -lname *"},
	{args: "lk -name loop ( -xtype l -o -xtype f )"}, // reported twice
	{args: "lk/dir -xtype f"},
	{args: "lk/to_dir lk/to_file lk/loop lk/dangling -maxdepth 0 -xtype f,l"},
	{args: "-L lk -xtype l"},
	{args: "-L lk -xtype f"},
	{args: "-L lk -xtype d"},
	{args: "-L lk -xtype l,d,f,p,c"},
	{args: "-H lk -xtype l"},
	{args: "-H lk -xtype d"},
	{args: "-H lk/to_file lk/to_dir lk/dangling lk/loop lk/chain -xtype l"},
	{args: "-H lk/to_file lk/to_dir lk/fifo -xtype f,d,p"},
	{args: "lk -follow -xtype l"},
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
	{args: "rx -regex .*[[:upper:]].*"}, // no classes in emacs syntax
	{args: "rx -regex '.*/a\\(b\\|X\\)c'"},
	{args: "rx -regex .*/a+"},
	{args: "rx -regex '.*/a\\{2\\}'"},
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
	{args: "rx -regextype posix-extended -regex 'rx/a+' -o -regextype emacs -regex 'rx/a\\{2\\}'"},
	{args: "rx -regex .*sub.* -prune -o -print"},
	{args: "rx -regextype posix-extended"}, // only checked
	{args: "rx -regex '\\('"},
	{args: "rx -regex '['"},
	{args: "rx -regex 'a\\'"},
	{args: "rx -regextype posix-extended -regex '(a'"},
	{args: "rx -regextype posix-extended -regex '*a'"},
	{args: "rx -regextype posix-basic -regex 'a\\{99999\\}'"},
	{args: "rx -regextype posix-basic -regex '[[:nope:]]'"},
	{args: "rx -regextype foo"},
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
	{args: "-L /proc/self/ns -maxdepth 1 -fstype unknown"}, // never true
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

func TestAgainstGNULinks(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := makeLinksTree(t)
	for _, c := range gnuLinksCases {
		args := shellWords(c.args)
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			compareFinds(t, filepath.Join(root, c.dir), false, gnu, gfind, args, c.serialOnly)
		})
	}
}

// gnuLinksNobodyCases run as nobody in a tree with a link into a
// directory nobody cannot search:
//
//	lkp/ file, locked/ (0700, root's) x, to_locked -> locked/x,
//	     to_locked_dir -> locked
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
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range gnuLinksNobodyCases {
		args := shellWords(c.args)
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			compareFinds(t, filepath.Join(root, c.dir), true, gnu, gfind, args, c.serialOnly)
		})
	}
}
