package tz

import (
	"os"
	"testing"
	"time"
)

// TestPosixZone checks TZ rules against what glibc's localtime gives
// for them (date +%z%Z).
func TestPosixZone(t *testing.T) {
	for _, tt := range []struct {
		rule string
		sec  int64
		want string
	}{
		{"EST5", 1656000000, "-0500 EST"},
		{"<+03>-3", 0, "+0300 +03"},
		{"EST5EDT,M3.2.0,M11.1.0", 1614834367, "-0500 EST"},
		{"EST5EDT,M3.2.0,M11.1.0", 1656000000, "-0400 EDT"},
		{"CET-1CEST,M3.5.0,M10.5.0/3", 1656000000, "+0200 CEST"},
		{"CET-1CEST,M3.5.0,M10.5.0/3", 4000000000, "+0200 CEST"},
	} {
		loc, err := posixZone(tt.rule)
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		if got := time.Unix(tt.sec, 0).In(loc).Format("-0700 MST"); got != tt.want {
			t.Errorf("TZ=%s at %d: %s, want %s", tt.rule, tt.sec, got, tt.want)
		}
	}
}

// TestSetLocal checks that a rule in $TZ becomes time.Local, and that a
// zone name, a file and no $TZ leave Go's own reading of it alone.
func TestSetLocal(t *testing.T) {
	for _, tt := range []struct {
		tz   string // "" for unset
		sec  int64
		want string // time.Local's offset and name after SetLocal
	}{
		{"EST5EDT,M3.2.0,M11.1.0", 1656000000, "-0400 EDT"},
		{"<+03>-3", 0, "+0300 +03"},
		{"CET-1CEST,M3.5.0,M10.5.0/3", 1614834367, "+0100 CET"},
		{"", 0, "+0000 Go"},
		{"America/New_York", 0, "+0000 Go"},
		{":EST5", 0, "+0000 Go"},
		{"/nowhere", 0, "+0000 Go"},
	} {
		t.Run(tt.tz, func(t *testing.T) {
			old := time.Local
			t.Cleanup(func() { time.Local = old })
			// A zone of our own stands for whatever Go made of $TZ: it
			// must survive every value that is not a rule.
			time.Local = time.FixedZone("Go", 0)
			if tt.tz == "" {
				t.Setenv("TZ", "")
				os.Unsetenv("TZ")
			} else {
				t.Setenv("TZ", tt.tz)
			}
			SetLocal()
			if got := time.Unix(tt.sec, 0).In(time.Local).Format("-0700 MST"); got != tt.want {
				t.Errorf("TZ=%q: time.Local gives %s, want %s", tt.tz, got, tt.want)
			}
		})
	}
}
