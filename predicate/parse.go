package predicate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gfind/gfind/internal/accounts"
	"github.com/gfind/gfind/internal/fnmatch"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// Errors Parse returns for -help and -version, which GNU find handles
// where they stand in the expression (an earlier error still wins).
var (
	ErrHelp    = errors.New("help requested")
	ErrVersion = errors.New("version requested")
)

// Config is what Parse needs from the command line and environment.
type Config struct {
	// Follow is the symbolic link mode set by -H, -L or -P before the
	// starting points. -follow in the expression turns it into -L.
	Follow walker.Follow
	// Warnings enables GNU's advisory warnings; GNU find enables them
	// when standard input is a terminal. -warn and -nowarn override.
	Warnings bool
	// Quote quotes a file name or argument for a diagnostic in the
	// locale's style (output.Diag.Quote).
	Quote func(string) string
	// Warn prints one warning line (without the program name prefix
	// and "warning: ").
	Warn func(string)
	// UTF8 matches patterns by character, as glibc's fnmatch does in a
	// UTF-8 locale; otherwise bytes, as in the C locale.
	UTF8 bool
	// IsUTF8, when set, decides UTF8 instead: it is called once, when
	// the first pattern is compiled, so that a command line without
	// patterns never looks the locale up.
	IsUTF8 func() bool
	// Now is the time the command started, which the time tests
	// measure from (GNU's options.start_time); zero means time.Now().
	Now time.Time
	// OptLevel is GNU's -O level, which parsing needs too: from 2 on an
	// -fstype of a type no mounted file system has is -false.
	OptLevel int

	// gfind's extras, from its own leading options (cmd/gfind). None of
	// them changes what a GNU find command line does.

	// Color is true when names are to be colored (--color=always, or
	// auto on a terminal); -color and -nocolor override it.
	Color bool
	// DryRun (--dry-run) makes -delete print what it would unlink.
	DryRun bool
	// NoPreserveRoot (--no-preserve-root) allows a -delete that nothing
	// guards on a starting point that is the root directory (delete.go).
	NoPreserveRoot bool
	// JSON (--json) makes -print (and the implicit -print) print JSON
	// lines, as -printjson does.
	JSON bool
	// QuietErrors (--quiet-errors): permission errors are
	// not printed.
	QuietErrors bool
	// GitIgnore (--gitignore) leaves out, below the starting points,
	// ".git" and what git ignores (gitignore.go).
	GitIgnore bool
}

// Command is a parsed command line.
type Command struct {
	// Roots are the starting points on the command line, "." when none
	// were given; with -files0-from they are read as the walk goes
	// (NextRoot), and Roots is empty.
	Roots []string
	list  *rootList // -files0-from's
	Expr  Node      // the expression, with the implicit -print added
	Walk  walker.Options
	// Exclude is the -exclude operands joined with -o, -nohidden's
	// among them (nil: none); see ExcludeFunc.
	Exclude Node
	Extras  // gfind's -limit, -noerror, -status and -unique (limit.go)

	gate     *quitGate      // when the expression has -quit (quit.go)
	execdirs []*execNode    // the -execdir ... + nodes, by execNode.dirIdx (exec.go)
	atExit   []func() error // what Close finishes, in the order of the command line
}

// Token kinds and precedences, as GNU find's tree.c has them.
type tokKind int

const (
	tokPrimary tokKind = iota
	tokNot
	tokBinary
	tokOpen
	tokClose
)

const (
	precNone = 0
)

// token is one element of the flat list the expression is first turned
// into; the second pass (getExpr) builds the tree from it.
type token struct {
	kind       tokKind
	prec       int
	name       string // as the user spelled it, for messages
	artificial bool   // added by the parser: the outer ( ) -print
	exclude    bool   // a tokNot that is -exclude (exclude.go)
	node       Node
	// pos are the positional options written before a primary, which
	// the tree keeps with it (posNode).
	pos []string
}

