// Package listfile formats the lines of -ls and -fls as GNU find's
// list_file (lib/listfile.c) does, the layout of ls -dils: the fields
// before the name, in columns that widen for the rest of the run, and
// the name's escapes. predicate's -ls writes a line per entry with it,
// and adds colors and the link target.
package listfile
