package tz

import (
	"encoding/binary"
	"os"
	"strings"
	"time"
)

// SetLocal makes time.Local the time zone $TZ names for localtime(3),
// when Go could not load it itself; cmd/gfind calls it first thing, and
// a test that sets $TZ to a rule calls it after.
//
// GNU find breaks times down with localtime(3), so $TZ may be a POSIX
// rule such as "EST5EDT,M3.2.0,M11.1.0" or "<+03>-3" as well as a zone
// name. Go's time.Local knows zone names (and files) only: for a rule it
// silently uses UTC. SetLocal gives time.Local the rule instead, so that
// -printf's time directives, -ls, -daystart and -newermt see what GNU
// find sees. It does nothing when Go could load $TZ itself, or when $TZ
// is unset, empty or a file (":..." or "/...").
//
// It is a call and not an init function so that importing a package
// never changes the process's state.
func SetLocal() {
	tz, ok := os.LookupEnv("TZ")
	if !ok || tz == "" || strings.HasPrefix(tz, ":") || strings.HasPrefix(tz, "/") {
		return
	}
	if _, err := time.LoadLocation(tz); err == nil {
		return
	}
	if loc, err := posixZone(tz); err == nil {
		time.Local = loc
	}
}

// posixZone returns the Location a POSIX TZ rule describes. Go parses
// such rules only as the footer of a TZif file (RFC 8536), which applies
// after the last transition, so the rule is wrapped in a TZif version 2
// file with one transition at the dawn of time. (Unlike glibc, Go then
// applies daylight saving rules to every year, however early.)
func posixZone(rule string) (*time.Location, error) {
	be := binary.BigEndian
	var b []byte
	header := func(timecnt int) {
		b = append(b, "TZif2"...)
		b = append(b, make([]byte, 15)...)
		// isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
		for _, n := range []uint32{0, 0, 0, uint32(timecnt), 1, 1} {
			b = be.AppendUint32(b, n)
		}
	}
	header(0) // the version 1 part: one unused type
	b = append(b, 0, 0, 0, 0, 0, 0, 0)
	header(1)
	first := int64(-1) << 59
	b = be.AppendUint64(b, uint64(first))
	b = append(b, 0)                   // the transition's type
	b = append(b, 0, 0, 0, 0, 0, 0, 0) // the type (UTC, "") and its name
	b = append(b, '\n')
	b = append(b, rule...)
	b = append(b, '\n')
	return time.LoadLocationFromTZData(rule, b)
}