type parser struct {
	cfg      Config
	args     []string
	i        int // next argument
	toks     []token
	pos      int // next token, in the second pass
	walk     walker.Options
	warnings bool
	// firstNonOption is the first test or action seen, for GNU's warning
	// about options that follow one.
	firstNonOption string
	explicitDepth  bool
	roots          []string
	cur            string // the primary being parsed, for messages
	// pending are the positional options (-daystart -follow -regextype
	// -warn -nowarn) not yet attached to a primary (posNode).
	pending   []string
	files0    string    // -files0-from FILE
	hasFiles0 bool      // -files0-from was given (FILE may be "")
	ext       Extras    // set by gfind's own primaries (limit.go)
	noHidden  bool      // -nohidden (hidden.go)
	git       *gitCache // -gitignored's and --gitignore's Dirs (gitignore.go)
	// atExit is the work left for Command.Close, added by the parse
	// functions that make it: -exec ... + batches, -fprint's files.
	atExit []func() error
}

// Parse parses find's arguments after the leading options: starting
// points, then the expression.
func Parse(args []string, cfg Config) (*Command, error) {
	if cfg.Quote == nil {
		cfg.Quote = func(s string) string { return "'" + s + "'" }
	}
	if cfg.Warn == nil {
		cfg.Warn = func(string) {}
	}
	if cfg.Now.IsZero() {
		cfg.Now = time.Now()
	}
	// A name service lookup that hangs (internal/accounts) is reported as a
	// warning, whether it happens now or during the walk.
	warn, quote := cfg.Warn, cfg.Quote
	accounts.SetReport(func(db, key string, limit time.Duration) { warn(accounts.HangMessage(db, key, limit, quote)) })
	p := &parser{cfg: cfg, args: args, warnings: cfg.Warnings}
	p.walk = walker.Options{Follow: cfg.Follow, MaxDepth: -1}
	for p.i < len(args) && !looksLikeExpression(args[p.i], true) {
		p.roots = append(p.roots, args[p.i])
		p.i++
	}
	if err := p.buildList(); err != nil {
		return nil, err
	}
	p.applyColor() // color.go: -print and -ls colored under --color or -color
	if err := p.checkDelete(); err != nil {
		return nil, err
	}
	expr, err := p.buildTree()
	if err != nil {
		return nil, err
	}
	roots, list, err := p.startingPoints()
	if err != nil {
		return nil, err
	}
	for _, r := range roots {
		if err := checkPreserveRoot(p.cfg, expr, r); err != nil {
			return nil, err
		}
	}
	if list != nil && refusesRoots(p.cfg, expr) {
		// The list's names are checked as they are read: the names
		// before a refused one have been walked by then.
		list.refuse = func(r string) *ParseError { return checkPreserveRoot(p.cfg, expr, r) }
	}
	gate := newQuitGate(expr)
	// After a -quit GNU starts no other starting point: each is walked
	// to its end before the next starts.
	p.walk.RootsInTurn = gate != nil
	return &Command{Roots: roots, list: list, Expr: expr, Walk: p.walk, Exclude: excludeExpr(expr, p.noHidden, p.gitExclude()), Extras: p.extras(),
		gate: gate, execdirs: execdirNodes(expr), atExit: p.atExit}, nil
}

// looksLikeExpression is GNU's rule for where the starting points end:
// "-x", "(" and "!" begin the expression; ")" and "," do too, but only
// after the first expression argument. A lone "-" is a file name.
func looksLikeExpression(arg string, leading bool) bool {
	if arg == "" {
		return false
	}
	switch arg[0] {
	case '-':
		return len(arg) > 1
	case ')', ',':
		return len(arg) == 1 && !leading
	case '!', '(':
		return len(arg) == 1
	}
	return false
}

// dashedPunct reports whether arg is one of the operators "(", ")", "!"
// and "," spelled with a leading dash. GNU accepts them (it strips one
// '-' from every name it looks up), which 4.11 calls a bug to be
// removed, with a warning meanwhile.
func dashedPunct(arg string) bool {
	return len(arg) == 2 && arg[0] == '-' && strings.IndexByte("()!,", arg[1]) >= 0
}

