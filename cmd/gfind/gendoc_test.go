package main

// The generator of the man page's and the completion scripts' parts on
// gfind's own options, from kong's model of the cli struct (args.go).
//
// Each file keeps one marked region that go generate rewrites; the rest
// is written by hand, in the file's own language, where an editor, bash
// -n and groff see it whole. Whole files rendered from templates would
// move that rest into Go strings.
//
// The generator is a test because the model is the cli type of this
// package main, which a program of its own cannot import: go generate
// runs TestGenerated with -update (main_test.go's flag for golden files),
// and without it the same test fails when a file is not what the model
// makes of it. So the generator and its check are one function.

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

//go:generate go test -run ^TestGenerated$ -update .

// generated are the files with a region written from the model: their
// comment leader, and what the region holds.
var generated = []struct {
	path, comment string
	render        func([]*kong.Flag) string
}{
	{bashScript, "#", bashOptions},
	{fishScript, "#", fishOptions},
	{zshScript, "#", zshOptions},
	{manPage, `.\"`, manOptions},
}

// regenerate returns src with its region, from the line that starts with
// comment and " BEGIN GENERATED" to the one with " END GENERATED",
// holding body.
func regenerate(src, comment, body string) (string, error) {
	begin, end := "\n"+comment+" BEGIN GENERATED", "\n"+comment+" END GENERATED\n"
	i, j := strings.Index(src, begin), strings.Index(src, end)
	if i < 0 || j < i || strings.Count(src, begin) != 1 || strings.Count(src, end) != 1 {
		return "", fmt.Errorf("no single region between %q and %q lines", begin[1:], end[1:len(end)-1])
	}
	return src[:i] + begin + " by go generate ./cmd/gfind from the cli struct (args.go): do not edit\n" +
		body + src[j+1:], nil
}

