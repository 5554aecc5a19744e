package predicate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gfind/gfind/output"
)

func TestLimitParse(t *testing.T) {
	tests := []struct {
		args    []string
		want    int64
		wantErr string
	}{
		{[]string{"-limit", "5", "-print"}, 5, ""},
		{[]string{"-print", "-limit", "007"}, 7, ""},
		{[]string{"-limit", "1", "-limit", "3", "-ls"}, 3, ""}, // the last wins
		{[]string{"-name", "x"}, 0, ""},
		{[]string{"-limit", "9223372036854775807", "-print0"}, 1<<63 - 1, ""},
		{[]string{"-limit", "2", "-exec", "true", ";"}, 2, ""},
		{[]string{"-limit", "2", "-fprint", os.DevNull}, 2, ""},
		{[]string{"-delete", "-false", "-limit", "2"}, 2, ""},
		// No explicit action: refused, as bfs refuses it.
		{[]string{"-limit", "3"}, 0, "with -limit, you must specify an action explicitly; for example, -print -limit 3"},
		{[]string{"-name", "x", "-limit", "007"}, 0, "with -limit, you must specify an action explicitly; for example, -print -limit 7"},
		{[]string{"(", "-limit", "3", ")"}, 0, "with -limit, you must specify an action explicitly; for example, -print -limit 3"},
		{[]string{"-limit", "3", "-prune"}, 0, "with -limit, you must specify an action explicitly; for example, -print -limit 3"},
		{[]string{"-limit", "3", "-quit"}, 0, "with -limit, you must specify an action explicitly; for example, -print -limit 3"},
		{[]string{"-limit"}, 0, "missing argument to `-limit'"},
		{[]string{"-limit", "0"}, 0, "Expected a positive decimal integer argument to -limit, but got '0'"},
		{[]string{"-limit", "000"}, 0, "Expected a positive decimal integer argument to -limit, but got '000'"},
		{[]string{"-limit", "-1"}, 0, "Expected a positive decimal integer argument to -limit, but got '-1'"},
		{[]string{"-limit", "+1"}, 0, "Expected a positive decimal integer argument to -limit, but got '+1'"},
		{[]string{"-limit", ""}, 0, "Expected a positive decimal integer argument to -limit, but got ''"},
		{[]string{"-limit", "1k"}, 0, "Expected a positive decimal integer argument to -limit, but got '1k'"},
		{[]string{"-limit", "9223372036854775808"}, 0, "9223372036854775808: Numerical result out of range"},
	}
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, tt.args...), Config{})
		switch {
		case tt.wantErr != "":
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("Parse(%q) error = %v, want %q", tt.args, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("Parse(%q): %v", tt.args, err)
		case cmd.Limit != tt.want || (cmd.lim != nil) != (tt.want > 0):
			t.Errorf("Parse(%q): Limit %d (limiter %v), want %d", tt.args, cmd.Limit, cmd.lim != nil, tt.want)
		}
	}
}

func TestNoerrorParse(t *testing.T) {
	tests := []struct {
		args           []string
		cfgQuiet, warn bool // Config.QuietErrors (--quiet-errors), Config.Warnings
		quiet, noError bool
		warnings       bool
	}{
		{args: []string{"-print"}},
		{args: []string{"-noerror"}, noError: true},
		{args: []string{"-name", "x", "-noerror"}, noError: true},
		{args: []string{"-print"}, cfgQuiet: true, quiet: true},
		{args: []string{"-noerror"}, cfgQuiet: true, quiet: true, noError: true},
		// Warnings is the state at the end, for bfs's warning of how
		// many errors -noerror hid.
		{args: []string{"-noerror"}, warn: true, noError: true, warnings: true},
		{args: []string{"-noerror", "-warn"}, noError: true, warnings: true},
		{args: []string{"-warn", "-noerror", "-nowarn"}, noError: true},
	}
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, tt.args...), Config{QuietErrors: tt.cfgQuiet, Warnings: tt.warn})
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.args, err)
		}
		if cmd.QuietErrors != tt.quiet || cmd.NoError != tt.noError || cmd.Warnings != tt.warnings {
			t.Errorf("Parse(%q), Config.QuietErrors %v, Config.Warnings %v: QuietErrors %v, NoError %v, Warnings %v; want %v, %v, %v",
				tt.args, tt.cfgQuiet, tt.warn, cmd.QuietErrors, cmd.NoError, cmd.Warnings, tt.quiet, tt.noError, tt.warnings)
		}
	}
	// Like -warn it is always true and does not turn off the -print.
	cmd, err := Parse([]string{".", "-noerror"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cmd.Expr.Args(), " "); got != "-noerror -a -print" {
		t.Errorf("-noerror parses as %q", got)
	}
}

