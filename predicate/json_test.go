package predicate

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// jsonRecord is what a -printjson line holds.
type jsonRecord struct {
	Path      string    `json:"path"`
	PathB64   *string   `json:"path_b64"`
	Depth     *int      `json:"depth"`
	Type      string    `json:"type"`
	Size      *int64    `json:"size"`
	Mode      string    `json:"mode"`
	UID       *uint32   `json:"uid"`
	GID       *uint32   `json:"gid"`
	User      *string   `json:"user"`
	Group     *string   `json:"group"`
	Mtime     time.Time `json:"mtime"`
	MtimeUnix float64   `json:"mtime_unix"`
	Link      *string   `json:"link"`
	LinkB64   *string   `json:"link_b64"`
}

// exact returns the exact bytes of a name member: from key_b64 when
// there is one, else the string.
func exact(t *testing.T, s string, b64 *string) string {
	t.Helper()
	if b64 == nil {
		return s
	}
	raw, err := base64.StdEncoding.DecodeString(*b64)
	if err != nil {
		t.Fatalf("bad base64 %q: %v", *b64, err)
	}
	return string(raw)
}

// decodeLines parses every line of out as one JSON object, strictly.
func decodeLines(t *testing.T, out string) []jsonRecord {
	t.Helper()
	var recs []jsonRecord
	for _, line := range strings.SplitAfter(out, "\n") {
		if line == "" {
			continue
		}
		if !strings.HasSuffix(line, "}\n") || strings.Count(line, "\n") != 1 {
			t.Fatalf("not one record per line: %q", line)
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var r jsonRecord
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		recs = append(recs, r)
	}
	return recs
}

// TestPrintJSONFiles: on real files with hostile names, every line is
// one JSON object whose members agree with lstat(2), and every path and
// link target decodes to its exact bytes.
func TestPrintJSONFiles(t *testing.T) {
	root := t.TempDir()
	names := []string{"plain", "new\nline", "quote\"back\\slash", "bad\xffname", "ctl\x01\x1f", "é✓", "<&>", "sp ace"}
	mtime := time.Date(2023, 11, 14, 22, 13, 20, 123456789, time.UTC)
	for i, n := range names {
		p := filepath.Join(root, n)
		if err := os.WriteFile(p, make([]byte, i*10), 0o640); err != nil {
			t.Fatal(err)
		}
		ts := unix.NsecToTimespec(mtime.UnixNano())
		if err := unix.UtimesNano(p, []unix.Timespec{ts, ts}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "sub\tdir"), 0o2755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "sub\tdir"), 0o2755|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("bad\xfftarget\n", filepath.Join(root, "sub\tdir", "link")); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(root, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}

	for _, args := range [][]string{{"-printjson"}, {"-print"}, {}} {
		cfg := Config{JSON: len(args) == 0 || args[0] == "-print"}
		out, _ := walkCommand(t, append([]string{root}, args...), cfg, 2)
		recs := decodeLines(t, out)
		if len(recs) != len(names)+4 {
			t.Fatalf("%q: %d records, want %d:\n%s", args, len(recs), len(names)+4, out)
		}
		var gotPaths []string
		for _, r := range recs {
			path := exact(t, r.Path, r.PathB64)
			gotPaths = append(gotPaths, path)
			var st unix.Stat_t
			if err := unix.Lstat(path, &st); err != nil {
				t.Fatalf("%q: %v", path, err)
			}
			if r.Depth == nil || *r.Depth != strings.Count(strings.TrimPrefix(path, root), "/") {
				t.Errorf("%q: depth %v", path, r.Depth)
			}
			if r.Type != string(typeLetter(uint32(st.Mode))) {
				t.Errorf("%q: type %q", path, r.Type)
			}
			if r.Size == nil || *r.Size != st.Size {
				t.Errorf("%q: size %v, want %d", path, r.Size, st.Size)
			}
			if want := fmt.Sprintf("%04o", st.Mode&07777); r.Mode != want {
				t.Errorf("%q: mode %q, want %q", path, r.Mode, want)
			}
			if r.UID == nil || *r.UID != st.Uid || r.GID == nil || *r.GID != st.Gid {
				t.Errorf("%q: uid %v gid %v, want %d %d", path, r.UID, r.GID, st.Uid, st.Gid)
			}
			if name, ok := systemIDs().User(st.Uid); ok != (r.User != nil) || ok && *r.User != name {
				t.Errorf("%q: user %v, want %q", path, r.User, name)
			}
			if name, ok := systemIDs().Group(st.Gid); ok != (r.Group != nil) || ok && *r.Group != name {
				t.Errorf("%q: group %v, want %q", path, r.Group, name)
			}
			if want := time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)); !r.Mtime.Equal(want) {
				t.Errorf("%q: mtime %v, want %v", path, r.Mtime, want)
			}
			if st.Mode&unix.S_IFMT == unix.S_IFLNK {
				if r.Link == nil || exact(t, *r.Link, r.LinkB64) != "bad\xfftarget\n" {
					t.Errorf("%q: link %v %v", path, r.Link, r.LinkB64)
				}
			} else if r.Link != nil {
				t.Errorf("%q: link %q on a non-link", path, *r.Link)
			}
		}
		for _, n := range names {
			if !slices.Contains(gotPaths, filepath.Join(root, n)) {
				t.Errorf("%q: %q missing", args, n)
			}
		}
		for _, r := range recs {
			if strings.HasSuffix(r.Path, "plain") && !r.Mtime.Equal(mtime) {
				t.Errorf("plain: mtime %v, want %v", r.Mtime, mtime)
			}
		}
	}
}

