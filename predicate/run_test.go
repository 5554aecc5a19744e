package predicate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
)

// TestReorders: the output is put back in order only when every one of
// the five conditions holds; each alone turns it off.
func TestReorders(t *testing.T) {
	on := walker.Options{Sort: true, Workers: 2}
	for _, tt := range []struct {
		name       string
		opt        walker.Options
		tty        bool
		outputOnly bool
		want       bool
	}{
		{"all", on, false, true, true},
		{"grown", walker.Options{Sort: true, Workers: 1, MaxWorkers: 4}, false, true, false}, // -s does not grow
		{"workers per P", walker.Options{Sort: true}, false, true, runtime.GOMAXPROCS(0) > 1},
		{"unsorted", walker.Options{Workers: 2}, false, true, false},
		{"one worker", walker.Options{Sort: true, Workers: 1}, false, true, false},
		{"post-order", walker.Options{Sort: true, Workers: 2, PostOrder: true}, false, true, false},
		{"terminal", on, true, true, false},
		{"more than output", on, false, false, false},
	} {
		if got := reorders(tt.opt, tt.tty, tt.outputOnly); got != tt.want {
			t.Errorf("%s: reorders(%+v, tty %v, outputOnly %v) = %v, want %v", tt.name, tt.opt, tt.tty, tt.outputOnly, got, tt.want)
		}
	}
}

// TestWalkOptions: -j fixes the workers; without it the walk starts
// with one per P and grows, unless it is sorted (by -s or by the
// expression).
func TestWalkOptions(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, tt := range []struct {
		name          string
		opt           walker.Options
		workers       int
		sort          bool
		wantWorkers   int
		wantMax       int
		wantSorted    bool
		wantPostOrder bool
	}{
		{"no -j", walker.Options{}, 0, false, procs, max(procs, maxAdaptWorkers), false, false},
		{"-j3", walker.Options{}, 3, false, 3, 0, false, false},
		{"-s", walker.Options{}, 0, true, procs, 0, true, false},
		{"-j1 -s", walker.Options{}, 1, true, 1, 0, true, false},
		{"expression sorts", walker.Options{Sort: true}, 0, false, procs, 0, true, false},
		{"-depth kept", walker.Options{PostOrder: true}, 2, false, 2, 0, false, true},
	} {
		got := walkOptions(tt.opt, tt.workers, tt.sort)
		if got.Workers != tt.wantWorkers || got.MaxWorkers != tt.wantMax || got.Sort != tt.wantSorted || got.PostOrder != tt.wantPostOrder {
			t.Errorf("%s: Workers %d, MaxWorkers %d, Sort %v, PostOrder %v; want %d, %d, %v, %v", tt.name,
				got.Workers, got.MaxWorkers, got.Sort, got.PostOrder, tt.wantWorkers, tt.wantMax, tt.wantSorted, tt.wantPostOrder)
		}
		if got.Procs == nil {
			t.Errorf("%s: no Procs", tt.name)
		}
	}
}

// newTestRun parses args and makes a Run of them with cfg, its output
// to a file and its diagnostics in the returned buffer; out reads the
// output once the run is finished.
func newTestRun(t *testing.T, args []string, cfg RunConfig) (r *Run, diag *bytes.Buffer, out func() string) {
	t.Helper()
	cmd, err := Parse(args, Config{})
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "out")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	diag = new(bytes.Buffer)
	d := output.NewDiagStyle("gfind", diag, output.StyleC)
	return NewRun(cmd, output.NewSink(f, d), d, cfg), diag, func() string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

// TestRunStatus: the exit status is 0 for a clean run and 1 when the
// walk failed (its error reported), when a file could not be read, and
// when an action failed; -noerror's hidden errors do not count.
func TestRunStatus(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	for _, tt := range []struct {
		name     string
		args     []string
		walkErr  error
		want     int
		wantDiag string
	}{
		{"clean", []string{dir, "-name", "f"}, nil, 0, ""},
		{"walk error", []string{dir}, errors.New("the walk broke"), 1, "gfind: the walk broke\n"},
		{"missing root", []string{missing}, nil, 1, "No such file or directory"},
		{"-noerror", []string{missing, "-noerror"}, nil, 0, ""},
		{"-quit", []string{dir, "-quit"}, nil, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, diag, _ := newTestRun(t, tt.args, RunConfig{Workers: 1})
			err := r.Walk(r.cmd.NextRoot(r.diag), r.Visit)
			if err == nil {
				err = tt.walkErr
			}
			if got := r.Finish(err); got != tt.want {
				t.Errorf("status %d, want %d (stderr %q)", got, tt.want, diag)
			}
			if !strings.Contains(diag.String(), tt.wantDiag) || tt.wantDiag == "" && diag.Len() > 0 {
				t.Errorf("stderr %q, want %q in it", diag, tt.wantDiag)
			}
		})
	}
}

// TestRunVisit: Visit evaluates the expression with the State of the
// entry's worker, making it for a worker the walk grew to; a walker
// error is reported, except a loop under -unique, which is skipped
// silently, as bfs does.
func TestRunVisit(t *testing.T) {
	loop := &walker.LoopError{Path: "d/up"}
	for _, tt := range []struct {
		name     string
		args     []string
		entryErr error
		wantOut  string
		wantDiag string
		status   int
	}{
		{"print", []string{"."}, nil, "./x\n", "", 0},
		{"loop", []string{"."}, loop, "", "File system loop detected", 1},
		{"loop under -unique", []string{".", "-unique"}, loop, "", "", 0},
		{"other error under -unique", []string{".", "-unique"}, os.ErrPermission, "", "permission denied", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, diag, out := newTestRun(t, tt.args, RunConfig{}) // no -j: the walk may grow
			last := r.Workers() - 1
			if r.states[last] != nil {
				t.Fatalf("worker %d's State made before it is needed", last)
			}
			e := walker.Synthetic("./x", 1, walker.TypeRegular, nil, nil)
			e.Worker, e.Err = last, tt.entryErr
			if got := r.Visit(e); got != walker.Continue {
				t.Errorf("Visit = %v, want Continue", got)
			}
			if r.states[last] == nil {
				t.Errorf("worker %d has no State after its visit", last)
			}
			if got := r.Finish(nil); got != tt.status {
				t.Errorf("status %d, want %d", got, tt.status)
			}
			if got := out(); got != tt.wantOut {
				t.Errorf("output %q, want %q", got, tt.wantOut)
			}
			if !strings.Contains(diag.String(), tt.wantDiag) || tt.wantDiag == "" && diag.Len() > 0 {
				t.Errorf("stderr %q, want %q in it", diag, tt.wantDiag)
			}
		})
	}
}

// TestRunReorder: a sorted walk of several workers whose expression
// only prints gets the reorder buffer; one that runs -ls does not.
func TestRunReorder(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{
		{[]string{".", "-print"}, true},
		{[]string{".", "-ls"}, false},
	} {
		r, _, _ := newTestRun(t, tt.args, RunConfig{Workers: 2, Sort: true})
		if got := r.walk.Ordered != nil; got != tt.want {
			t.Errorf("%q: reorder buffer %v, want %v", tt.args, got, tt.want)
		}
		r.Finish(nil)
	}
}
