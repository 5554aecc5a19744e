// Package meta asks the kernel about one file what its status does not
// say: whether the real user may access it, whether a directory is
// empty, its birth time, and its extended attributes, POSIX ACLs and
// file capabilities. predicate's tests (-readable, -empty, -newerBt,
// -xattr, -acl, -capable) and its colors call it on the entries the
// walker hands over, named by a File.
//
// It is predicate's boundary with the operating system: sys_linux.go,
// sys_bsd.go (macOS and the BSDs) and sys_<os>.go hold the calls and
// errno values that differ per system, xattr_<os>.go
// (xattr_extattr.go: FreeBSD and NetBSD) the extended attributes.
// Evaluating allocates nothing on Linux; it prints nothing, and
// returns the kernel's errors for the caller to report.
package meta
