//go:build (!cgo && !darwin) || osusergo

package accounts

// systemNameService is getent in a build without cgo (the README's
// CGO_ENABLED=0 one) on Linux and the BSDs, whose C libraries all
// install getent(1): there os/user reads only /etc/passwd and
// /etc/group, which gfind has read already, and getent is the one way to
// the NSS modules without linking the C library. DB runs it once per
// distinct name or id that the files do not know, and never for the ids
// they do. (macOS has no getent; ns_libc.go serves it.)
func systemNameService() NameService { return newGetentNS() }
