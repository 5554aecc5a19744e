package getdate

import (
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
)

// fixedNow is the fixed "now" of the table: Monday 2026-11-30 04:50:30.25
// UTC, which is Sunday 2026-11-29 23:50:30.25 EST in New York.
var fixedNow = time.Unix(1796014230, 250000000)

// parseTests: want is seconds.nanoseconds since the epoch, or "" for a
// string GNU rejects. The absolute ones were checked with
// `TZ=... date -d STRING +%s.%N` (coreutils 9.1, the gnulib of GNU find
// 4.9); the relative ones were worked out from fixedNow by the rules
// that command follows (and TestParseAgainstDate checks them
// live against the real clock).
var parseTests = []struct {
	in, tz, want string
}{
	{"2024-01-02", "UTC", "1704153600.000000000"},
	{"2024-01-02", "America/New_York", "1704171600.000000000"},
	{"2024-01-02 10:20", "UTC", "1704190800.000000000"},
	{"2024-01-02 10:20:30", "UTC", "1704190830.000000000"},
	{"2024-01-02T10:20:30", "America/New_York", "1704208830.000000000"},
	{"2024-01-02T10:20:30.5", "America/New_York", "1704208830.500000000"},
	{"2024-01-02 10:20:30,123456789123", "UTC", "1704190830.123456789"},
	{"2024-01-02 10:20Z", "America/New_York", "1704190800.000000000"},
	{"2024-01-02 10:20 UTC", "America/New_York", "1704190800.000000000"},
	{"2024-01-02 10:20:00+05:30", "America/New_York", "1704171000.000000000"},
	{"2024-01-02T10:20:00+0530", "UTC", "1704171000.000000000"},
	{"2024-01-02T10:20:30+01", "UTC", "1704187230.000000000"},
	{"2024-01-02 10:20:30 UTC+1", "UTC", "1704187230.000000000"},
	{"2024-01-02 +05:30", "UTC", ""},
	{"@1700000000", "America/New_York", "1700000000.000000000"},
	{"@1700000000.25", "UTC", "1700000000.250000000"},
	{"@-1.5", "UTC", "-2.500000000"},
	{"@ 5", "UTC", "5.000000000"},
	{"@5 x", "UTC", ""},
	{"  2024-01-02", "UTC", "1704153600.000000000"},
	{"2024-02-30", "UTC", ""},
	{"2024-01-01 24:00", "UTC", ""},
	{"2024-01-01 10:60", "UTC", ""},
	{"2024-01-01 10:00:60", "UTC", ""},
	{`TZ="Europe/Paris" 2024-01-01`, "America/New_York", "1704063600.000000000"},
	{"Jan 5 2024", "America/New_York", "1704430800.000000000"},
	{"5 Jan 2024", "America/New_York", "1704430800.000000000"},
	{"January 5, 2024", "UTC", "1704412800.000000000"},
	{"5-jan-2024", "UTC", "1704412800.000000000"},
	{"1/2/2024", "America/New_York", "1704171600.000000000"},
	{"1/2/24", "UTC", "1704153600.000000000"},
	{"2024/01/02", "America/New_York", "1704171600.000000000"},
	{"20240102", "America/New_York", "1704171600.000000000"},
	{"20240102 +1 day", "America/New_York", "1704258000.000000000"},
	{"2024-01-02 10:20 -1 day", "America/New_York", "1704280800.000000000"}, // -1 is a zone
	{"2024-01-02 -1 day", "America/New_York", "1704085200.000000000"},
	{"2024-01-02T10", "UTC", ""},
	{"2024-01-02 10", "America/New_York", "1704207600.000000000"},
	{"2024-01-02 1020", "America/New_York", "1704208800.000000000"},
	{"2024-01-02 10am", "UTC", "1704189600.000000000"},
	{"2024-01-02 12pm", "UTC", "1704196800.000000000"},
	{"2024-01-02 12:30 a.m.", "UTC", "1704155400.000000000"},
	{"2024-01-02 0am", "UTC", ""},
	{"2024-01-02 13pm", "UTC", ""},
	{"(comment) 2024-01-01", "America/New_York", "1704085200.000000000"},
	{"2024-01-01 (unterminated", "America/New_York", "1704085200.000000000"},
	{"2024-01-02 EST", "America/New_York", "1704171600.000000000"},
	{"2024-01-02 EDT", "America/New_York", ""},
	{"2024-07-02 EDT", "America/New_York", "1719892800.000000000"},
	{"2024-01-02 EST", "UTC", "1704171600.000000000"},
	{"2024-01-02 CEST", "UTC", "1704146400.000000000"},
	{"2024-03-10 02:30", "America/New_York", ""}, // skipped by DST
	{"2024-03-09 02:30 tomorrow", "America/New_York", "1710055800.000000000"},
	{"2024-11-03 01:30", "America/New_York", "1730611800.000000000"}, // twice: the first
	{"2024-03-10 12:00 yesterday", "America/New_York", "1710003600.000000000"},
	{"2024-01-31 +1 month", "UTC", "1709337600.000000000"},
	{"J", "UTC", ""},
	{"noon", "UTC", ""},
	{"garbage", "UTC", ""},
	{"2024-01-02 10:20:30 -0500 2 hours ago", "UTC", "1704201630.000000000"},
	{"17 JUN +1992", "UTC", "708739200.000000000"},

	// Relative to fixedNow.
	{"", "UTC", "1795996800.000000000"},
	{"", "America/New_York", "1795928400.000000000"},
	{"now", "UTC", "1796014230.250000000"},
	{"today", "America/New_York", "1796014230.250000000"},
	{"yesterday", "UTC", "1795927830.250000000"},
	{"tomorrow", "UTC", "1796100630.250000000"},
	{"3 days ago", "UTC", "1795755030.250000000"},
	{"-2 hours", "UTC", "1796007030.250000000"},
	{"2 hours ago", "UTC", "1796007030.250000000"},
	{"1 fortnight ago", "UTC", "1794804630.250000000"},
	{"1.5 seconds ago", "UTC", "1796014228.750000000"},
	{"10:00", "UTC", "1796032800.000000000"},
	{"10:00", "America/New_York", "1795964400.000000000"},
	{"yesterday 10:00", "America/New_York", "1795878000.000000000"},
	{"friday", "America/New_York", "1796360400.000000000"},
	{"last friday", "America/New_York", "1795755600.000000000"},
	{"EST", "America/New_York", "1795928400.000000000"},
	{"EDT", "America/New_York", ""},
	{"x", "America/New_York", "1795950000.000000000"},            // military zone X
	{"200 days ago", "America/New_York", "1778734230.250000000"}, // EST offset in May: glibc mktime with tm_isdst=0
	{"next month", "UTC", "1798606230.250000000"},
	{"tomorrow noon", "UTC", ""},
}

