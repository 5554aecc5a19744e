// Package predicate turns find's expression language into a tree of
// Nodes and evaluates it on the Entries the walker hands over.
//
// Parse splits the arguments into starting points and an expression the
// way GNU find 4.9 does (an argument that starts with '-', or is '(' or
// '!', begins the expression), parses the expression with GNU's grammar
// and error messages, and returns the tree together with the walker
// options that the expression's options (-maxdepth, -depth, -xdev, ...)
// ask for.
//
//	expr    = comma
//	comma   = or { "," or }
//	or      = and { ("-o" | "-or") and }
//	and     = unary { [ "-a" | "-and" ] unary }   // -a is implicit
//	unary   = ( "!" | "-not" ) unary | primary | "(" expr ")"
//
// Evaluation happens in the walker's worker goroutines. Each worker owns
// a State (its output buffer, the prune result, the shared stop flag), so
// evaluating needs no lock; Nodes themselves are read-only after Parse.
//
// Patterns for -name, -path and friends use this package's own POSIX
// fnmatch (fnmatch.go): GNU find passes no FNM_PATHNAME and no
// FNM_PERIOD, which no Go glob library reproduces.
package predicate
