package predicate

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// sizeTests: GNU rounds the size up to whole units before comparing, so
// a one-byte file is 1k, 1M and 1G, and -size -1M matches empty files
// only. Checked against GNU find 4.9 on files of these sizes.
var sizeTests = []struct {
	arg  string
	size int64
	want bool
}{
	{"-1M", 0, true},
	{"-1M", 1, false},
	{"-1M", 1 << 20, false},
	{"1M", 1, true},
	{"1M", 1 << 20, true},
	{"1M", 1<<20 + 1, false},
	{"+1M", 1 << 20, false},
	{"+1M", 1<<20 + 1, true},
	{"-1k", 0, true},
	{"-1k", 1, false},
	{"1k", 0, false},
	{"1k", 1, true},
	{"1k", 1024, true},
	{"1k", 1025, false},
	{"2k", 1025, true},
	{"0", 0, true},
	{"0", 1, false},
	{"1", 1, true}, // 512-byte blocks without a suffix
	{"1", 512, true},
	{"1", 513, false},
	{"2", 513, true},
	{"1b", 512, true},
	{"2b", 1023, true},
	{"512c", 512, true},
	{"-512c", 511, true},
	{"-512c", 512, false},
	{"+512c", 513, true},
	{"1w", 1, true},
	{"1w", 2, true},
	{"1w", 3, false},
	{"2w", 3, true},
	{"1G", 1, true},
	{"1G", 1 << 30, true},
	{"1G", 1<<30 + 1, false},
	{"+0", 1, true},
	{"+0", 0, false},
	{"-0", 0, false},
	{"007c", 7, true},
	{"18446744073709551615c", 1<<63 - 1, false},
	{"-18446744073709551615c", 1<<63 - 1, true},
	{"+18446744073709551615G", 1<<63 - 1, false},
}

// sizeErrors are GNU find 4.9's messages for bad -size arguments.
var sizeErrors = []struct{ arg, msg string }{
	{"", "invalid null argument to -size"},
	{"x", "invalid -size type `x'"},
	{"5x", "invalid -size type `x'"},
	{"+", "invalid -size type `+'"},
	{"-", "invalid -size type `-'"},
	{"1 ", "invalid -size type ` '"},
	{"\xff", "invalid -size type `\xff'"},
	{"c", "Invalid argument `c' to -size"},
	{"M", "Invalid argument `M' to -size"},
	{"--5", "Invalid argument `--5' to -size"},
	{"+-1", "Invalid argument `+-1' to -size"},
	{"5kk", "Invalid argument `5kk' to -size"},
	{"k1", "Invalid argument `k1' to -size"},
	{"1.5M", "Invalid argument `1.5M' to -size"},
	{"0x10", "Invalid argument `0x10' to -size"},
	{"99999999999999999999", "Invalid argument `99999999999999999999' to -size"},
}

func TestSize(t *testing.T) {
	s := newTestState()
	for _, tt := range sizeTests {
		t.Run(fmt.Sprintf("%s/%d", tt.arg, tt.size), func(t *testing.T) {
			n := parseOne(t, "-size", tt.arg).(*sizeNode)
			e := walker.Synthetic("f", 1, walker.TypeRegular, &unix.Stat_t{Mode: reg | 0o644, Size: tt.size}, nil)
			if got := n.Eval(e, s); got != tt.want {
				t.Errorf("-size %s on %d bytes = %v, want %v", tt.arg, tt.size, got, tt.want)
			}
		})
	}
	for _, tt := range sizeErrors {
		_, err := Parse([]string{".", "-size", tt.arg}, Config{})
		if err == nil || err.Error() != tt.msg {
			t.Errorf("-size %q: error %v, want %q", tt.arg, err, tt.msg)
		}
	}
	if _, err := Parse([]string{".", "-size"}, Config{}); err == nil || err.Error() != "missing argument to `-size'" {
		t.Errorf("-size without argument: %v", err)
	}
}

func TestSizeStatFails(t *testing.T) {
	s := newTestState()
	n := parseOne(t, "-size", "-1M")
	e := walker.Synthetic("gone", 1, walker.TypeUnknown, nil, nil)
	if n.Eval(e, s) {
		t.Error("-size is true for a file that cannot be stat'ed")
	}
	if !s.Diag.Failed() {
		t.Error("the failed stat was not reported")
	}
}

func FuzzSize(f *testing.F) {
	for _, tt := range sizeTests {
		f.Add(tt.arg, tt.size)
	}
	for _, tt := range sizeErrors {
		f.Add(tt.arg, int64(1))
	}
	f.Fuzz(func(t *testing.T, arg string, size int64) {
		cmd, err := Parse([]string{".", "-size", arg}, Config{})
		if err != nil {
			if !strings.Contains(err.Error(), "-size") {
				t.Fatalf("-size %q: error %q does not name -size", arg, err)
			}
			return
		}
		n := cmd.Expr.(*andNode).kids[0].(*sizeNode)
		if size < 0 {
			size = -size - 1
		}
		e := walker.Synthetic("f", 1, walker.TypeRegular, &unix.Stat_t{Mode: reg, Size: size}, nil)
		got := n.Eval(e, newTestState())
		// The rounding rule, independently: the size in units, rounded
		// up, is the least k with k*unit >= size.
		k := uint64(size) / n.unit
		if k*n.unit < uint64(size) {
			k++
		}
		if want := n.num.match(k); got != want {
			t.Fatalf("-size %s on %d bytes = %v, want %v", arg, size, got, want)
		}
		again, err := Parse([]string{".", "-size", n.Args()[1]}, Config{})
		if err != nil || *again.Expr.(*andNode).kids[0].(*sizeNode) != *n {
			t.Fatalf("round trip of %q: %v", arg, err)
		}
	})
}

