// Package tz gives Go's time.Local the time zone that glibc's
// localtime(3) would use, so that every time gfind prints or compares
// (-printf's time directives, -ls, -daystart, -newermt) is in the zone
// GNU find would use. cmd/gfind calls SetLocal once, before parsing the
// expression; nothing happens on import.
package tz
