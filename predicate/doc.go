// Package predicate turns find's expression language into a tree of
// Nodes and evaluates it on the Entries the walker hands over.
//
// Parse splits the arguments into starting points and an expression the
// way GNU find 4.11 does (an argument that starts with '-', or is '(' or
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
// A Run (run.go) holds the States of one run, decides the walk's options
// from the command line, and gives the exit status.
//
// Files, one per family of primaries, each with the parse functions that
// the rows of the one parse table (table.go) name:
//
//	parse.go table.go   the grammar (GNU's two passes) and the parse table
//	node.go logic.go    Node, Facts, State; -a -o , ! and constants
//	optimize.go cost.go -O levels: constant folding, cost reordering
//	name.go             -name -iname -path -ipath -wholename -iwholename (internal/fnmatch)
//	typ.go link.go      -type -xtype -lname -ilname
//	regex.go            -regex -iregex -regextype (internal/gnuregex)
//	size.go perm.go inode.go access.go  metadata tests (internal/meta asks the kernel,
//	                    internal/mode compiles -perm's chmod modes)
//	owner.go            -user -group -uid -gid -nouser -nogroup (internal/accounts)
//	fstype.go           -fstype (internal/mounts)
//	time.go             -mtime and friends (internal/cnum), -newerXY dates (internal/getdate)
//	action.go delete.go printf.go ls.go files.go  actions (ls.go: internal/listfile)
//	exec.go             -exec -execdir -ok -okdir (internal/spawn runs the children)
//	files0.go finish.go -files0-from; closing files and -exec batches
//	run.go              one run: the walk's options, the reorder choice,
//	                    a State per worker, the exit status
//	quit.go num.go      -quit's gate; +N, -N and N arguments
//
// gfind's extras (opt-in; none changes a GNU command line):
//
//	glob.go exclude.go  -glob -iglob (internal/glob) and bfs's -exclude
//	color.go color_*.go -color -nocolor, --color: LS_COLORS for -print, -ls
//	json.go             -printjson, --json
//	limit.go older.go   -limit N; -older, -newer-than DURATION
//	delete.go           also -delete-dry-run, --dry-run, --no-preserve-root
//	gitignore.go        -gitignored, --gitignore (internal/gitignore)
//	fsmeta.go           -xattr -xattrname -acl -capable -sparse (internal/meta)
//	hidden.go unique.go -hidden -nohidden; -unique
//
// predicate has no OS boundary of its own: -exec's argument limit and
// -execdir's way into a directory are internal/spawn's; the calls about
// one file (access, -empty, birth time, extended attributes) and the
// errno values that differ are internal/meta's. The whole package
// builds unchanged on every Unix.
//
// Patterns for -name, -path and friends use gfind's own POSIX
// fnmatch (internal/fnmatch): GNU find passes no FNM_PATHNAME and no
// FNM_PERIOD, which no Go glob library reproduces.
package predicate