// TestEmpty checks -empty on real files, which it must open when they
// are directories.
func TestEmpty(t *testing.T) {
	tmp := t.TempDir()
	mk := func(name string, dirMode os.FileMode, size int) {
		p := filepath.Join(tmp, name)
		var err error
		if dirMode != 0 {
			err = os.Mkdir(p, dirMode)
		} else {
			err = os.WriteFile(p, make([]byte, size), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	mk("emptydir", 0o755, 0)
	mk("fulldir", 0o755, 0)
	mk("fulldir/x", 0, 0)
	mk("dotdir", 0o755, 0)
	mk("dotdir/.x", 0, 0)
	mk("dotsdir", 0o755, 0)
	mk("dotsdir/...", 0, 0)
	mk("zero", 0, 0)
	mk("one", 0, 1)
	if err := unix.Mkfifo(filepath.Join(tmp, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("emptydir", filepath.Join(tmp, "link")); err != nil {
		t.Fatal(err)
	}
	// Enough entries to need more than one getdents batch.
	mk("big", 0o755, 0)
	for i := range 300 {
		mk(fmt.Sprintf("big/%0100d", i), 0, 0)
	}
	want := map[string]bool{
		"emptydir": true, "zero": true,
		"fulldir": false, "dotdir": false, "dotsdir": false, "one": false,
		"fifo": false, "link": false, "big": false,
	}
	for follow, wantLink := range map[walker.Follow]bool{walker.FollowNever: false, walker.FollowAll: true} {
		got := map[string]bool{}
		s := newTestState()
		s.follow = follow
		err := walker.Walk([]string{tmp}, walker.Options{Workers: 1, MaxDepth: 1, MinDepth: 1, Follow: follow}, func(e *walker.Entry) walker.Action {
			if e.Err == nil {
				got[string(e.Name())] = emptyNode{}.Eval(e, s)
			}
			return walker.Continue
		})
		if err != nil {
			t.Fatal(err)
		}
		want["link"] = wantLink
		for name, w := range want {
			if got[name] != w {
				t.Errorf("follow %v: -empty on %s = %v, want %v", follow, name, got[name], w)
			}
		}
		if s.Diag.Failed() {
			t.Errorf("follow %v: an error was reported", follow)
		}
	}
}

func TestEmptyOpenFails(t *testing.T) {
	// A Synthetic Entry has no directory to open relative to.
	s := newTestState()
	e := walker.Synthetic("d", 1, walker.TypeDir, &unix.Stat_t{Mode: dir | 0o755}, nil)
	if (emptyNode{}).Eval(e, s) {
		t.Error("-empty is true for a directory that cannot be opened")
	}
	if !s.Diag.Failed() {
		t.Error("the failed open was not reported")
	}
}

// raceEnabled is set under the race detector (meta_race_test.go).
var raceEnabled bool

// TestMetaEvalAllocs checks that evaluating the family's nodes on real
// entries allocates nothing.
func TestMetaEvalAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	tmp := t.TempDir()
	if err := os.Mkdir(filepath.Join(tmp, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	nodes := []Node{emptyNode{}, &accessNode{op: "-readable", mode: unix.R_OK}}
	for _, a := range [][]string{{"-size", "-1k"}, {"-perm", "-u+r"}, {"-links", "1"}, {"-uid", "0"}, {"-nouser"}} {
		nodes = append(nodes, parseOne(t, a...))
	}
	s := newTestState()
	err := walker.Walk([]string{tmp}, walker.Options{Workers: 1, MinDepth: 1}, func(e *walker.Entry) walker.Action {
		for _, n := range nodes {
			n.Eval(e, s) // warm the pool
			if a := testing.AllocsPerRun(10, func() { n.Eval(e, s) }); a != 0 {
				t.Errorf("%q on %s: %v allocations", n.Args(), e.Path, a)
			}
		}
		return walker.Continue
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestMetaArgsRoundTrip parses expressions using the family's primaries,
// renders them with Args and parses that again, as FuzzParse does.
func TestMetaArgsRoundTrip(t *testing.T) {
	for _, args := range []string{
		"-size -1M -o -size +2k ! -empty",
		"-perm /000 -perm -u+x,g-w -perm 0644",
		"-follow -samefile . -links +1 -inum -5",
		"-samefile . -follow -samefile .",
		"-user 0 -group 0 -uid -1 -gid +0 -nouser -o -nogroup",
		"( -readable -writable ) , -executable",
	} {
		cmd, err := Parse(append([]string{"."}, strings.Fields(args)...), Config{})
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		again, err := Parse(append([]string{"."}, cmd.Expr.Args()...), Config{})
		if err != nil || !slices.Equal(again.Expr.Args(), cmd.Expr.Args()) || !reflect.DeepEqual(withoutFuncs(again.Walk), withoutFuncs(cmd.Walk)) {
			t.Errorf("%s: round trip %q gave %v, %v", args, cmd.Expr.Args(), again, err)
		}
	}
}
