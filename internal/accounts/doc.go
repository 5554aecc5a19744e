// Package accounts is gfind's account database: the names and ids of
// /etc/passwd and /etc/group, read once, and behind them the system's
// name service (NSS: LDAP, SSSD, systemd...) for what the files do not
// know, through the C library (os/user) in a cgo build and on macOS,
// through getent(1), with a time limit, in the static build.
//
// predicate asks it for -user, -group, -nouser, -nogroup, %u, %g, -ls
// and -printjson. It prints nothing: a getent run that hangs is told to
// the function given to SetReport.
package accounts
