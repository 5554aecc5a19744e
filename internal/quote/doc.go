// Package quote shows file names to a person as GNU find and bfs do, in
// the character set of the locale (Style): quoted for a diagnostic
// (Quote, gnulib's quotearg), with '?' for what a terminal cannot print
// (AppendTTY, qmark_chars), and $'…'-quoted in colored output
// (AppendShell, bfs's print_wordesc).
//
// In the pipeline it stands below output, which picks the style from
// the locale and writes diagnostics and records with it, and below the
// engines that format names themselves (internal/printf's -printf), so
// that a name is escaped one way wherever it is printed.
package quote
