// Package fnmatch is glibc's fnmatch(3) as GNU find 4.9 calls it for
// -name, -path, -lname and their case-folding forms: no FNM_PATHNAME, no
// FNM_PERIOD, escapes on, FNM_CASEFOLD for the -i forms. It reproduces
// glibc 2.36 bit for bit, quirks included, in the C locale (Compile) and
// in a UTF-8 locale (CompileUTF8), because users compare gfind's output
// with GNU find's; the tests check it against glibc's fnmatch itself.
//
// A compiled Pattern matches without allocating: it runs for every file
// a -name test sees.
package fnmatch
