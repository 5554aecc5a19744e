package predicate

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputOnly: which expressions let the sorted walk visit out of
// its order (walker.Options.Ordered): only output to standard output.
func TestOutputOnly(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	tests := []struct {
		args       string
		outputOnly bool
	}{
		{"", true},
		{"-name *.go", true},
		{"-print0", true},
		{"-size +0", true},
		{"-type f -size +1k -print", true},
		{"-printf %p\\n", true},
		{"-printf %s\\n", true},
		{"-printjson", true},
		{"-name x -prune -o -mtime -1 -print", true},
		{"! -empty", true},
		{"-size +0 -ls", false},
		{"-size +0 -quit", false},
		{"-size +0 -delete", false},
		{"-size +0 -exec true ;", false},
		{"-size +0 -fprint " + file, false},
		{"-size +0 -fprintf " + file + " %p", false},
		{"-size +0 -print -limit 3", false},
	}
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, strings.Fields(tt.args)...), Config{})
		if err != nil {
			t.Fatalf("%s: %v", tt.args, err)
		}
		if got := cmd.OutputOnly(); got != tt.outputOnly {
			t.Errorf("%q: OutputOnly = %v, want %v", tt.args, got, tt.outputOnly)
		}
		cmd.Close()
	}
}
