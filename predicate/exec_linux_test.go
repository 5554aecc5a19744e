package predicate

// Linux's own limits on -exec's arguments (MAX_ARG_STRLEN, the stack
// limit's quarter); TestArgRoom is the rest, on every system.

import (
	"strings"
	"testing"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// TestExecArgTooLong: a path longer than one argument may be is
// reported and not passed; the others are.
func TestExecArgTooLong(t *testing.T) {
	cmd, err := Parse([]string{".", "-exec", "true", "{}", "+"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestState()
	var msg strings.Builder
	s.Diag = output.NewDiagStyle("gfind", &msg, output.StyleC)
	long := strings.Repeat("x", maxArgStrlen)
	cmd.Expr.Eval(walker.Synthetic(long, 1, walker.TypeRegular, &unix.Stat_t{}, nil), s)
	if !strings.Contains(msg.String(), "cannot pass it to true: one argument may hold at most 131071 bytes") || !s.Diag.Failed() {
		t.Errorf("got %.100q…, failed %v", msg.String(), s.Diag.Failed())
	}
	semi, err := Parse([]string{".", "-exec", "true", "{}", ";"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if semi.Expr.Eval(walker.Synthetic(long, 1, walker.TypeRegular, &unix.Stat_t{}, nil), s) {
		t.Error("-exec ... ; with a too long argument is true")
	}
}

// TestArgMaxLinux: Linux's limit is a quarter of the stack limit, at
// least 128 KiB, at most 6 MiB.
func TestArgMaxLinux(t *testing.T) {
	limit := argMax()
	if limit < legacyArgMax || limit > kernelArgCap {
		t.Errorf("argMax() = %d: want between 128 KiB and 6 MiB", limit)
	}
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_STACK, &rl); err != nil {
		t.Fatal(err)
	}
	if rl.Cur != unix.RLIM_INFINITY && rl.Cur/4 >= legacyArgMax && rl.Cur/4 <= kernelArgCap && limit != rl.Cur/4 {
		t.Errorf("argMax() = %d with a stack limit of %d, want a quarter of it", limit, rl.Cur)
	}
}
