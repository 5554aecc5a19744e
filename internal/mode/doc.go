// Package mode compiles the mode argument of -perm: a chmod mode, octal
// or symbolic ("u+x,g-w", "a=rX"), as gnulib's mode_compile reads it,
// applied to mode 0 as mode_adjust does, behind find's '-' (all bits)
// and '/' (any bit) prefixes. predicate's -perm holds the Pattern and
// matches each file's mode against it.
package mode
