package predicate

import (
	"strings"
	"testing"

	"github.com/gfind/gfind/walker"
)

// excludeTests are -exclude command lines: the parsed expression, the
// exclusion (the -exclude operands joined with -o), or the error.
var excludeTests = []struct {
	args, expr, exclude, err string
}{
	{"-exclude -name a", "-exclude -name a -a -print", "-name a", ""},
	{"-exclude ! -name a", "-exclude ! -name a -a -print", "! -name a", ""},
	{"-exclude -not -name a", "-exclude ! -name a -a -print", "! -name a", ""},
	{"-exclude ( -name a -o -type d )", "-exclude ( -name a -o -type d ) -a -print", "-name a -o -type d", ""},
	{"-exclude ( -name a , -name b )", "-exclude ( -name a , -name b ) -a -print", "-name a , -name b", ""},
	// The operand is one unary term, as for '!'.
	{"-exclude -name a -o -name b", "( -exclude -name a -o -name b ) -a -print", "-name a", ""},
	{"-exclude -name a -name b", "-exclude -name a -a -name b -a -print", "-name a", ""},
	{"-name b -exclude -name a", "-name b -a -exclude -name a -a -print", "-name a", ""},
	{"! -exclude -name a", "! -exclude -name a -a -print", "-name a", ""},
	{"-exclude ! ! -name a", "-exclude ! ! -name a -a -print", "! ! -name a", ""},
	{"-exclude -glob **/.* -print0", "-exclude -glob **/.* -a -print0", "-glob **/.*", ""},
	// Several combine with -o.
	{"-exclude -name a -exclude -name b", "-exclude -name a -a -exclude -name b -a -print", "-name a -o -name b", ""},
	{"-name x -o -exclude -name a -o ( -exclude -type d )", "( -name x -o -exclude -name a -o -exclude -type d ) -a -print", "-name a -o -type d", ""},
	{"-exclude -gitignored", "-exclude -gitignored -a -print", "-gitignored", ""},
	// Options and constants are tests that are always true.
	{"-exclude -true", "-exclude -true -a -print", "-true", ""},
	// No operand.
	{"-exclude", "", "", "expected an expression after '-exclude'"},
	{"-name a -exclude", "", "", "expected an expression after '-exclude'"},
	{"( -exclude )", "", "", "expected an expression between '-exclude' and ')'"},
	{"-exclude -o -name a", "", "", "invalid expression; you have used a binary operator '-o' with nothing before it."},
	// Actions, -prune, -quit and -exclude itself are refused.
	{"-exclude -print", "", "", "`-print' is not supported within `-exclude' (only tests and operators are)"},
	{"-exclude -prune", "", "", "`-prune' is not supported within `-exclude' (only tests and operators are)"},
	{"-exclude -quit", "", "", "`-quit' is not supported within `-exclude' (only tests and operators are)"},
	{"-exclude -delete", "", "", "`-delete' is not supported within `-exclude' (only tests and operators are)"},
	{"-exclude -ls", "", "", "`-ls' is not supported within `-exclude' (only tests and operators are)"},
	{"-exclude -exec true ;", "", "", "`-exec' is not supported within `-exclude' (only tests and operators are)"},
	{"-exclude ( -name a -o ! -print )", "", "", "`-print' is not supported within `-exclude' (only tests and operators are)"},
	{"-exclude -exclude -name a", "", "", "`-exclude' is not supported within `-exclude' (only tests and operators are)"},
}

func TestExcludeParse(t *testing.T) {
	for _, tt := range excludeTests {
		cmd, err := Parse(append([]string{"."}, parseArgs(tt.args)...), Config{})
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Parse(%q) error = %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.args, err)
			continue
		}
		expr := strings.Join(cmd.Expr.Args(), " ")
		if expr != tt.expr {
			t.Errorf("Parse(%q) = %q, want %q", tt.args, expr, tt.expr)
		}
		if cmd.Exclude == nil {
			t.Errorf("Parse(%q): no exclusion", tt.args)
		} else if got := strings.Join(cmd.Exclude.Args(), " "); got != tt.exclude {
			t.Errorf("Parse(%q) exclusion = %q, want %q", tt.args, got, tt.exclude)
		}
		// The rendering parses back to the same tree.
		again, err := Parse(append([]string{"."}, cmd.Expr.Args()...), Config{})
		if err != nil || strings.Join(again.Expr.Args(), " ") != expr {
			t.Errorf("Parse(%q) rendered as %q does not parse back: %v", tt.args, expr, err)
		}
	}
	cmd, err := Parse([]string{".", "-name", "a"}, Config{})
	if err != nil || cmd.Exclude != nil || cmd.ExcludeFunc(nil, 1) != nil {
		t.Errorf("without -exclude: %v, exclusion %v", err, cmd.Exclude)
	}
}

