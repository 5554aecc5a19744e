package predicate

import (
	"strings"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// kind is the class of a primary, which decides GNU's warnings and
// whether it is kept in the expression as an always-true test.
type kind int

const (
	kindTest       kind = iota
	kindAction          // has side effects
	kindOption          // global: applies to the whole walk (-maxdepth)
	kindPositional      // applies to what follows it (-follow, -daystart)
	kindPunct           // operators and parentheses
)

// A HelpGroup is the group of gfind --help that lists a primary.
type HelpGroup uint8

// The groups, in the order --help shows them: GNU find 4.9's, then
// gfind's extras, so that nothing in GNU's groups is gfind-only.
const (
	HelpNone       HelpGroup = iota // not listed: -help and -version ("Other common options" has them), ")"
	HelpOperators                   // "Operators (decreasing precedence; ...)"
	HelpPositional                  // "Positional options (always true)"
	HelpNormal                      // "Normal options (always true, ...)"
	HelpTests                       // "Tests (N can be +N or -N or N)"
	HelpActions                     // "Actions"
	HelpExtras                      // "gfind extras in the expression (not in GNU find)"
)

// row is one row of the parse table: a primary's name, kind and the
// function that consumes its arguments and pushes its tokens, with the
// variant it is given, and how --help lists it (the fields of Primary).
type row struct {
	name  string // without its leading '-'; "newerXY" stands for every -newerXY
	kind  kind
	parse parseFunc
	v     variant

	group         HelpGroup
	pre, arg, alt string // Primary's Before, Arg and Alt
	desc, sep     string // Primary's Desc and Sep
}

// A parseFunc consumes the arguments of op, as typed, given its
// row's variant, and pushes its tokens.
type parseFunc func(p *parser, op string, v variant) error

// A variant sets apart the rows that share a parse function, as bfs's
// table argument does: the function is given it and need not look at
// the name again, which it still prints in its messages. Each function
// reads its own meaning: a flag below, an operator's precedence, the
// letter of a timestamp ('a', 'c', 'm'), an access(2) mode or a
// metaKind.
type variant uint16

const (
	foldCase   variant = 1 << iota // ignores case: -iname, -iwholename, -ipath, -ilname, -iregex, -iglob
	toFile                         // writes to the file it names: -fprintf, -fls
	nulTerm                        // ends each name with a NUL: -print0, -fprint0
	ofGroup                        // the group, not the user: -gid, -group, -nogroup
	inodeNum                       // the inode number, not the link count: -inum
	olderThan                      // before, not after, now less the duration: -older
	maxDepth                       // the deepest level, not the shallowest: -maxdepth
	deprecated                     // the deprecated name: -d
	on                             // true, or on where the "no" form is off: -true, -warn, -color, -ignore_readdir_race
	dryRun                         // unlinks nothing: -delete-dry-run
	inFileDir                      // runs in the file's directory: -execdir, -okdir
	askFirst                       // asks first: -ok, -okdir
)

// table is the parse table, as GNU's parse_table and bfs's: every
// primary and operator, in the order --help lists them. A name is
// without its leading '-' (GNU strips one, which is why "--help" is
// "-help"). The parse functions live in the families' files, next to
// their nodes. The help fields keep GNU's text as it is, line breaks
// included (sep "\n"), as GNU 4.11's, with the GNU primaries GNU's own
// --help leaves out (-d, -ipath, -samefile) at the end of their groups.
var table = []row{
	{name: "(", kind: kindPunct, parse: parseOpen, group: HelpOperators, arg: "EXPR )"},
	{name: "!", kind: kindPunct, parse: parseNot, group: HelpOperators, arg: "EXPR"},
	{name: "not", kind: kindPunct, parse: parseNot, group: HelpOperators, arg: "EXPR"},
	{name: "a", kind: kindPunct, parse: parseBinary, v: precAnd, group: HelpOperators, pre: "EXPR1", arg: "EXPR2"},
	{name: "and", kind: kindPunct, parse: parseBinary, v: precAnd, group: HelpOperators, pre: "EXPR1", arg: "EXPR2", sep: "\n"},
	{name: "o", kind: kindPunct, parse: parseBinary, v: precOr, group: HelpOperators, pre: "EXPR1", arg: "EXPR2"},
	{name: "or", kind: kindPunct, parse: parseBinary, v: precOr, group: HelpOperators, pre: "EXPR1", arg: "EXPR2"},
	{name: ",", kind: kindPunct, parse: parseBinary, v: precComma, group: HelpOperators, pre: "EXPR1", arg: "EXPR2"},
	{name: ")", kind: kindPunct, parse: parseClose}, // listed with "("

	{name: "daystart", kind: kindPositional, parse: parseDaystart, group: HelpPositional},
	{name: "follow", kind: kindPositional, parse: parseFollow, group: HelpPositional},
	{name: "nowarn", kind: kindPositional, parse: parseWarn, group: HelpPositional},
	{name: "regextype", kind: kindPositional, parse: parseRegextype, group: HelpPositional}, // GNU shows no TYPE
	{name: "warn", kind: kindPositional, parse: parseWarn, v: on, group: HelpPositional},

	{name: "depth", kind: kindOption, parse: parseDepth, group: HelpNormal},
	{name: "files0-from", kind: kindOption, parse: parseFiles0From, group: HelpNormal, arg: "FILE"},
	{name: "maxdepth", kind: kindOption, parse: parseDepthLimit, v: maxDepth, group: HelpNormal, arg: "LEVELS"},
	{name: "mindepth", kind: kindOption, parse: parseDepthLimit, group: HelpNormal, arg: "LEVELS", sep: "\n"},
	{name: "mount", kind: kindOption, parse: parseMount, group: HelpNormal},
	{name: "noleaf", kind: kindOption, parse: parseNoleaf, group: HelpNormal},
	{name: "xdev", kind: kindOption, parse: parseXdev, group: HelpNormal},
	{name: "ignore_readdir_race", kind: kindOption, parse: parseReaddirRace, v: on, group: HelpNormal},
	{name: "noignore_readdir_race", kind: kindOption, parse: parseReaddirRace, group: HelpNormal, sep: "\n"},
	{name: "d", kind: kindOption, parse: parseDepth, v: deprecated, group: HelpNormal, desc: "(deprecated; as -depth)"},

	{name: "amin", kind: kindTest, parse: parseMin, v: 'a', group: HelpTests, arg: "N"},
	{name: "anewer", kind: kindTest, parse: parseNewer, v: 'a', group: HelpTests, arg: "FILE"},
	{name: "atime", kind: kindTest, parse: parseTime, v: 'a', group: HelpTests, arg: "N"},
	{name: "cmin", kind: kindTest, parse: parseMin, v: 'c', group: HelpTests, arg: "N"},
	{name: "cnewer", kind: kindTest, parse: parseNewer, v: 'c', group: HelpTests, arg: "FILE"},
	{name: "context", kind: kindTest, parse: parseContext, group: HelpTests, arg: "CONTEXT", sep: "\n"},
	{name: "ctime", kind: kindTest, parse: parseTime, v: 'c', group: HelpTests, arg: "N"},
	{name: "empty", kind: kindTest, parse: parseEmpty, group: HelpTests},
	{name: "false", kind: kindTest, parse: parseConst, group: HelpTests},
	{name: "fstype", kind: kindTest, parse: parseFstype, group: HelpTests, arg: "TYPE"},
	{name: "gid", kind: kindTest, parse: parseUID, v: ofGroup, group: HelpTests, arg: "N"},
	{name: "group", kind: kindTest, parse: parseUser, v: ofGroup, group: HelpTests, arg: "NAME"},
	{name: "ilname", kind: kindTest, parse: parseLname, v: foldCase, group: HelpTests, arg: "PATTERN", sep: "\n"},
	{name: "iname", kind: kindTest, parse: parseName, v: foldCase, group: HelpTests, arg: "PATTERN"},
	{name: "inum", kind: kindTest, parse: parseInodeNum, v: inodeNum, group: HelpTests, arg: "N"},
	{name: "iwholename", kind: kindTest, parse: parsePath, v: foldCase, group: HelpTests, arg: "PATTERN"},
	{name: "iregex", kind: kindTest, parse: parseRegex, v: foldCase, group: HelpTests, arg: "PATTERN", sep: "\n"},
	{name: "links", kind: kindTest, parse: parseInodeNum, group: HelpTests, arg: "N"},
	{name: "lname", kind: kindTest, parse: parseLname, group: HelpTests, arg: "PATTERN"},
	{name: "mmin", kind: kindTest, parse: parseMin, v: 'm', group: HelpTests, arg: "N"},
	{name: "mtime", kind: kindTest, parse: parseTime, v: 'm', group: HelpTests, arg: "N"},
	{name: "name", kind: kindTest, parse: parseName, group: HelpTests, arg: "PATTERN"},
	{name: "newer", kind: kindTest, parse: parseNewer, v: 'm', group: HelpTests, arg: "FILE", sep: "\n"},
	{name: "newerXY", kind: kindTest, parse: parseNewerXY, group: HelpTests, arg: "REFERENCE"},
	{name: "nouser", kind: kindTest, parse: parseNouser, group: HelpTests},
	{name: "nogroup", kind: kindTest, parse: parseNouser, v: ofGroup, group: HelpTests},
	{name: "path", kind: kindTest, parse: parsePath, group: HelpTests, arg: "PATTERN"},
	{name: "perm", kind: kindTest, parse: parsePerm, group: HelpTests, arg: "[-/]MODE", sep: "\n"},
	{name: "regex", kind: kindTest, parse: parseRegex, group: HelpTests, arg: "PATTERN"},
	{name: "readable", kind: kindTest, parse: parseAccess, v: unix.R_OK, group: HelpTests},
	{name: "writable", kind: kindTest, parse: parseAccess, v: unix.W_OK, group: HelpTests},
	{name: "executable", kind: kindTest, parse: parseAccess, v: unix.X_OK, group: HelpTests, sep: "\n"},
	{name: "wholename", kind: kindTest, parse: parsePath, group: HelpTests, arg: "PATTERN"},
	{name: "size", kind: kindTest, parse: parseSize, group: HelpTests, arg: "N[bcwkMG]"},
	{name: "true", kind: kindTest, parse: parseConst, v: on, group: HelpTests},
	{name: "type", kind: kindTest, parse: parseType, group: HelpTests, arg: "[bcdpflsD]"},
	{name: "uid", kind: kindTest, parse: parseUID, group: HelpTests, arg: "N", sep: "\n"},
	{name: "used", kind: kindTest, parse: parseUsed, group: HelpTests, arg: "N"},
	{name: "user", kind: kindTest, parse: parseUser, group: HelpTests, arg: "NAME"},
	{name: "xtype", kind: kindTest, parse: parseXtype, group: HelpTests, arg: "[bcdpfls]", sep: "\n"},
	{name: "ipath", kind: kindTest, parse: parsePath, v: foldCase, group: HelpTests, arg: "PATTERN"},
	{name: "samefile", kind: kindTest, parse: parseSamefile, group: HelpTests, arg: "FILE"},

	{name: "delete", kind: kindAction, parse: parseDelete, group: HelpActions},
	{name: "print0", kind: kindAction, parse: parsePrint, v: nulTerm, group: HelpActions},
	{name: "printf", kind: kindAction, parse: parsePrintf, group: HelpActions, arg: "FORMAT"},
	{name: "fprintf", kind: kindAction, parse: parsePrintf, v: toFile, group: HelpActions, arg: "FILE FORMAT"},
	{name: "print", kind: kindAction, parse: parsePrint, group: HelpActions, sep: " \n"}, // GNU's line ends "-print "
	{name: "fprint0", kind: kindAction, parse: parseFprint, v: nulTerm, group: HelpActions, arg: "FILE"},
	{name: "fprint", kind: kindAction, parse: parseFprint, group: HelpActions, arg: "FILE"},
	{name: "ls", kind: kindAction, parse: parseLs, group: HelpActions},
	{name: "fls", kind: kindAction, parse: parseLs, v: toFile, group: HelpActions, arg: "FILE"},
	{name: "prune", kind: kindAction, parse: parsePrune, group: HelpActions},
	{name: "quit", kind: kindAction, parse: parseQuit, group: HelpActions, sep: "\n"},
	{name: "exec", kind: kindAction, parse: parseExec, group: HelpActions, arg: "COMMAND ;", alt: "COMMAND {} +"},
	{name: "ok", kind: kindAction, parse: parseExec, v: askFirst, group: HelpActions, arg: "COMMAND ;", sep: "\n"},
	{name: "execdir", kind: kindAction, parse: parseExec, v: inFileDir, group: HelpActions, arg: "COMMAND ;", alt: "COMMAND {} +"},
	{name: "okdir", kind: kindAction, parse: parseExec, v: inFileDir | askFirst, group: HelpActions, arg: "COMMAND ;"},

	{name: "color", kind: kindPositional, parse: parseColor, v: on, group: HelpExtras, sep: ", "},
	{name: "nocolor", kind: kindPositional, parse: parseColor, group: HelpExtras,
		desc: "(options) color names from LS_COLORS, or not"},
	{name: "noerror", kind: kindPositional, parse: parseNoerror, group: HelpExtras,
		desc: "(option) ignore every error met on a file while\nwalking, and exit 0 despite them (as bfs)"},
	{name: "unique", kind: kindPositional, parse: parseUnique, group: HelpExtras,
		desc: "(option) skip a file met before (by device and\ninode): another hard link, a link followed"},
	{name: "nohidden", kind: kindPositional, parse: parseNohidden, group: HelpExtras,
		desc: "(option) leave out hidden files and what is below\nthem, not the starting points"},
	{name: "status", kind: kindPositional, parse: parseStatus, group: HelpExtras,
		desc: "(option) a live status line on standard error\nwhen it is a terminal"},
	{name: "hidden", kind: kindTest, parse: parseHidden, group: HelpExtras,
		desc: "the name starts with '.' (not . or ..)"},
	{name: "gitignored", kind: kindTest, parse: parseGitignored, group: HelpExtras,
		desc: "git ignores the file (.gitignore, info/exclude,\ncore.excludesFile); false outside a work tree"},
	{name: "exclude", kind: kindPunct, parse: parseExclude, group: HelpExtras, arg: "EXPR",
		desc: "never visit or descend into what EXPR matches"},
	{name: "glob", kind: kindTest, parse: parseGlob, group: HelpExtras, arg: "PATTERN",
		desc: "match the path below the starting point with a\nglob where ** crosses directories"},
	{name: "iglob", kind: kindTest, parse: parseGlob, v: foldCase, group: HelpExtras, arg: "PATTERN",
		desc: "as -glob, ignoring case"},
	{name: "older", kind: kindTest, parse: parseOlder, v: olderThan, group: HelpExtras, arg: "DURATION",
		desc: "modified before now minus DURATION (7d, 36h, 15m)"},
	{name: "newer-than", kind: kindTest, parse: parseOlder, group: HelpExtras, arg: "DURATION",
		desc: "modified after now minus DURATION"},
	{name: "xattr", kind: kindTest, parse: parseMeta, v: variant(metaXattr), group: HelpExtras,
		desc: "has extended attributes"},
	{name: "xattrname", kind: kindTest, parse: parseMeta, v: variant(metaXattrName), group: HelpExtras, arg: "NAME",
		desc: "has the extended attribute NAME (user.x)"},
	{name: "acl", kind: kindTest, parse: parseMeta, v: variant(metaACL), group: HelpExtras,
		desc: "has an access control list beyond the mode bits"},
	{name: "capable", kind: kindTest, parse: parseMeta, v: variant(metaCapable), group: HelpExtras,
		desc: "has file capabilities (setcap)"},
	{name: "sparse", kind: kindTest, parse: parseSparse, group: HelpExtras,
		desc: "has fewer blocks allocated than its size needs"},
	{name: "limit", kind: kindOption, parse: parseLimit, group: HelpExtras, arg: "N",
		desc: "stop after N matches; needs an action (as bfs)"},
	{name: "printjson", kind: kindAction, parse: parsePrintjson, group: HelpExtras,
		desc: "print one JSON object per line"},
	{name: "delete-dry-run", kind: kindAction, parse: parseDelete, v: dryRun, group: HelpExtras,
		desc: "print what -delete would unlink; unlink nothing"},

	{name: "help", kind: kindTest, parse: parseHelp},
	{name: "-help", kind: kindTest, parse: parseHelp},
	{name: "version", kind: kindTest, parse: parseVersion},
	{name: "-version", kind: kindTest, parse: parseVersion},
}

// tableByName indexes table by name: a map built once from the literal
// rather than a switch, which would spell every name a second time. A
// lookup is one map access, as with the map literal it replaces.
var tableByName = func() map[string]*row {
	m := make(map[string]*row, len(table))
	for i := range table {
		m[table[i].name] = &table[i]
	}
	return m
}()

// lookup finds the table row for an argument such as "-name".
func lookup(arg string) (*row, string) {
	if strings.HasPrefix(arg, "-newer") && len(arg) == 8 {
		// -newerXY: one row for all XY, as GNU's parse_entry_newerXY.
		return tableByName["newerXY"], arg
	}
	r, ok := tableByName[strings.TrimPrefix(arg, "-")]
	if !ok {
		return nil, ""
	}
	return r, arg
}

// A Primary is a row of the parse table as gfind --help lists it: an
// item "Before Name Arg", then, if Alt is set, "Name Alt", then Desc.
type Primary struct {
	// Name is as it is typed: "-name", "!", "(", "--help"; "-newerXY"
	// stands for the twenty names -newermt, -newerat, ...
	Name  string
	Group HelpGroup
	// Before is an operator's operand before it ("EXPR1" in
	// "EXPR1 -a EXPR2"); Arg is what follows the name ("PATTERN",
	// "FILE FORMAT", "EXPR )"); Alt a second form of it that --help
	// lists as another item (-exec's "COMMAND {} +").
	Before, Arg, Alt string
	// Desc is what --help says of it: after the item in GNU's groups
	// (-d's "(deprecated; as -depth)"), in a column in gfind's
	// extras, where a "\n" continues it on the next line.
	Desc string
	// Sep is what --help writes between this item and the next of its
	// group, if it is not the group's own separator: a "\n" ends the
	// line there (GNU's line breaks), ", " in gfind's extras shares
	// the next one's line and description.
	Sep string
}

// Primaries returns every row of the parse table, in the order --help
// lists them; the rows it does not list have HelpNone.
func Primaries() []Primary {
	out := make([]Primary, len(table))
	for i, r := range table {
		name := r.name
		if name[0] == '-' || 'a' <= name[0] && name[0] <= 'z' {
			name = "-" + name
		}
		out[i] = Primary{Name: name, Group: r.group, Before: r.pre, Arg: r.arg, Alt: r.alt, Desc: r.desc, Sep: r.sep}
	}
	return out
}

func parseOpen(p *parser, op string, _ variant) error {
	p.pushTok(token{kind: tokOpen, prec: precNone})
	return nil
}

func parseClose(p *parser, op string, _ variant) error {
	p.pushTok(token{kind: tokClose, prec: precNone})
	return nil
}

func parseNot(p *parser, op string, _ variant) error {
	p.pushTok(token{kind: tokNot, prec: precNot})
	return nil
}

// parseBinary is -a, -and, -o, -or and ",": its variant is the
// operator's precedence.
func parseBinary(p *parser, op string, v variant) error {
	p.pushTok(token{kind: tokBinary, prec: int(v)})
	return nil
}

// parseConst is -true (on) and -false.
func parseConst(p *parser, op string, v variant) error {
	p.push(&constNode{val: v&on != 0, args: []string{op}})
	return nil
}

func parsePrint(p *parser, op string, v variant) error {
	if v&nulTerm != 0 {
		p.push(&printNode{op: op, term: 0})
	} else {
		p.push(p.print(op))
	}
	return nil
}

func parsePrune(p *parser, op string, _ variant) error {
	p.push(pruneNode{})
	return nil
}

func parseQuit(p *parser, op string, _ variant) error {
	p.push(quitNode{})
	return nil
}

// parseDepthLimit is -maxdepth and -mindepth.
func parseDepthLimit(p *parser, op string, v variant) (err error) {
	if v&maxDepth != 0 {
		p.walk.MaxDepth, err = p.depthArg(op)
	} else {
		p.walk.MinDepth, err = p.depthArg(op)
	}
	return err
}

func parseDepth(p *parser, op string, v variant) error {
	if v&deprecated != 0 && p.warnings {
		p.warnf("the -d option is deprecated; please use -depth instead, because the latter is a POSIX-compliant feature.")
	}
	p.walk.PostOrder = true
	p.explicitDepth = true
	return nil
}

// parseXdev is -xdev.
func parseXdev(p *parser, op string, _ variant) error {
	p.walk.XDev = true
	return nil
}

// parseMount is -mount, which GNU find 4.11 (after POSIX 2024) made
// skip the files on other devices, mount points included, where it was
// -xdev before.
func parseMount(p *parser, op string, _ variant) error {
	p.walk.Mount = true
	return nil
}

// parseNoleaf is -noleaf: gfind never assumes leaf counts.
func parseNoleaf(p *parser, op string, _ variant) error { return nil }

// parseReaddirRace is -ignore_readdir_race and -noignore_readdir_race.
func parseReaddirRace(p *parser, op string, v variant) error {
	p.walk.IgnoreReaddirRace = v&on != 0
	return nil
}

func parseFollow(p *parser, op string, _ variant) error {
	p.walk.Follow = walker.FollowAll
	return nil
}

// parseWarn is -warn and -nowarn.
func parseWarn(p *parser, op string, v variant) error {
	p.warnings = v&on != 0
	return nil
}

// parseContext refuses -context: gfind, like the Debian build of GNU
// find it copies, has no SELinux support.
func parseContext(p *parser, op string, _ variant) error {
	if _, err := p.arg(op); err != nil {
		return err
	}
	return p.errorf("invalid predicate -context: SELinux is not enabled.")
}

func parseHelp(p *parser, op string, _ variant) error    { return ErrHelp }
func parseVersion(p *parser, op string, _ variant) error { return ErrVersion }
