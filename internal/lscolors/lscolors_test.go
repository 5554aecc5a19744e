package lscolors

import (
	"errors"
	"strings"
	"testing"
)

// lsColorCases are LS_COLORS values with what bfs 4.1 makes of them:
// the sequence a kind of file or a name gets (lc+value+rc, "" for none),
// the reset, or the failure. Expectations were checked with
// `LS_COLORS=... bfs -color` (bfs 4.1.4); the escapes are GNU ls's too.
var lsColorCases = []struct {
	name  string
	value string
	ind   Indicator // checked when want is set and file is empty
	file  string    // a name to look up by suffix instead
	want  string
	reset string // checked when set
	fail  bool
}{
	{name: "builtin dir", value: "", ind: IndDir, want: "\033[01;34m"},
	{name: "builtin exec kept", value: "di=35", ind: IndExec, want: "\033[01;32m"},
	{name: "override", value: "di=35", ind: IndDir, want: "\033[35m"},
	{name: "last wins", value: "di=35:di=36", ind: IndDir, want: "\033[36m"},
	{name: "file unset", value: "di=1", ind: IndFile, want: ""},
	{name: "zero is uncolored", value: "ex=00", ind: IndExec, want: ""},
	{name: "single zero", value: "ex=0", ind: IndExec, want: ""},
	{name: "empty", value: "ex=", ind: IndExec, want: ""},
	{name: "000 is unset too", value: "ex=000", ind: IndExec, want: ""},
	{name: "0;34 is a color", value: "di=0;34", ind: IndDir, want: "\033[0;34m"},
	// A key set to all zeros is unset, and a file falls through to the
	// next key; only an empty value (fi's built-in one, ln=target, an
	// empty suffix value) takes the "no" color.
	{name: "no for unset", value: "no=07", ind: IndFile, want: "\033[07m"},
	{name: "or unset", value: "no=07", ind: IndOrphan, want: ""},
	{name: "set 00 not no", value: "no=07:ex=00", ind: IndExec, want: ""},
	{name: "fi 00 not no", value: "no=07:fi=00", ind: IndFile, want: ""},
	{name: "di empty not no", value: "no=07:di=", ind: IndDir, want: ""},
	{name: "di 0 not no", value: "no=07:di=0", ind: IndDir, want: ""},
	{name: "ln target is no", value: "no=07:ln=target", ind: IndLink, want: "\033[07m"},
	{name: "lc rc", value: "lc=<:rc=>:di=1", ind: IndDir, want: "<1>"},
	{name: "lc rc in reset", value: "lc=<:rc=>", ind: IndDir, want: "<01;34>", reset: "<0>"},
	{name: "rs", value: "rs=2", ind: IndDir, want: "\033[01;34m", reset: "\033[2m"},
	{name: "ec", value: "ec=\\e[m", ind: IndDir, want: "\033[01;34m", reset: "\033[m"},
	{name: "ec empty", value: "ec=", ind: IndDir, want: "\033[01;34m", reset: ""},
	{name: "default reset", value: "di=1", ind: IndDir, want: "\033[1m", reset: "\033[0m"},
	{name: "leading colons", value: "::di=1::", ind: IndDir, want: "\033[01;34m"}, // key "::di"
	{name: "trailing colons", value: "di=1::", ind: IndDir, want: "\033[1m"},
	{name: "cl accepted", value: "cl=x:di=2", ind: IndDir, want: "\033[2m"},

	// Escapes (get_funky_string).
	{name: "esc e", value: "di=\\e", ind: IndDir, want: "\033[\033m"},
	{name: "caret", value: "di=^[", ind: IndDir, want: "\033[\033m"},
	{name: "caret lower", value: "di=^a", ind: IndDir, want: "\033[\001m"},
	{name: "caret DEL", value: "di=^?", ind: IndDir, want: "\033[\177m"},
	{name: "octal", value: "di=\\101\\1019", ind: IndDir, want: "\033[AA9m"},
	{name: "octal wraps", value: "di=\\777", ind: IndDir, want: "\033[\377m"},
	{name: "hex", value: "di=\\x41\\x4g", ind: IndDir, want: "\033[A\004gm"},
	{name: "hex empty", value: "di=\\x", ind: IndDir, want: "\033[\000m"},
	{name: "hex wraps", value: "di=\\xfff", ind: IndDir, want: "\033[\377m"},
	{name: "letters", value: "di=\\a\\b\\f\\n\\r\\t\\v\\?\\_", ind: IndDir, want: "\033[\a\b\f\n\r\t\v\177 m"},
	{name: "escaped colon", value: "di=a\\:b", ind: IndDir, want: "\033[a:bm"},
	{name: "other escaped", value: "di=\\q", ind: IndDir, want: "\033[qm"},
	{name: "equals in value", value: "di=a=b", ind: IndDir, want: "\033[a=bm"},
	{name: "utf8 value", value: "di=é", ind: IndDir, want: "\033[ém"},

	// Suffixes.
	{name: "ext", value: "*.go=32", file: "x.go", want: "\033[32m"},
	{name: "ext no match", value: "*.go=32", file: "x.gox", want: "-"},
	{name: "ext whole name", value: "*.go=32", file: ".go", want: "\033[32m"},
	{name: "ext longer than name", value: "*.go=32", file: "go", want: "-"},
	{name: "suffix without dot", value: "*~=90", file: "a.txt~", want: "\033[90m"},
	{name: "ext case-insensitive", value: "*.tar=31", file: "X.TAR", want: "\033[31m"},
	{name: "ext case pair differs", value: "*.c=31:*.C=32", file: "x.C", want: "\033[32m"},
	{name: "ext case pair differs lower", value: "*.c=31:*.C=32", file: "x.c", want: "\033[31m"},
	{name: "ext case pair differs other", value: "*.ab=31:*.AB=32", file: "x.aB", want: "-"},
	{name: "ext case pair same color", value: "*.ab=31:*.AB=31", file: "x.aB", want: "\033[31m"},
	{name: "ext later wins", value: "*.tar.gz=31:*.gz=32", file: "a.tar.gz", want: "\033[32m"},
	{name: "ext later longer wins", value: "*.gz=32:*.tar.gz=31", file: "a.tar.gz", want: "\033[31m"},
	{name: "ext duplicate", value: "*.go=31:*.go=32", file: "a.go", want: "\033[32m"},
	{name: "ext 00 is written", value: "*.gz=32:*.tar.gz=00", file: "a.tar.gz", want: "\033[00m"},
	{name: "ext 00 not no", value: "no=7:*.gz=00", file: "a.gz", want: "\033[00m"},
	{name: "ext empty is no", value: "no=7:*.gz=", file: "a.gz", want: "\033[7m"},
	{name: "ext empty no unset", value: "*.gz=", file: "a.gz", want: ""},
	{name: "ext 00 over type", value: "*.gz=32:*.GZ=00", file: "a.GZ", want: "\033[00m"},
	// bfs's rules where they are not ls 9.2's (from a random search
	// against bfs 4.1): a later *A drops an earlier *.A even when *A
	// turns case-sensitive, and case-sensitivity passes along a chain
	// of suffixes that differ only in case, in the order given.
	{name: "later drops longer", value: "*B=00:*a=:*.A=00:*A=3", file: ".a", want: ""},
	{name: "smart case chain", value: "*aB=:*Ab=1:*ab=1:*.=3:*Bb=1", file: "AB", want: "-"},
	{name: "smart case order", value: "*ab=1:*AB=1:*Ab=2", file: "aB", want: "\033[1m"},
	{name: "smart case order 2", value: "*Ab=2:*ab=1:*AB=1", file: "aB", want: "-"},
	{name: "ext longer later", value: "*.gz=1:*b.gz=2", file: "XB.GZ", want: "\033[2m"},
	{name: "ext empty pattern", value: "*=33", file: "anything", want: "\033[33m"},
	{name: "ext escaped key", value: "*\\x2ego=35", file: "a.go", want: "\033[35m"},
	{name: "ext key with equals", value: "*a\\=b=35", file: "xa=b", want: "\033[35m"},
	{name: "ext high bytes", value: "*\xe9=36", file: "caf\xe9", want: "\033[36m"},
	{name: "ext lc", value: "lc=<:rc=>:*.go=1", file: "x.go", want: "<1>"},
	{name: "default db", value: Dircolors, file: "a.JPEG", want: "\033[01;35m"},
	{name: "default db tilde", value: Dircolors, file: "notes~", want: "\033[00;90m"},

	// What bfs skips: an unknown key, and everything after a chunk
	// without '='. A key runs to the first '=', across ':'.
	{name: "unknown key", value: "di=1:xx=2", ind: IndDir, want: "\033[1m"},
	{name: "uppercase key", value: "DI=1", ind: IndDir, want: "\033[01;34m"},
	{name: "no equals stops", value: "di=1:ex", ind: IndDir, want: "\033[1m"},
	{name: "after key across colon", value: "di=1:ex:fi=2:ln=3", ind: IndLink, want: "\033[3m"},
	{name: "key across colon", value: "di=1:ex:fi=2", ind: IndFile, want: ""},
	{name: "no equals", value: "di", ind: IndDir, want: "\033[01;34m"},
	{name: "empty key", value: "=1:di=2", ind: IndDir, want: "\033[2m"},
	{name: "ext key across colon", value: "*.go:di=1", file: "a.go:di", want: "\033[1m"},
	{name: "caret any", value: "di=^!", ind: IndDir, want: "\033[\001m"},
	{name: "caret colon", value: "di=^:", ind: IndDir, want: "\033[\032m"},
	{name: "ext with NUL skipped", value: "*a\\0=1:*a=2", file: "xa", want: "\033[2m"},
	{name: "rs 00 kept", value: "rs=00", ind: IndDir, want: "\033[01;34m", reset: "\033[00m"},

	// Failures: bfs stops; gfind colors nothing and says so.
	{name: "ext at end", value: "*.go", fail: true},
	{name: "trailing backslash", value: "di=1\\", fail: true},
	{name: "caret at end", value: "di=^", fail: true},
	{name: "ext value trailing backslash", value: "*.a=\\", fail: true},
}