// TestStatusParse checks -status: set wherever it stands, always true,
// and the -print stays implicit.
func TestStatusParse(t *testing.T) {
	tests := []struct {
		args   []string
		status bool
		expr   string
	}{
		{[]string{"-print"}, false, "-print"},
		{[]string{"-status"}, true, "-status -a -print"},
		{[]string{"-name", "x", "-status"}, true, "-name x -a -status -a -print"},
		{[]string{"-status", "-o", "-print"}, true, "-status -o -print"},
	}
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, tt.args...), Config{})
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.args, err)
		}
		if cmd.Status != tt.status {
			t.Errorf("Parse(%q): Status %v, want %v", tt.args, cmd.Status, tt.status)
		}
		if got := strings.Join(cmd.Expr.Args(), " "); got != tt.expr {
			t.Errorf("Parse(%q) parses as %q, want %q", tt.args, got, tt.expr)
		}
	}
}

// wideTree makes root/d0..d9, each with n/10 files, and returns root.
func wideTree(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	for i := range n {
		d := filepath.Join(root, fmt.Sprintf("d%d", i%10))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%04d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// walkCommand runs "gfind ARGS" in the test process with the given
// number of workers as cmd/gfind does, and returns its standard output
// and the States.
func walkCommand(t *testing.T, args []string, cfg Config, workers int) (string, []*State) {
	t.Helper()
	cmd, err := Parse(args, cfg)
	if err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	out, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var stderr bytes.Buffer
	diag := output.NewDiagStyle("gfind", &stderr, output.StyleC)
	sink := output.NewSink(out, diag, output.WithTTY(false))
	states, err := walkStates(cmd, sink, diag, workers, nil)
	if err != nil {
		t.Fatal(err)
	}
	if stderr.Len() > 0 {
		t.Errorf("%q: stderr %q", args, stderr.String())
	}
	b, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b), states
}

// TestLimitExact: with 4 workers on 1000 files, -limit N prints exactly
// N distinct matching lines, every time.
func TestLimitExact(t *testing.T) {
	root := wideTree(t, 1000)
	for _, n := range []int{1, 2, 3, 4, 5, 17, 500, 999, 1000} {
		for range 5 {
			out, states := walkCommand(t, []string{root, "-type", "f", "-limit", fmt.Sprint(n), "-print"}, Config{}, 4)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			seen := map[string]bool{}
			for _, l := range lines {
				if !strings.Contains(l, "/f") || seen[l] {
					t.Fatalf("-limit %d: bad or repeated line %q", n, l)
				}
				seen[l] = true
			}
			if len(lines) != n {
				t.Fatalf("-limit %d: %d lines", n, len(lines))
			}
			var matches int64
			for _, s := range states {
				matches += s.Matches()
			}
			if matches != int64(n) {
				t.Fatalf("-limit %d: %d matches counted", n, matches)
			}
		}
	}
}

// TestLimitCountsMatches: a match is the whole expression being true,
// not a -print: "-print -false" prints everything and matches nothing,
// so the limit never stops it; and a limit above the number of matches
// changes nothing.
func TestLimitCountsMatches(t *testing.T) {
	root := wideTree(t, 100)
	out, _ := walkCommand(t, []string{root, "-type", "f", "-print", "-false", "-limit", "3"}, Config{}, 4)
	if n := strings.Count(out, "\n"); n != 100 {
		t.Errorf("-print -false -limit 3: %d lines, want 100", n)
	}
	out, _ = walkCommand(t, []string{root, "-type", "f", "-print", "-limit", "1000"}, Config{}, 4)
	if n := strings.Count(out, "\n"); n != 100 {
		t.Errorf("-limit 1000 on 100 files: %d lines, want 100", n)
	}
	// Serially, the first N in walk order.
	out, _ = walkCommand(t, []string{root, "-limit", "3", "-print"}, Config{}, 1)
	if n := strings.Count(out, "\n"); n != 3 || !strings.HasPrefix(out, root+"\n") {
		t.Errorf("-j1 -limit 3: %q", out)
	}
}

// TestLimiterNeverOver: many goroutines racing through acquire and
// release never record more than N matches, and all stop.
func TestLimiterNeverOver(t *testing.T) {
	for _, n := range []int64{1, 2, 7, 100} {
		l := newLimiter(n)
		var mu sync.Mutex
		var matched, lastSeen int64
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					if !l.acquire() {
						return
					}
					match := (i+g)%3 == 0
					if match {
						mu.Lock()
						matched++
						mu.Unlock()
					}
					if l.release(match) {
						mu.Lock()
						lastSeen++
						mu.Unlock()
					}
				}
			}()
		}
		wg.Wait()
		if matched != n || lastSeen != 1 {
			t.Errorf("N=%d: %d matches, %d told they were the last; want %d, 1", n, matched, lastSeen, n)
		}
	}
}
