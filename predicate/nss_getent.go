//go:build (!cgo && !darwin) || osusergo

package predicate

// systemNameService is getent in a build without cgo (the README's
// CGO_ENABLED=0 one) on Linux and the BSDs, whose C libraries all
// install getent(1): there os/user reads only /etc/passwd and
// /etc/group, which gfind has read already, and getent is the one way to
// the NSS modules without linking the C library. idDB runs it once per
// distinct name or id that the files do not know, and never for the ids
// they do. (macOS has no getent; nss_libc.go serves it.)
func systemNameService() nameService { return newGetentNS() }
