package predicate

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/cnum"
	"github.com/gfind/gfind/internal/meta"
	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// timeNow is the start time of the worked examples: 2026-11-30
// 04:50:30.25 UTC, the "now" of internal/getdate's table too.
var timeNow = time.Unix(1796014230, 250000000)

func tsOf(t time.Time) unix.Timespec {
	return unix.NsecToTimespec(t.UnixNano()) // Timespec's fields are int32 on 32-bit Linux
}

// evalTimeCase parses "." ARGS at now and evaluates the expression on
// synthetic regular files, one per name, whose atime, mtime and ctime
// are all files[name]; it returns the sorted names it is true for.
func evalTimeCase(t *testing.T, args []string, now time.Time, files map[string]time.Time) []string {
	t.Helper()
	cmd, err := Parse(append([]string{"."}, args...), Config{Now: now})
	if err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	var got []string
	for name, ft := range files {
		st := unix.Stat_t{Mode: unix.S_IFREG | 0o644, Atim: tsOf(ft), Mtim: tsOf(ft), Ctim: tsOf(ft)}
		if cmd.Expr.Eval(walker.Synthetic("./"+name, 1, walker.TypeRegular, &st, nil), newTestState()) {
			got = append(got, name)
		}
	}
	slices.Sort(got)
	return got
}

func sortedFields(s string) []string {
	f := strings.Fields(s)
	slices.Sort(f)
	return f
}

// withLocal runs f with localTZ set to the named zone.
func withLocal(t *testing.T, zone string) {
	t.Helper()
	loc, err := time.LoadLocation(zone)
	if err != nil {
		testtool.Missing(t, "time zone "+zone, "tzdata", err)
	}
	old := localTZ
	localTZ = loc
	t.Cleanup(func() { localTZ = old })
}

// ageFiles are named after their age in seconds at timeNow ("f-30" is
// 30 s in the future); "b" files sit on the boundaries.
var ageFiles = func() map[string]time.Time {
	m := map[string]time.Time{}
	for name, age := range map[string]time.Duration{
		"f-30": -30 * time.Second, "f30": 30 * time.Second,
		"f86370": 86370 * time.Second, "f86430": 86430 * time.Second,
		"f172770": 172770 * time.Second, "f172830": 172830 * time.Second,
		"m-90": -90 * time.Second, "m-30": -30 * time.Second, "m1": time.Second,
		"m30": 30 * time.Second, "m90": 90 * time.Second, "m150": 150 * time.Second,
		"b0":        0,
		"b86400":    86400 * time.Second,
		"b86400-1n": 86400*time.Second - 1,
		"b86400+1n": 86400*time.Second + 1,
		"b86401":    86401 * time.Second,
		"b86401-1n": 86401*time.Second - 1,
		"b60":       60 * time.Second,
		"b60-1n":    60*time.Second - 1,
	} {
		m[name] = timeNow.Add(-age)
	}
	return m
}()

