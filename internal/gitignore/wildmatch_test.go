package gitignore

import (
	"strings"
	"testing"
)

// wildCases are git's t/t3070-wildmatch.sh cases: want is the result
// with WM_PATHNAME (what anchored patterns use), nopath without it (base
// names; without WM_PATHNAME "**/" is just "*" followed by '/', so it
// does not match an empty directory part).
var wildCases = []struct {
	pat, text    string
	want, nopath bool
}{
	{"foo", "foo", true, true},
	{"bar", "foo", false, false},
	{"", "", true, true},
	{"???", "foo", true, true},
	{"??", "foo", false, false},
	{"*", "foo", true, true},
	{"f*", "foo", true, true},
	{"*f", "foo", false, false},
	{"*foo*", "foo", true, true},
	{"*ob*a*r*", "foobar", true, true},
	{"*ab", "aaaaaaabababab", true, true},
	{`foo\*`, "foo*", true, true},
	{`foo\*bar`, "foobar", false, false},
	{`f\\oo`, `f\oo`, true, true},
	{"*[al]?", "ball", true, true},
	{"[ten]", "ten", false, false},
	{"**[!te]", "ten", true, true},
	{"**[!ten]", "ten", false, false},
	{"t[a-g]n", "ten", true, true},
	{"t[!a-g]n", "ten", false, false},
	{"t[!a-g]n", "ton", true, true},
	{"t[^a-g]n", "ton", true, true},
	{"a[]]b", "a]b", true, true},
	{"a[]-]b", "a-b", true, true},
	{"a[]-]b", "a]b", true, true},
	{"a[]-]b", "aab", false, false},
	{"a[]a-]b", "aab", true, true},
	{"]", "]", true, true},
	{"foo*bar", "foo/baz/bar", false, true},
	{"foo**bar", "foo/baz/bar", false, true},
	{"foo**bar", "foobazbar", true, true},
	{"foo/**/bar", "foo/baz/bar", true, true},
	{"foo/**/**/bar", "foo/baz/bar", true, false},
	{"foo/**/bar", "foo/b/a/z/bar", true, true},
	{"foo/**/**/bar", "foo/b/a/z/bar", true, true},
	{"foo/**/bar", "foo/bar", true, false},
	{"foo/**/**/bar", "foo/bar", true, false},
	{"foo?bar", "foo/bar", false, true},
	{"foo[/]bar", "foo/bar", false, true},
	{"foo[^a-z]bar", "foo/bar", false, true},
	{"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo/bar", false, true},
	{"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo-bar", true, true},
	{"**/foo", "foo", true, false},
	{"**/foo", "XXX/foo", true, true},
	{"**/foo", "bar/baz/foo", true, true},
	{"*/foo", "bar/baz/foo", false, true},
	{"**/bar*", "foo/bar/baz", false, true},
	{"**/bar/*", "deep/foo/bar/baz", true, true},
	{"**/bar/*", "deep/foo/bar/baz/", false, true},
	{"**/bar/**", "deep/foo/bar/baz/", true, true},
	{"**/bar/*", "deep/foo/bar", false, false},
	{"**/bar/**", "deep/foo/bar/", true, true},
	{"**/bar**", "foo/bar/baz", false, true},
	{"*/bar/**", "foo/bar/baz/x", true, true},
	{"*/bar/**", "deep/foo/bar/baz/x", false, true},
	{"**/bar/*/*", "deep/foo/bar/baz/x", true, true},
	{"a[c-c]st", "acrt", false, false},
	{"a[c-c]rt", "acrt", true, true},
	{"[!]-]", "]", false, false},
	{"[!]-]", "a", true, true},
	{`\`, "", false, false},
	{`\`, `\`, false, false},
	{`*/\`, `XXX/\`, false, false},
	{`*/\\`, `XXX/\`, true, true},
	{"foo", "foo", true, true},
	{"@foo", "@foo", true, true},
	{"@foo", "foo", false, false},
	{`\[ab]`, "[ab]", true, true},
	{"[[]ab]", "[ab]", true, true},
	{"[[:]ab]", "[ab]", true, true},
	{"[[::]ab]", "[ab]", false, false},
	{"[[:digit]ab]", "[ab]", true, true},
	{`[\[:]ab]`, "[ab]", true, true},
	{`\??\?b`, "?a?b", true, true},
	{`\a\b\c`, "abc", true, true},
	{"", "foo", false, false},
	{"**/t[o]", "foo/bba/arr", false, false},
	{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true, true},
	{"[[:digit:][:upper:][:space:]]", "a", false, false},
	{"[[:digit:][:upper:][:space:]]", "A", true, true},
	{"[[:digit:][:upper:][:space:]]", "1", true, true},
	{"[[:digit:][:upper:][:spaci:]]", "1", false, false},
	{"[[:digit:][:upper:][:space:]]", " ", true, true},
	{"[[:digit:][:upper:][:space:]]", ".", false, false},
	{"[[:digit:][:punct:][:space:]]", ".", true, true},
	{"[[:xdigit:]]", "5", true, true},
	{"[[:xdigit:]]", "f", true, true},
	{"[[:xdigit:]]", "D", true, true},
	{"[[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:graph:][:lower:][:print:][:punct:][:space:][:upper:][:xdigit:]]", "_", true, true},
	{"[^[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:lower:][:space:][:upper:][:xdigit:]]", ".", true, true},
	{"[a-c[:digit:]x-z]", "5", true, true},
	{"[a-c[:digit:]x-z]", "b", true, true},
	{"[a-c[:digit:]x-z]", "y", true, true},
	{"[a-c[:digit:]x-z]", "q", false, false},
	{`[\\-^]`, "]", true, true},
	{`[\\-^]`, "[", false, false},
	{`[\-_]`, "-", true, true},
	{`[\]]`, "]", true, true},
	{`[\]]`, `\]`, false, false},
	{`[\]]`, `\`, false, false},
	{"a[]b", "ab", false, false},
	{"a[]b", "a[]b", false, false},
	{"ab[", "ab[", false, false},
	{"[!", "ab", false, false},
	{"[-", "ab", false, false},
	{"[-]", "-", true, true},
	{"[a-", "-", false, false},
	{"[!a-", "-", false, false},
	{"[--A]", "-", true, true},
	{"[--A]", "5", true, true},
	{"[ --]", " ", true, true},
	{"[ --]", "$", true, true},
	{"[ --]", "-", true, true},
	{"[ --]", "0", false, false},
	{"[---]", "-", true, true},
	{"[------]", "-", true, true},
	{"[a-e-n]", "j", false, false},
	{"[a-e-n]", "-", true, true},
	{"[!------]", "a", true, true},
	{"[]-a]", "[", false, false},
	{"[]-a]", "^", true, true},
	{"[!]-a]", "^", false, false},
	{"[!]-a]", "[", true, true},
	{"[a^bc]", "^", true, true},
	{"[a-]b]", "-b]", true, true},
	{`[\]`, `\`, false, false},
	{`[\\]`, `\`, true, true},
	{`[!\\]`, `\`, false, false},
	{"[A-\\\\]", "G", true, true},
	{"b*a", "aaabbb", false, false},
	{"*ba*", "aabcaa", false, false},
	{"[,]", ",", true, true},
	{`[\\,]`, ",", true, true},
	{`[\\,]`, `\`, true, true},
	{"[,-.]", "-", true, true},
	{"[,-.]", "+", false, false},
	{"[,-.]", "-.]", false, false},
	{`[\1-\3]`, "2", true, true},
	{`[\1-\3]`, "3", true, true},
	{`[\1-\3]`, "4", false, false},
	{`[[-\]]`, `\`, true, true},
	{`[[-\]]`, "[", true, true},
	{`[[-\]]`, "]", true, true},
	{`[[-\]]`, "-", false, false},
	{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", true, true},
	{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1", false, false},
	{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-/-70-iso8859-1", false, false},
	{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1", true, true},
	{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/X/70/iso8859/1", false, false},
	{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", true, true},
	{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", false, false},
	{"*/*/*", "foo", false, false},
	{"*/*/*", "foo/bar", false, false},
	{"*/*/*", "foo/bba/arr", true, true},
	{"*/*/*", "foo/bb/aa/rr", false, true},
	{"**/**/**", "foo/bb/aa/rr", true, true},
	{"*X*i", "abcXdefXghi", true, true},
	{"*X*i", "ab/cXd/efXg/hi", false, true},
	{"*/*X*/*/*i", "ab/cXd/efXg/hi", true, true},
	{"**/*X*/**/*i", "ab/cXd/efXg/hi", true, true},
	{"fo", "foo", false, false},
	{"foo/bar", "foo/bar", true, true},
	{"foo/*", "foo/bar", true, true},
	{"foo/bba/arr", "foo/bba/arr", true, true},
	{"foo/b*", "foo/bba/arr", false, true},
	{"foo/b*/**", "foo/bba/arr", true, true},
	{"**/foo", "foo", true, false},
	{"**/**", "", true, false},
	{"foo/**", "foo", false, false},
	{"foo/**", "foo/", true, true},
	{"foo/**", "foo/a/b", true, true},
	{"a/**/b", "a/b", true, false},
	{"a/**/b", "a/x/y/b", true, true},
	{"a**/b", "ax/b", true, true},
	{"a**/b", "ax/y/b", false, true},
	{"\\", "\\", false, false},
}

func TestMatch(t *testing.T) {
	for _, c := range wildCases {
		if got := Match(c.pat, c.text, true); got != c.want {
			t.Errorf("Match(%q, %q, pathname) = %v, want %v", c.pat, c.text, got, c.want)
		}
		if got := Match(c.pat, c.text, false); got != c.nopath {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pat, c.text, got, c.nopath)
		}
	}
}

// FuzzMatch checks what holds for every pattern: Match does not panic;
// a pattern whose every byte is escaped matches its text only; "*"
// followed by a literal (git's ENDSWITH shortcut in match_basename)
// matches what ends with the literal; a lone "**" matches everything.
func FuzzMatch(f *testing.F) {
	for _, c := range wildCases {
		f.Add(c.pat, c.text, true)
	}
	f.Fuzz(func(t *testing.T, pat, text string, pathname bool) {
		Match(pat, text, pathname)
		var esc strings.Builder
		for i := 0; i < len(pat); i++ {
			esc.WriteByte('\\')
			esc.WriteByte(pat[i])
		}
		if got := Match(esc.String(), text, pathname); got != (pat == text) {
			t.Errorf("Match(%q, %q, %v) = %v for an escaped literal", esc.String(), text, pathname, got)
		}
		if !strings.ContainsAny(pat, "*?[\\/") && !strings.Contains(text, "/") {
			if got := Match("*"+pat, text, pathname); got != strings.HasSuffix(text, pat) {
				t.Errorf("Match(%q, %q, %v) = %v, HasSuffix says otherwise", "*"+pat, text, pathname, got)
			}
		}
		if !Match("**", text, pathname) {
			t.Errorf("Match(**, %q, %v) is false", text, pathname)
		}
	})
}
