package predicate

import (
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gfind/gfind/walker"
)

// "Bad input never panics": fuzz targets for the whole parser and for
// the primaries whose arguments have a grammar of their own. They only
// parse: no expression is ever evaluated, so -exec, -ok and -delete run
// nothing, and -fprint and friends open files in a temporary directory
// (withFuzzOutputFiles), never the names they are given. -files0-from,
// which reads a file at parse time (and "/dev/zero" would never end), is
// left out of the fuzzed command lines.

// fuzzFixedNow is the start time the fuzzed parses measure from, so that
// a parse and its round trip see the same "now".
var fuzzFixedNow = time.Date(2026, 3, 4, 5, 6, 7, 890000000, time.UTC)

// goInternals are pieces of text a message meant for a user of find
// never holds unless the user typed them: Go error strings, pointers.
// fmt's complaints ("%!d(string=x)", "%!(EXTRA ...)") are fmtComplaint.
var goInternals = []string{
	"strconv.", "runtime error", "<nil>", "goroutine", "panic",
	"invalid syntax", "value out of range", "error parsing regexp",
	"regexp:", "&{", "0xc0", "syscall.", "*errors.", "os.",
}

var fmtComplaint = regexp.MustCompile(`%![a-zA-Z]?\(`)

// checkMessage fails t when msg, an error or warning about args, is
// empty or shows Go's internals.
func checkMessage(t *testing.T, what, msg string, args []string) {
	t.Helper()
	if strings.TrimSpace(msg) == "" {
		t.Fatalf("%q: empty %s", args, what)
	}
	typed := strings.Join(args, "\x00")
	for _, bad := range goInternals {
		if strings.Contains(msg, bad) && !strings.Contains(typed, bad) {
			t.Fatalf("%q: %s %q shows Go's %q", args, what, msg, bad)
		}
	}
	if m := fmtComplaint.FindString(msg); m != "" && !strings.Contains(typed, m) {
		t.Fatalf("%q: %s %q shows fmt's %q", args, what, msg, m)
	}
	if strings.Contains(msg, "\n") && !strings.Contains(typed, "\n") {
		t.Fatalf("%q: %s %q is more than one line", args, what, msg)
	}
}

// checkParseError checks what Parse returned for args: ErrHelp,
// ErrVersion or a *ParseError with a message (and a hint, when there is
// one) a user can read.
func checkParseError(t *testing.T, err error, args []string) {
	t.Helper()
	if errors.Is(err, ErrHelp) || errors.Is(err, ErrVersion) {
		return
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("%q: error %T %q is not a *ParseError", args, err, err)
	}
	checkMessage(t, "error", pe.Msg, args)
	if pe.Hint != "" {
		checkMessage(t, "hint", pe.Hint, args)
	}
}

func init() {
	// Whatever target is being fuzzed (FuzzParse, FuzzOptimize and the
	// others parse -fprint too), -fprint and friends must not create or
	// truncate a file: while fuzzing, every name opens /dev/null. The
	// init in printf_test.go only redirects relative names.
	open := openOutputFile
	openOutputFile = func(name string) (*os.File, error) {
		if name != "" && fuzzing() {
			name = os.DevNull
		}
		return open(name)
	}
}

// fuzzing reports whether this test binary runs with -fuzz, as the
// coordinator or as one of its workers.
func fuzzing() bool {
	f, w := flag.Lookup("test.fuzz"), flag.Lookup("test.fuzzworker")
	return f != nil && f.Value.String() != "" || w != nil && w.Value.String() == "true"
}

// withFuzzOutputFiles makes -fprint and friends open a file in a
// temporary directory instead of the name they are given, one file per
// distinct name, so that a fuzzer never creates or truncates a file
// elsewhere (the init in printf_test.go lets absolute names through).
// It returns the function that closes and removes the files one input
// opened. An empty name still fails as open("") does.
func withFuzzOutputFiles(f *testing.F) (cleanup func()) {
	dir := f.TempDir()
	var opened []*os.File
	old := openOutputFile
	openOutputFile = func(name string) (*os.File, error) {
		if name == "" {
			return nil, &os.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
		}
		file, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("%x", sha256.Sum256([]byte(name)))), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err == nil {
			opened = append(opened, file)
		}
		return file, err
	}
	f.Cleanup(func() { openOutputFile = old })
	return func() {
		for _, file := range opened {
			file.Close()
			os.Remove(file.Name())
		}
		opened = nil
	}
}