// TestJSONOnlyPrint: --json changes -print, explicit or implicit, and
// nothing else; -printjson renders as itself.
func TestJSONOnlyPrint(t *testing.T) {
	tests := []struct {
		args []string
		json bool
		want string // the types of the actions, in order
	}{
		{nil, false, "*predicate.printNode"},
		{nil, true, "*predicate.jsonNode"},
		{[]string{"-print"}, true, "*predicate.jsonNode"},
		{[]string{"-print0"}, true, "*predicate.printNode"},
		{[]string{"-printjson"}, false, "*predicate.jsonNode"},
		{[]string{"-printjson", "-print"}, false, "*predicate.jsonNode *predicate.printNode"},
		{[]string{"-name", "x"}, true, "*predicate.jsonNode"},
	}
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, tt.args...), Config{JSON: tt.json})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		forEachNode(cmd.Expr, func(n Node) {
			if n.Facts().Prints() {
				if _, ok := n.(*andNode); !ok {
					got = append(got, fmt.Sprintf("%T", n))
				}
			}
		})
		if s := strings.Join(got, " "); s != tt.want {
			t.Errorf("%q json=%v: actions %s, want %s", tt.args, tt.json, s, tt.want)
		}
		// Args parses back to the same tree under the same Config.
		again, err := Parse(append([]string{"."}, cmd.Expr.Args()...), Config{JSON: tt.json})
		if err != nil || !slices.Equal(again.Expr.Args(), cmd.Expr.Args()) {
			t.Errorf("%q: Args %q do not parse back: %v", tt.args, cmd.Expr.Args(), err)
		}
	}
}

// TestPrintJSONSynthetic: unknown owners are null, and a failed stat
// still gives a record with what is known.
func TestPrintJSONSynthetic(t *testing.T) {
	n := &jsonNode{op: "-printjson", db: systemIDs()}
	st := unix.Stat_t{Mode: unix.S_IFREG | 04755, Size: 7, Uid: 4242424, Gid: 4242425, Mtim: unix.Timespec{Sec: 1, Nsec: 2}}
	got, failed := evalOutput(t, n, walker.Synthetic("./x", 1, walker.TypeRegular, &st, nil))
	want := `{"path":"./x","depth":1,"type":"f","size":7,"mode":"4755","uid":4242424,"gid":4242425,"user":null,"group":null,` +
		`"mtime":"1970-01-01T00:00:01.000000002Z","mtime_unix":1.000000002}` + "\n"
	if got != want || failed {
		t.Errorf("got  %s\nwant %s (failed %v)", got, want, failed)
	}

	got, failed = evalOutput(t, n, walker.Synthetic("./gone", 2, walker.TypeDir, nil, nil))
	if want := `{"path":"./gone","depth":2,"type":"d"}` + "\n"; got != want || !failed {
		t.Errorf("failed stat: got %q (failed %v), want %q, reported", got, failed, want)
	}
}

// TestPrintJSONAllocs: a record costs no allocation.
func TestPrintJSONAllocs(t *testing.T) {
	n := &jsonNode{op: "-printjson", db: systemIDs()}
	st := unix.Stat_t{Mode: unix.S_IFREG | 0644, Size: 7, Mtim: unix.Timespec{Sec: 1700000000, Nsec: 2}}
	e := walker.Synthetic("./some/\"file\"\n\xff.go", 2, walker.TypeRegular, &st, nil)
	s := newTestState()
	if allocs := testing.AllocsPerRun(1000, func() { n.Eval(e, s) }); allocs != 0 {
		t.Errorf("%v allocations per record", allocs)
	}
}

// evalOutput evaluates n on e with a fresh State and returns what it
// printed and whether it reported a failure.
func evalOutput(t *testing.T, n Node, e *walker.Entry) (string, bool) {
	t.Helper()
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	diag := output.NewDiagStyle("gfind", io.Discard, output.StyleC)
	s := NewState(&Command{}, output.NewSink(out, diag, output.WithTTY(false)), diag)
	n.Eval(e, s)
	s.Done()
	b, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b), diag.Failed()
}
