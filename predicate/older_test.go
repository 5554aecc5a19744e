package predicate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// durationTests: DURATION arguments and their seconds; want < 0 means
// invalid, -2 overflow.
var durationTests = []struct {
	in   string
	want int64
}{
	{"0s", 0},
	{"30s", 30},
	{"15m", 900},
	{"36h", 36 * 3600},
	{"7d", 7 * 86400},
	{"2w", 14 * 86400},
	{"1d12h", 86400 + 12*3600},
	{"1w2d3h4m5s", 7*86400 + 2*86400 + 3*3600 + 4*60 + 5},
	{"90m", 5400},
	{"007d", 7 * 86400},
	{"1h0m1s", 3601},
	{"", -1},
	{"7", -1},      // no unit
	{"d", -1},      // no number
	{"1d2", -1},    // trailing number
	{"1x", -1},     // unknown unit
	{"1D", -1},     // units are lower case
	{"1h1d", -1},   // out of order
	{"1h1h", -1},   // repeated
	{"-1d", -1},    // no sign
	{"+1d", -1},    // no sign
	{"1.5h", -1},   // no fraction
	{" 1d", -1},    // no space
	{"1d ", -1},    // no space
	{"1ms", -1},    // no sub-second units
	{"1d\x00", -1}, // no NUL
	{"１d", -1},     // ASCII digits only
	{"7625142226235w", 7625142226235 * 7 * 86400}, // just below 2^62 s
	{"7625142226236w", -2},                        // just above
	{"7625142226235w459904s", 1 << 62},            // exactly 2^62 s
	{"7625142226235w459905s", -2},                 // one more
	{"99999999999999999999s", -2},                 // not even an int64
	{"4611686018427387904s", 1 << 62},             // exactly the bound
	{"4611686018427387905s", -2},                  // one more
	{"0w4611686018427387904s", 1 << 62},           // the bound, after a zero
	{"1s4611686018427387904s", -1},                // repeated unit, checked first
}

func TestParseDuration(t *testing.T) {
	for _, tt := range durationTests {
		got, res := parseDuration(tt.in)
		var want durResult
		switch {
		case tt.want == -1:
			want = durInvalid
		case tt.want == -2:
			want = durOverflow
		}
		if res != want || res == durOK && got != tt.want {
			t.Errorf("parseDuration(%q) = %d, %v; want %d, %v", tt.in, got, res, tt.want, want)
		}
	}
}

// FuzzParseDuration: an accepted DURATION is within bounds, and its
// canonical form reads back as the same number of seconds.
func FuzzParseDuration(f *testing.F) {
	for _, tt := range durationTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		secs, res := parseDuration(s)
		if res != durOK {
			return
		}
		if secs < 0 || secs > maxDurationSecs {
			t.Fatalf("parseDuration(%q) = %d, out of bounds", s, secs)
		}
		canon := formatDuration(secs)
		if back, res := parseDuration(canon); res != durOK || back != secs {
			t.Fatalf("parseDuration(%q) = %d, but its form %q reads as %d, %v", s, secs, canon, back, res)
		}
	})
}

func TestOlderErrors(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"-older"}, "missing argument to `-older'"},
		{[]string{"-newer-than"}, "missing argument to `-newer-than'"},
		{[]string{"-older", "7"}, "invalid argument `7' to `-older'"},
		{[]string{"-newer-than", "1h1d"}, "invalid argument `1h1d' to `-newer-than'"},
		{[]string{"-older", ""}, "invalid argument `' to `-older'"},
		{[]string{"-older", "99999999999999999999d"}, "arithmetic overflow while converting 99999999999999999999d to a number of seconds"},
	}
	for _, tt := range tests {
		_, err := Parse(append([]string{"."}, tt.args...), Config{})
		if err == nil || err.Error() != tt.wantErr {
			t.Errorf("Parse(%q) error = %v, want %q", tt.args, err, tt.wantErr)
		}
	}
}