func (p *parser) buildList() error {
	p.toks = append(p.toks, token{kind: tokOpen, prec: precNone, name: "(", artificial: true})
	for p.i < len(p.args) {
		a := p.args[p.i]
		if !looksLikeExpression(a, false) {
			if k := len(p.toks); p.warnings && p.toks[k-1].exclude {
				// bfs's warning: -exclude takes a test, and a path there
				// excludes nothing (bfs then walks it as a starting
				// point; GNU's grammar, below, refuses it).
				p.warnf("-exclude %s: this path will not be excluded.  Use a test like -name or -path within -exclude to exclude matching files.", p.quote(a))
			}
			err := &ParseError{Msg: fmt.Sprintf("paths must precede expression: `%s'", a)}
			// An existing file here is likely a pattern the shell
			// expanded because it was not quoted. GNU names the
			// predicate before it: not the artificial "(", unless
			// -files0-from renamed it.
			if unix.Access(a, unix.F_OK) == nil && (len(p.toks) > 1 || p.toks[0].name != "(") {
				err.Hint = fmt.Sprintf("possible unquoted pattern after predicate `%s'?", p.toks[len(p.toks)-1].name)
			}
			return err
		}
		r, name := lookup(a)
		if r == nil {
			return p.errorf("unknown predicate `%s'", a)
		}
		if dashedPunct(a) {
			// GNU 4.11's find_parser warns as it looks the name up:
			// before the primary's own warnings and errors, once per
			// occurrence, whatever -warn and -nowarn say.
			p.warnf("operator '%s' (with leading dash '-') will no longer be accepted in future findutils releases!", a)
		}
		switch r.kind {
		case kindOption:
			if p.firstNonOption != "" && p.warnings {
				p.warnf("you have specified the global option %s after the argument %s, but global options are not positional, i.e., %s affects tests specified before it as well as those specified after it.  Please specify global options before other arguments.", a, p.firstNonOption, a)
			}
		case kindPositional:
		default:
			if p.firstNonOption == "" {
				p.firstNonOption = a
			}
		}
		p.i++
		p.cur = a
		start := p.i
		if err := r.parse(p, name, r.v); err != nil {
			return err
		}
		gnuPositional := r.kind == kindPositional && gnuPositionals[r.name]
		if a == "-files0-from" || gnuPositional {
			// GNU inserts no predicate for these, and gives its name to
			// the one before (build_expression_tree's last_pred->p_name
			// = predicate_name): "-name x -o -files0-from f" is "expected
			// an expression after '-files0-from'", "-daystart -o -print"
			// has a binary operator with nothing before it, and
			// "! -daystart -exec ..." negates the -exec. -daystart
			// rides on the next primary (posNode) to stay in the
			// rendered expression.
			if gnuPositional {
				p.pending = append(p.pending, a)
				p.pending = append(p.pending, p.args[start:p.i]...)
			}
			p.toks[len(p.toks)-1].name = a
			continue
		}
		if r.kind == kindOption || r.kind == kindPositional {
			// gfind's own positional options (-color, -nohidden, ...)
			// are true tests, as bfs's.
			// GNU keeps options in the expression as tests that are
			// always true: "-maxdepth 0 -o -name x" is true for ".".
			p.push(&constNode{val: true, args: append([]string{a}, p.args[start:p.i]...)})
		}
	}
	if p.ext.Limit > 0 && !p.prints() {
		// Refused as bfs refuses it. There -limit is an action, which
		// turns the implicit -print off, so that the command would print
		// nothing; gfind's is an option and would keep the -print, but
		// a command line should mean one thing in both.
		return p.errorf("with -limit, you must specify an action explicitly; for example, -print -limit %d", p.ext.Limit)
	}
	switch {
	case len(p.toks) == 1:
		p.toks = p.toks[:0]
		p.push(p.print("-print"))
	case !p.prints():
		p.toks = append(p.toks, token{kind: tokClose, prec: precNone, name: ")", artificial: true})
		p.cur = "-print"
		p.push(p.print("-print"))
		p.toks[len(p.toks)-1].artificial = true
	default:
		p.toks = p.toks[1:]
	}
	return nil
}