// timeTests are the worked examples. The f and m rows were measured
// with GNU find 4.9: files made with touch -d @$((now - AGE)), then
// find . -type f ARGS (the margins of 30 s absorb the start time). The
// b rows are the exact boundaries, from GNU's arithmetic (pred.c
// pred_timewindow: "after ref by at most the window"; parser.c
// parse_time: "-N" counts from a second before the end of the day),
// whose strictness on each side was checked through -used, which goes
// through the same window test.
var timeTests = []struct {
	args string
	want string
}{
	{"-mtime -1", "f-30 f30 f86370 m-90 m-30 m1 m30 m90 m150 b0 b86400 b86400-1n b86400+1n b86401-1n b60 b60-1n"},
	{"-mtime 1", "f86430 f172770 b86400 b86400+1n b86401 b86401-1n"},
	{"-mtime 0", "f30 f86370 m1 m30 m90 m150 b0 b86400-1n b60 b60-1n"},
	{"-mtime -0", "f-30 m-90 m-30 b0"},
	{"-mtime +0", "f86430 f172770 f172830 b86400+1n b86401 b86401-1n"},
	{"-mtime +1", "f172830"},
	{"-mtime -2", "f-30 f30 f86370 f86430 f172770 m-90 m-30 m1 m30 m90 m150 b0 b86400 b86400-1n b86400+1n b86401 b86401-1n b60 b60-1n"},
	{"-mtime 2", "f172830"},
	{"-atime 1", "f86430 f172770 b86400 b86400+1n b86401 b86401-1n"},
	{"-ctime 0", "f30 f86370 m1 m30 m90 m150 b0 b86400-1n b60 b60-1n"},
	{"-mmin 0", "f-30 m-30"},
	{"-mmin 1", "f30 m1 m30 b0 b60-1n"},
	{"-mmin 2", "m90 b60"},
	{"-mmin -1", "f-30 f30 m-90 m-30 m1 m30 b0 b60-1n"},
	{"-mmin -2", "f-30 f30 m-90 m-30 m1 m30 m90 b0 b60 b60-1n"},
	{"-mmin +0", "f30 f86370 f86430 f172770 f172830 m1 m30 m90 m150 b86400 b86400-1n b86400+1n b86401 b86401-1n b60 b60-1n"},
	{"-mmin +1", "f86370 f86430 f172770 f172830 m90 m150 b86400 b86400-1n b86400+1n b86401 b86401-1n"},
	{"-mmin -0", "m-90 m-30 f-30"},
	{"-mmin +-1", "f-30 f30 f86370 f86430 f172770 f172830 m-30 m1 m30 m90 m150 b0 b86400 b86400-1n b86400+1n b86401 b86401-1n b60 b60-1n"},
	{"-mmin 0.5", "f-30 m-30 m1 b0"},
	{"-mmin 1.5", "f30 m30 b60 b60-1n"},
	{"-amin 1", "f30 m1 m30 b0 b60-1n"},
	{"-cmin -0", "m-90 m-30 f-30"},
	{"-mtime 1 -mmin +1440", "f86430 f172770 b86400+1n b86401 b86401-1n"},
	// -daystart in UTC: the day began at 00:00 today; -mmin counts from
	// midnight tonight.
	{"-daystart -mtime 0", "f-30 f30 m-90 m-30 m1 m30 m90 m150 b0 b60 b60-1n"},
	{"-daystart -mmin +0", "f-30 f30 f86370 f86430 f172770 f172830 m-90 m-30 m1 m30 m90 m150 b0 b86400 b86400-1n b86400+1n b86401 b86401-1n b60 b60-1n"},
	{"-daystart -mmin -1", ""},
	{"-mtime 0 -daystart", "f30 f86370 m1 m30 m90 m150 b0 b86400-1n b60 b60-1n"}, // positional: affects what follows
}

func TestTimeWorkedExamples(t *testing.T) {
	withLocal(t, "UTC")
	for _, tt := range timeTests {
		got := evalTimeCase(t, strings.Fields(tt.args), timeNow, ageFiles)
		if want := sortedFields(tt.want); !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", tt.args, got, want)
		}
	}
}

// TestDaystartNewYork: files at offsets (s) from midnight starting
// Monday 2026-11-30 in New York, the clock at 00:06:57. Measured with
// GNU find 4.9 (TZ=America/New_York find . -type f -daystart ARGS),
// boundaries included: with -daystart nothing depends on the time of
// day.
func TestDaystartNewYork(t *testing.T) {
	withLocal(t, "America/New_York")
	mid := time.Unix(1796014800, 0)
	files := map[string]time.Time{}
	for _, o := range []int64{-129600, -43200, -86401, -86400, -86399, -1, 0, 1, 120, 43200, 86400, 86401} {
		files["d"+strconv.FormatInt(o, 10)] = mid.Add(time.Duration(o) * time.Second)
	}
	tests := []struct{ args, want string }{
		{"-mtime 0", "1 120 43200 86400"},
		{"-mtime 1", "-1 -43200 -86399 0"},
		{"-mtime -1", "0 1 120 43200 86400 86401"},
		{"-mtime +0", "-1 -129600 -43200 -86399 -86400 -86401"},
		{"-mtime -0", "86400 86401"},
		{"-mtime +1", "-129600 -86401"},
		{"-mtime 2", "-129600 -86400 -86401"},
		{"-mtime -2", "-1 -43200 -86399 -86400 0 1 120 43200 86400 86401"},
		{"-mtime 0.5", "-1 0 1 120 43200"},
		{"-mmin 0", "86401"},
		{"-mmin -1", "86400 86401"},
		{"-mmin +0", "-1 -129600 -43200 -86399 -86400 -86401 0 1 120 43200"},
		{"-mmin -60", "86400 86401"},
		{"-mmin -1500", "-1 0 1 120 43200 86400 86401"},
	}
	for _, tt := range tests {
		got := evalTimeCase(t, append([]string{"-daystart"}, strings.Fields(tt.args)...), mid.Add(417*time.Second), files)
		var want []string
		for _, o := range strings.Fields(tt.want) {
			want = append(want, "d"+o)
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("-daystart %s: got %q, want %q", tt.args, got, want)
		}
	}
}

