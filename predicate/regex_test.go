package predicate

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/walker"
)

// A regexErrTest is a pattern that does not compile under -regextype typ
// ("" is the default) with op, and the message (after "find: ").
type regexErrTest struct {
	typ, op, pat, msg string
}

// regexErrTests: the messages of GNU find 4.9 and 4.11 (after "find: ")
// for patterns glibc refuses, and gfind's for back-references.
var regexErrTests = []regexErrTest{
	{"", "-regex", `\(`, `failed to compile regular expression '\(': Unmatched ( or \(`},
	{"", "-regex", `a\)`, `failed to compile regular expression 'a\)': Unmatched ) or \)`},
	{"", "-regex", `[`, `failed to compile regular expression '[': Invalid regular expression`},
	{"", "-regex", `[a`, `failed to compile regular expression '[a': Unmatched [, [^, [:, [., or [=`},
	{"", "-regex", `\`, `failed to compile regular expression '\': Trailing backslash`},
	{"", "-regex", `\1`, `failed to compile regular expression '\1': Invalid back reference`},
	{"", "-regex", `\(a\)\|\1`, `failed to compile regular expression '\(a\)\|\1': Invalid back reference`},
	{"", "-regex", `\(a\)\1`, `back-references are not supported in -regex: '\(a\)\1'`},
	{"", "-iregex", `\(a\)\1`, `back-references are not supported in -iregex: '\(a\)\1'`},
	{"", "-regex", `\(a\)\1\(`, `failed to compile regular expression '\(a\)\1\(': Unmatched ( or \(`},
	{"posix-extended", "-regex", `(a)\1`, `back-references are not supported in -regex: '(a)\1'`},
	{"posix-basic", "-regex", `a\{2`, `failed to compile regular expression 'a\{2': Unmatched \{`},
	{"posix-basic", "-regex", `a\{2,1\}`, `failed to compile regular expression 'a\{2,1\}': Invalid content of \{\}`},
	{"posix-basic", "-regex", `a\{x\}`, `failed to compile regular expression 'a\{x\}': Invalid content of \{\}`},
	{"posix-basic", "-regex", `a\{32768\}`, `failed to compile regular expression 'a\{32768\}': Regular expression too big`},
	{"posix-basic", "-regex", `a**`, `failed to compile regular expression 'a**': Invalid preceding regular expression`},
	{"posix-basic", "-regex", `\{1\}`, `failed to compile regular expression '\{1\}': Invalid preceding regular expression`},
	{"posix-basic", "-regex", `[z-a]`, `failed to compile regular expression '[z-a]': Invalid range end`},
	{"posix-basic", "-regex", `[[:foo:]]`, `failed to compile regular expression '[[:foo:]]': Invalid character class name`},
	{"posix-basic", "-regex", `[[.ab.]]`, `failed to compile regular expression '[[.ab.]]': Invalid collation character`},
	{"posix-basic", "-regex", `[[=ab=]]`, `failed to compile regular expression '[[=ab=]]': Invalid collation character`},
	{"posix-basic", "-regex", `[[:alpha:]`, `failed to compile regular expression '[[:alpha:]': Unmatched [, [^, [:, [., or [=`},
	{"posix-basic", "-regex", `[a-[:alpha:]]`, `failed to compile regular expression '[a-[:alpha:]]': Invalid range end`},
	{"posix-basic", "-regex", `[[:alpha:]-z]`, `failed to compile regular expression '[[:alpha:]-z]': Invalid range end`},
	{"posix-extended", "-regex", `*a`, `failed to compile regular expression '*a': Invalid preceding regular expression`},
	{"posix-extended", "-regex", `a|*b`, `failed to compile regular expression 'a|*b': Invalid preceding regular expression`},
	{"posix-extended", "-regex", `(a`, `failed to compile regular expression '(a': Unmatched ( or \(`},
	{"posix-extended", "-regex", `a{1,2`, `failed to compile regular expression 'a{1,2': Unmatched \{`},
	{"posix-extended", "-regex", `a{}`, `failed to compile regular expression 'a{}': Invalid content of \{\}`},
	{"posix-extended", "-regex", `a{x}`, `failed to compile regular expression 'a{x}': Invalid content of \{\}`},
	{"posix-extended", "-regex", `[a--]`, `failed to compile regular expression '[a--]': Invalid range end`},
	{"posix-extended", "-iregex", `[Z-a]`, `failed to compile regular expression '[Z-a]': Invalid range end`},
	{"posix-extended", "-regex", "a\n(", "failed to compile regular expression 'a\n(': Unmatched ( or \\("},
}

// regexErrTests411 are patterns GNU 4.11 refuses and 4.9 took: in the
// emacs syntax (the default, findutils-default, emacs), 4.11 parses
// classes and \{ \} intervals, which 4.9 read as plain characters.
var regexErrTests411 = []regexErrTest{
	{"", "-regex", `a\{1`, `failed to compile regular expression 'a\{1': Unmatched \{`},
	{"", "-iregex", `a\{1`, `failed to compile regular expression 'a\{1': Unmatched \{`},
	{"", "-regex", `.*\{`, `failed to compile regular expression '.*\{': Unmatched \{`},
	{"", "-regex", `a\{2,1\}`, `failed to compile regular expression 'a\{2,1\}': Invalid content of \{\}`},
	{"", "-regex", `.*a\{x\}`, `failed to compile regular expression '.*a\{x\}': Invalid content of \{\}`},
	{"", "-regex", `./a\{32768\}`, `failed to compile regular expression './a\{32768\}': Regular expression too big`},
	{"", "-regex", `.*[[:nope:]]`, `failed to compile regular expression '.*[[:nope:]]': Invalid character class name`},
	{"", "-regex", `.*[[:alpha:]-z]`, `failed to compile regular expression '.*[[:alpha:]-z]': Invalid range end`},
	{"", "-regex", `.*[a-[:alpha:]]`, `failed to compile regular expression '.*[a-[:alpha:]]': Invalid range end`},
	{"emacs", "-regex", `./a1\{1,2`, `failed to compile regular expression './a1\{1,2': Unmatched \{`},
	{"findutils-default", "-iregex", `.*[[:Alpha:]]`, `failed to compile regular expression '.*[[:Alpha:]]': Invalid character class name`},
}

func TestRegexErrors(t *testing.T) {
	for _, tt := range slices.Concat(regexErrTests, regexErrTests411) {
		args := []string{".", tt.op, tt.pat}
		if tt.typ != "" {
			args = []string{".", "-regextype", tt.typ, tt.op, tt.pat}
		}
		_, err := Parse(args, Config{})
		if err == nil || err.Error() != tt.msg {
			t.Errorf("%q: got %v, want %q", args, err, tt.msg)
		}
	}
}

// regextypeList is GNU 4.11's list of the valid -regextype names (4.9
// had another order).
const regextypeList = "valid types are 'findutils-default', 'awk', 'ed', 'egrep', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'posix-basic', 'posix-egrep', 'posix-extended', 'posix-minimal-basic', 'sed'."

// regexParseTests are parse rows for -regex, -iregex and -regextype.
var regexParseTests = []struct {
	args, want, wantErr string
}{
	{"-regex a", "-regex a -a -print", ""},
	{"-iregex A", "-iregex A -a -print", ""},
	{"-regextype posix-extended -regex a+", "-regextype posix-extended -a -regex a+ -a -print", ""},
	{"-regex", "", "missing argument to `-regex'"},
	{"-iregex", "", "missing argument to `-iregex'"},
	{"-regextype", "", "missing argument to `-regextype'"},
	{"-regextype foo", "", "Unknown regular expression type 'foo'; " + regextypeList},
	{"-regextype POSIX-extended", "", "Unknown regular expression type 'POSIX-extended'; " + regextypeList},
	// The type is checked even when no -regex follows.
	{"-name x ( -regextype x", "", "Unknown regular expression type 'x'; " + regextypeList},
}

func TestRegexParse(t *testing.T) { testParseTable(t, regexParseTests) }

// TestRegextypePositional: -regextype applies to the -regex after it,
// up to the next -regextype.
func TestRegextypePositional(t *testing.T) {
	args := []string{".", "-regex", `a+`, "-o", "-regextype", "posix-basic", "-regex", `a+`,
		"-o", "-regextype", "posix-extended", "-iregex", `a+`}
	cmd, err := Parse(args, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var nodes []*regexNode
	forEachNode(cmd.Expr, func(n Node) {
		if r, ok := n.(*regexNode); ok {
			nodes = append(nodes, r)
		}
	})
	if len(nodes) != 3 {
		t.Fatalf("found %d -regex nodes in %q", len(nodes), cmd.Expr.Args())
	}
	for i, tt := range []struct {
		path string
		want bool
	}{{"aa", true}, {"a+", true}, {"AA", true}} {
		if got := nodes[i].g.Match([]byte(tt.path)); got != tt.want {
			t.Errorf("node %d on %q: got %v, want %v", i, tt.path, got, tt.want)
		}
	}
	if nodes[1].g.Match([]byte("aa")) {
		t.Error("posix-basic: a+ matched aa")
	}
	// The round trip keeps each -regextype in front of its -regex.
	again, err := Parse(append([]string{"."}, cmd.Expr.Args()...), Config{})
	if err != nil || !slices.Equal(again.Expr.Args(), cmd.Expr.Args()) {
		t.Errorf("round trip: %q, %v", cmd.Expr.Args(), err)
	}
}

func TestRegexEval(t *testing.T) {
	s := newTestState()
	for _, tt := range []struct {
		args  []string
		path  string
		depth int
		want  bool
	}{
		{[]string{"-regex", `\./a/b.*`}, "./a/bc", 2, true},
		{[]string{"-regex", `.*/b.*`}, "./a/bc", 2, true},
		{[]string{"-regex", `b.*`}, "./a/bc", 2, false}, // the whole path, not the name
		{[]string{"-regex", `/`}, "/", 0, true},
		{[]string{"-iregex", `.*\.TXT`}, "x/y.txt", 1, true},
	} {
		n := parseOne(t, tt.args...)
		e := walker.Synthetic(tt.path, tt.depth, walker.TypeRegular, nil, nil)
		if got := n.Eval(e, s); got != tt.want {
			t.Errorf("%q on %q: got %v, want %v", tt.args, tt.path, got, tt.want)
		}
	}
}

// TestRegexErrorsAgainstGNU runs every row of regexErrTests and
// regexErrTests411 that GNU find knows through GNU find (the
// back-reference refusal is gfind's own). GNU 4.9 must compile the
// patterns of regexErrTests411.
func TestRegexErrorsAgainstGNU(t *testing.T) {
	find := testtool.GNUFind(t)
	dir := t.TempDir()
	rows := slices.Concat(regexErrTests, regexErrTests411)
	for i, tt := range rows {
		if strings.HasPrefix(tt.msg, "back-references") {
			continue
		}
		args := []string{".", "-maxdepth", "0", tt.op, tt.pat}
		if tt.typ != "" {
			args = []string{".", "-maxdepth", "0", "-regextype", tt.typ, tt.op, tt.pat}
		}
		cmd := exec.Command(find, args...)
		cmd.Args[0] = "find"
		cmd.Dir, cmd.Env = dir, []string{"LC_ALL=C"}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		got := strings.TrimSuffix(stderr.String(), "\n")
		if i >= len(regexErrTests) && !testtool.GNURef() {
			if err != nil || got != "" {
				t.Errorf("find %s %q: %v, stderr %q; want no error", testtool.GNUVersion(), args, err, got)
			}
			continue
		}
		if err == nil || got != "find: "+tt.msg {
			t.Errorf("find %q: %v, stderr %q, want %q", args, err, got, "find: "+tt.msg)
		}
	}
}
