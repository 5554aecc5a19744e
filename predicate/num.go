package predicate

import (
	"strconv"
	"strings"
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
// comparison sign, then xstrtoumax in base 10, which like strtoumax
// skips leading white space and takes one more '+' (so "-+3" is "less
// than 3" and "+ 1" is "more than 1"), but refuses a '-' and anything
// after the digits.
func parseNum(s string) (numArg, bool) {
	var a numArg
	switch {
	case strings.HasPrefix(s, "+"):
		a.kind, s = cmpGT, s[1:]
	case strings.HasPrefix(s, "-"):
		a.kind, s = cmpLT, s[1:]
	}
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	s = strings.TrimPrefix(s, "+")
	if s == "" || s[0] < '0' || s[0] > '9' {
		return a, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return a, false
	}
	a.n = n
	return a, true
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