// TestUsed: atime = ctime + d. Measured with GNU find 4.9 on files whose
// atime was set to exactly their ctime plus d (ctime read from
// CLOCK_REALTIME_COARSE just before utimensat).
func TestUsed(t *testing.T) {
	ct := timeNow
	files := map[string]time.Duration{
		"e0": 0, "e1": 86400 * time.Second, "e1m": 86400*time.Second - 1, "e1p": 86400*time.Second + 1,
		"e2": 172800 * time.Second, "em": -1, "e2m": 172800*time.Second - 1,
	}
	tests := []struct{ arg, want string }{
		{"0", ""},
		{"1", "e0 e1m"},
		{"2", "e1 e1p e2m"},
		{"-1", "e0 e1m"},
		{"-2", "e0 e1 e1m e1p e2m"},
		{"+0", "e1 e1m e1p e2 e2m"},
		{"+1", "e1p e2 e2m"},
		{"+2", ""},
		{"+-1", "e0 e1 e1m e1p e2 e2m"},
		{"-0", ""},
	}
	for _, tt := range tests {
		cmd, err := Parse([]string{".", "-used", tt.arg}, Config{Now: timeNow})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for name, d := range files {
			st := unix.Stat_t{Mode: unix.S_IFREG, Atim: tsOf(ct.Add(d)), Ctim: tsOf(ct), Mtim: tsOf(ct)}
			if cmd.Expr.Eval(walker.Synthetic(name, 1, walker.TypeRegular, &st, nil), newTestState()) {
				got = append(got, name)
			}
		}
		slices.Sort(got)
		if want := sortedFields(tt.want); !slices.Equal(got, want) {
			t.Errorf("-used %s: got %q, want %q", tt.arg, got, want)
		}
	}
}

