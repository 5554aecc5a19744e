package predicate

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gfind/gfind/walker"
)

// parseTests: want is the parsed expression as Args renders it, wantErr
// GNU find's message (without "find: "), checked by running
// LC_ALL=C find . -maxdepth 0 ARGS.
var parseTests = []struct {
	args    string // separated by spaces
	want    string
	wantErr string
}{
	{"", "-print", ""},
	{"-name a", "-name a -a -print", ""},
	{"-name a -o -name b", "( -name a -o -name b ) -a -print", ""},
	{"-name a -print", "-name a -a -print", ""},
	{"! -type d", "! -type d -a -print", ""},
	{"-not -type d,f", "! -type d,f -a -print", ""},
	{"( -name a ) -print0", "-name a -a -print0", ""},
	{"-name a -o -name b -a -type f", "( -name a -o -name b -a -type f ) -a -print", ""},
	{"-name a , -name b", "( -name a , -name b ) -a -print", ""},
	{"-true -o -false , -prune", "( -true -o -false , -prune ) -a -print", ""},
	{"-maxdepth 2 -name x", "-maxdepth 2 -a -name x -a -print", ""},
	{"! ! -true", "! ! -true -a -print", ""},
	{"-quit", "-quit -a -print", ""},
	{"-print -quit", "-print -a -quit", ""},
	{"( -name a -o -name b ) -type f", "( -name a -o -name b ) -a -type f -a -print", ""},
	{"-nosuch", "", "unknown predicate `-nosuch'"},
	{"--", "", "unknown predicate `--'"},
	{"-name", "", "missing argument to `-name'"},
	{"-type", "", "missing argument to `-type'"},
	{"-name x y", "", "paths must precede expression: `y'"},
	{"-type x", "", "Unknown argument to -type: x"},
	{"-type f,,d", "", "Unknown argument to -type: ,"},
	{"-type fd", "", "Must separate multiple arguments to -type using: ','"},
	{"-type f,", "", "Last file type in list argument to -type is missing, i.e., list is ending on: ','"},
	{"-type f,f", "", "Duplicate file type 'f' in the argument list to -type."},
	{"-type D", "", "-type D is not supported because Solaris doors are not supported on the platform find was compiled on."},
	{"-maxdepth x", "", "Expected a positive decimal integer argument to -maxdepth, but got 'x'"},
	{"-maxdepth -1", "", "Expected a positive decimal integer argument to -maxdepth, but got '-1'"},
	{"-mindepth +1", "", "Expected a positive decimal integer argument to -mindepth, but got '+1'"},
	{"-maxdepth 2147483648", "", "2147483648: Numerical result out of range"},
	{"( -name x", "", "invalid expression; I was expecting to find a ')' somewhere but did not see one."},
	{"-name x )", "", "you have too many ')'"},
	{"-maxdepth 0 )", "", "you have too many ')'"},
	{"( )", "", "invalid expression; empty parentheses are not allowed."},
	{"-print -name x ( )", "", "invalid expression; empty parentheses are not allowed."},
	{"( -o )", "", "invalid expression; you have used a binary operator '-o' with nothing before it."},
	{"-name x (", "", "invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('"},
	{"( -true ) (", "", "invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('"},
	{"-true -a -o -false", "", "invalid expression; you have used a binary operator '-o' with nothing before it."},
	{"-true ! -o -false", "", "invalid expression; you have used a binary operator '-o' with nothing before it."},
	{"!", "", "expected an expression after '!'"},
	{"-not", "", "expected an expression after '-not'"},
	{"-name x -o", "", "expected an expression after '-o'"},
	{"-name x -a", "", "expected an expression after '-a'"},
	{"-maxdepth 0 ,", "", "expected an expression after ','"},
	{"-a", "", "invalid expression; you have used a binary operator '-a' with nothing before it."},
	{"-o -name x", "", "invalid expression; you have used a binary operator '-o' with nothing before it."},
	{"( ! )", "", "expected an expression between '!' and ')'"},
	{"( -true -o )", "", "expected an expression between '-o' and ')'"},
	// -files0-from inserts no predicate, so a ")" can come first.
	{"-files0-from /dev/null ) -print", "", "invalid expression: expected expression before closing parentheses ')'."},
	{"-files0-from /dev/null )", "", "invalid expression: expected expression before closing parentheses ')'."},
	{"-files0-from /dev/null ( )", "", "invalid expression; empty parentheses are not allowed."},
}

func parseArgs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ")
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.args, func(t *testing.T) {
			cmd, err := Parse(append([]string{"."}, parseArgs(tt.args)...), Config{})
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("Parse(%q) error = %v, want %q", tt.args, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.args, err)
			}
			if got := strings.Join(cmd.Expr.Args(), " "); got != tt.want {
				t.Errorf("Parse(%q) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
}

func TestParseRoots(t *testing.T) {
	tests := []struct {
		args      string
		wantRoots []string
	}{
		{"-name x", []string{"."}},
		{"a b -name x", []string{"a", "b"}},
		{"- ) , -print", []string{"-", ")", ","}},
		{"a ! -true", []string{"a"}},
		{"a ( -true )", []string{"a"}},
	}
	for _, tt := range tests {
		cmd, err := Parse(parseArgs(tt.args), Config{})
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.args, err)
		}
		if !slices.Equal(cmd.Roots, tt.wantRoots) {
			t.Errorf("Parse(%q) roots = %q, want %q", tt.args, cmd.Roots, tt.wantRoots)
		}
	}
}

