package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
	"golang.org/x/sys/unix"
)

// The differential test of the time tests: -mtime -atime -ctime, -mmin
// -amin -cmin, -used, -daystart, -newer -anewer -cnewer and -newerXY.
//
// The tree's times are set relative to the moment the test starts (and
// ctime can only be "now"), and the two programs do not start at the
// same instant, so every file sits well inside its bucket: hours from a
// day boundary, 15 s from a half-minute one. The restamped cases
// (compareFresh) restamp the tree right before each round and go one at
// a time; a round that did not end within timeMargin of its stamp (a
// busy machine) proves nothing and is run again.

// timeFile is one file of the tree: its mtime and atime are now minus
// these ages (negative: in the future).
type timeFile struct {
	name       string
	mAge, aAge time.Duration
}

const (
	tHour = time.Hour
	tDay  = 24 * time.Hour
)

var timeFiles = []timeFile{
	{"h-36", -36 * tHour, -30 * tHour},
	{"h-12", -12 * tHour, -1 * tHour},
	{"h1", 1 * tHour, 13 * tHour},
	{"h12", 12 * tHour, 30 * tHour},
	{"h30", 30 * tHour, 2 * tHour},
	{"h36", 36 * tHour, 60 * tHour},
	{"h60", 60 * tHour, 36 * tHour},
	{"h84", 84 * tHour, -60 * tHour},
	{"d30", 30*tDay + 12*tHour, 45*tDay + 12*tHour},
	{"d400", 400*tDay + 12*tHour, 36 * tHour},
	{"s-105", -105 * time.Second, -45 * time.Second},
	{"s-45", -45 * time.Second, 15 * time.Second},
	{"s15", 15 * time.Second, 75 * time.Second},
	{"s75", 75 * time.Second, 135 * time.Second},
	{"s135", 135 * time.Second, 615 * time.Second},
	{"s615", 615 * time.Second, 3615 * time.Second},
	{"s3615", 3615 * time.Second, -105 * time.Second},
	{"sub/h2", 2 * tHour, 3 * tHour},
	{"sub/s45", 45 * time.Second, -15 * time.Second},
	{"ref_old", 10 * tDay, 5 * tDay},
	{"ref_new", 30 * time.Minute, 20 * tDay},
}

// Files at fixed dates, for -newerXt with absolute dates.
var timeFixed = map[string]time.Time{
	"fixed2023": time.Date(2023, 6, 15, 12, 0, 0, 500000000, time.UTC),
	"fixed2020": time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC),
}

// Files relative to the local midnight that starts today, for
// -daystart.
var timeDaystart = map[string]time.Duration{
	"ds-36": -36 * tHour, "ds-12": -12 * tHour, "ds+36": 36 * tHour, "ds+23": 23*tHour + 30*time.Minute,
}