func TestParse(t *testing.T) {
	for _, tt := range lsColorCases {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(tt.value)
			if tt.fail {
				var le *Error
				if !errors.As(err, &le) {
					t.Fatalf("Parse(%q) = %v, want an Error", tt.value, err)
				}
				if err.Error() != "unparsable value for LS_COLORS environment variable" {
					t.Errorf("message %q", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.value, err)
			}
			if tt.file != "" {
				got, ok := c.Suffix([]byte(tt.file))
				if !ok {
					if tt.want != "-" {
						t.Errorf("Suffix(%q): no match, want %q", tt.file, tt.want)
					}
				} else if string(got) != tt.want {
					t.Errorf("Suffix(%q) = %q, want %q", tt.file, got, tt.want)
				}
			} else if got := c.Color(tt.ind); string(got) != tt.want {
				t.Errorf("Color(%v) = %q, want %q", tt.ind, got, tt.want)
			}
			if tt.reset != "" || strings.HasPrefix(tt.name, "ec empty") {
				if got := c.Reset(); string(got) != tt.reset {
					t.Errorf("Reset() = %q, want %q", got, tt.reset)
				}
			}
		})
	}
}

func TestColored(t *testing.T) {
	c, err := Parse("ex=00:su=0:sg=:mh=01:ca=1:fi=000")
	if err != nil {
		t.Fatal(err)
	}
	for ind, want := range map[Indicator]bool{
		IndExec: false, IndSetuid: false, IndSetgid: false, IndMultiHardLink: true,
		IndCap: true, IndDir: true, IndOrphan: false, IndMissing: false, IndFile: false, IndLink: true,
	} {
		if got := c.Colored(ind); got != want {
			t.Errorf("Colored(%v) = %v, want %v", ind, got, want)
		}
	}
	if c.LinkAsTarget() {
		t.Error("LinkAsTarget without ln=target")
	}
	if c, _ := Parse("ln=target"); !c.LinkAsTarget() {
		t.Error("ln=target not seen")
	}
}

