package predicate

import (
	"unsafe"

	"github.com/gfind/gfind/internal/glob"
	"github.com/gfind/gfind/walker"
)

// globNode is -glob PATTERN and -iglob PATTERN (gfind extras): the path
// of the file relative to its starting point, matched with doublestar's
// '**' globs. For start "src", "src/a/b.go" is matched as "a/b.go", and
// so is "src//a/b.go" for start "src//": the relative path is the last
// Depth components of the path. A starting point itself is matched as
// the empty string, which only patterns that can match nothing match
// ("**", "*", "{,x}"): that keeps "-exclude -glob '**/.*'" from
// excluding the starting point ".".
//
// The pattern engine is internal/glob; matching allocates nothing.
type globNode struct {
	op, pat string
	g       glob.Pattern
}

func (n *globNode) Eval(e *walker.Entry, _ *State) bool {
	rel := relPath(e)
	// The name is only read during the call; Match keeps nothing.
	return n.g.Match(unsafe.String(unsafe.SliceData(rel), len(rel)))
}

func (n *globNode) Facts() Facts {
	return Facts{Cost: costName, Prob: patternProb(n.pat)}
}

func (n *globNode) Args() []string { return []string{n.op, n.pat} }

// relPath returns e's path relative to its starting point: its last
// e.Depth components, which the walker joins with exactly one '/'
// whatever slashes end the starting point; nil for the starting point.
func relPath(e *walker.Entry) []byte {
	if e.Depth <= 0 {
		return nil
	}
	p := e.Path
	start := e.NameOff
	for d := 1; d < e.Depth && start > 1; d++ {
		i := start - 2 // skip the '/' before the component
		for i > 0 && p[i] != '/' {
			i--
		}
		if p[i] != '/' {
			return p // not a walker path; never for the walker's Entries
		}
		start = i + 1
	}
	return p[start:]
}

func parseGlob(p *parser, op string, v variant) error {
	pat, err := p.arg(op)
	if err != nil {
		return err
	}
	g, err := glob.Compile(pat, v&foldCase != 0)
	if err != nil {
		return p.errorf("invalid argument `%s' to `%s': %s", pat, op, err)
	}
	p.push(&globNode{op: op, pat: pat, g: g})
	return nil
}
