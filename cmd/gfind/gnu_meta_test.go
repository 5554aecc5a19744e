package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/internal/testtree"
	"golang.org/x/sys/unix"
)

// gnuMetaCases run in a tree made of testtree.Meta and testtree.Links:
// the metadata tests -size, -empty, -perm, -user, -group, -uid, -gid,
// -nouser, -nogroup, -links, -inum, -samefile and the access tests.
var gnuMetaCases = []gnuCase{
	// -size: rounded up to whole units before comparing.
	{args: "meta -size 0"},
	{args: "meta -size -1M"}, // empty files only
	{args: "meta -size 1M"},
	{args: "meta -size +1M"},
	{args: "meta/size -size 1"}, // 512-byte blocks
	{args: "meta/size -size 2"},
	{args: "meta/size -size -2"},
	{args: "meta/size -size 3b"},
	{args: "meta/size -size 512c"},
	{args: "meta/size -size -512c"},
	{args: "meta/size -size +512c"},
	{args: "meta/size -size 1k"},
	{args: "meta/size -size 2k"},
	{args: "meta/size -size -1k"},
	{args: "meta/size -size +1k"},
	{args: "meta/size -size 1w"},
	{args: "meta/size -size 256w"},
	{args: "meta/size -size 1G"},
	{args: "meta/size -size -1G"},
	{args: "meta/size -size 1048576c"},
	{args: "meta/size -size 2048"},
	{args: "meta/size -size 007c"},
	{args: "meta -type f -size +0"},
	{args: "meta -type l -size -1k"}, // the link itself: a few bytes
	{args: "-L meta/sym -size 1k"},
	{args: "-L meta -size 0"},
	{args: "-H meta/sym/to_s1 meta/sym/to_s0 -size 0"},
	{args: "meta -size 18446744073709551615c"},
	{args: "meta -size"},
	{args: "meta -size ''"},
	{args: "meta -size x"},
	{args: "meta -size 5kk"},
	{args: "meta -size c"},
	{args: "meta -size --5"},
	{args: "meta -size +"},
	{args: "meta -size 1.5M"},
	{args: "meta -size 99999999999999999999"},
	// -empty: empty regular files and directories.
	{args: "meta -empty"},
	{args: "meta -type d -empty"},
	{args: "meta ! -empty -type f"},
	{args: "meta/empty meta/full -empty"},
	{args: "meta/sym/to_empty -empty"},
	{args: "-H meta/sym/to_empty meta/sym/to_full meta/sym/to_s0 -empty"},
	{args: "-L meta -empty"},
	{args: "-L meta/sym -empty"},
	{args: "meta -follow -empty"},
	{args: "meta -empty -prune"},
	{args: "-L links -empty"},
	// -perm: octal, -MODE, /MODE and symbolic modes.
	{args: "meta -perm 644"},
	{args: "meta -perm 0644"},
	{args: "meta -perm 755"},
	{args: "meta -perm 0"},
	{args: "meta -perm 7777"},
	{args: "meta -perm 4755"},
	{args: "meta -perm -644"},
	{args: "meta -perm -4000"},
	{args: "meta -perm -2000"},
	{args: "meta -perm -1000"},
	{args: "meta -perm /6000"},
	{args: "meta -perm /022"},
	{args: "meta -perm /111 -type f"},
	{args: "meta -perm -o+w"},
	{args: "meta -perm /u+s,g+s"},
	{args: "meta -perm u+x,g-w"},
	{args: "meta -perm a=r"},
	{args: "meta -perm u=rw"},
	{args: "meta -perm u=rw,g=u"},
	{args: "meta -perm u=rwx,g=u,o=g"},
	{args: "meta -perm -g=u"},
	{args: "meta -perm =755"},
	{args: "meta -perm -+t"},
	{args: "meta -perm +t"},
	{args: "meta -perm +w"},
	{args: "meta -perm -a+X"},
	{args: "meta -perm /a+X"},
	{args: "meta -perm -u=rwxs"},
	{args: "meta -perm -g+s -type d"},
	// GNU 4.10 and 4.11 word the /000 warning and "invalid file mode"
	// otherwise than 4.9.
	{args: "meta/links -perm /000", gnu411: &gnu411{stdout: metaLinks, stderr: []string{permWarning411("/000")}}}, // a warning, then everything
	{args: "meta/links -perm /u-r", gnu411: &gnu411{stdout: metaLinks, stderr: []string{permWarning411("/u-r")}}},
	{args: "meta -perm -000"},
	{args: "meta -perm +644", gnu411: &gnu411{stderr: []string{"find: invalid file mode '+644'"}, code: 1}},
	{args: "meta -perm +0", gnu411: &gnu411{stderr: []string{"find: invalid file mode '+0'"}, code: 1}},
	{args: "meta -perm ''", gnu411: &gnu411{stderr: []string{"find: invalid file mode ''"}, code: 1}},
	{args: "meta -perm -", gnu411: &gnu411{stderr: []string{"find: invalid file mode '-'"}, code: 1}},
	{args: "meta -perm /", gnu411: &gnu411{stderr: []string{"find: invalid file mode '/'"}, code: 1}},
	{args: "meta -perm 8", gnu411: &gnu411{stderr: []string{"find: invalid file mode '8'"}, code: 1}},
	{args: "meta -perm 017777", gnu411: &gnu411{stderr: []string{"find: invalid file mode '017777'"}, code: 1}},
	{args: "meta -perm a=r,x", gnu411: &gnu411{stderr: []string{"find: invalid file mode 'a=r,x'"}, code: 1}},
	{args: "meta -perm u=rw,", gnu411: &gnu411{stderr: []string{"find: invalid file mode 'u=rw,'"}, code: 1}},
	{args: "meta -perm u=755", gnu411: &gnu411{stderr: []string{"find: invalid file mode 'u=755'"}, code: 1}},
	{args: "meta -perm"},
	{args: "-L meta/sym -perm 644"},
	{args: "meta/sym -perm 777"}, // links are 0777
	// -user, -group, -uid, -gid. GNU 4.10 and 4.11 take any uid_t and
	// gid_t (4.9: up to INT_MAX) and word the errors otherwise.
	{args: "meta -user root"},
	{args: "meta -user 0"},
	{args: "meta -user nobody"},
	{args: "meta -user 65534"},
	{args: "meta -user 4242"},
	{args: "meta -user 004242"},
	{args: "meta ! -user root"},
	{args: "meta -user nosuch", gnu411: &gnu411{stderr: []string{"find: invalid user name or UID argument to -user: 'nosuch'"}, code: 1}},
	{args: "meta -user ''", gnu411: &gnu411{stderr: []string{"find: invalid user name or UID argument to -user: ''"}, code: 1}},
	{args: "meta -user 12x", gnu411: &gnu411{stderr: []string{"find: invalid user name or UID argument to -user: '12x'"}, code: 1}},
	{args: "meta -user +1", gnu411: &gnu411{}},         // uid 1 owns nothing here
	{args: "meta -user 2147483648", gnu411: &gnu411{}}, // nor does this one
	{args: "meta -user 9223372036854775807", gnu411: &gnu411{stderr: []string{"find: invalid user name or UID argument to -user: '9223372036854775807'"}, code: 1}},
	{args: "meta -user 99999999999999999999", gnu411: &gnu411{stderr: []string{"find: invalid user name or UID argument to -user: '99999999999999999999'"}, code: 1}},
	{args: "meta -user"},
	{args: "meta -group root"},
	{args: "meta -group 0"},
	{args: "meta -group nogroup"},
	{args: "meta -group 65534"},
	{args: "meta -group 4242"},
	{args: "meta -group nosuch", gnu411: &gnu411{stderr: []string{"find: invalid group name or GID argument to -group: 'nosuch'"}, code: 1}},
	{args: "meta -group ''", gnu411: &gnu411{stderr: []string{"find: invalid group name or GID argument to -group: ''"}, code: 1}},
	{args: "meta -group 12x", gnu411: &gnu411{stderr: []string{"find: invalid group name or GID argument to -group: '12x'"}, code: 1}},
	{args: "meta -group -1", gnu411: &gnu411{stderr: []string{"find: invalid group name or GID argument to -group: '-1'"}, code: 1}},
	{args: "meta -group 2147483648", gnu411: &gnu411{}},
	{args: "meta -uid 4242"},
	{args: "meta -uid +4000"},
	{args: "meta -uid -1"},
	{args: "meta -uid 0"},
	{args: "meta -gid 65534"},
	{args: "meta -gid +0"},
	{args: "meta -gid -4243"},
	{args: "meta -uid x", gnu411: &gnu411{stderr: []string{"find: non-numeric argument to -uid: 'x'"}, code: 1}},
	{args: "meta -uid ''", gnu411: &gnu411{stderr: []string{"find: non-numeric argument to -uid: ''"}, code: 1}},
	{args: "meta -uid --1", gnu411: &gnu411{stderr: []string{"find: non-numeric argument to -uid: '--1'"}, code: 1}},
	{args: "meta -uid", gnu411: &gnu411{stderr: []string{"find: missing argument to `-uid'"}, code: 1}},
	{args: "meta -gid", gnu411: &gnu411{stderr: []string{"find: missing argument to `-gid'"}, code: 1}},
	{args: "-L meta/sym -uid 0"},
	// -nouser, -nogroup.
	{args: "meta -nouser"},
	{args: "meta -nogroup"},
	{args: "meta -nouser -o -nogroup"},
	{args: "meta -nogroup ! -nouser"},
	{args: "-L meta -nouser"},
	// -links, -inum, -samefile.
	{args: "meta -links 3"},
	{args: "meta -links +1 -type f"},
	{args: "meta -links 1 -type f"},
	{args: "meta -links -2"},
	{args: "meta -links +2 -type d"},
	{args: "-L meta/sym -links 3"},
	{args: "meta -links x", gnu411: &gnu411{stderr: []string{"find: non-numeric argument to -links: 'x'"}, code: 1}},
	{args: "meta -links", gnu411: &gnu411{stderr: []string{"find: missing argument to `-links'"}, code: 1}},
	{args: "meta -links ''", gnu411: &gnu411{stderr: []string{"find: non-numeric argument to -links: ''"}, code: 1}},
	{args: "meta -inum x", gnu411: &gnu411{stderr: []string{"find: non-numeric argument to -inum: 'x'"}, code: 1}},
	{args: "meta -inum", gnu411: &gnu411{stderr: []string{"find: missing argument to `-inum'"}, code: 1}},
	{args: "meta -inum 0"},
	{args: "meta -samefile meta/links/three"},
	{args: "meta -samefile meta/links/sub/three_c"},
	{args: "meta -samefile meta/sym/to_three"},
	{args: "-L meta -samefile meta/links/three"},
	{args: "-L meta -samefile meta/sym/to_three"},
	{args: "-H meta -samefile meta/sym/to_three"},
	{args: "meta -follow -samefile meta/sym/to_three"},
	{args: "meta -samefile meta/sym/to_three -follow"},
	{args: "meta -samefile meta/sym/dangling"},
	{args: "-L meta -samefile meta/sym/dangling"},
	{args: "meta -samefile meta"},
	{args: "meta -samefile meta/"},
	{args: "meta -samefile nosuch"},
	{args: "meta -samefile ''"},
	{args: "-L meta -samefile links/loop"},
	{args: "meta -samefile"},
	{args: "meta/links/three -samefile meta/links/three_b"},
	// -readable, -writable, -executable (root: everything is readable
	// and writable; see gnuMetaNobodyCases for an ordinary user).
	{args: "meta -readable"},
	{args: "meta -writable"},
	{args: "meta -executable"},
	{args: "meta ! -executable"},
	{args: "-L meta -executable"},
	{args: "links -readable"},
	// Combinations.
	{args: "meta -type f -size -1k -perm 644 -user root"},
	{args: "meta ( -empty -o -size +1k ) -perm /444"},
	{args: "meta -links 1 -a -perm -u+r -a -nouser"},
	{args: "meta -size -1 , -perm 0"},
}

