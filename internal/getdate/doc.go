// Package getdate is gnulib's parse_datetime, the date language of
// `date -d` and of GNU find's -newerXt: ISO 8601, "@EPOCH", textual and
// relative dates, zones, comments and a leading TZ="Zone". Parse turns a
// string into seconds and nanoseconds since the epoch as GNU find 4.9
// does, glibc's mktime normalization and daylight saving rules included;
// the tests check it against GNU date.
package getdate
