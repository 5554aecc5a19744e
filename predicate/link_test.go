package predicate

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// linkParseTests: want is the expression as Args renders it, wantErr
// GNU find 4.9's message (LC_ALL=C find . ARGS).
var linkParseTests = []struct {
	args, want, wantErr string
}{
	{"-lname a*", "-lname a* -a -print", ""},
	{"-ilname A*", "-ilname A* -a -print", ""},
	{"-xtype l", "-xtype l -a -print", ""},
	{"-xtype f,d,l", "-xtype f,d,l -a -print", ""},
	{"-lname", "", "missing argument to `-lname'"},
	{"-ilname", "", "missing argument to `-ilname'"},
	{"-xtype", "", "missing argument to `-xtype'"},
	// The messages of -type, naming -xtype (GNU's insert_type).
	{"-xtype q", "", "Unknown argument to -xtype: q"},
	{"-xtype fl", "", "Must separate multiple arguments to -xtype using: ','"},
	{"-xtype f,", "", "Last file type in list argument to -xtype is missing, i.e., list is ending on: ','"},
	{"-xtype d,d", "", "Duplicate file type 'd' in the argument list to -xtype."},
	{"-xtype D", "", "-xtype D is not supported because Solaris doors are not supported on the platform find was compiled on."},
	{"-fstype ext4", "-fstype ext4 -a -print", ""},
	{"-fstype", "", "missing argument to `-fstype'"},
}

func TestLinkParse(t *testing.T) {
	testParseTable(t, linkParseTests)
	if _, err := Parse([]string{".", "-xtype", ""}, Config{}); err == nil || err.Error() != "Arguments to -xtype should contain at least one letter" {
		t.Errorf("-xtype '': %v", err)
	}
}

// testParseTable parses ". ARGS" for each row.
func testParseTable(t *testing.T, tests []struct{ args, want, wantErr string }) {
	t.Helper()
	for _, tt := range tests {
		cmd, err := Parse(append([]string{"."}, parseArgs(tt.args)...), Config{})
		switch {
		case tt.wantErr != "":
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%q: got error %v, want %q", tt.args, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("%q: %v", tt.args, err)
		default:
			if got := strings.Join(cmd.Expr.Args(), " "); got != tt.want {
				t.Errorf("%q: got %q, want %q", tt.args, got, tt.want)
			}
		}
	}
}

// FuzzLinkRegexParse: the primaries of link.go, regex.go and fstype.go
// in random argument lists never panic and round-trip through Args.
func FuzzLinkRegexParse(f *testing.F) {
	for _, tt := range slices.Concat(linkParseTests, regexParseTests) {
		f.Add(strings.ReplaceAll(tt.args, " ", "\x00"))
	}
	f.Fuzz(fuzzRoundTrip)
}

// newFollowState returns a State for the follow mode f whose diagnostics
// go to diag.
func newFollowState(f walker.Follow, diag *bytes.Buffer) *State {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	d := output.NewDiagStyle("gfind", diag, output.StyleC)
	return NewState(&Command{Walk: walker.Options{Follow: f}}, output.NewSink(devnull, d), d)
}

// TestXtypeSynthetic checks which status -xtype looks at, on Entries
// whose statuses are given.
func TestXtypeSynthetic(t *testing.T) {
	link := &unix.Stat_t{Mode: unix.S_IFLNK | 0o777}
	file := &unix.Stat_t{Mode: unix.S_IFREG | 0o644}
	dir := &unix.Stat_t{Mode: unix.S_IFDIR | 0o755}
	for _, tt := range []struct {
		name   string
		follow walker.Follow
		e      *walker.Entry
		arg    string
		want   bool
	}{
		{"-P file", walker.FollowNever, walker.Synthetic("a/f", 1, walker.TypeRegular, file, nil), "f", true},
		{"-P dir", walker.FollowNever, walker.Synthetic("a/d", 1, walker.TypeDir, dir, nil), "f", false},
		{"-P link to file", walker.FollowNever, walker.Synthetic("a/l", 1, walker.TypeSymlink, link, file), "f", true},
		{"-P link to file, l", walker.FollowNever, walker.Synthetic("a/l", 1, walker.TypeSymlink, link, file), "l", false},
		{"-P link to dir", walker.FollowNever, walker.Synthetic("a/l", 1, walker.TypeSymlink, link, dir), "d,p", true},
		{"-P unknown type", walker.FollowNever, walker.Synthetic("a/l", 1, walker.TypeUnknown, link, dir), "d", true},
		{"-L link to file", walker.FollowAll, walker.Synthetic("a/l", 1, walker.TypeRegular, link, file), "l", true},
		{"-L link to file, f", walker.FollowAll, walker.Synthetic("a/l", 1, walker.TypeRegular, link, file), "f", false},
		{"-L file", walker.FollowAll, walker.Synthetic("a/f", 1, walker.TypeRegular, file, nil), "f", true},
		{"-H root link", walker.FollowRoots, walker.Synthetic("l", 0, walker.TypeRegular, link, file), "l", true},
		{"-H link below", walker.FollowRoots, walker.Synthetic("a/l", 1, walker.TypeSymlink, link, file), "f", true},
	} {
		var diag bytes.Buffer
		s := newFollowState(tt.follow, &diag)
		n := parseOne(t, "-xtype", tt.arg)
		if got := n.Eval(tt.e, s); got != tt.want || diag.Len() != 0 {
			t.Errorf("%s: -xtype %s = %v (diagnostics %q), want %v", tt.name, tt.arg, got, diag.String(), tt.want)
		}
	}
}