// metaLinks is everything in meta/links (testtree.Meta).
var metaLinks = []string{"meta/links", "meta/links/one", "meta/links/fifo", "meta/links/sub",
	"meta/links/sub/three_c", "meta/links/three_b", "meta/links/three"}

// permWarning411 is GNU 4.11's warning about -perm arg, a mode that is
// /000 (4.9: "... has now been changed ...", without the last sentence).
func permWarning411(arg string) string {
	return "find: warning: you have specified a mode pattern " + arg + " (which is equivalent to /000). The meaning of -perm /000 was changed in 2007 to be consistent with -perm -000; that is, while it used to match no files, it now matches all files. This warning message will be removed in a future findutils release."
}

// TestAgainstGNUMeta runs gnuMetaCases and the -inum cases, whose
// arguments depend on the tree that was built.
func TestAgainstGNUMeta(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := testtree.Make(t, testtree.Meta, testtree.Links)
	cases := gnuMetaCases
	var st unix.Stat_t
	if err := unix.Stat(filepath.Join(root, "meta/links/three"), &st); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"%d", "-%d", "+%d", "00%d"} {
		cases = append(cases, gnuCase{args: "meta -inum " + fmt.Sprintf(f, st.Ino)})
	}
	for _, c := range cases {
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			compareCase(t, filepath.Join(root, c.dir), false, gnu, gfind, c)
		})
	}
}