// TestNewer: -newer and friends compare with the reference's times,
// strictly and to the nanosecond; the reference is stat'ed at parse time
// with the link mode then in force.
func TestNewer(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref")
	if err := os.WriteFile(ref, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	refA := time.Unix(1700000000, 100)
	refM := time.Unix(1700000500, 500)
	if err := unix.UtimesNano(ref, []unix.Timespec{tsOf(refA), tsOf(refM)}); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("ref", link); err != nil {
		t.Fatal(err)
	}
	linkM := time.Unix(1800000000, 0)
	if err := unix.UtimesNanoAt(unix.AT_FDCWD, link, []unix.Timespec{tsOf(linkM), tsOf(linkM)}, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		t.Fatal(err)
	}
	var refSt unix.Stat_t
	if err := unix.Stat(ref, &refSt); err != nil {
		t.Fatal(err)
	}
	refC := time.Unix(int64(refSt.Ctim.Sec), int64(refSt.Ctim.Nsec))

	tests := []struct {
		args   []string
		follow walker.Follow
		file   time.Time // the entry's atime, mtime and ctime
		want   bool
	}{
		{[]string{"-newer", ref}, walker.FollowNever, refM, false},
		{[]string{"-newer", ref}, walker.FollowNever, refM.Add(1), true},
		{[]string{"-newer", ref}, walker.FollowNever, refM.Add(-1), false},
		{[]string{"-anewer", ref}, walker.FollowNever, refM.Add(1), true}, // atime against mtime
		{[]string{"-cnewer", ref}, walker.FollowNever, refM, false},
		{[]string{"-neweram", ref}, walker.FollowNever, refM.Add(1), true},
		{[]string{"-newerma", ref}, walker.FollowNever, refA, false},
		{[]string{"-newerma", ref}, walker.FollowNever, refA.Add(1), true},
		{[]string{"-newermc", ref}, walker.FollowNever, refC.Add(1), true},
		{[]string{"-newermc", ref}, walker.FollowNever, refC, false},
		{[]string{"-newer", link}, walker.FollowNever, refM.Add(1), false}, // the link's own mtime
		{[]string{"-newer", link}, walker.FollowNever, linkM.Add(1), true},
		{[]string{"-newer", link}, walker.FollowRoots, refM.Add(1), true}, // -H follows it
		{[]string{"-newer", link}, walker.FollowAll, refM.Add(1), true},
		{[]string{"-follow", "-newer", link}, walker.FollowNever, refM.Add(1), true},
		{[]string{"-newer", link, "-follow"}, walker.FollowNever, refM.Add(1), false},
		{[]string{"-newermt", "@1700000500.0000005"}, walker.FollowNever, refM, false},
		{[]string{"-newermt", "@1700000500.0000004"}, walker.FollowNever, refM, true},
		{[]string{"-newerct", "2023-11-14 22:13:20Z"}, walker.FollowNever, refA, true},
		{[]string{"-newerat", "2023-11-14 22:13:20Z"}, walker.FollowNever, time.Unix(1700000000, 0), false},
	}
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, tt.args...), Config{Now: timeNow, Follow: tt.follow})
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		st := unix.Stat_t{Mode: unix.S_IFREG, Atim: tsOf(tt.file), Mtim: tsOf(tt.file), Ctim: tsOf(tt.file)}
		got := cmd.Expr.Eval(walker.Synthetic("./f", 1, walker.TypeRegular, &st, nil), newTestState())
		if got != tt.want {
			t.Errorf("%q (follow %v) on %v: got %v, want %v", tt.args, tt.follow, tt.file, got, tt.want)
		}
	}
}