// TestParseQuitRootsInTurn: an expression with -quit, wherever it is,
// has the starting points walked in turn, so that a -quit in one leaves
// the next unstarted; without it they are walked together.
func TestParseQuitRootsInTurn(t *testing.T) {
	for args, want := range map[string]bool{
		"a b -print":                        false,
		"a b -name x -quit":                 true,
		"a b -false -a -quit -o -ls":        true,
		"a b ( -name x -o -quit ) , -print": true,
		"-files0-from /dev/null -quit":      true,
	} {
		cmd, err := Parse(parseArgs(args), Config{})
		if err != nil {
			t.Fatalf("Parse(%q): %v", args, err)
		}
		if got := cmd.Walk.RootsInTurn; got != want {
			t.Errorf("Parse(%q): RootsInTurn %v, want %v", args, got, want)
		}
	}
}

func TestParseOptions(t *testing.T) {
	cmd, err := Parse(parseArgs(". -maxdepth 3 -mindepth 1 -depth -xdev -ignore_readdir_race -follow"), Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := walker.Options{MaxDepth: 3, MinDepth: 1, PostOrder: true, XDev: true, IgnoreReaddirRace: true, Follow: walker.FollowAll}
	if !reflect.DeepEqual(withoutFuncs(cmd.Walk), want) {
		t.Errorf("options = %+v, want %+v", cmd.Walk, want)
	}
	if _, err := Parse([]string{".", "-help", "-nosuch"}, Config{}); !errors.Is(err, ErrHelp) {
		t.Errorf("-help before an error: %v, want ErrHelp", err)
	}
	if _, err := Parse([]string{".", "-nosuch", "-version"}, Config{}); err == nil || errors.Is(err, ErrVersion) {
		t.Errorf("-version after an error: %v, want the error", err)
	}
}

// nameWarning is GNU's warning about a -name or -iname pattern with a
// '/', which suggests -wholename or -iwholename (alt).
func nameWarning(op, alt string) string {
	return "'" + op + "' matches against basenames only, but the given pattern contains a directory separator ('/'), thus the expression will evaluate to false all the time.  Did you mean '" + alt + "'?"
}

// parseWarnTests are command lines (after ".") and the warnings they
// give, with warnings on or off (GNU 4.11's).
var parseWarnTests = []struct {
	args     string
	warnings bool
	want     []string
}{
	{"-name a/b", true, []string{nameWarning("-name", "-wholename")}},
	{"-name a/b", false, nil},
	{"-nowarn -name a/b", true, nil},
	{"-warn -name a/b", false, []string{nameWarning("-name", "-wholename")}},
	{"-iname a/b", true, []string{nameWarning("-iname", "-iwholename")}},
	// "/" is the root directory's name (GNU 4.10, bug 62227); any other
	// pattern with a '/' still warns.
	{"-name /", true, nil},
	{"-iname /", true, nil},
	{"-name //", true, []string{nameWarning("-name", "-wholename")}},
	{"-name */", true, []string{nameWarning("-name", "-wholename")}},
	{"-iname /*", true, []string{nameWarning("-iname", "-iwholename")}},
	{"-name x -maxdepth 1", true, []string{"you have specified the global option -maxdepth after the argument -name, but global options are not positional, i.e., -maxdepth affects tests specified before it as well as those specified after it.  Please specify global options before other arguments."}},
	{"-wholename a/", false, []string{"-wholename a/ will not match anything because it ends with /."}},
	// GNU 4.11 warns of each operator spelled with a dash, as it looks
	// the name up (before the primary's own warnings), even with
	// -nowarn; the words, -not and -a, are fine.
	{"-! -false", false, []string{dashWarning("-!")}},
	{"-( -true -) -, -false", false, []string{dashWarning("-("), dashWarning("-)"), dashWarning("-,")}},
	{"-nowarn -! -! -true", true, []string{dashWarning("-!"), dashWarning("-!")}},
	{"-warn -name a/b -! -false", false, []string{nameWarning("-name", "-wholename"), dashWarning("-!")}},
	{"-! -maxdepth 1", true, []string{dashWarning("-!"), "you have specified the global option -maxdepth after the argument -!, but global options are not positional, i.e., -maxdepth affects tests specified before it as well as those specified after it.  Please specify global options before other arguments."}},
	{"-not -false -a -true -o ! -false , -true", true, nil},
}

// dashWarning is GNU 4.11's warning about an operator spelled with a
// leading dash.
func dashWarning(op string) string {
	return "operator '" + op + "' (with leading dash '-') will no longer be accepted in future findutils releases!"
}

func TestParseWarnings(t *testing.T) {
	for _, tt := range parseWarnTests {
		var got []string
		_, err := Parse(append([]string{"."}, parseArgs(tt.args)...), Config{Warnings: tt.warnings, Warn: func(s string) { got = append(got, s) }})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q (warnings %v): got %q, want %q", tt.args, tt.warnings, got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(strings.ReplaceAll(tt.args, " ", "\x00"))
	}
	f.Fuzz(fuzzRoundTrip)
}

// withoutFuncs returns o without its function fields, which only
// reflect.DeepEqual can compare (and only when nil).
func withoutFuncs(o walker.Options) walker.Options {
	o.Exclude = nil
	return o
}

// fuzzRoundTrip is the body of the parser's fuzz targets: argv holds
// NUL-separated arguments after ".". Rejecting input is fine; a panic,
// a hang, or an accepted expression whose Args do not parse back to
// the same rendering is not.
func fuzzRoundTrip(t *testing.T, argv string) {
	args := append([]string{"."}, strings.Split(argv, "\x00")...)
	cmd, err := Parse(args, Config{})
	if err != nil {
		return
	}
	again, err := Parse(append([]string{"."}, cmd.Expr.Args()...), Config{})
	if err != nil || !slices.Equal(again.Expr.Args(), cmd.Expr.Args()) {
		t.Fatalf("round trip of %q failed: %q, %v", args, cmd.Expr.Args(), err)
	}
}
