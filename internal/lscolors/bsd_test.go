package lscolors

import (
	"strings"
	"testing"
)

// bsdCases are LSCOLORS values with the color bfs 4.1 gives directories
// (di) and symbolic links (ln), from `LSCOLORS=... bfs -color` (bfs
// 4.1.4, LS_COLORS unset): "" for uncolored.
var bsdCases = []struct {
	value, di, ln string
}{
	{BSDDefault, "34;49", "35;49"},
	{"ExFxCxDxBxEGEDABAGACAD", "1;34;49", "1;35;49"},
	{"Ex", "1;34;49", "35;49"}, // completed from BSDDefault
	{"e", "34;49", "35;49"},
	{"exf", "34;49", "35;49"},
	{"xxxxxxxxxxxxxxxxxxxxxx", "39;49", "39;49"},
	{"Xe", "1;39;44", "35;49"},
	{"eX", "34;4;49", "35;49"},
	{"hH", "37;4;47", "35;49"},
	{"Hh", "1;37;47", "35;49"},
	{"ax", "30;49", "35;49"},
	{"1x", "31;49", "35;49"},
	{"x7", "39;47", "35;49"},
	{"ex0", "34;49", "30;49"},
	{"8x", "49", "35;49"}, // 8, 9 and anything else add nothing
	{"xz", "39", "35;49"},
	{"zx", "49", "35;49"},
	{"zz", "", "35;49"},
	{"ZZ", "", "35;49"},
	{"ex:x", "34;49", "49"},
	{"\xc3\xa9x", "", "39;49"}, // bytes, not characters
	{"e\\x", "34", "39;49"},
	{"exfxcxdxbxegedabagacadhh", "34;49", "35;49"}, // past 22: ignored
}

func TestParseBSD(t *testing.T) {
	seq := func(v string) string {
		if v == "" {
			return ""
		}
		return "\033[" + v + "m"
	}
	for _, tt := range bsdCases {
		c := ParseBSD(tt.value)
		if got := string(c.Color(IndDir)); got != seq(tt.di) {
			t.Errorf("LSCOLORS=%q: di %q, want %q", tt.value, got, seq(tt.di))
		}
		if got := string(c.Color(IndLink)); got != seq(tt.ln) {
			t.Errorf("LSCOLORS=%q: ln %q, want %q", tt.value, got, seq(tt.ln))
		}
	}
	// The eleven kinds in order, and what LSCOLORS does not name keeps
	// the built-in colors.
	c := ParseBSD("abcdefghABCDEFGHaxbxcxdx")
	for ind, want := range map[Indicator]string{
		IndDir: "30;41", IndLink: "32;43", IndSocket: "34;45", IndFIFO: "36;47",
		IndExec: "1;30;4;41", IndBlock: "1;32;4;43", IndChar: "1;34;4;45",
		IndSetuid: "1;36;4;47", IndSetgid: "30;49", IndStickyOtherWritable: "31;49",
		IndOtherWritable: "32;49", IndSticky: "37;44", IndFile: "", IndOrphan: "",
	} {
		if got := string(c.Color(ind)); got != seq(want) {
			t.Errorf("Color(%v) = %q, want %q", ind, got, seq(want))
		}
	}
	if _, ok := c.Suffix([]byte("a.tar")); ok {
		t.Error("LSCOLORS gave a suffix a color")
	}
}

// FuzzParseBSD: no LSCOLORS panics, and every sequence is complete.
func FuzzParseBSD(f *testing.F) {
	for _, tt := range bsdCases {
		f.Add(tt.value)
	}
	f.Fuzz(func(t *testing.T, value string) {
		c := ParseBSD(value)
		for i := IndNormal; i < numIndicators; i++ {
			if s := string(c.Color(i)); s != "" && (!strings.HasPrefix(s, "\033[") || !strings.HasSuffix(s, "m")) {
				t.Fatalf("LSCOLORS=%q: Color(%v) = %q", value, i, s)
			}
		}
	})
}
