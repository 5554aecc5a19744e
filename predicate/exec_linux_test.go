package predicate

// Linux's own limit on one of -exec's arguments (MAX_ARG_STRLEN);
// internal/spawn tests the others.

import (
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/spawn"
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
	long := strings.Repeat("x", spawn.MaxArgLen+1)
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
