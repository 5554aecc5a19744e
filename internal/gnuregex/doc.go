// Package gnuregex is GNU find 4.9's -regex and -iregex: glibc 2.36's
// re_compile_pattern with the bits of a -regextype (Lookup), then
// re_match over the whole path, in the C locale. A pattern is parsed as
// glibc's regcomp.c parses it, with the same errors, and translated to
// Go's RE2 over Latin-1 runes so that a byte is a character; the few
// patterns RE2 cannot run (\< and \>) run on a small NFA simulation, and
// back-references, which no automaton can match, are refused
// (ErrBackRef). The tests check it against glibc and GNU find.
package gnuregex