// TestSymlinksOnDisk evaluates -lname, -ilname and -xtype on the Entries of
// a real walk, under -P, -L and -H. The tree is
//
//	file, dir/, to_file -> file, to_dir -> dir, dangling -> nowhere,
//	loop -> loop, notdir -> file/x, upper -> FILE, odd -> "\xff*"
func TestSymlinksOnDisk(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "file"), nil, 0o644))
	must(os.Mkdir(filepath.Join(root, "dir"), 0o755))
	for name, target := range map[string]string{
		"to_file": "file", "to_dir": "dir", "dangling": "nowhere", "loop": "loop",
		"notdir": "file/x", "upper": "FILE", "odd": "\xff*",
	} {
		must(os.Symlink(target, filepath.Join(root, name)))
	}
	for _, tt := range []struct {
		follow walker.Follow
		args   []string
		want   string // the names that match, sorted
		diag   string // the names reported, sorted
	}{
		{walker.FollowNever, []string{"-lname", "*"}, "dangling loop notdir odd to_dir to_file upper", ""},
		{walker.FollowNever, []string{"-lname", "file"}, "to_file", ""},
		{walker.FollowNever, []string{"-lname", "FILE"}, "upper", ""},
		{walker.FollowNever, []string{"-ilname", "file"}, "to_file upper", ""},
		{walker.FollowNever, []string{"-lname", "*/*"}, "notdir", ""},
		{walker.FollowNever, []string{"-lname", "\xff?"}, "odd", ""},
		{walker.FollowNever, []string{"-lname", "?"}, "", ""},
		// Under -L a link that can be followed is its target.
		{walker.FollowAll, []string{"-lname", "*"}, "dangling notdir odd upper", ""},
		{walker.FollowRoots, []string{"-lname", "*"}, "dangling loop notdir odd to_dir to_file upper", ""},
		// -xtype under -P: the type of the target; a link whose target
		// is missing, under a non-directory, or a loop is a link, with no
		// diagnostic (the loop as in GNU 4.10, bug 51926).
		{walker.FollowNever, []string{"-xtype", "l"}, "dangling loop notdir odd upper", ""},
		{walker.FollowNever, []string{"-xtype", "f"}, "file to_file", ""},
		{walker.FollowNever, []string{"-xtype", "d"}, "dir to_dir", ""},
		// -xtype under -L: the type of the link itself.
		{walker.FollowAll, []string{"-xtype", "l"}, "dangling notdir odd to_dir to_file upper", ""},
		{walker.FollowAll, []string{"-xtype", "f"}, "file", ""},
		{walker.FollowRoots, []string{"-xtype", "l"}, "dangling loop notdir odd upper", ""},
	} {
		var diag bytes.Buffer
		s := newFollowState(tt.follow, &diag)
		n := parseOne(t, tt.args...)
		var got []string
		err := walker.Walk([]string{root}, walker.Options{Workers: 1, Follow: tt.follow, MaxDepth: 1, MinDepth: 1}, func(e *walker.Entry) walker.Action {
			if e.Err == nil && n.Eval(e, s) {
				got = append(got, string(e.Name()))
			}
			return walker.Continue
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		var reported []string
		for _, l := range strings.Split(strings.TrimSpace(diag.String()), "\n") {
			if l != "" {
				reported = append(reported, filepath.Base(strings.Split(l, "'")[1]))
			}
		}
		slices.Sort(reported)
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("follow %d %q: got %q, want %q", tt.follow, tt.args, g, tt.want)
		}
		if g := strings.Join(reported, " "); g != tt.diag {
			t.Errorf("follow %d %q: reported %q (%q), want %q", tt.follow, tt.args, g, diag.String(), tt.diag)
		}
		if tt.diag != "" && !strings.Contains(diag.String(), "Too many levels of symbolic links") {
			t.Errorf("follow %d %q: diagnostics %q", tt.follow, tt.args, diag.String())
		}
	}
}

func TestLinkAllocs(t *testing.T) {
	s := newTestState()
	e := walker.Synthetic("a/f", 1, walker.TypeRegular, &unix.Stat_t{Mode: unix.S_IFREG}, nil)
	for _, args := range [][]string{{"-lname", "*"}, {"-xtype", "f"}} {
		n := parseOne(t, args...)
		if a := testing.AllocsPerRun(100, func() { n.Eval(e, s) }); a != 0 {
			t.Errorf("%q: %v allocations", args, a)
		}
	}
}
