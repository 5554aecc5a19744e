// Package output is where gfind's results and diagnostics leave the
// process.
//
//	worker 1 ──► Buffer ─┐
//	worker 2 ──► Buffer ─┼─(blocks of whole records, under a mutex)──► Sink ──► stdout
//	worker N ──► Buffer ─┘                                                 (or a -fprint file)
//	any goroutine ──► Diag ──(one line per write, under a mutex)──► stderr
//
// Each walker worker owns a Buffer and appends whole records to it
// (-print's path and newline, a -printf expansion) without locking or
// allocating. When a Buffer holds FlushSize bytes, or at the end of each
// record when the output is a terminal, it hands its contents to the
// Sink, which writes them with one write(2) under a mutex: records are
// never split or interleaved, and the lock is taken once per 64 KiB
// rather than once per file. Stop (for -quit) takes the same lock, so
// nothing is written after it returns. A write error is reported once
// and stops the Sink, which ends the walk early; a broken pipe ends the
// process by SIGPIPE (internal/die), silently, as it does GNU find.
//
// Diag is the only writer to standard error. It formats messages as GNU
// find 4.9 does, byte for byte: "gfind: 'path': Permission denied",
// quoting file names with gnulib's locale_quoting_style, which depends
// on the locale's character set ('…' in the C locale, ‘…’ under UTF-8;
// see Style and StyleFromEnv), and it remembers whether anything
// reported means exit status 1.
//
// Style also decides what a terminal sees: like GNU find, -print to a
// tty shows unprintable characters as '?'.
//
// Reorder (reorder.go) is the reorder buffer of gfind -s when the
// visits only print (walker.Ordered): the walker's workers visit out of
// order, in Seqs, and Reorder captures the output of those that are not
// next, up to a bound, and writes it in order.
//
// The Diag also draws the live status line of -status (status.go), and
// erases it before anything else reaches the terminal: a diagnostic, a
// -ok prompt or a child (Hold), and a terminal Sink's records.
//
// gfind's extras: colorpath.go writes a path in the colors
// internal/lscolors picked, its pieces $'…'-quoted as bfs quotes them
// when they hold control characters, on a terminal or not;
// json.go writes JSON strings and records without reflection, and
// Diag's JSON form of file errors (--json).
//
// What goes into a record is the callers': predicate's primaries, with
// internal/printf for -printf and internal/lscolors for --color.
package output