// TestDefaultColors: with LS_COLORS unset the colors are GNU ls's
// built-in ones (`env -u LS_COLORS ls --color=always`), which bfs 4.1
// uses too: no suffix list, no or, mi, mh, ca.
func TestDefaultColors(t *testing.T) {
	c := Default()
	for ind, want := range map[Indicator]string{
		IndDir: "\033[01;34m", IndLink: "\033[01;36m", IndFIFO: "\033[33m",
		IndSocket: "\033[01;35m", IndBlock: "\033[01;33m", IndChar: "\033[01;33m",
		IndOrphan: "", IndMissing: "", IndMultiHardLink: "", IndCap: "",
		IndExec: "\033[01;32m", IndStickyOtherWritable: "\033[30;42m", IndFile: "",
		IndSetuid: "\033[37;41m", IndSetgid: "\033[30;43m", IndSticky: "\033[37;44m",
		IndOtherWritable: "\033[34;42m",
	} {
		if got := string(c.Color(ind)); got != want {
			t.Errorf("Color(%v) = %q, want %q", ind, got, want)
		}
	}
	for _, name := range []string{"a.tar", "a.TGZ", "b.mp3", "x.rpmsave", "old#", "a.go"} {
		if got, ok := c.Suffix([]byte(name)); ok {
			t.Errorf("%s has color %q", name, got)
		}
	}
	if got := string(c.Reset()); got != "\033[0m" {
		t.Errorf("Reset() = %q", got)
	}
	// The parse of an empty LS_COLORS is the same.
	e, err := Parse("")
	if err != nil || string(e.Color(IndFIFO)) != "\033[33m" {
		t.Errorf("Parse(\"\") = %v, %v", e, err)
	}
}

