package predicate

import (
	"strings"
	"testing"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// costly is a pure test with a chosen cost and probability, for checking
// the reordering without depending on other families' numbers.
type costly struct {
	name       string
	cost, prob float64
}

func (c *costly) Eval(*walker.Entry, *State) bool { return true }
func (c *costly) Facts() Facts                    { return Facts{Cost: c.cost, Prob: c.prob} }
func (c *costly) Args() []string                  { return []string{"-name", c.name} }

func TestOptimize(t *testing.T) {
	tests := []struct {
		args  string
		level int
		want  string
	}{
		{"-maxdepth 1 -name a", 1, "-name a -a -print"},
		{"-maxdepth 1 -name a", 0, "-name a -a -maxdepth 1 -a -print"}, // GNU moves the name tests even at -O0
		{"-true -o -name a", 1, "-print"},
		{"-false -name a", 1, "-false"},
		{"-name a -false -print", 1, "-false"},
		{"-print -false -name a", 1, "-print -a -false"},
		{"-false -o -name a", 1, "-name a -a -print"},
		{"! -true -o -name b", 1, "-name b -a -print"},
		{"! ! -name a", 1, "-name a -a -print"},
		{"-name a , -name b", 1, "( -name a , -name b ) -a -print"}, // GNU evaluates every operand of ,
		{"-size +1 , -name b", 1, "( -size +1 , -name b ) -a -print"},
		{"-name a -print , -name b", 1, "-name a -a -print , -name b"},
		{"-type f -name a", 2, "-name a -a -type f -a -print"},                        // the name is rarer: it decides sooner
		{"-type f -name a*", 1, "-name a* -a -type f -a -print"},                      // the name moves at every level
		{"-size +1 -type f -name a*", 1, "-name a* -a -size +1 -a -type f -a -print"}, // nothing else moves at -O1
		{"-size +1 -type f -name a*", 2, "-name a* -a -type f -a -size +1 -a -print"},
		{"-size +1 ! -name a", 1, "-size +1 -a ! -name a -a -print"}, // an operator never moves
		{"-size +1 ! -name a", 3, "-size +1 -a ! -name a -a -print"},
		{"-size +1 -o -name a -o -type d", 0, "( -name a -o -size +1 -o -type d ) -a -print"},
		{"-size +1 -false", 0, "-size +1 -a -false -a -print"}, // no folding at -O0
		{"-size +1 -print -mtime 1 -regex a", 1, "-size +1 -a -print -a -regex a -a -mtime 1"},
		{"-type f -print -name a", 2, "-type f -a -print -a -name a"},
		{"-size +1 -readable -lname a", 2, "-size +1 -a -readable -a -lname a -a -print"}, // system calls keep their place, as in GNU
		{"-size +1 -hidden", 2, "-hidden -a -size +1 -a -print"},
	}
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, parseArgs(tt.args)...), Config{})
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		got := strings.Join(Optimize(cmd.Expr, tt.level).Args(), " ")
		if got != tt.want {
			t.Errorf("Optimize(%q, -O%d) = %q, want %q", tt.args, tt.level, got, tt.want)
		}
	}
}

func TestReorderByCost(t *testing.T) {
	cheap := &costly{"cheap", 1, 0.5}
	dear := &costly{"dear", 1000, 0.5}
	got := Optimize(&andNode{kids: []Node{dear, cheap}}, 2).Args()
	if strings.Join(got, " ") != "-name cheap -a -name dear" {
		t.Errorf("-a: got %q, want the cheap test first", got)
	}
	got = Optimize(&orNode{kids: []Node{dear, &printNode{op: "-print", term: '\n'}, dear, cheap}}, 2).Args()
	if strings.Join(got, " ") != "-name dear -o -print -o -name cheap -o -name dear" {
		t.Errorf("-o: got %q, want only the run after -print reordered", got)
	}
}

// FuzzOptimize checks, on random pure trees, that the optimized tree
// gives the same value as the original on synthetic entries.
func FuzzOptimize(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(strings.ReplaceAll(tt.args, " ", "\x00"))
	}
	f.Add("-name\x00a*\x00-o\x00-type\x00d\x00-false")
	entries := []*walker.Entry{
		walker.Synthetic("./a", 1, walker.TypeRegular, &unix.Stat_t{Mode: unix.S_IFREG}, nil),
		walker.Synthetic("./b/ab", 2, walker.TypeDir, &unix.Stat_t{Mode: unix.S_IFDIR}, nil),
		walker.Synthetic("./c", 1, walker.TypeSymlink, &unix.Stat_t{Mode: unix.S_IFLNK}, nil),
		walker.Synthetic(".", 0, walker.TypeDir, &unix.Stat_t{Mode: unix.S_IFDIR}, nil),
	}
	f.Fuzz(func(t *testing.T, argv string) {
		cmd, err := Parse(append([]string{"."}, strings.Split(argv, "\x00")...), Config{})
		if err != nil || !cmd.Expr.Facts().Pure() && !onlyPrints(cmd.Expr) {
			return
		}
		for level := 1; level <= 3; level++ {
			opt := Optimize(cmd.Expr, level)
			for _, e := range entries {
				s1, s2 := newTestState(), newTestState()
				v1, v2 := cmd.Expr.Eval(e, s1), opt.Eval(e, s2)
				if v1 != v2 || s1.printed() != s2.printed() {
					t.Fatalf("-O%d changed %q on %s: %v/%d -> %v/%d (optimized %q)", level, argv, e.Path, v1, s1.printed(), v2, s2.printed(), opt.Args())
				}
			}
		}
	})
}