// TestGenerated checks that the generated region of each file is what
// the model makes of it; with -update (go generate) it writes them.
func TestGenerated(t *testing.T) {
	flags := ownFlags()
	for _, g := range generated {
		src, err := os.ReadFile(g.path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := regenerate(string(src), g.comment, g.render(flags))
		if err != nil {
			t.Errorf("%s: %v", g.path, err)
			continue
		}
		if want == string(src) {
			continue
		}
		if *update {
			if err := os.WriteFile(g.path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, wantL := strings.Split(string(src), "\n"), strings.Split(want, "\n")
		n := 0
		for n < len(got) && n < len(wantL) && got[n] == wantL[n] {
			n++
		}
		t.Errorf("%s is not what the cli struct (args.go) makes of it: run go generate ./cmd/gfind\nline %d is\n\t%q\nnot\n\t%q",
			g.path, n+1, at(got, n), at(wantL, n))
	}
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end of file)"
}

// spellings are how a completion script offers f: its short and long
// names, the long one as --name= when its value is in the same word
// (--threads=N), and both ways when the value may be left out.
func spellings(f *kong.Flag) []string {
	var out []string
	if f.Short != 0 {
		out = append(out, "-"+string(f.Short))
	}
	switch long := "--" + f.Name; {
	case f.IsBool():
		out = append(out, long)
	case f.Tag.Has("bare"):
		out = append(out, long, long+"=")
	default:
		out = append(out, long+"=")
	}
	return out
}

// words are the words a leading own option f is written as, as shell
// patterns: takesNext those after which the next word is its value (-j
// N), inWord those that hold their value or take none.
func words(f *kong.Flag) (takesNext, inWord []string) {
	long := "--" + f.Name
	short := "-" + string(f.Short)
	_, next := ownOption([]*kong.Flag{f}, long)
	if next {
		takesNext = append(takesNext, long)
		if f.Short != 0 {
			takesNext = append(takesNext, short)
		}
	} else {
		inWord = append(inWord, long)
		if f.Short != 0 {
			inWord = append(inWord, short)
		}
	}
	if !f.IsBool() {
		inWord = append(inWord, long+"=*")
		if f.Short != 0 && f.Target.CanInt() {
			inWord = append(inWord, short+"[0-9]*")
		}
	}
	return takesNext, inWord
}

// summary is the first clause of f's help without its asides in
// parentheses, for a completion menu.
func summary(f *kong.Flag) string {
	s := regexp.MustCompile(` \([^)]*\)`).ReplaceAllString(strings.ReplaceAll(f.Help, "\n", " "), "")
	if i := strings.IndexAny(s, ";."); i > 0 {
		s = s[:i]
	}
	return s
}

func upperFirst(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// ownWords collects, over flags, the words of words().
func ownWords(flags []*kong.Flag, fishGlob bool) (takesNext, inWord []string) {
	for _, f := range flags {
		n, w := words(f)
		takesNext = append(takesNext, n...)
		for _, p := range w {
			if fishGlob { // fish's wildcards have no [0-9]
				p = strings.Replace(p, "[0-9]*", "?*", 1)
			}
			inWord = append(inWord, p)
		}
	}
	return takesNext, inWord
}

func bashOptions(flags []*kong.Flag) string {
	var b strings.Builder
	b.WriteString("# _gfind_own are gfind's own options, as offered.\n_gfind_own=(\n")
	for _, f := range flags {
		fmt.Fprintf(&b, "    %s\n", strings.Join(spellings(f), " "))
	}
	next, in := ownWords(flags, false)
	fmt.Fprintf(&b, `)

# _gfind_own_takes prints how many of the words after it the leading word
# $1 takes as the value of one of gfind's own options, and fails when $1
# is none of them.
_gfind_own_takes() {
    case $1 in
    %s) echo 1 ;;
    %s) echo 0 ;;
    *) return 1 ;;
    esac
}

# _gfind_own_values prints the values the own option $1 takes, and fails
# when it has no list of them.
_gfind_own_values() {
    case $1 in
`, strings.Join(next, " | "), strings.Join(in, " | "))
	for _, f := range flags {
		if f.Enum != "" {
			fmt.Fprintf(&b, "    --%s) echo '%s' ;;\n", f.Name, strings.Join(f.EnumSlice(), " "))
		}
	}
	b.WriteString("    *) return 1 ;;\n    esac\n}\n")
	return b.String()
}

// fishQuote quotes s for fish's single quotes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func fishOptions(flags []*kong.Flag) string {
	next, in := ownWords(flags, true)
	for i, p := range in {
		if strings.ContainsAny(p, "*?") {
			in[i] = fishQuote(p)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `# __gfind_own_takes prints how many of the tokens after it the leading
# token $argv[1] takes as the value of one of gfind's own options, and
# fails when it is none of them.
function __gfind_own_takes
    switch $argv[1]
        case %s
            echo 1
        case %s
            echo 0
        case '*'
            return 1
    end
end
`, strings.Join(next, " "), strings.Join(in, " "))
	for _, f := range flags {
		b.WriteString("complete -c gfind")
		if f.Short != 0 {
			fmt.Fprintf(&b, " -s %c", f.Short)
		}
		fmt.Fprintf(&b, " -l %s", f.Name)
		if !f.IsBool() {
			b.WriteString(" -x")
		}
		if f.Enum != "" {
			fmt.Fprintf(&b, " -a %s", fishQuote(strings.Join(f.EnumSlice(), " ")))
		}
		fmt.Fprintf(&b, " -d %s\n", fishQuote(upperFirst(summary(f))))
	}
	return b.String()
}

// zshOptions are _arguments specs in the array own. The options of the
// group "common", --help and --version, print and exit: nothing comes
// after them.
func zshOptions(flags []*kong.Flag) string {
	var b strings.Builder
	b.WriteString("own=(\n")
	for _, f := range flags {
		desc := "[" + strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, `:`, `\:`, `'`, `'\''`).Replace(summary(f)) + "]"
		long := "--" + f.Name
		var arg string
		switch {
		case f.IsBool():
		case f.Tag.Has("bare"):
			long += "=-" // the value only after '=', and optional
			arg = "::" + f.FormatPlaceHolder() + ":"
		default:
			long += "="
			arg = ":" + f.FormatPlaceHolder() + ":"
		}
		if f.Enum != "" {
			arg += "(" + strings.Join(f.EnumSlice(), " ") + ")"
		}
		spec := "'" + long + desc + arg + "'"
		switch {
		case f.Group != nil && f.Group.Key == "common":
			spec = "'(- *)" + spec[1:]
		case f.Short != 0:
			short := "-" + string(f.Short)
			if !f.IsBool() {
				short += "+"
			}
			spec = fmt.Sprintf("'(-%c --%s)'{%s,%s}'%s%s'", f.Short, f.Name, short, long, desc, arg)
		}
		fmt.Fprintf(&b, "  %s\n", spec)
	}
	b.WriteString(")\n")
	return b.String()
}

// roffWord matches what the man page sets in bold: option and primary
// names (-j1, --quiet-errors, -print0) and environment variables.
var roffWord = regexp.MustCompile(`(^|[\s(,/"])(--?[A-Za-z][A-Za-z0-9_-]*=?|[A-Z]+_[A-Z_]+\b)`)

// roff sets plain text for the man page: names in bold, the placeholder
// ph in italics, one sentence a line.
func roff(s, ph string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	if ph != "" {
		s = regexp.MustCompile(`\b`+regexp.QuoteMeta(ph)+`\b`).ReplaceAllString(s, `\fI`+ph+`\fP`)
	}
	s = roffWord.ReplaceAllStringFunc(s, func(m string) string {
		sub := roffWord.FindStringSubmatch(m)
		return sub[1] + `\fB` + strings.ReplaceAll(sub[2], "-", `\-`) + `\fP`
	})
	s = regexp.MustCompile(`([.?!]\)?) ([A-Z])`).ReplaceAllString(s, "$1\n$2")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}

// manOptions are a .TP paragraph for each flag: its synopsis, then its
// help as sentences and what its man tag adds.
func manOptions(flags []*kong.Flag) string {
	var b strings.Builder
	for _, f := range flags {
		ph := ""
		if !f.IsBool() {
			ph = f.FormatPlaceHolder()
		}
		text := upperFirst(strings.ReplaceAll(f.Help, "\n", " "))
		if !strings.HasSuffix(text, ".") {
			text += "."
		}
		if m := f.Tag.Get("man"); m != "" {
			text += " " + m
		}
		fmt.Fprintf(&b, ".TP\n%s\n%s\n", roff(synopsis(f), ph), roff(text, ph))
	}
	return b.String()
}
