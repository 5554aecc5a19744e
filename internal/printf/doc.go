// Package printf is GNU find's -printf: a format is compiled once, at
// parse time (Compile), and expanded for each file straight into the
// caller's buffer (Format.Append), without parsing it again.
//
// In the pipeline it is an engine below predicate, whose -printf and
// -fprintf nodes call it on each visit with the worker's buffer, and it
// knows nothing of output: names are escaped by internal/quote, and what
// fails on the file (%l, %Y, %Z) goes to the Report function it is given,
// which predicate words and counts with output's Diag.
// The pieces are GNU's, each checked against the original:
//
//   - format.go: the compiler (find/print.c's insert_fprintf, quirks
//     included) and the directives;
//   - cprintf.go: glibc's printf conversions for flags, width and
//     precision (%d, %o, %g, %s);
//   - strftime.go: glibc's strftime in the C locale and the local time
//     zone, for %A, %C, %T and -ls's date (AppendTime);
//   - filemode.go: gnulib's strmode, for %M and -ls (AppendFileMode);
//   - selinux_*.go: libselinux's getfilecon, for %Z.
//
// -ls and --json use AppendFileMode, AppendTime and TypeName without a
// Format. The time zone is time.Local, which cmd/gfind first sets from
// TZ with internal/tz.
package printf