// timeErrTests: GNU find 4.11's messages (LC_ALL=C find . ARGS), without
// "find: ".
var timeErrTests = []struct {
	args    []string
	wantErr string
}{
	{[]string{"-mtime", "x"}, "invalid argument `x' to `-mtime'"},
	{[]string{"-mtime", ""}, "invalid argument `' to `-mtime'"},
	{[]string{"-mtime", "1x"}, "invalid argument `1x' to `-mtime'"},
	{[]string{"-mtime", "1 "}, "invalid argument `1 ' to `-mtime'"},
	{[]string{"-mtime", "+"}, "invalid argument `+' to `-mtime'"},
	{[]string{"-mtime", "1e309"}, "invalid argument `1e309' to `-mtime'"},
	{[]string{"-mtime", "infin"}, "invalid argument `infin' to `-mtime'"},
	// A NaN: GNU 4.9 aborted on an assertion; 4.10 quotes the number
	// without its sign.
	{[]string{"-mtime", "nan"}, "invalid not-a-number argument: `nan'"},
	{[]string{"-mtime", "-NaN"}, "invalid not-a-number argument: `NaN'"},
	{[]string{"-mtime", "+nan(1)"}, "invalid not-a-number argument: `nan(1)'"},
	{[]string{"-mmin", "+nan"}, "invalid not-a-number argument: `nan'"},
	{[]string{"-amin", "NAN"}, "invalid not-a-number argument: `NAN'"},
	{[]string{"-cmin", "-nan"}, "invalid not-a-number argument: `nan'"},
	{[]string{"-atime", "nan()"}, "invalid not-a-number argument: `nan()'"},
	{[]string{"-ctime", "NaN"}, "invalid not-a-number argument: `NaN'"},
	{[]string{"-used", "NaN"}, "invalid not-a-number argument: `NaN'"},
	{[]string{"-used", "-nan"}, "invalid not-a-number argument: `nan'"},
	{[]string{"-mtime", "nanx"}, "invalid argument `nanx' to `-mtime'"},
	{[]string{"-mtime", "--nan"}, "invalid not-a-number argument: `-nan'"},
	{[]string{"-mtime", "+ nan"}, "invalid not-a-number argument: ` nan'"},
	{[]string{"-mmin", "x"}, "invalid argument `x' to `-mmin'"},
	{[]string{"-atime", ",5"}, "invalid argument `,5' to `-atime'"},
	{[]string{"-mtime", "--1e15"}, "arithmetic overflow while converting -1e15 days to a number of seconds"},
	{[]string{"-mtime", "--inf"}, "arithmetic overflow while converting -inf days to a number of seconds"},
	{[]string{"-mtime", "+-inf"}, "arithmetic overflow while converting -inf days to a number of seconds"},
	{[]string{"-daystart", "-mtime", "--1e15"}, "arithmetic overflow while converting -1e15 days to a number of seconds"},
	{[]string{"-cmin", "--1e300"}, "arithmetic overflow while converting -1e300 minutes to a number of seconds"},
	{[]string{"-used", "--1e15"}, "arithmetic overflow while converting -1e15 days to a number of seconds"},
	{[]string{"-used", "x"}, "Invalid argument x to -used"},
	{[]string{"-used", ""}, "Invalid argument  to -used"},
	{[]string{"-used"}, "missing argument to `-used'"},
	{[]string{"-amin"}, "missing argument to `-amin'"},
	{[]string{"-mtime"}, "missing argument to `-mtime'"},
	{[]string{"-newer"}, "missing argument to `-newer'"},
	{[]string{"-newer", "nosuch"}, "'nosuch': No such file or directory"},
	{[]string{"-anewer", ""}, "'': No such file or directory"},
	{[]string{"-newerma", "nosuch"}, "'nosuch': No such file or directory"},
	{[]string{"-newerzz", "x"}, "invalid predicate `-newerzz'"},
	{[]string{"-newertm", "a"}, "invalid predicate `-newertm'"},
	{[]string{"-newermz", "a"}, "invalid predicate `-newermz'"},
	{[]string{"-newerXY", "a"}, "invalid predicate `-newerXY'"},
	{[]string{"-newerzz"}, "invalid predicate `-newerzz'"},
	{[]string{"-newermm"}, "The '-newermm' test needs to be followed by an argument"},
	{[]string{"-newermt"}, "The '-newermt' test needs to be followed by an argument"},
	{[]string{"-newerm", "a"}, "unknown predicate `-newerm'"},
	{[]string{"-newerXYZ", "a"}, "unknown predicate `-newerXYZ'"},
	{[]string{"-newermt", "garbage"}, "I cannot figure out how to interpret 'garbage' as a date or time"},
	{[]string{"-newerct", "a b"}, "I cannot figure out how to interpret 'a b' as a date or time"},
	{[]string{"-newerat", "2024-02-30"}, "I cannot figure out how to interpret '2024-02-30' as a date or time"},
}

func TestTimeErrors(t *testing.T) {
	for _, tt := range timeErrTests {
		_, err := Parse(append([]string{"."}, tt.args...), Config{Now: timeNow})
		if err == nil || err.Error() != tt.wantErr {
			t.Errorf("Parse(%q) error = %v, want %q", tt.args, err, tt.wantErr)
		}
	}
	// Accepted: white space, signs and forms strtod takes, and huge
	// numbers that GNU's arithmetic lets through.
	for _, arg := range []string{" 1", "\t+1", "- 1", "+-1", "-+1", "1e1", "0x10", "0x1p-1074", "1e-320", "-4.9e-324", "inf", "-INF",
		"1e300", "-1e300", "1e-400", ".5", "5.", "-.5", "0x1.8p1", "1e14", "-1e15", "+1e15"} {
		for _, op := range []string{"-mtime", "-mmin", "-used"} {
			if _, err := Parse([]string{".", op, arg}, Config{Now: timeNow}); err != nil {
				t.Errorf("%s %q: %v", op, arg, err)
			}
		}
	}
	if _, err := Parse([]string{".", "-mmin", "--1e17"}, Config{Now: timeNow}); err != nil {
		t.Errorf("-mmin --1e17 fits a time_t: %v", err)
	}
	if _, err := Parse([]string{".", "-newermt", ""}, Config{Now: timeNow}); err != nil {
		t.Errorf("-newermt '' is midnight: %v", err)
	}
}