// prints reports whether some action in the list turns the implicit
// -print off.
func (p *parser) prints() bool {
	for _, t := range p.toks {
		if t.node != nil && t.node.Facts().Prints() {
			return true
		}
	}
	return false
}

// gnuPositionals are GNU's positional options that insert no predicate,
// by their table names: parse_daystart alone returns without one
// (-follow, -regextype, -warn and -nowarn insert a true test, parse_noop).
var gnuPositionals = map[string]bool{"daystart": true}

// push appends a primary, with the implicit -a GNU inserts when the
// token before it ends an operand, and the positional options pending
// before it.
func (p *parser) push(n Node) {
	p.pushTok(token{kind: tokPrimary, prec: precNone, node: n, pos: p.pending})
	p.pending = nil
}

// positionals returns the positional options given so far, and their
// arguments, in order.
func (p *parser) positionals() []string {
	var out []string
	for _, t := range p.toks {
		out = append(out, t.pos...)
	}
	return append(out, p.pending...)
}

func (p *parser) pushTok(t token) {
	if t.kind == tokPrimary || t.kind == tokOpen || t.kind == tokNot {
		if k := len(p.toks); k > 0 && (p.toks[k-1].kind == tokPrimary || p.toks[k-1].kind == tokClose) {
			p.toks = append(p.toks, token{kind: tokBinary, prec: precAnd, name: "-a"})
		}
	}
	if t.name == "" {
		t.name = p.cur
	}
	p.toks = append(p.toks, t)
}

// buildTree is GNU's get_expr: a precedence climber over the token list
// that reports malformed expressions in GNU's words.
func (p *parser) buildTree() (Node, error) {
	n, err := p.getExpr(precNone, nil)
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		if p.toks[p.pos].kind == tokClose {
			return nil, p.errorf("you have too many ')'")
		}
		return nil, p.errorf("unexpected extra predicate '%s'", p.toks[p.pos].name)
	}
	return n, nil
}