// FuzzParse: no input panics; what parses hands out complete
// sequences, and suffix lookups of any name work.
func FuzzParse(f *testing.F) {
	for _, tt := range lsColorCases {
		f.Add(tt.value, tt.file)
	}
	f.Fuzz(func(t *testing.T, value, name string) {
		c, err := Parse(value)
		if err != nil {
			if c != nil {
				t.Fatal("Colors with an error")
			}
			return
		}
		left, right := string(c.val[IndLeft]), string(c.val[IndRight])
		for i := IndNormal; i < numIndicators; i++ {
			if s := string(c.Color(i)); s != "" && (!strings.HasPrefix(s, left) || !strings.HasSuffix(s, right)) {
				t.Fatalf("Color(%v) = %q lacks lc %q or rc %q", i, s, left, right)
			}
		}
		s, ok := c.Suffix([]byte(name))
		if ok && len(s) > 0 && !strings.HasPrefix(string(s), left) {
			t.Fatalf("Suffix(%q) = %q lacks lc", name, s)
		}
		// The trie finds what ls's linear search of its list finds.
		var want []byte
		wantOK := false
		for _, e := range c.exts {
			if len(e.suffix) > len(name) {
				continue
			}
			tail := []byte(name[len(name)-len(e.suffix):])
			if e.exact && string(tail) == string(e.suffix) || !e.exact && asciiEqualFold(tail, e.suffix) {
				want, wantOK = e.color, true
				break
			}
		}
		if ok != wantOK || string(s) != string(want) {
			t.Fatalf("LS_COLORS=%q: Suffix(%q) = %q, %v; ls's search gives %q, %v", value, name, s, ok, want, wantOK)
		}
	})
}

// TestSuffixNoAllocs: looking a name up allocates nothing, so a
// colored -print costs no allocation per file (output's
// TestPrintColoredNoAllocs checks the writing).
func TestSuffixNoAllocs(t *testing.T) {
	c, _ := Parse(Dircolors)
	name := []byte("file.tar.gz")
	allocs := testing.AllocsPerRun(1000, func() {
		if color, ok := c.Suffix(name); !ok || len(color) == 0 {
			t.Fatal("no color for file.tar.gz")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per lookup", allocs)
	}
}

func BenchmarkSuffix(b *testing.B) {
	c, _ := Parse(Dircolors)
	for _, name := range []string{"main.c", "archive.tar.gz", "Makefile", "photo.JPEG"} {
		b.Run(name, func(b *testing.B) {
			n := []byte(name)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.Suffix(n)
			}
		})
	}
}
