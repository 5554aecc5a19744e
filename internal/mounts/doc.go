// Package mounts is gfind's mount table: the type of the file system
// mounted from each device, for -fstype and -printf's %F. It is read
// once per process, from /proc/self/mountinfo on Linux (an mtab as
// the fallback) and from getfsstat(2) (NetBSD: getvfsstat) on macOS and
// the BSDs. It prints nothing: a table that cannot be read carries its
// error for predicate to report.
package mounts
