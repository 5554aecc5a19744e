package predicate

import (
	"github.com/gfind/gfind/internal/mode"
	"github.com/gfind/gfind/walker"
)

// permNode is -perm MODE, -perm -MODE and -perm /MODE; internal/mode
// compiles the mode.
type permNode struct {
	arg string
	pat mode.Pattern
}

func (n *permNode) Eval(e *walker.Entry, s *State) bool {
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	return n.pat.Match(uint32(st.Mode)) // uint16 on macOS, FreeBSD
}

func (n *permNode) Facts() Facts {
	// GNU's est_success_rate (parser.c): 0.01 for an exact mode, 0.2 for
	// -MODE, 0.3 for /MODE, and 0.9986 for /000, which GNU treats as
	// -000 and expects to fail only for broken symbolic links.
	p := 0.01
	switch {
	case n.pat.Kind == mode.All && n.arg[0] == '/':
		p = 0.9986
	case n.pat.Kind == mode.All:
		p = 0.2
	case n.pat.Kind == mode.Any:
		p = 0.3
	}
	return Facts{Cost: costStat, Prob: p}
}

func (n *permNode) Args() []string { return []string{"-perm", n.arg} }

func parsePerm(p *parser, op string, _ variant) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	pat, ok := mode.Parse(arg)
	if !ok {
		return p.errorf("invalid file mode %s", p.quote(arg))
	}
	if pat.Kind == mode.All && arg[0] == '/' {
		// Printed whether or not warnings are on, as GNU does (4.11's
		// words; 4.9's said "has now been changed").
		p.warnf("you have specified a mode pattern %s (which is equivalent to /000). The meaning of -perm /000 was changed in 2007 to be consistent with -perm -000; that is, while it used to match no files, it now matches all files. This warning message will be removed in a future findutils release.", arg)
	}
	p.push(&permNode{arg: arg, pat: pat})
	return nil
}
