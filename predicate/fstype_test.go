package predicate

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/mounts"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// TestFstypeEval uses the real mount table: /proc is procfs wherever
// these tests run.
func TestFstypeEval(t *testing.T) {
	var proc unix.Stat_t
	if err := unix.Stat("/proc", &proc); err != nil || mounts.System().Type(uint64(proc.Dev)) != "proc" {
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
	if f := parseOne(t, "-fstype", "nosuchfs").Facts(); f.Prob != 0 || f.Cost < costStat {
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