// readsFiles0 reports whether args hold -files0-from, which opens its
// file (or standard input) at parse time.
func readsFiles0(args []string) bool {
	return slices.Contains(args, "-files0-from")
}

// fuzzConfig turns the fuzzer's flags into a Config: warnings, UTF-8
// patterns, -H/-L and gfind's extras vary; warnings are checked as
// errors are.
func fuzzConfig(t *testing.T, flags uint8, args []string) Config {
	return Config{
		Warnings:    flags&1 != 0,
		UTF8:        flags&2 != 0,
		Follow:      walker.Follow((flags >> 2) % 4 % 3),
		Color:       flags&16 != 0,
		DryRun:      flags&32 != 0,
		JSON:        flags&64 != 0,
		QuietErrors: flags&128 != 0,
		Now:         fuzzFixedNow,
		Warn:        func(s string) { checkMessage(t, "warning", s, args) },
	}
}

// joinArgv is the fuzzers' encoding of an argv: NUL-separated, as no
// argument can hold a NUL.
func joinArgv(args ...string) string { return strings.Join(args, "\x00") }

// parseSeeds are command lines (after the starting points) from the
// package's parse tables, each a seed of FuzzParseArgv.
func parseSeeds() [][]string {
	var seeds [][]string
	for _, s := range parseTests {
		seeds = append(seeds, parseArgs(s.args))
	}
	for _, s := range execParseTests {
		seeds = append(seeds, parseArgs(s.args))
	}
	for _, s := range parseWarnTests {
		seeds = append(seeds, parseArgs(s.args))
	}
	for _, s := range slices.Concat(linkParseTests, regexParseTests) {
		seeds = append(seeds, parseArgs(s.args))
	}
	for _, s := range printfParseTests {
		seeds = append(seeds, parseArgs(s.args))
	}
	for _, s := range timeTests {
		seeds = append(seeds, parseArgs(s.args))
	}
	for _, s := range timeErrTests {
		seeds = append(seeds, s.args)
	}
	for _, s := range ownerTests {
		seeds = append(seeds, []string{s.op, s.arg})
	}
	for _, s := range idNumTests {
		seeds = append(seeds, []string{"-uid", s.arg}, []string{"-inum", s.arg})
	}
	for _, s := range slices.Concat(regexErrTests, regexErrTests411) {
		args := []string{s.op, s.pat}
		if s.typ != "" {
			args = append([]string{"-regextype", s.typ}, args...)
		}
		seeds = append(seeds, args)
	}
	for _, s := range permArgs {
		seeds = append(seeds, []string{"-perm", s})
	}
	for _, s := range permErrors {
		seeds = append(seeds, []string{"-perm", s})
	}
	for _, s := range sizeTests {
		seeds = append(seeds, []string{"-size", s.arg})
	}
	for _, s := range sizeErrors {
		seeds = append(seeds, []string{"-size", s.arg})
	}
	return seeds
}

