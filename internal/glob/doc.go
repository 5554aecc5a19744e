// Package glob is the pattern engine of gfind's -glob and -iglob
// extras: '**' globs over a path relative to its starting point, matched
// with github.com/bmatcuk/doublestar/v4. Compile validates a pattern and
// rewrites it once so that Match allocates nothing and agrees with a
// shell's pathname expansion:
//
//   - braces are expanded into brace-free patterns (doublestar builds
//     new strings for every alternative it tries);
//   - no class matches '/' (doublestar's Match lets "[!x]" take it);
//   - with case folding, every letter becomes a class of its case
//     variants, so the name needs no folding.
//
// predicate parses the primaries and finds the relative path; this
// package knows nothing of Entries, and its errors are values.
package glob