func loadZone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		testtool.Missing(t, "time zone "+name, "tzdata", err)
	}
	return loc
}

func format(v Timespec, ok bool) string {
	if !ok {
		return ""
	}
	return fmt.Sprintf("%d.%09d", v.Sec, v.Nsec)
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		got := format(Parse(tt.in, fixedNow, loadZone(t, tt.tz)))
		if got != tt.want {
			t.Errorf("Parse(%q) in %s = %q, want %q", tt.in, tt.tz, got, tt.want)
		}
	}
}

// oracleInputs are compared with GNU date on the real clock.
var oracleInputs = []string{
	"next tuesday", "this thursday", "second", "3 fortnights hence", "last year",
	"1 year ago 2 months", "2024-02-29 +1 year", "+1 week -2 days", "sat", "Sun,",
	"next day", "4pm yesterday", "23:59:59.999999999", "noon", "midnight",
	"12/31", "31 dec", "dec 31", "2024-06-15 CEST", "2024-06-15 12:00 MESZ",
	"2024-06-15 12:00 A", "2024-06-15 12:00 T", "2024-06-15 12:00 T+1 hour", "UTC+05:30",
	"GMT-3", "Z", "12:00 DST", "UTC DST", "2024-06-15 12:00 EST DST", "EDT DST",
	"1 day ago ago", "-", "+", "@", "@-", "99999999999999999999", "2024-13-01",
	"0000-01-01", "-1-01-01", "1969-12-31 23:59:59", "9999-12-31 23:59:59",
	"1.5 days", "1,5 seconds", "tues", "wednes", "thurs", "sept 3", "Sept. 3",
	"a.m.", "5 a.m.", "5 p.m. tomorrow", "today 00:00:00 -1 second", "next hour",
	"third monday", "twelfth month", "13 months ago", "yesterday yesterday",
	"2024-01-02 10:20:30.123456789 +0000", "10:20:30.5pm", "10:20pm", "2024-01-02T10:20",
	"2024-01-02T10+01", "tomorrow 25:00", "20240102T1020", "1 2", "10 20 30",
	"  now  ", "NOW", "now(ish)", "((nested) comment) now", "6 7", "5 mins ago",
	"1 sec", "1 secs", "3 hrs", "minute", "this week", "last fortnight",
}

