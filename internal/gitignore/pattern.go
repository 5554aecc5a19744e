package gitignore

import "bytes"

// A pattern is one line of an ignore file, as git's add_pattern keeps it.
type pattern struct {
	glob     string // without the '!' and the trailing '/'; a leading '/' is kept
	negative bool   // "!glob": a match re-includes
	dirOnly  bool   // "glob/": matches directories only
	// noDir: the glob has no '/', and matches the base name at any
	// depth below the file's directory; otherwise it matches the path
	// relative to that directory (anchored).
	noDir bool
}

// A List is the patterns of one ignore file, in its order, with the
// directory they are relative to.
type List struct {
	base string // the directory, relative to the work tree: "" or "a/b/"
	pats []pattern
}

// utf8BOM is skipped at the start of a file, as git does.
var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// Parse returns the patterns of an ignore file with contents data whose
// directory is base ("" for the work tree's root, else "dir/sub/"), as
// git's add_patterns_from_buffer reads them: a UTF-8 byte order mark at
// the start is skipped; lines end at '\n', and a '\r' before it is
// dropped; empty lines and lines that start with '#' are skipped; the
// trailing spaces that no backslash escapes are trimmed. A NUL byte ends
// its line's pattern (git's patterns are C strings).
func Parse(data []byte, base string) List {
	l := List{base: base}
	data = bytes.TrimPrefix(data, utf8BOM)
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		l.add(string(trimTrailingSpaces(line)))
	}
	return l
}

// trimTrailingSpaces is git's trim_trailing_spaces: the run of spaces
// (not tabs) at the end goes, unless a backslash escapes its first space
// ("a\ " keeps "a\ "). A backslash at the very end leaves the line alone.
func trimTrailingSpaces(b []byte) []byte {
	last := -1
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case ' ':
			if last < 0 {
				last = i
			}
		case '\\':
			i++
			if i == len(b) {
				return b
			}
			last = -1
		default:
			last = -1
		}
	}
	if last >= 0 {
		return b[:last]
	}
	return b
}

// add appends the pattern of one line, as git's parse_path_pattern.
func (l *List) add(s string) {
	var p pattern
	if len(s) > 0 && s[0] == '!' {
		p.negative = true
		s = s[1:]
	}
	if len(s) > 0 && s[len(s)-1] == '/' {
		p.dirOnly = true
		s = s[:len(s)-1]
	}
	p.noDir = true
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			p.noDir = false
			break
		}
	}
	p.glob = s
	l.pats = append(l.pats, p)
}

// match looks for the last pattern of l that matches path (relative to
// the work tree, its base name at path[nameOff:]), a directory if isDir,
// as git's last_matching_pattern_from_list: matched reports one did, and
// ignored whether it ignores (it is not a negation).
func (l *List) match(path string, nameOff int, isDir bool) (matched, ignored bool) {
	for i := len(l.pats) - 1; i >= 0; i-- {
		p := &l.pats[i]
		if p.dirOnly && !isDir {
			continue
		}
		if p.noDir {
			// Base name patterns are matched without WM_PATHNAME, as
			// in git: a base name holds no '/' for it to matter.
			if !Match(p.glob, path[nameOff:], false) {
				continue
			}
		} else {
			g := p.glob
			if g[0] == '/' {
				g = g[1:]
			}
			// The path is below base: only ancestors' lists are
			// asked (git's match_pathname checks it).
			if len(path) <= len(l.base) || path[:len(l.base)] != l.base ||
				!Match(g, path[len(l.base):], true) {
				continue
			}
		}
		return true, !p.negative
	}
	return false, false
}