func (p *parser) getExpr(prec int, prev *token) (Node, error) {
	if p.pos >= len(p.toks) {
		return nil, p.errorf("invalid expression")
	}
	t := &p.toks[p.pos]
	var next Node
	switch t.kind {
	case tokBinary:
		return nil, p.errorf("invalid expression; you have used a binary operator '%s' with nothing before it.", t.name)
	case tokClose:
		switch {
		case prev == nil:
			// The expression begins with ")": the artificial "(" was
			// dropped as the user's expression prints, and nothing
			// came before, as in "-files0-from - ) -print".
			return nil, p.errorf("invalid expression: expected expression before closing parentheses '%s'.", t.name)
		case (prev.kind == tokNot || prev.kind == tokBinary) && !t.artificial:
			return nil, p.errorf("expected an expression between '%s' and ')'", prev.name)
		case t.artificial:
			return nil, p.errorf("expected an expression after '%s'", prev.name)
		default:
			return nil, p.errorf("invalid expression; you have too many ')'")
		}
	case tokPrimary:
		next = t.node
		if len(t.pos) > 0 {
			next = &posNode{opts: t.pos, kid: next}
		}
		p.pos++
	case tokNot:
		p.pos++
		kid, err := p.getExpr(precNot, t)
		if err != nil {
			return nil, err
		}
		next = &notNode{kid: kid}
		if t.exclude {
			if next, err = p.addExclude(kid); err != nil {
				return nil, err
			}
		}
	case tokOpen:
		if p.pos+1 >= len(p.toks) || p.toks[p.pos+1].artificial {
			return nil, p.errorf("invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '%s'", t.name)
		}
		p.pos++
		if p.toks[p.pos].kind == tokClose {
			if t.artificial {
				// "-daystart )": the user's ")" closes the outer "(" the
				// parser added.
				return nil, p.errorf("invalid expression: expected expression before closing parentheses '%s'.", p.toks[p.pos].name)
			}
			return nil, p.errorf("invalid expression; empty parentheses are not allowed.")
		}
		var err error
		if next, err = p.getExpr(precNone, t); err != nil {
			return nil, err
		}
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != tokClose {
			return nil, p.errorf("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
		}
		p.pos++
	}
	if p.pos < len(p.toks) && p.toks[p.pos].prec > prec {
		return p.scanRest(next, prec)
	}
	return next, nil
}

func (p *parser) scanRest(tree Node, prec int) (Node, error) {
	if p.pos >= len(p.toks) || p.toks[p.pos].kind == tokClose {
		return nil, p.errorf("invalid expression")
	}
	for p.pos < len(p.toks) && p.toks[p.pos].prec > prec {
		t := &p.toks[p.pos]
		switch t.kind {
		case tokBinary:
			p.pos++
			right, err := p.getExpr(t.prec, t)
			if err != nil {
				return nil, err
			}
			tree = combine(t.prec, tree, right)
		case tokClose:
			return tree, nil
		default:
			return nil, p.errorf("invalid expression")
		}
	}
	return tree, nil
}

// combine joins two operands with a binary operator, flattening chains
// of the same operator into one node (all three are associative).
func combine(prec int, l, r Node) Node {
	switch prec {
	case precAnd:
		return &andNode{kids: appendFlat[*andNode](l, r, func(n *andNode) []Node { return n.kids })}
	case precOr:
		return &orNode{kids: appendFlat[*orNode](l, r, func(n *orNode) []Node { return n.kids })}
	default:
		return &commaNode{kids: appendFlat[*commaNode](l, r, func(n *commaNode) []Node { return n.kids })}
	}
}

func appendFlat[T Node](l, r Node, kids func(T) []Node) []Node {
	var out []Node
	for _, n := range []Node{l, r} {
		if t, ok := n.(T); ok {
			out = append(out, kids(t)...)
		} else {
			out = append(out, n)
		}
	}
	return out
}

// arg takes the argument of the primary op, or fails with GNU's message.
func (p *parser) arg(op string) (string, error) {
	if p.i >= len(p.args) {
		return "", p.errorf("missing argument to `%s'", op)
	}
	p.i++
	return p.args[p.i-1], nil
}

func (p *parser) errorf(format string, a ...any) error {
	return &ParseError{Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) warnf(format string, a ...any) { p.cfg.Warn(fmt.Sprintf(format, a...)) }

func (p *parser) quote(s string) string { return p.cfg.Quote(s) }

// glob compiles a -name/-path style pattern in the locale's mode.
func (p *parser) glob(pat string, fold bool) *fnmatch.Pattern {
	if p.cfg.IsUTF8 != nil {
		p.cfg.UTF8, p.cfg.IsUTF8 = p.cfg.IsUTF8(), nil
	}
	if p.cfg.UTF8 {
		return fnmatch.CompileUTF8(pat, fold)
	}
	return fnmatch.Compile(pat, fold)
}

// matchesRoot is GNU's matches_start_point: whether a -path pattern
// matches one of the starting points (or "." when none were given).
func (p *parser) matchesRoot(pat string, fold bool) bool {
	g := p.glob(pat, fold)
	if len(p.roots) == 0 {
		return g.Match([]byte("."))
	}
	for _, r := range p.roots {
		if g.Match([]byte(r)) {
			return true
		}
	}
	return false
}

// ParseError is a mistake on the command line; Msg is GNU's wording,
// without the program name. Hint, when set, is a second diagnostic line.
type ParseError struct{ Msg, Hint string }

func (e *ParseError) Error() string { return e.Msg }

// depthArg parses the argument of -maxdepth and -mindepth as GNU's
// insert_depthspec does: decimal digits only, at most INT_MAX.
func (p *parser) depthArg(op string) (int, error) {
	s, err := p.arg(op)
	if err != nil {
		return 0, err
	}
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, p.errorf("Expected a positive decimal integer argument to %s, but got %s", op, p.quote(s))
	}
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, p.errorf("%s: Numerical result out of range", s)
	}
	return int(v), nil
}
