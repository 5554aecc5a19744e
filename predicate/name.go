package predicate

import (
	"strings"

	"github.com/gfind/gfind/internal/fnmatch"
	"github.com/gfind/gfind/walker"
)

// nameNode is -name PATTERN and -iname PATTERN: fnmatch on the base name.
type nameNode struct {
	op, pat string
	g       *fnmatch.Pattern
}

func (n *nameNode) Eval(e *walker.Entry, _ *State) bool {
	if e.Depth == 0 {
		return n.g.Match(rootBase(e.Path))
	}
	return n.g.Match(e.Path[e.NameOff:])
}

func (n *nameNode) Facts() Facts {
	return Facts{Cost: costName, Prob: patternProb(n.pat)}
}

func (n *nameNode) Args() []string { return []string{n.op, n.pat} }

// rootBase is the name -name matches for a starting point: its last
// component without trailing slashes, or "/" for a path of slashes only
// (GNU's base_name followed by strip_trailing_slashes).
func rootBase(p []byte) []byte {
	end := len(p)
	for end > 1 && p[end-1] == '/' {
		end--
	}
	start := end
	for start > 0 && p[start-1] != '/' {
		start--
	}
	if start == end { // only slashes
		return p[:1]
	}
	return p[start:end]
}

// pathNode is -path, -wholename, -ipath, -iwholename: fnmatch on the whole
// path as printed, where '*' also matches '/'.
type pathNode struct {
	op, pat string
	g       *fnmatch.Pattern
}

func (n *pathNode) Eval(e *walker.Entry, _ *State) bool { return n.g.Match(e.Path) }

func (n *pathNode) Facts() Facts {
	return Facts{Cost: costName, Prob: patternProb(n.pat)}
}

func (n *pathNode) Args() []string { return []string{n.op, n.pat} }

// patternProb is GNU's estimate_pattern_match_rate: a pattern with a
// wildcard is taken to match most names, a literal few.
func patternProb(pat string) float64 {
	if strings.ContainsAny(pat, "*?[") {
		return 0.8
	}
	return 0.1
}

func parseName(p *parser, op string, v variant) error {
	pat, err := p.arg(op)
	if err != nil {
		return err
	}
	// GNU's check_name_arg. "/" itself is the base name of the root
	// directory, so GNU 4.10 no longer warns about it (bug 62227).
	if strings.Contains(pat, "/") && pat != "/" && p.warnings {
		alt := "-wholename"
		if v&foldCase != 0 {
			alt = "-iwholename"
		}
		p.warnf("%s matches against basenames only, but the given pattern contains a directory separator (%s), thus the expression will evaluate to false all the time.  Did you mean %s?",
			p.quote(op), p.quote("/"), p.quote(alt))
	}
	p.push(&nameNode{op: op, pat: pat, g: p.glob(pat, v&foldCase != 0)})
	return nil
}

func parsePath(p *parser, op string, v variant) error {
	pat, err := p.arg(op)
	if err != nil {
		return err
	}
	fold := v&foldCase != 0
	if strings.HasSuffix(pat, "/") && !p.matchesRoot(pat, fold) {
		// GNU warns even without -warn: such a pattern can only match a
		// starting point that itself ends in '/'.
		p.warnf("%s %s will not match anything because it ends with /.", op, pat)
	}
	p.push(&pathNode{op: op, pat: pat, g: p.glob(pat, fold)})
	return nil
}
