package predicate

import (
	"io"
	"os"
	"slices"
	"testing"

	"github.com/gfind/gfind/output"
)

// newTestState returns a State whose output goes nowhere; printed tells
// how many bytes its actions have buffered.
func newTestState() *State {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	diag := output.NewDiagStyle("gfind", io.Discard, output.StyleC)
	return NewState(&Command{}, output.NewSink(devnull, diag), diag)
}

func (s *State) printed() int { return s.Out.Len() }

// onlyPrints reports whether every node of the tree is pure or -print.
func onlyPrints(n Node) bool {
	switch n := n.(type) {
	case *andNode:
		return allOnlyPrints(n.kids)
	case *orNode:
		return allOnlyPrints(n.kids)
	case *commaNode:
		return allOnlyPrints(n.kids)
	case *notNode:
		return onlyPrints(n.kid)
	case *printNode:
		return true
	}
	return n.Facts().Pure()
}

func allOnlyPrints(kids []Node) bool {
	for _, k := range kids {
		if !onlyPrints(k) {
			return false
		}
	}
	return true
}

// parseOne parses ". ARGS" and returns its only primary, checking that
// it renders back as ARGS.
func parseOne(t *testing.T, args ...string) Node {
	t.Helper()
	cmd, err := Parse(append([]string{"."}, args...), Config{})
	if err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	and, ok := cmd.Expr.(*andNode)
	if !ok || len(and.kids) != 2 {
		t.Fatalf("Parse(%q) = %q, want the node and -print", args, cmd.Expr.Args())
	}
	if got := and.kids[0].Args(); !slices.Equal(got, args) {
		t.Errorf("Args() = %q, want %q", got, args)
	}
	return and.kids[0]
}

// statInt is the integer types Stat_t's fields have on some system.
type statInt interface {
	~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64
}

// setStat stores v in a Stat_t field p whatever the field's width here
// (Dev is int32 on macOS and OpenBSD, uint32 on linux/mips64; Mode
// uint16 on macOS and FreeBSD), converting as the C assignment would.
func setStat[T, V statInt](p *T, v V) { *p = T(v) }
