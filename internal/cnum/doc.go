// Package cnum is C's number parsing as GNU find calls it on its
// arguments, in the C locale: strtod(3) through gnulib's xstrtod (the
// -mtime, -amin, -used numbers) and strtoumax(3) through gnulib's
// xstrtoumax (the -uid, -gid, -inum, -links numbers). Both take the
// whole string or refuse it, and refuse an overflow, as find does; the
// callers keep the comparison prefixes (+N, -N) and the messages.
//
// Go's strconv differs in the corners that matter here: it takes
// underscores after a base prefix, no leading white space, no "nan(chars)",
// and needs a binary exponent in hexadecimal floats.
package cnum