// gnuMetaNobodyCases run as nobody in a tree made of testtree.Meta, for
// the access tests (which root passes) and for what an unreadable
// directory does to -empty.
var gnuMetaNobodyCases = []gnuCase{
	{args: "meta -readable"},
	{args: "meta -writable"},
	{args: "meta -executable"},
	{args: "meta ! -readable"},
	{args: "meta -type f -readable"},
	{args: "meta -type d -executable"},
	{args: "meta -readable -writable"},
	{args: "meta -readable -o -executable"},
	{args: "meta/sym -readable"},
	{args: "meta/sym -writable"},
	{args: "-L meta -readable"},
	{args: "-L meta/sym -executable"},
	{args: "meta/owner -writable"},
	{args: "meta/mode -perm /111 ! -executable"},
	{args: "meta -empty"}, // mode/d0000 cannot be opened: reported, false
	{args: "meta/mode/d0000 -empty"},
	{args: "-L meta/sym -empty"},
	{args: "-H meta/sym/to_d0000 -empty"},
	{args: "meta -type d -empty -prune"},
	{args: "meta -user nobody"},
	{args: "meta -nouser"},
	{args: "meta -size -1k"},
	{args: "meta -perm 0"},
	{args: "meta -samefile meta/links/three"},
}

// TestAgainstGNUMetaAsNobody runs gnuMetaNobodyCases as nobody.
func TestAgainstGNUMetaAsNobody(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := testtree.Make(t, testtree.Meta)
	for _, c := range gnuMetaNobodyCases {
		args := shellWords(c.args)
		t.Run(c.args, func(t *testing.T) {
			t.Parallel()
			compareFinds(t, filepath.Join(root, c.dir), true, gnu, gfind, args, c.serialOnly)
		})
	}
}