// TestExcludeFunc evaluates exclusions as the walker asks for them.
func TestExcludeFunc(t *testing.T) {
	states := []*State{newTestState(), newTestState()}
	for _, c := range []struct {
		args  string
		path  string
		depth int
		typ   walker.Type
		want  bool
	}{
		{"-exclude -name .git", "./.git", 1, walker.TypeDir, true},
		{"-exclude -name .git", "./a/.git", 2, walker.TypeRegular, true},
		{"-exclude -name .git", "./a/git", 2, walker.TypeRegular, false},
		{"-exclude -name .git", ".git", 0, walker.TypeDir, true}, // a starting point
		{"-exclude ! -type d", "./a", 1, walker.TypeRegular, true},
		{"-exclude ! -type d", "./a", 1, walker.TypeDir, false},
		{"-exclude -name a -exclude -name b", "./b", 1, walker.TypeDir, true},
		{"-exclude -name a -exclude -name b", "./a", 1, walker.TypeDir, true},
		{"-exclude -name a -exclude -name b", "./c", 1, walker.TypeDir, false},
		{"-exclude ( -name a -type d )", "./a", 1, walker.TypeRegular, false},
		{"-exclude -glob x/**", "./x/y/z", 3, walker.TypeRegular, true},
		{"-exclude -glob x/**", "./y/x/z", 3, walker.TypeRegular, false},
		// What follows -exclude's operand is not part of it.
		{"-exclude -name a -o -name b", "./b", 1, walker.TypeRegular, false},
		{"-exclude -name a -false", "./a", 1, walker.TypeRegular, true},
	} {
		cmd, err := Parse(append([]string{"."}, parseArgs(c.args)...), Config{})
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.args, err)
		}
		for level := 0; level <= 3; level++ {
			f := cmd.ExcludeFunc(states, level)
			e := walker.Synthetic(c.path, c.depth, c.typ, nil, nil)
			for w := range states {
				e.Worker = w
				if got := f(e); got != c.want {
					t.Errorf("%s: %q (depth %d, -O%d, worker %d) excluded = %v, want %v", c.args, c.path, c.depth, level, w, got, c.want)
				}
			}
		}
	}
}

// TestExcludeExprTrue checks that -exclude is true where it stands.
func TestExcludeExprTrue(t *testing.T) {
	s := newTestState()
	e := walker.Synthetic("./a", 1, walker.TypeRegular, nil, nil)
	for args, want := range map[string]bool{
		"-exclude -name a":             true,
		"-exclude -name b":             true,
		"! -exclude -name b":           false,
		"-false -o -exclude -name b":   true,
		"-exclude -name a -a -name b":  false,
		"-exclude -false -a -name a":   true,
		"-exclude ( -false ) , -false": false,
	} {
		cmd, err := Parse(append([]string{"."}, parseArgs(args)...), Config{})
		if err != nil {
			t.Fatalf("Parse(%q): %v", args, err)
		}
		before := s.printed()
		cmd.Expr.Eval(e, s)
		if got := s.printed() > before; got != want {
			t.Errorf("%s: printed = %v, want %v", args, got, want)
		}
	}
}

func TestExcludeAllocs(t *testing.T) {
	cmd, err := Parse([]string{".", "-exclude", "(", "-glob", "**/.*", "-o", "-iname", "*.O", ")"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	states := []*State{newTestState()}
	f := cmd.ExcludeFunc(states, 2)
	e := walker.Synthetic("./src/x/main.go", 3, walker.TypeRegular, nil, nil)
	if a := testing.AllocsPerRun(100, func() { f(e) }); a != 0 {
		t.Errorf("%v allocations per exclusion check, want 0", a)
	}
}
