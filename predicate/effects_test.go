package predicate

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEffects checks the effects each primary's node declares, as the
// whole expression gathers them, and what RunsCommands, Pure and Prints
// make of them. The implicit -print shows as EffectStdout: tests,
// -prune and -quit do not turn it off.
func TestEffects(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	const (
		out   = EffectStdout
		order = EffectOrder
	)
	tests := []struct {
		args string
		want Effect
	}{
		{"-name x -type f -size +1k -newer-than 1d -glob **/x", out}, // the implicit -print
		{"-print", out},
		{"-print0", out},
		{"-printf %p", out},
		{"-printjson", out},
		{"-ls", out | order},
		{"-fprint " + file, EffectFile},
		{"-fprint0 " + file, EffectFile},
		{"-fprintf " + file + " %p", EffectFile},
		{"-fprintf /dev/stdout %p", EffectFile},
		{"-fls " + file, EffectFile | order},
		{"-exec true ;", EffectExec},
		{"-exec true {} +", EffectExec},
		{"-execdir true ;", EffectExec},
		{"-execdir true {} +", EffectExec},
		{"-ok true ;", EffectExec},
		{"-okdir true ;", EffectExec},
		{"-delete", EffectDelete},
		{"-delete-dry-run", EffectDelete},
		{"-prune", EffectPrune | out},
		{"-quit", EffectQuit | out},
		{"-exclude -name x", out},
		{"-maxdepth 1 -limit 2 -true -false -print", out},
		{"-name x -o ! -exec true ; , -ls", EffectExec | out | order},
		{"-depth ( -prune -o -quit ) -delete", EffectPrune | EffectQuit | EffectDelete},
	}
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, strings.Fields(tt.args)...), Config{})
		if err != nil {
			t.Fatalf("%s: %v", tt.args, err)
		}
		f := cmd.Expr.Facts()
		if f.Effects != tt.want {
			t.Errorf("%q: effects %07b, want %07b", tt.args, f.Effects, tt.want)
		}
		if got, want := cmd.RunsCommands(), tt.want&EffectExec != 0; got != want {
			t.Errorf("%q: RunsCommands = %v, want %v", tt.args, got, want)
		}
		if f.Pure() {
			t.Errorf("%q: pure, with effects %07b", tt.args, f.Effects)
		}
		if !f.Prints() {
			t.Errorf("%q: does not print", tt.args)
		}
		cmd.Close()
	}
}
