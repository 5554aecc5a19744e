// Package lscolors is LS_COLORS as bfs 4.1 reads it: Parse turns a
// value into Colors, the sequence for each kind of file and each name
// suffix; ParseBSD reads BSD's LSCOLORS instead, and Default is GNU
// ls's built-in colors, used when neither is set.
//
// In the pipeline predicate's --color (-color) nodes pick a color for
// each file from Colors; output writes the path in it
// (output.AppendColoredPath, Buffer.PrintColored), escaped as the
// destination needs. Looking a color up allocates nothing, so a colored
// -print costs what a plain one does plus the lookup.
package lscolors
