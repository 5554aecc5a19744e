// Package ctype is <ctype.h> in the C locale: the character classes and
// case mapping GNU's tools see under LC_ALL=C. The engines that must agree
// with glibc byte for byte (fnmatch, gnuregex, getdate, cnum's number
// parsing) share it, so that a class means one thing everywhere.
// Bytes above 0x7f are in no class and map to themselves. Unescape, C's
// backslash escapes, is here for the same reason: -printf formats and
// LS_COLORS read them alike, below output.
package ctype

// The class tests are isdigit(3) and its siblings in the C locale.
func IsDigit(c byte) bool  { return '0' <= c && c <= '9' }
func IsUpper(c byte) bool  { return 'A' <= c && c <= 'Z' }
func IsLower(c byte) bool  { return 'a' <= c && c <= 'z' }
func IsAlpha(c byte) bool  { return IsUpper(c) || IsLower(c) }
func IsAlnum(c byte) bool  { return IsAlpha(c) || IsDigit(c) }
func IsXDigit(c byte) bool { return IsDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }
func IsSpace(c byte) bool  { return c == ' ' || '\t' <= c && c <= '\r' }
func IsBlank(c byte) bool  { return c == ' ' || c == '\t' }
func IsCntrl(c byte) bool  { return c < ' ' || c == 0x7f }
func IsPrint(c byte) bool  { return ' ' <= c && c < 0x7f }
func IsGraph(c byte) bool  { return ' ' < c && c < 0x7f }
func IsPunct(c byte) bool  { return IsGraph(c) && !IsAlnum(c) }

// ToUpper is toupper(3).
func ToUpper(c byte) byte {
	if IsLower(c) {
		return c - 'a' + 'A'
	}
	return c
}

// ToLower is tolower(3).
func ToLower(c byte) byte {
	if IsUpper(c) {
		return c - 'A' + 'a'
	}
	return c
}

// Class returns the test for the class a bracket expression names as
// [:name:] (one of the twelve of POSIX), or false for any other name.
func Class(name string) (func(c byte) bool, bool) {
	switch name {
	case "alnum":
		return IsAlnum, true
	case "alpha":
		return IsAlpha, true
	case "blank":
		return IsBlank, true
	case "cntrl":
		return IsCntrl, true
	case "digit":
		return IsDigit, true
	case "graph":
		return IsGraph, true
	case "lower":
		return IsLower, true
	case "print":
		return IsPrint, true
	case "punct":
		return IsPunct, true
	case "space":
		return IsSpace, true
	case "upper":
		return IsUpper, true
	case "xdigit":
		return IsXDigit, true
	}
	return nil, false
}

// Unescape returns the byte the C escape \c stands for (\a \b \f \n
// \r \t \v \\: the ones output's quoting writes), or 0 if it is none: the
// escapes of -printf formats, and of LS_COLORS with a few of its own.
func Unescape(c byte) byte {
	switch c {
	case 'a':
		return '\a'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'v':
		return '\v'
	case '\\':
		return '\\'
	}
	return 0
}
