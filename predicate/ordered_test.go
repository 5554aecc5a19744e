package predicate

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOrderedVisits: which expressions have the sorted walk visit ahead
// of its order (OrderedVisits): only output to standard output, and a
// stat to make.
func TestOrderedVisits(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	tests := []struct {
		args       string
		outputOnly bool
		ordered    bool
	}{
		{"", true, false},
		{"-name *.go", true, false},
		{"-print0", true, false},
		{"-size +0", true, true},
		{"-type f -size +1k -print", true, true},
		{"-printf %p\\n", true, false},
		{"-printf %s\\n", true, true},
		{"-printjson", true, true},
		{"-name x -prune -o -mtime -1 -print", true, true},
		{"! -empty", true, true},
		{"-size +0 -ls", false, false},
		{"-size +0 -quit", false, false},
		{"-size +0 -delete", false, false},
		{"-size +0 -exec true ;", false, false},
		{"-size +0 -fprint " + file, false, false},
		{"-size +0 -fprintf " + file + " %p", false, false},
		{"-size +0 -limit 3", false, false},
	}
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, strings.Fields(tt.args)...), Config{})
		if err != nil {
			t.Fatalf("%s: %v", tt.args, err)
		}
		if got := cmd.OutputOnly(); got != tt.outputOnly {
			t.Errorf("%q: OutputOnly = %v, want %v", tt.args, got, tt.outputOnly)
		}
		if got := cmd.OrderedVisits(Optimize(cmd.Expr, 1)); got != tt.ordered {
			t.Errorf("%q: OrderedVisits = %v, want %v", tt.args, got, tt.ordered)
		}
		cmd.Close()
	}
}