// TestParseAgainstDate compares Parse with GNU date on
// the real clock, in three zones. date -f reads one string a line; a
// known one after each marks where an invalid string printed nothing.
// date's answer must lie between ours computed just before and just
// after it ran.
func TestParseAgainstDate(t *testing.T) {
	date := testtool.Need(t, "date", "coreutils")
	if out, err := exec.Command(date, "--version").Output(); err != nil || !bytes.Contains(out, []byte("GNU coreutils")) {
		testtool.Missing(t, "GNU date", "coreutils", fmt.Errorf("%s --version: %q, %v", date, out, err))
	}
	inputs := append([]string{}, oracleInputs...)
	for _, tt := range parseTests {
		inputs = append(inputs, tt.in)
	}
	const marker, markerOut = "@-987654321", "-987654321.000000000"
	var stdin strings.Builder
	for _, in := range inputs {
		stdin.WriteString(in + "\n" + marker + "\n")
	}
	for _, zone := range []string{"UTC", "America/New_York", "Australia/Lord_Howe"} {
		loc := loadZone(t, zone)
		before := time.Now()
		cmd := exec.Command(date, "-f", "-", "+%s.%N")
		cmd.Env = []string{"TZ=" + zone, "LC_ALL=C"}
		cmd.Stdin = strings.NewReader(stdin.String())
		out, _ := cmd.Output() // exit status 1: some strings are invalid
		after := time.Now()
		lines := strings.Split(string(out), "\n")
		for _, in := range inputs {
			want := ""
			if len(lines) > 0 && lines[0] != markerOut {
				want, lines = lines[0], lines[1:]
			}
			if len(lines) == 0 || lines[0] != markerOut {
				t.Fatalf("TZ=%s: lost track of date's output at %q", zone, in)
			}
			lines = lines[1:]
			lo := format(Parse(in, before, loc))
			hi := format(Parse(in, after, loc))
			if (want == "") != (lo == "") || (want != "" && (tsLess(want, lo) || tsLess(hi, want))) {
				t.Errorf("TZ=%s %q: date says %q, we say %q..%q", zone, in, want, lo, hi)
			}
		}
	}
}

// tsLess compares two "sec.nsec" strings numerically.
func tsLess(a, b string) bool {
	pa, pb := strings.SplitN(a, ".", 2), strings.SplitN(b, ".", 2)
	sa, _ := strconv.ParseInt(pa[0], 10, 64)
	sb, _ := strconv.ParseInt(pb[0], 10, 64)
	if sa != sb {
		return sa < sb
	}
	return pa[1] < pb[1]
}

func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.in)
	}
	for _, in := range oracleInputs {
		f.Add(in)
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		ny = time.UTC
	}
	f.Fuzz(func(t *testing.T, s string) {
		Parse(s, fixedNow, time.UTC)
		Parse(s, fixedNow, ny)
	})
}
