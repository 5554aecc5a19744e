package predicate

import (
	"strconv"
	"strings"

	"github.com/gfind/gfind/internal/cnum"
)

// cmpKind is the comparison a numeric argument asks for: +N (more than
// N), -N (less than N) or N (exactly N).
type cmpKind int8

const (
	cmpEQ cmpKind = iota
	cmpGT
	cmpLT
)

// numArg is a parsed numeric argument such as "+7".
type numArg struct {
	kind cmpKind
	n    uint64
}

// parseNum parses "+N", "-N" or "N" the way GNU's get_num does: the
// comparison sign, then xstrtoumax (cnum.Strtoumax: so "-+3" is "less
// than 3" and "+ 1" is "more than 1").
func parseNum(s string) (numArg, bool) {
	var a numArg
	switch {
	case strings.HasPrefix(s, "+"):
		a.kind, s = cmpGT, s[1:]
	case strings.HasPrefix(s, "-"):
		a.kind, s = cmpLT, s[1:]
	}
	n, ok := cnum.Strtoumax(s)
	a.n = n
	return a, ok
}

// match compares v with the argument.
func (a numArg) match(v uint64) bool {
	switch a.kind {
	case cmpGT:
		return v > a.n
	case cmpLT:
		return v < a.n
	}
	return v == a.n
}

// String renders the argument as it was given (canonically).
func (a numArg) String() string {
	prefix := ""
	switch a.kind {
	case cmpGT:
		prefix = "+"
	case cmpLT:
		prefix = "-"
	}
	return prefix + strconv.FormatUint(a.n, 10)
}

// numArg takes the argument of -gid, -uid, -inum or -links and parses
// it as GNU's insert_num does. GNU 4.9 said "invalid argument `-gid' to
// `-gid'" for a missing argument and "invalid argument `x' to `-gid'"
// for a bad one; 4.10 gives the messages here (NEWS 4.10).
func (p *parser) numArg(op string) (numArg, string, error) {
	arg, err := p.arg(op)
	if err != nil {
		return numArg{}, "", err
	}
	num, ok := parseNum(arg)
	if !ok {
		return numArg{}, "", p.errorf("non-numeric argument to %s: %s", op, p.quote(arg))
	}
	return num, arg, nil
}