// FuzzParseArgv parses whole command lines, starting points included,
// under varied Configs. Parse must not panic; an error must be one a user
// can read; and a successful parse must render (Node.Args) to arguments
// that parse again to the same rendering, as node.go documents.
func FuzzParseArgv(f *testing.F) {
	for _, args := range parseSeeds() {
		f.Add(joinArgv(append([]string{"."}, args...)...), uint8(0))
	}
	for _, argv := range [][]string{
		{"a", "b", "-L", "-name", "x"}, {"-", ")", ",", "-print"}, {"(", "!", ")"},
		{"-fprint", "out", "-fls", "out", "-fprintf", "/dev/stdout", "%p"},
		{"-fprint0", "/dev/stderr", "-fprint", ""}, {"-maxdepth", "1", "-name", "a/b"},
		{"-exec", "rm", "{}", "+", "-delete", "-ok", "x", ";"},
		{"-newerat", "x", "-newermt", "yesterday", "-used", "-1"},
	} {
		f.Add(joinArgv(argv...), uint8(0))
		f.Add(joinArgv(argv...), uint8(0xff))
	}
	cleanup := withFuzzOutputFiles(f)
	f.Fuzz(func(t *testing.T, argv string, flags uint8) {
		defer cleanup()
		args := strings.Split(argv, "\x00")
		if readsFiles0(args) {
			return
		}
		cfg := fuzzConfig(t, flags, args)
		cmd, err := Parse(args, cfg)
		if err != nil {
			checkParseError(t, err, args)
			return
		}
		if len(cmd.Roots) == 0 {
			t.Fatalf("%q: no starting points", args)
		}
		rendered := cmd.Expr.Args()
		again, err := Parse(append([]string{"."}, rendered...), cfg)
		if err != nil {
			t.Fatalf("%q renders as %q, which does not parse: %v", args, rendered, err)
		}
		if got := again.Expr.Args(); !slices.Equal(got, rendered) {
			t.Fatalf("%q renders as %q, which renders as %q", args, rendered, got)
		}
	})
}

// argOps are the primaries FuzzPrimaryArg gives one fuzzed argument to:
// those whose argument has a grammar (modes, sizes, dates, numbers,
// formats, patterns, names).
var argOps = []string{
	"-perm", "-size", "-newermt", "-newerat", "-newerct", "-newerBt",
	"-mtime", "-amin", "-used", "-inum", "-links", "-uid", "-gid",
	"-user", "-group", "-type", "-xtype", "-maxdepth", "-mindepth",
	"-printf", "-regex", "-iregex", "-name", "-iname", "-path", "-lname",
	"-regextype", "-fstype", "-context", "-fprintf",
}

// argOp returns the index of op in argOps, the fuzzer's encoding of it.
func argOp(f *testing.F, op string) uint8 {
	i := slices.Index(argOps, op)
	if i < 0 {
		f.Fatalf("%s is not in argOps", op)
	}
	return uint8(i)
}

// FuzzPrimaryArg parses "-op ARG" for the primaries in argOps, the
// argument fuzzed on its own so that the fuzzer spends its time in the
// argument's grammar (-perm's modes, -size's units, -newermt's dates,
// -printf's directives). Same checks as FuzzParseArgv, and the rendering
// keeps the argument as given (GNU's messages and -D tree quote it so).
func FuzzPrimaryArg(f *testing.F) {
	for _, args := range parseSeeds() {
		if len(args) == 2 && slices.Contains(argOps, args[0]) {
			f.Add(argOp(f, args[0]), args[1])
		}
	}
	for _, s := range printfParseTests {
		if op, arg, ok := strings.Cut(s.args, " "); ok && op == "-printf" {
			f.Add(argOp(f, op), arg)
		}
	}
	for _, in := range timeArgSeeds {
		f.Add(argOp(f, "-mtime"), in)
		f.Add(argOp(f, "-used"), "+"+in)
	}
	cleanup := withFuzzOutputFiles(f)
	f.Fuzz(func(t *testing.T, op uint8, arg string) {
		defer cleanup()
		args := []string{".", argOps[int(op)%len(argOps)], arg}
		if args[1] == "-fprintf" {
			args = append(args, "%p")
		}
		cfg := fuzzConfig(t, 1, args)
		cmd, err := Parse(args, cfg)
		if err != nil {
			checkParseError(t, err, args)
			return
		}
		rendered := cmd.Expr.Args()
		if !slices.Contains(rendered, arg) {
			t.Fatalf("%q renders as %q, without its argument", args, rendered)
		}
		again, err := Parse(append([]string{"."}, rendered...), cfg)
		if err != nil {
			t.Fatalf("%q renders as %q, which does not parse: %v", args, rendered, err)
		}
		if got := again.Expr.Args(); !slices.Equal(got, rendered) {
			t.Fatalf("%q renders as %q, which renders as %q", args, rendered, got)
		}
	})
}
