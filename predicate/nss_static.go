//go:build !cgo || osusergo

package predicate

// systemNameService is getent in a build without cgo (the README's
// CGO_ENABLED=0 one): there os/user reads only /etc/passwd and
// /etc/group, which gfind has read already, and getent is the one way to
// the NSS modules without linking the C library. idDB runs it once per
// distinct name or id that the files do not know, and never for the ids
// they do.
func systemNameService() nameService { return newGetentNS() }