// makeTimeTree builds the tree in a new directory; stampTimeTree sets its
// times.
func makeTimeTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, f := range timeFiles {
		names = append(names, f.name)
	}
	for n := range timeFixed {
		names = append(names, n)
	}
	for n := range timeDaystart {
		names = append(names, n)
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(root, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range [][2]string{{"ref_old", "ref_link"}, {"nosuch", "ref_dangling"}, {"h1", "lnk_h1"}, {"sub", "lnk_sub"}} {
		if err := os.Symlink(l[0], filepath.Join(root, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// stampTimeTree sets the tree's times relative to now, with -daystart's
// files relative to the midnight starting today in loc. Directories get
// an atime in the future, so that reading them does not change it.
func stampTimeTree(t *testing.T, root string, now time.Time, loc *time.Location) {
	t.Helper()
	set := func(name string, atime, mtime time.Time) {
		ts := []unix.Timespec{unix.NsecToTimespec(atime.UnixNano()), unix.NsecToTimespec(mtime.UnixNano())}
		if err := unix.UtimesNanoAt(unix.AT_FDCWD, filepath.Join(root, name), ts, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range timeFiles {
		set(f.name, now.Add(-f.aAge), now.Add(-f.mAge))
	}
	for n, when := range timeFixed {
		set(n, when.Add(tHour), when)
	}
	lt := now.In(loc)
	midnight := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, loc)
	for n, off := range timeDaystart {
		set(n, midnight.Add(off), midnight.Add(off))
	}
	set("ref_link", now.Add(-3*tDay), now.Add(-3*tDay))
	set("ref_dangling", now.Add(-2*tDay), now.Add(-2*tDay))
	set("lnk_h1", now.Add(-100*tDay), now.Add(-100*tDay))
	set("lnk_sub", now.Add(-100*tDay), now.Add(-100*tDay))
	set("sub", now.Add(5*tDay), now.Add(-50*tHour))
	set(".", now.Add(5*tDay), now.Add(-40*tHour))
}

// gnuTimeDayCases do not depend on the seconds between the two runs.
var gnuTimeDayCases = []gnuCase{
	{args: ". -mtime 0"},
	{args: ". -mtime 1"},
	{args: ". -mtime 2"},
	{args: ". -mtime 3"},
	{args: ". -mtime -1"},
	{args: ". -mtime -2"},
	{args: ". -mtime +0"},
	{args: ". -mtime +1"},
	{args: ". -mtime +30"},
	{args: ". -mtime -0"},
	{args: ". -mtime +-1"},
	{args: ". -mtime --1"},
	{args: ". -mtime 1.5"},
	{args: ". -mtime -0.5"},
	{args: ". -mtime +0.25"},
	{args: ". -mtime ' 1'"},
	{args: ". -mtime 1e0"},
	{args: ". -mtime 0x1"},
	{args: ". -mtime inf"},
	{args: ". -mtime -inf"},
	{args: ". -mtime 1e300"},
	{args: ". -mtime +400"},
	{args: ". -mtime 400"},
	{args: ". ! -type d -atime 0"},
	{args: ". ! -type d -atime 1"},
	{args: ". ! -type d -atime -2"},
	{args: ". ! -type d -atime +1"},
	{args: ". ! -type d -atime -0"},
	{args: ". -ctime 0"},
	{args: ". -ctime -1"},
	{args: ". -ctime +0"},
	{args: ". -ctime 1"},
	{args: ". -mmin -600"},
	{args: ". -mmin +1000"},
	{args: ". -mmin -1440"},
	{args: ". -mmin 1440"},
	{args: ". ! -type d -amin +100"},
	{args: ". -cmin -600"},
	{args: ". -type f -mtime -1 -mtime +0"},
	{args: ". ( -mtime 1 -o -mtime 2 ) -type f"},
	{args: "-L . -mtime +50"},
	{args: "-H lnk_h1 lnk_sub -mtime 0"},
	{args: "lnk_h1 lnk_sub -mtime 0"},
	{args: ". -follow -mtime +50"},
	// -used: atime - ctime in days.
	{args: ". -used 0"},
	{args: ". -used 1"},
	{args: ". -used 2"},
	{args: ". -used 3"},
	{args: ". -used -1"},
	{args: ". -used -3"},
	{args: ". -used +0"},
	{args: ". -used +1"},
	{args: ". -used +-1"},
	{args: ". -used -0"},
	{args: ". -used 1.5"},
	// -newer and friends.
	{args: ". -newer ref_old"},
	{args: ". -newer ref_new"},
	{args: ". ! -type d -anewer ref_old"},
	{args: ". -cnewer ref_old"},
	{args: ". ! -newer ref_new"},
	{args: ". -newer ref_link"},
	{args: "-H . -newer ref_link"},
	{args: "-L . -newer ref_link"},
	{args: ". -follow -newer ref_link"},
	{args: ". -newer ref_link -follow"},
	{args: ". -newer ref_dangling"},
	{args: "-L . -newer ref_dangling"},
	{args: ". -newer ref_old -newer ref_new"},
	{args: ". -newerma ref_old"},
	{args: ". -newermm ref_new"},
	{args: ". ! -type d -newerac ref_new"},
	{args: ". -newercm ref_old"},
	{args: ". -newermc ref_old"},
	{args: ". ! -type d -neweraa ref_new"},
	{args: "-L . -newermm ref_link"},
	{args: ". -newermt '2 days ago'"},
	{args: ". -newermt yesterday"},
	{args: ". -newermt now"},
	{args: ". -newermt today"},
	{args: ". -newermt tomorrow"},
	{args: ". -newermt '3 hours ago'"},
	{args: ". -newermt '-90 minutes'"},
	{args: ". -newermt '1 week ago'"},
	{args: ". -newermt ''"},
	{args: ". -newermt 2023-06-15"},
	{args: ". -newermt '2023-06-15 12:00'"},
	{args: ". -newermt '2023-06-15 12:00:00'"},
	{args: ". -newermt '2023-06-15 12:00:00.5'"},
	{args: ". -newermt '2023-06-15 12:00:00.499999999'"},
	{args: ". -newermt 2023-06-15T12:00:00Z"},
	{args: ". -newermt '2023-06-15 14:00:00 +02:00'"},
	{args: ". -newermt '2023-06-15 08:00 EDT'"},
	{args: ". -newermt @1686830400"},
	{args: ". -newermt @1686830400.4"},
	{args: ". -newermt 'Jun 15 2023'"},
	{args: ". -newermt 6/15/2023"},
	{args: ". -newermt 2019-12-31"},
	{args: ". ! -type d -newerat '2023-06-15 12:30'"},
	{args: ". -newerct 2020-01-01"},
	// -daystart: today (local time) and the day's end for -mmin.
	{args: ". -daystart -mtime 0"},
	{args: ". -daystart -mtime 1"},
	{args: ". -daystart -mtime -1"},
	{args: ". -daystart -mtime +0"},
	{args: ". -daystart -mtime -0"},
	{args: ". -daystart -mtime 2"},
	{args: ". -mtime 0 -daystart"},
	{args: ". -mtime 0 -daystart -mtime 0"},
	{args: ". -daystart -daystart -mtime 1"},
	{args: ". -daystart -mmin -1500"},
	{args: ". -daystart -mmin +1500"},
	{args: ". -daystart -newermt yesterday"},
	// Errors.
	{args: ". -mtime x"},
	{args: ". -mtime ''"},
	{args: ". -mtime 1x"},
	{args: ". -mtime 1e309"},
	{args: ". -mtime --1e15"},
	{args: ". -mtime --inf"},
	{args: ". -cmin --1e300"},
	{args: ". -amin"},
	{args: ". -used x"},
	{args: ". -used"},
	{args: ". -used --1e15"},
	{args: ". -newer"},
	{args: ". -newer nosuch"},
	{args: ". -cnewer ''"},
	{args: ". -newerma nosuch"},
	{args: ". -newerzz x"},
	{args: ". -newertm ref_old"},
	{args: ". -newermz ref_old"},
	{args: ". -newerm ref_old"},
	{args: ". -newermt garbage"},
	{args: ". -newermt '2023-02-30'"},
	{args: ". -newermt 'tomorrow noon'"},
	{args: "nosuch -mtime 0"},
}

// gnuTimeMinuteCases depend on the minute: the tree is restamped before
// each.
var gnuTimeMinuteCases = []gnuCase{
	{args: ". -mmin 0"},
	{args: ". -mmin 1"},
	{args: ". -mmin 2"},
	{args: ". -mmin 3"},
	{args: ". -mmin -1"},
	{args: ". -mmin -2"},
	{args: ". -mmin +0"},
	{args: ". -mmin +1"},
	{args: ". -mmin +2"},
	{args: ". -mmin -0"},
	{args: ". -mmin +-1"},
	{args: ". -mmin 1.5"},
	{args: ". -mmin -10.5"},
	{args: ". -mmin 11"},
	{args: ". -mmin 61"},
	{args: ". -mmin -61"},
	{args: ". ! -type d -amin 0"},
	{args: ". ! -type d -amin 2"},
	{args: ". ! -type d -amin -1"},
	{args: ". ! -type d -amin +1"},
	{args: ". -cmin 0"},
	{args: ". -cmin 1"},
	{args: ". -cmin -1"},
	{args: ". -cmin +0"},
	{args: ". -cmin -0"},
	{args: ". -mtime -0"},
	{args: ". -newermt '1 minute ago'"},
	{args: ". -newermt '-30 seconds'"},
	{args: "-L . -mmin -2"},
	{args: ". -daystart -mmin -1"},
}

// timeMargin is how long after the stamp a round of compareFresh may
// end: less than the 15 s that separate a file from a bucket boundary.
const timeMargin = 10 * time.Second

// compareFresh is compareFinds on root restamped (in loc) just before
// the runs. All of GNU find's and gfind's runs must end within
// timeMargin of the stamp, so that every "now" they take falls in the
// same buckets; a round that takes longer is run again, until waitLimit.
func compareFresh(t *testing.T, root string, loc *time.Location, dir, gnu, gfind string, args []string, serialOnly bool) {
	t.Helper()
	dir = filepath.Join(root, dir)
	for deadline := time.Now().Add(waitLimit); ; {
		stamp := time.Now()
		stampTimeTree(t, root, stamp, loc)
		want := runFind(t, dir, false, gnu, "find", args)
		var got findResult
		if !serialOnly {
			got = runFind(t, dir, false, gfind, "gfind", args)
		}
		serial := runFind(t, dir, false, gfind, "gfind", append([]string{"-j1"}, args...))
		if took := time.Since(stamp); took > timeMargin {
			if time.Now().After(deadline) {
				t.Fatalf("no round ended within %v of its stamp in %v (the last took %v)", timeMargin, waitLimit, took)
			}
			t.Logf("the round took %v, more than %v: again", took, timeMargin)
			continue
		}
		t.Logf("GNU find: %d bytes of stdout, stderr %q, exit status %d", len(want.stdout), want.stderr, want.code)
		if !serialOnly {
			compare(t, "sorted", want, got, true)
		}
		compare(t, "-j1", want, serial, false)
		return
	}
}

// TestAgainstGNUTime compares gfind with GNU find on the time tests, in
// TZ=UTC, then the -daystart cases again in TZ=America/New_York.
func TestAgainstGNUTime(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	root := makeTimeTree(t)
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		testtool.Missing(t, "time zone America/New_York", "tzdata", err)
	}

	run := func(t *testing.T, cases []gnuCase, loc *time.Location, gnu, gfind string, restamp bool) {
		for _, c := range cases {
			args := shellWords(c.args)
			t.Run(c.args, func(t *testing.T) {
				if containsArg(args, "-daystart") && nearMidnight(time.Now(), loc) {
					t.Skip("too close to midnight for -daystart")
				}
				if restamp {
					compareFresh(t, root, loc, c.dir, gnu, gfind, args, c.serialOnly)
					return
				}
				t.Parallel()
				compareFinds(t, filepath.Join(root, c.dir), false, gnu, gfind, args, c.serialOnly)
			})
		}
	}

	stampTimeTree(t, root, time.Now(), time.UTC)
	// Restamped before each case, like the minute cases: files like
	// sub/s45 have times seconds from now, and on a loaded machine a
	// parallel run of all cases lasted long enough for one to cross from
	// the future into the past between GNU's run and gfind's.
	t.Run("days", func(t *testing.T) { run(t, gnuTimeDayCases, time.UTC, gnu, gfind, true) })
	t.Run("minutes", func(t *testing.T) { run(t, gnuTimeMinuteCases, time.UTC, gnu, gfind, true) })

	// Both programs again under TZ=America/New_York, through wrappers,
	// since runFind sets TZ=UTC.
	gnuNY := tzWrapper(t, "find", gnu, "America/New_York")
	gfindNY := tzWrapper(t, "gfind", gfind, "America/New_York")
	stampTimeTree(t, root, time.Now(), ny)
	var nyCases []gnuCase
	for _, c := range gnuTimeDayCases {
		if containsArg(shellWords(c.args), "-daystart") {
			nyCases = append(nyCases, c)
		}
	}
	nyCases = append(nyCases, gnuCase{args: ". -newermt today"}, gnuCase{args: ". -newermt ''"},
		gnuCase{args: ". -newermt '2023-06-15 08:00 EDT'"}, gnuCase{args: ". -newermt '2023-06-15 08:00'"},
		gnuCase{args: ". -newermt 'yesterday 10:00'"})
	t.Run("America/New_York", func(t *testing.T) { run(t, nyCases, ny, gnuNY, gfindNY, false) })
}

// tzWrapper writes a script that runs prog as name with TZ set to zone.
func tzWrapper(t *testing.T, name, prog, zone string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+"-tz")
	script := "#!/bin/bash\nTZ=" + zone + " exec -a " + name + " " + prog + ` "$@"` + "\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func containsArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

// nearMidnight reports whether local midnight in loc is within two
// minutes of now, when the two programs could see different days.
func nearMidnight(now time.Time, loc *time.Location) bool {
	lt := now.In(loc)
	sinceMidnight := time.Duration(lt.Hour())*time.Hour + time.Duration(lt.Minute())*time.Minute + time.Duration(lt.Second())*time.Second
	return sinceMidnight < 2*time.Minute || sinceMidnight > 24*time.Hour-2*time.Minute
}