// TestNewerBirthRefused checks GNU's two lines for B where the birth
// time is not supported (as GNU find 4.9 on Linux says for any of them).
func TestNewerBirthRefused(t *testing.T) {
	birthTimeSupported = false
	defer func() { birthTimeSupported = true }()
	for _, op := range []string{"-newerBt", "-newermB", "-newerBz", "-newertB"} {
		_, err := Parse([]string{".", op}, Config{Now: timeNow})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Msg != "This system does not provide a way to find the birth time of a file." ||
			pe.Hint != "invalid predicate `"+op+"'" {
			t.Errorf("%s: %#v", op, err)
		}
	}
}

// TestBirthTime evaluates -newerBt and -newermB on a real file, and
// checks that evaluating allocates nothing.
func TestBirthTime(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bt, has, err := meta.BirthPath(f, false)
	if err != nil {
		t.Fatal(err)
	}
	if !has {
		t.Skip("the file system keeps no birth time")
	}
	if d := time.Since(time.Unix(bt.Sec, bt.Nsec)); d < -time.Minute || d > time.Minute {
		t.Fatalf("birth time %v is not now", time.Unix(bt.Sec, bt.Nsec))
	}
	old := time.Now().Add(-time.Hour)
	if err := unix.UtimesNano(f, []unix.Timespec{tsOf(old), tsOf(old)}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-newerBt", "10 minutes ago"}, true},
		{[]string{"-newerBt", "10 minutes"}, false},
		{[]string{"-newermB", f}, false},
		{[]string{"-newerBm", f}, true},
		{[]string{"-newerBB", f}, false},
	} {
		cmd, err := Parse(append([]string{dir}, tc.args...), Config{Now: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		s := newTestState()
		var got []string
		var allocs float64
		err = walker.Walk([]string{dir}, walker.Options{Workers: 1, MaxDepth: -1}, func(e *walker.Entry) walker.Action {
			if e.Depth == 1 {
				if cmd.Expr.Eval(e, s) {
					got = append(got, string(e.Name()))
				}
				allocs = testing.AllocsPerRun(20, func() { cmd.Expr.Eval(e, s) })
			}
			return walker.Continue
		})
		if err != nil {
			t.Fatal(err)
		}
		if (len(got) == 1) != tc.want {
			t.Errorf("%q: matched %q, want %v", tc.args, got, tc.want)
		}
		if allocs != 0 && !tc.want { // a true -print allocates nothing either, but buffers
			t.Errorf("%q: %v allocations per Eval", tc.args, allocs)
		}
	}
}

// TestTimeEvalAllocs: the time tests allocate nothing per entry.
func TestTimeEvalAllocs(t *testing.T) {
	st := unix.Stat_t{Mode: unix.S_IFREG, Mtim: tsOf(timeNow), Atim: tsOf(timeNow), Ctim: tsOf(timeNow)}
	e := walker.Synthetic("./f", 1, walker.TypeRegular, &st, nil)
	s := newTestState()
	for _, args := range [][]string{{"-mtime", "1"}, {"-mmin", "-5"}, {"-used", "2"}, {"-newermt", "yesterday"}} {
		cmd, err := Parse(append([]string{"."}, args...), Config{Now: timeNow})
		if err != nil {
			t.Fatal(err)
		}
		n := cmd.Expr.(*andNode).kids[0]
		if a := testing.AllocsPerRun(100, func() { n.Eval(e, s) }); a != 0 {
			t.Errorf("%q: %v allocations", args, a)
		}
	}
}

func TestTimeFacts(t *testing.T) {
	cmd, err := Parse([]string{".", "-mtime", "+101", "-newermt", "yesterday", "-mmin", "-1"}, Config{Now: timeNow})
	if err != nil {
		t.Fatal(err)
	}
	kids := cmd.Expr.(*andNode).kids
	for i, want := range []float64{0.3, 0.01, 0.01} {
		f := kids[i].Facts()
		if !f.Pure() || f.Cost != costStat || math.Abs(f.Prob-want) > 1e-9 {
			t.Errorf("%q: facts %+v, want prob %v", kids[i].Args(), f, want)
		}
	}
}

// timeArgSeeds seed the fuzz targets with the numbers of -mtime and
// friends: forms strtod reads whole and forms it refuses (the table of
// internal/cnum's TestStrtod).
var timeArgSeeds = []string{
	"1", " 1", "\t\v\f\r\n 1", "+1", "-1", "1e1", "1E0", "1.e1", ".5", "5.",
	"0x10", "0X1P0", "0x.8", "0x1.8p1", "-0x1p-3", "0x1p-1074", "2.2250738585072014e-308",
	"1e-400", "1e300", "inf", "INF", "-Infinity", "nan", "nan(12_ab)",
	"", " ", "x", "1x", "1 ", "1e", "infin", "0x", "1_0", ".e1", "0x1p",
	"4.9e-324", "2.2250738585072011e-308", "1e-320", "1e309", "-1e309", "0x1p1024",
	",5", "1,5", "+", "-", "- 1", "--1", "0x_1p0", "1e+", "nan(", "nanx",
}

func TestRelativeTimestamp(t *testing.T) {
	origin := tspec{1000000, 500}
	tests := []struct {
		arg     string
		perUnit float64
		kind    cmpKind
		ref     tspec
	}{
		{"1", daySecs, cmpEQ, tspec{913600, 500}},
		{"+1", daySecs, cmpLT, tspec{913600, 500}},
		{"-1", daySecs, cmpGT, tspec{913600, 500}},
		{"1.5", daySecs, cmpEQ, tspec{870400, 500}},
		{"0.5", 60, cmpEQ, tspec{999970, 500}},
		// The fractions, as C computes them (checked with a C program
		// doing get_relative_timestamp's arithmetic).
		{"1e-9", 1, cmpEQ, tspec{1000000, 499}},
		{"1e-6", 1, cmpEQ, tspec{999999, 999999500}},
		{"0.3", 60, cmpEQ, tspec{999982, 500}},
		{"1.1", daySecs, cmpEQ, tspec{904960, 499}},
		{"+-1.3", 60, cmpLT, tspec{1000078, 500}},
		{"0.0000001", daySecs, cmpEQ, tspec{999999, 991360500}},
		{"+-1", daySecs, cmpLT, tspec{1086400, 500}},
		{"1e300", daySecs, cmpEQ, tspec{math.MinInt64, 500}},
		{"inf", 60, cmpEQ, tspec{math.MinInt64, 500}},
	}
	for _, tt := range tests {
		kind, ref, _, res := relativeTimestamp(tt.arg, origin, tt.perUnit)
		if res != relOK || kind != tt.kind || ref != tt.ref {
			t.Errorf("relativeTimestamp(%q, %v) = %v, %v, %v; want %v, %v", tt.arg, tt.perUnit, kind, ref, res, tt.kind, tt.ref)
		}
	}
}

func FuzzTimeArg(f *testing.F) {
	for _, in := range timeArgSeeds {
		f.Add(in)
		f.Add("+" + in)
		f.Add("-" + in)
	}
	for _, tt := range timeErrTests {
		if len(tt.args) > 1 {
			f.Add(tt.args[1])
		}
	}
	f.Fuzz(func(t *testing.T, arg string) {
		v, ok := cnum.Strtod(arg)
		if ok && !math.IsNaN(v) && !strings.HasPrefix(arg, "+") && !strings.HasPrefix(arg, "-") {
			// The prefix only picks the comparison.
			k1, r1, _, res1 := relativeTimestamp(arg, tspec{1796014230, 250}, daySecs)
			k2, r2, _, res2 := relativeTimestamp("+"+arg, tspec{1796014230, 250}, daySecs)
			if res1 != res2 || r1 != r2 || k1 != cmpEQ || (res2 == relOK && k2 != cmpLT) {
				t.Errorf("%q: %v %v %v vs +: %v %v %v", arg, k1, r1, res1, k2, r2, res2)
			}
		}
		for _, op := range []string{"-mtime", "-amin", "-used", "-newermt"} {
			cmd, err := Parse([]string{".", "-daystart", op, arg}, Config{Now: timeNow})
			if err != nil {
				continue
			}
			if got := cmd.Expr.Args(); !slices.Contains(got, arg) {
				t.Errorf("%s %q: Args %q", op, arg, got)
			}
			st := unix.Stat_t{Mode: unix.S_IFREG, Mtim: tsOf(timeNow), Atim: tsOf(timeNow), Ctim: tsOf(timeNow)}
			cmd.Expr.Eval(walker.Synthetic("./f", 1, walker.TypeRegular, &st, nil), newTestState())
		}
	})
}
