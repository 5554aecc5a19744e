package walker

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// record is what a test keeps of one visit (the engine matrix gets
// them from child processes gob-encoded).
type record struct {
	Path      string
	Type      Type
	Depth     int
	PostOrder bool
	Err       string // "" for a normal visit
}

func (r record) String() string {
	s := fmt.Sprintf("%q type=%d depth=%d", r.Path, r.Type, r.Depth)
	if r.PostOrder {
		s += " post"
	}
	if r.Err != "" {
		s += " err=" + r.Err
	}
	return s
}

// collect walks roots and returns the visits in the order they were made
// (meaningful only with one worker).
func collect(t testing.TB, roots []string, opt Options) []record {
	t.Helper()
	var mu sync.Mutex
	var got []record
	err := Walk(roots, opt, func(e *Entry) Action {
		r := record{Path: string(e.Path), Type: e.Type, Depth: e.Depth, PostOrder: e.PostOrder}
		if e.Err != nil {
			r.Err = errText(e.Err)
		}
		if e.Worker < 0 || (opt.Workers > 0 && e.Worker >= opt.Workers) {
			t.Errorf("%s: Worker = %d, want 0 <= Worker < %d", e.Path, e.Worker, opt.Workers)
		}
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
		return Continue
	})
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	return got
}

// errText gives an error as GNU find's message would end.
func errText(err error) string {
	if le, ok := err.(*LoopError); ok {
		return le.Error()
	}
	var errno unix.Errno
	if pe, ok := err.(interface{ Unwrap() error }); ok {
		if en, ok := pe.Unwrap().(unix.Errno); ok {
			errno = en
		}
	}
	if errno == 0 {
		return err.Error()
	}
	s := errno.Error()
	return strings.ToUpper(s[:1]) + s[1:]
}

func sortedRecords(rs []record) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	sort.Strings(out)
	return out
}

func paths(rs []record) []string {
	var out []string
	for _, r := range rs {
		if r.Err == "" {
			out = append(out, r.Path)
		}
	}
	return out
}

// mk builds a tree under root from a compact spec, one item per string:
// "dir/", "file", "file=content", "link->target".
func mk(t testing.TB, root string, spec ...string) {
	t.Helper()
	for _, s := range spec {
		p := filepath.Join(root, s)
		switch {
		case strings.Contains(s, "->"):
			i := strings.Index(s, "->")
			p = filepath.Join(root, s[:i])
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.Symlink(s[i+2:], p))
		case strings.HasSuffix(s, "/"):
			must(t, os.MkdirAll(p, 0o755))
		default:
			content := ""
			if i := strings.Index(s, "="); i >= 0 {
				p, content = filepath.Join(root, s[:i]), s[i+1:]
			}
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.WriteFile(p, []byte(content), 0o644))
		}
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// weirdTree builds a tree with every kind of file and awkward names.
func weirdTree(t testing.TB) string {
	root := t.TempDir()
	mk(t, root,
		"a/b/c/deep.txt=deep",
		"a/b/empty/",
		"a/file1", "a/file2=x",
		"empty/",
		"-dash/-file",
		"sp ace/na me",
		"new\nline/f\nile",
		"bad\xffbyte/\xfe",
		"tab\tdir/x",
		".hidden/.h",
		"links/tofile->../a/file1",
		"links/todir->../a/b",
		"links/nowhere->../nothere",
		"links/self->self",
		"links/up->..",
		"links/abs->/nonexistent/x",
	)
	fifo := filepath.Join(root, "fifo")
	must(t, unix.Mkfifo(fifo, 0o644))
	return root
}

// runFind runs GNU find in dir with LC_ALL=C and -print0, and returns the
// printed paths and the error lines.
func runFind(t testing.TB, find, dir string, args ...string) (paths []string, stderr string) {
	t.Helper()
	cmd := exec.Command(find, append(args, "-print0")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run() // exit status 1 is expected with errors
	for _, p := range bytes.Split(out.Bytes(), []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, string(p))
		}
	}
	return paths, errb.String()
}

func diffLists(t testing.TB, what string, want, got []string) {
	t.Helper()
	if slices.Equal(want, got) {
		return
	}
	n := 0
	for i := 0; i < max(len(want), len(got)); i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			t.Errorf("%s: line %d: want %q, got %q", what, i, short(w), short(g))
			if n++; n > 10 {
				break
			}
		}
	}
	t.Errorf("%s: want %d lines, got %d", what, len(want), len(got))
}

// short abbreviates the long paths of the deep-tree tests in messages.
func short(s string) string {
	if len(s) > 160 {
		return s[:60] + fmt.Sprintf("...(%d bytes)...", len(s)-120) + s[len(s)-60:]
	}
	return s
}
