package predicate

import (
	"bytes"
	"maps"
	"strings"
	"testing"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

func TestParseMountinfo(t *testing.T) {
	const mountinfo = `21 26 0:20 / /proc rw,relatime - proc proc rw
26 1 254:0 / / rw,relatime shared:1 master:2 - ext4 /dev/vda rw,discard
24 23 0:22 / /dev/shm rw,relatime - tmpfs tmpfs rw
29 24 0:22 / /dev/shm rw,relatime - ramfs tmpfs rw
30 26 0:40 / /mnt/with\040space rw - fuse.sshfs host:/x rw
31 26 0:41 / /mnt/odd rw - weird\040type x rw
32 26 0:42 / /mnt/ign rw - ignore none rw
33 26 8:1 / /broken rw
bad line
34 26 x:1 / /bad rw - ext2 /dev/x rw
`
	m := &mountTable{types: map[uint64]string{}, names: map[string]bool{}}
	parseMountinfo([]byte(mountinfo), m)
	want := map[uint64]string{
		unix.Mkdev(0, 20):  "proc",
		unix.Mkdev(254, 0): "ext4",
		unix.Mkdev(0, 22):  "ramfs", // the last line for a device wins
		unix.Mkdev(0, 40):  "fuse.sshfs",
		unix.Mkdev(0, 41):  "weird type",
	}
	if !maps.Equal(m.types, want) {
		t.Errorf("types = %v, want %v", m.types, want)
	}
	for _, name := range []string{"proc", "ext4", "tmpfs", "ramfs", "fuse.sshfs", "weird type", "ignore"} {
		if !m.names[name] {
			t.Errorf("type %q not listed", name)
		}
	}
	if m.names["ext2"] || len(m.names) != 7 {
		t.Errorf("names = %v", m.names)
	}
	if got := fsTypeOf(m, unix.Mkdev(9, 9)); got != "unknown" {
		t.Errorf("unlisted device: %q", got)
	}
}

func TestUnescapeMount(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:        "plain",
		`a\040b`:       "a b",
		`tab\011x`:     "tab\tx",
		`back\134`:     `back\`,
		`short\04`:     `short\04`,
		`not\08x`:      `not\08x`,
		`\101\102\103`: "ABC",
	} {
		if got := unescapeMount([]byte(in)); got != want {
			t.Errorf("unescapeMount(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFstypeEval uses the real mount table: /proc is procfs wherever
// these tests run.
func TestFstypeEval(t *testing.T) {
	var proc unix.Stat_t
	if err := unix.Stat("/proc", &proc); err != nil || fsTypeOf(mounts(), uint64(proc.Dev)) != "proc" {
		t.Skip("no procfs on /proc")
	}
	e := walker.Synthetic("/proc", 0, walker.TypeDir, &proc, nil)
	var diag bytes.Buffer
	s := newFollowState(walker.FollowNever, &diag)
	for _, tt := range []struct {
		typ  string
		want bool
	}{
		{"proc", true},
		{"PROC", false},
		{"tmpfs", false},
		{"nosuchfs", false},
		{"unknown", false},
	} {
		n := parseOne(t, "-fstype", tt.typ)
		if got := n.Eval(e, s); got != tt.want {
			t.Errorf("-fstype %s on /proc: %v, want %v", tt.typ, got, tt.want)
		}
	}
	// A device missing from the table is of type "unknown" (GNU's
	// filesystem_type), at -O0 and -O1; from -O2 on, a type no file
	// system has is always false (GNU substitutes -false).
	var oddSt unix.Stat_t
	setStat(&oddSt.Dev, unix.Mkdev(200, 65535)) // a device no system here has mounted
	odd := walker.Synthetic("x", 1, walker.TypeRegular, &oddSt, nil)
	if n := parseOne(t, "-fstype", "unknown"); !n.Eval(odd, s) {
		t.Error("-fstype unknown did not match at -O0")
	}
	for _, level := range []int{1, 2, 3} {
		cmd, err := Parse([]string{".", "-fstype", "unknown"}, Config{OptLevel: level})
		if err != nil {
			t.Fatal(err)
		}
		n := Node(cmd.Expr)
		if and, ok := n.(*andNode); ok {
			n = and.kids[0]
		}
		if got := n.Eval(odd, s); got != (level < 2) {
			t.Errorf("-fstype unknown at -O%d: %v, want %v", level, got, level < 2)
		}
	}
	if f := parseOne(t, "-fstype", "nosuchfs").Facts(); f.Prob != 0 || f.Needs&NeedStat == 0 {
		t.Errorf("-fstype nosuchfs: %+v", f)
	}
	if diag.Len() != 0 {
		t.Errorf("diagnostics: %q", diag.String())
	}
	n := parseOne(t, "-fstype", "proc")
	if a := testing.AllocsPerRun(100, func() { n.Eval(e, s) }); a != 0 {
		t.Errorf("%v allocations", a)
	}
	if _, err := Parse([]string{".", "-fstype"}, Config{}); err == nil || !strings.Contains(err.Error(), "missing argument to `-fstype'") {
		t.Errorf("-fstype without argument: %v", err)
	}
}

func TestParseMtab(t *testing.T) {
	var proc unix.Stat_t
	if err := unix.Stat("/proc", &proc); err != nil {
		t.Skip(err)
	}
	m := &mountTable{types: map[uint64]string{}, names: map[string]bool{}}
	parseMtab([]byte("proc /proc proc rw 0 0\nnone /nonexistent\\040dir tmpfs rw 0 0\nshort\n"), m)
	if got := m.types[uint64(proc.Dev)]; got != "proc" || len(m.types) != 1 || !m.names["tmpfs"] {
		t.Errorf("types %v, names %v", m.types, m.names)
	}
}