// TestOlderBoundary: on real files whose mtimes are set around
// start - DURATION to the nanosecond, -older is true strictly before it
// and -newer-than strictly after it; neither at it.
func TestOlderBoundary(t *testing.T) {
	now := time.Date(2024, 5, 1, 10, 0, 0, 500_000_000, time.UTC)
	dir := t.TempDir()
	offsets := map[string]time.Duration{
		"before-1s":  -time.Second,
		"before-1ns": -1,
		"at":         0,
		"after-1ns":  1,
		"after-1s":   time.Second,
	}
	set := func(ref time.Time) {
		for name, off := range offsets {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			ts := unix.NsecToTimespec(ref.Add(off).UnixNano())
			if err := unix.UtimesNano(p, []unix.Timespec{ts, ts}); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		dur  string
		back time.Duration // what dur means
	}{
		{"1d12h", 36 * time.Hour},
		{"0s", 0},
		{"2w", 14 * 24 * time.Hour},
		{"15m", 15 * time.Minute},
	}
	for _, tt := range tests {
		set(now.Add(-tt.back))
		older := matchNames(t, dir, Config{Now: now}, "-older", tt.dur)
		if want := []string{"before-1ns", "before-1s"}; !slices.Equal(older, want) {
			t.Errorf("-older %s: %q, want %q", tt.dur, older, want)
		}
		newer := matchNames(t, dir, Config{Now: now}, "-newer-than", tt.dur)
		if want := []string{"after-1ns", "after-1s"}; !slices.Equal(newer, want) {
			t.Errorf("-newer-than %s: %q, want %q", tt.dur, newer, want)
		}
	}
}

// TestOlderFollows: like -mtime, the tests see a link's target under -L
// and the link itself otherwise.
func TestOlderFollows(t *testing.T) {
	now := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	target := filepath.Join(dir, "old")
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	old := unix.NsecToTimespec(now.Add(-48 * time.Hour).UnixNano())
	if err := unix.UtimesNano(target, []unix.Timespec{old, old}); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("old", link); err != nil {
		t.Fatal(err)
	}
	fresh := unix.NsecToTimespec(now.Add(-time.Minute).UnixNano())
	if err := unix.UtimesNanoAt(unix.AT_FDCWD, link, []unix.Timespec{fresh, fresh}, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		t.Fatal(err)
	}
	if got := matchNames(t, dir, Config{Now: now}, "-older", "1d"); !slices.Equal(got, []string{"old"}) {
		t.Errorf("-P -older 1d: %q, want [old]", got)
	}
	if got := matchNames(t, dir, Config{Now: now, Follow: walker.FollowAll}, "-older", "1d"); !slices.Equal(got, []string{"link", "old"}) {
		t.Errorf("-L -older 1d: %q, want [link old]", got)
	}
}

// matchNames walks dir's children with "dir -mindepth 1 ARGS" and
// returns the sorted base names the expression is true for.
func matchNames(t *testing.T, dir string, cfg Config, args ...string) []string {
	t.Helper()
	cmd, err := Parse(append([]string{dir, "-mindepth", "1"}, args...), cfg)
	if err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	s := newTestState()
	s.follow = cmd.Walk.Follow
	var got []string
	opt := cmd.Walk
	opt.Workers = 1
	err = walker.Walk(cmd.Roots, opt, func(e *walker.Entry) walker.Action {
		if e.Err != nil {
			t.Errorf("%s: %v", e.Path, e.Err)
			return walker.Continue
		}
		if cmd.Expr.Eval(e, s) {
			got = append(got, string(e.Name()))
		}
		return walker.Continue
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got
}

// TestOlderArgs: each argument parses to the reference start - DURATION,
// exactly, and selects the files of a tree with known mtimes accordingly.
func TestOlderArgs(t *testing.T) {
	now := time.Date(2024, 5, 1, 10, 0, 0, 250_000_000, time.UTC)
	dir := t.TempDir()
	for name, age := range map[string]time.Duration{
		"week":   7 * 24 * time.Hour,
		"2d":     48 * time.Hour,
		"36h+1s": 36*time.Hour + time.Second,
		"36h-1s": 36*time.Hour - time.Second,
		"1h":     time.Hour,
		"future": -time.Hour,
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		ts := unix.NsecToTimespec(now.Add(-age).UnixNano())
		if err := unix.UtimesNano(p, []unix.Timespec{ts, ts}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args  []string
		back  time.Duration // start - back is the reference
		older bool
		want  []string
	}{
		{[]string{"-older", "1d12h"}, 36 * time.Hour, true, []string{"2d", "36h+1s", "week"}},
		{[]string{"-newer-than", "1d12h"}, 36 * time.Hour, false, []string{"1h", "36h-1s", "future"}},
		{[]string{"-newer-than", "0s"}, 0, false, []string{"future"}},
		{[]string{"-older", "0s"}, 0, true, []string{"1h", "2d", "36h+1s", "36h-1s", "week"}},
		{[]string{"-older", "1w"}, 7 * 24 * time.Hour, true, nil},
		{[]string{"-newer-than", "2d"}, 48 * time.Hour, false, []string{"1h", "36h+1s", "36h-1s", "future"}},
	}
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, tt.args...), Config{Now: now})
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.args, err)
		}
		and, ok := cmd.Expr.(*andNode)
		if !ok || len(and.kids) != 2 {
			t.Fatalf("Parse(%q) = %q, want the node and -print", tt.args, cmd.Expr.Args())
		}
		n, ok := and.kids[0].(*olderNode)
		if !ok {
			t.Fatalf("Parse(%q): %T, want *olderNode", tt.args, and.kids[0])
		}
		ref := now.Add(-tt.back)
		if n.ref.sec != ref.Unix() || n.ref.nsec != int64(ref.Nanosecond()) || n.older != tt.older {
			t.Errorf("%q: reference %d.%09d s, older %v; want %d.%09d s, %v", tt.args, n.ref.sec, n.ref.nsec, n.older, ref.Unix(), ref.Nanosecond(), tt.older)
		}
		if got := n.Args(); !slices.Equal(got, tt.args) {
			t.Errorf("%q: Args() = %q", tt.args, got)
		}
		if got := matchNames(t, dir, Config{Now: now}, tt.args...); !slices.Equal(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.args, got, tt.want)
		}
	}
}
