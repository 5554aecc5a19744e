package gitignore

// wildmatch's results, as git's: abortAll and abortToStarStar end the
// backtracking early (a pattern that cannot match any later suffix).
const (
	wmMatch         = 0
	wmNoMatch       = 1
	wmAbortAll      = -1
	wmAbortToStarSt = -2
)

// Match reports whether text matches the wildmatch pattern: git's
// wildmatch(pattern, text, pathname ? WM_PATHNAME : 0) without
// WM_CASEFOLD. With pathname, '*', '?' and brackets do not match '/',
// and "**" matches across directories only as a whole component ("**/",
// "/**/", "/**"). Bytes are compared as bytes; the character classes
// ([:alpha:] ...) are ASCII's, as in git's own ctype.
func Match(pattern, text string, pathname bool) bool {
	return wild(pattern, 0, text, 0, pathname) == wmMatch
}

// at returns s[i], or 0 past its end: git's patterns and names are C
// strings, and wildmatch reads the terminating NUL in several places.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// isGlobSpecial is git's is_glob_special: the bytes that are not
// literal in a pattern.
func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// wild matches p[pi:] against t[ti:]: git's dowild, step for step, so
// that its answers (including its early aborts, which decide what
// backtracking tries) are git's. As in git, a "**" is a whole component
// when what precedes it is '/' or the start of p[pi:] (not of p).
func wild(p string, pi int, t string, ti int, pathname bool) int {
	start := pi
	for ; pi < len(p); ti, pi = ti+1, pi+1 {
		pc := p[pi]
		if ti >= len(t) && pc != '*' {
			return wmAbortAll
		}
		tc := at(t, ti)
		switch pc {
		case '\\':
			// The next byte is literal; a trailing backslash matches
			// nothing (the NUL after it is not in the text).
			pi++
			if pi >= len(p) || tc != p[pi] {
				return wmNoMatch
			}
			continue
		default:
			if tc != pc {
				return wmNoMatch
			}
			continue
		case '?':
			if pathname && tc == '/' {
				return wmNoMatch
			}
			continue
		case '*':
			var matchSlash bool
			pi++
			if at(p, pi) == '*' {
				prev := pi - 2
				for pi++; at(p, pi) == '*'; pi++ {
				}
				switch {
				case !pathname:
					matchSlash = true
				case (prev < start || p[prev] == '/') &&
					(pi == len(p) || p[pi] == '/' || (p[pi] == '\\' && at(p, pi+1) == '/')):
					// "**/" may match no directory at all: try
					// the rest of the pattern right here first.
					if at(p, pi) == '/' && wild(p, pi+1, t, ti, pathname) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				default:
					// "**" that is not a whole component is "*".
					matchSlash = false
				}
			} else {
				matchSlash = !pathname
			}
			if pi == len(p) {
				// A trailing "**" matches the rest; a trailing
				// "*" only if no '/' is left.
				if !matchSlash && indexSlash(t, ti) >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// "*/" matches up to the next '/' only: skip to
				// it, and let the loop match the '/'.
				s := indexSlash(t, ti)
				if s < 0 {
					return wmNoMatch
				}
				ti = s // the loop's increment steps over both '/'
				continue
			}
			for {
				if ti >= len(t) {
					break
				}
				if !isGlobSpecial(p[pi]) {
					// The '*' must swallow everything up to the
					// next occurrence of the literal that follows
					// it (and no '/' unless it may).
					lit := p[pi]
					for ti < len(t) && (matchSlash || t[ti] != '/') && t[ti] != lit {
						ti++
					}
					if at(t, ti) != lit {
						return wmNoMatch
					}
				}
				tc = at(t, ti)
				if m := wild(p, pi, t, ti, pathname); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarSt {
						return m
					}
				} else if !matchSlash && tc == '/' {
					return wmAbortToStarSt
				}
				ti++
			}
			return wmAbortAll
		case '[':
			var ok bool
			pi, ok = matchClass(p, pi, tc)
			if pi < 0 {
				return wmAbortAll
			}
			if !ok || (pathname && tc == '/') {
				return wmNoMatch
			}
			continue
		}
	}
	if ti < len(t) {
		return wmNoMatch
	}
	return wmMatch
}

// indexSlash returns the index of the first '/' in t at or after i, or
// -1.
func indexSlash(t string, i int) int {
	for ; i < len(t); i++ {
		if t[i] == '/' {
			return i
		}
	}
	return -1
}

// matchClass matches c against the bracket expression that starts at
// p[pi] == '[': it returns the index of its closing ']' and whether c is
// in the set, or -1 when the pattern ends first or names an unknown
// class (git's WM_ABORT_ALL: nothing can match then). As in git, '!' and
// '^' negate, a ']' first is literal, '\' escapes, "a-z" is a range of
// byte values, and "[:name:]" is a class; a "[:" without its ":]" is a
// literal '['.
func matchClass(p string, pi int, c byte) (int, bool) {
	pi++
	pc := at(p, pi)
	if pc == '^' {
		pc = '!'
	}
	negated := pc == '!'
	if negated {
		pi++
		pc = at(p, pi)
	}
	var prev byte
	matched := false
	for {
		if pi >= len(p) {
			return -1, false
		}
		switch {
		case pc == '\\':
			pi++
			if pi >= len(p) {
				return -1, false
			}
			pc = p[pi]
			if c == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
			pi++
			pc = p[pi]
			if pc == '\\' {
				pi++
				if pi >= len(p) {
					return -1, false
				}
				pc = p[pi]
			}
			if c <= pc && c >= prev {
				matched = true
			}
			pc = 0 // a range's end does not start another range
		case pc == '[' && at(p, pi+1) == ':':
			s := pi + 2
			e := s
			for e < len(p) && p[e] != ']' {
				e++
			}
			if e >= len(p) {
				return -1, false
			}
			if e-s-1 < 0 || p[e-1] != ':' {
				// Not a class: a literal '[', and the bytes
				// after it are read as members again.
				if c == '[' {
					matched = true
				}
				pc = '['
				break
			}
			in, known := inClass(p[s:e-1], c)
			if !known {
				return -1, false
			}
			if in {
				matched = true
			}
			pi = e
			pc = 0
		default:
			if c == pc {
				matched = true
			}
		}
		prev = pc
		pi++
		pc = at(p, pi)
		if pc == ']' {
			return pi, matched != negated
		}
	}
}

// inClass reports whether c is in the POSIX class name, as git's ctype
// has it (ASCII only; git's isspace is " \t\n\r", without \v and \f),
// and whether name is a class at all.
func inClass(name string, c byte) (in, known bool) {
	upper := c >= 'A' && c <= 'Z'
	lower := c >= 'a' && c <= 'z'
	digit := c >= '0' && c <= '9'
	alpha := upper || lower
	space := c == ' ' || c == '\t' || c == '\n' || c == '\r'
	print := c >= 0x20 && c <= 0x7e
	switch name {
	case "alnum":
		return alpha || digit, true
	case "alpha":
		return alpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return print && c != ' ', true
	case "lower":
		return lower, true
	case "print":
		return print, true
	case "punct":
		return print && !alpha && !digit && c != ' ', true
	case "space":
		return space, true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}
