package predicate

import (
	"strings"
	"testing"
)

// TestGitignoreExclude checks where --gitignore's operand goes: among
// the -exclude operands, after -nohidden's and before -exclude's, and
// nowhere in the expression. What it leaves out is compared with git in
// cmd/gfind (extra_gitignore_test.go, extra_gitignore.txtar).
func TestGitignoreExclude(t *testing.T) {
	for _, c := range []struct {
		args, expr, exclude string
	}{
		{"", "-print", "--gitignore"},
		{"-nohidden", "-nohidden -a -print", "-nohidden -o --gitignore"},
		{"-exclude -name a -gitignored", "-exclude -name a -a -gitignored -a -print", "--gitignore -o -name a"},
	} {
		args := append([]string{"."}, parseArgs(c.args)...)
		cmd, err := Parse(args, Config{GitIgnore: true})
		if err != nil {
			t.Errorf("Parse(%q): %v", c.args, err)
			continue
		}
		if got := strings.Join(cmd.Expr.Args(), " "); got != c.expr {
			t.Errorf("Parse(%q) = %q, want %q", c.args, got, c.expr)
		}
		if cmd.Exclude == nil {
			t.Errorf("Parse(%q): no exclusion", c.args)
		} else if got := strings.Join(cmd.Exclude.Args(), " "); got != c.exclude {
			t.Errorf("Parse(%q) exclusion = %q, want %q", c.args, got, c.exclude)
		}
	}
}
