package printf

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/testtool"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// testStat is the status of the synthetic file the table expands
// formats for: a 5000-byte file of 10 blocks, mode 04755, 3 links,
// owned by uid 0 and gid 4242, modified at 2021-03-04 05:06:07.123456789
// UTC.
func testStat() *unix.Stat_t {
	return &unix.Stat_t{
		Dev: 65024, Ino: 11117966, Nlink: 3, Mode: unix.S_IFREG | 04755,
		Uid: 0, Gid: 4242, Size: 5000, Blocks: 10,
		Atim: unix.Timespec{Sec: 1614834367, Nsec: 123456789},
		Mtim: unix.Timespec{Sec: 1614834367, Nsec: 123456789},
		Ctim: unix.Timespec{Sec: -100, Nsec: 750000000},
	}
}

func testEnv() *Env {
	return &Env{
		Roots: []string{"root"},
		User: func(id uint32) (string, bool) {
			if id == 0 {
				return "root", true
			}
			return "", false
		},
		Group:  func(id uint32) (string, bool) { return "", false },
		FSType: func(*walker.Entry, *unix.Stat_t) string { return "ext4" },
	}
}

// formatTests expand formats for root/sub/fi\tle (depth 2) with
// testStat, in TZ=UTC. want "" with wantErr set means CompileFormat
// fails.
var formatTests = []struct {
	format  string
	want    string
	warns   []string
	wantErr string
	tty     bool
}{
	{format: "%p", want: "root/sub/fi\tle"},
	{format: "%p", want: "root/sub/fi?le", tty: true},
	{format: "%H", want: "root", tty: true},
	{format: "%f|%h|%H|%P|%d", want: "fi\tle|root/sub|root|sub/fi\tle|2"},
	{format: "%-16p|%16f|%.4h|%6.3P|", want: "root/sub/fi\tle  |           fi\tle|root|   sub|"},
	{format: "%s %b %k %n %i %D %U %G %u %g", want: "5000 10 5 3 11117966 65024 0 4242 root 4242"},
	{format: "[%05s][%-6k][%+s][%#i][% n]", want: "[ 5000][5     ][5000][11117966][3]"},
	{format: "%m %#m %05m %-6m| %+m %.5m %#.0m", want: "4755 04755 04755 4755  | 4755 04755 04755"},
	{format: "%M %12M| %.4M", want: "-rwsr-xr-x   -rwsr-xr-x| -rws"},
	{format: "%d %+d % d %05d %-4d| %.3d %5.3d %.0d|", want: "2 +2  2 00002 2   | 002   002 2|"},
	{format: "%y %Y", want: "f f"},
	{format: "%S %.2S %10S| %#S %+S %-9S| %09.3S", want: "1.024 1      1.024| 1.02400 +1.024 1.024    | 000001.02"},
	{format: "%t", want: "Thu Mar  4 05:06:07.1234567890 2021"},
	{format: "%c", want: "Wed Dec 31 23:58:20.7500000000 1969"},
	{format: "%T@ %C@ %A+", want: "1614834367.1234567890 -100.7500000000 2021-03-04+05:06:07.1234567890"},
	{format: "%TS %TT %TX %Tr %Tc", want: "07.1234567890 05:06:07.1234567890 05:06:07.1234567890 05:06:07 AM Thu Mar  4 05:06:07 2021"},
	{format: "%TY-%Tm-%Td %Tj %Ta %TA %Tb %TB %Th %Te %Tk %Tl %Tp %TP %Ts %Tz %TZ", want: "2021-03-04 063 Thu Thursday Mar March Mar  4  5  5 AM am 1614834367 +0000 UTC"},
	{format: "%TD %Tx %TF %TR %TU %TW %TV %TG %Tg %Tu %Tw %TC %Ty", want: "03/04/21 03/04/21 2021-03-04 05:06 09 09 09 2021 21 4 4 20 21"},
	{format: "%Tq %TE %TO %T: %T% %T\\n", want: "%q %E %O %: % %\\n"},
	{format: "%-8TH| %8Tb|", want: "05      |      Mar|"},
	{format: "[%Bc][%5BT][%B@]", want: "[][     ][-1.-000000010]"},
	{format: "%F %5F|", want: "ext4  ext4|"},
	{format: "%l|%Z|", want: "||"},
	{format: `\a\b\f\n\r\t\v\\`, want: "\a\b\f\n\r\t\v\\"},
	{format: `\101\0x\1234\400\777|`, want: "A\x00xS4\x00\xff|"},
	{format: `a\qb`, want: `a\qb`, warns: []string{"unrecognized escape `\\q'"}},
	{format: `\8`, want: `\8`, warns: []string{"unrecognized escape `\\8'"}},
	{format: `ab\`, want: `ab\`, warns: []string{"escape `\\' followed by nothing at all"}},
	{format: `x\cy%p`, want: "x"},
	{format: `\c`, want: ""},
	{format: "%%|%5%|%-5%|a%%b", want: "%|%5|%-5|a%b"},
	{format: "%Q", want: "%Q", warns: []string{"unrecognized format directive `%Q'"}},
	{format: "%#o", want: "%#o", warns: []string{"unrecognized format directive `%o'"}},
	{format: "%0-5d", want: "%0-5d", warns: []string{"unrecognized format directive `%-'"}},
	{format: `%\n`, want: `%\n`, warns: []string{"unrecognized format directive `%\\'"}},
	{format: "ab%A", want: "ab%A", warns: []string{"format directive `%A' should be followed by another character"}},
	{format: "%5T", want: "%5T", warns: []string{"format directive `%T' should be followed by another character"}},
	{format: "%lx", want: "x"},
	{format: "x%", wantErr: "error: % at end of format string"},
	{format: "%", wantErr: "error: % at end of format string"},
	{format: "%{", wantErr: "error: the format directive `%{' is reserved for future use"},
	{format: "%[", wantErr: "error: the format directive `%[' is reserved for future use"},
	{format: "%(", wantErr: "error: the format directive `%(' is reserved for future use"},
	{format: "%-", wantErr: "error: the format directive `%\x00' is reserved for future use"},
	{format: "%5.", wantErr: "error: the format directive `%\x00' is reserved for future use"},
	{format: "%Q%", warns: []string{"unrecognized format directive `%Q'"}, wantErr: "error: % at end of format string"},
	{format: `x\c%`, want: "x"}, // nothing after \c is looked at
	{format: "ab%2147483648p|", want: "ab|"},
	{format: "%.2147483647p|", want: "root/sub/fi\tle|"},
	{format: "a\x00%", want: "a"}, // a C string ends at NUL
}

// setLocal makes the local time zone loc for the rest of the test. (Go
// reads $TZ once, so t.Setenv("TZ") would not do.)
func setLocal(t *testing.T, loc *time.Location) {
	old := time.Local
	time.Local = loc
	t.Cleanup(func() { time.Local = old })
}

func TestFormat(t *testing.T) {
	setLocal(t, time.UTC)
	e := walker.Synthetic("root/sub/fi\tle", 2, walker.TypeRegular, testStat(), nil)
	for _, tt := range formatTests {
		name := strconv.Quote(tt.format)
		if tt.tty {
			name += " tty"
		}
		t.Run(name, func(t *testing.T) {
			f, warns, err := Compile(tt.format)
			if !slices.Equal(warns, tt.warns) {
				t.Errorf("warnings %q, want %q", warns, tt.warns)
			}
			if tt.wantErr != "" || err != nil {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if f.String() != tt.format {
				t.Errorf("String() = %q, want %q", f.String(), tt.format)
			}
			got, err := f.Append(nil, e, testStat(), testEnv(), tt.tty)
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if (err != nil) != strings.Contains(tt.format, "2147483648") {
				t.Errorf("error %v", err)
			}
		})
	}
}

// TestFormatLocalTime checks a zone with an offset and daylight saving
// time.
func TestFormatLocalTime(t *testing.T) {
	if _, err := os.Stat("/usr/share/zoneinfo/America/New_York"); err != nil {
		testtool.Missing(t, "the time zone database", "tzdata", err)
	}
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	setLocal(t, loc)
	e := walker.Synthetic("f", 0, walker.TypeRegular, testStat(), nil)
	f, _, _ := Compile("%t|%Tz %TZ|%T+|%Cz %CZ")
	got, _ := f.Append(nil, e, testStat(), testEnv(), false)
	want := "Thu Mar  4 00:06:07.1234567890 2021|-0500 EST|2021-03-04+00:06:07.1234567890|-0500 EST"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFormatNeeds(t *testing.T) {
	for _, tt := range []struct {
		format          string
		stat, typ, link bool
	}{
		{"%p %f %h %H %P %d %% \\n", false, false, false},
		{"%Z", false, false, false},
		{"%y", false, true, false},
		{"%Y %l", false, true, true},
		{"%Y", false, true, true},
		{"%p%l", false, true, true},
		{"%s", true, false, false},
		{"%p %TY %y", true, true, false},
		{"%Q %u", true, false, false},
		{"abc", false, false, false},
		{"abc\\c%s", false, false, false},
	} {
		f, _, err := Compile(tt.format)
		if err != nil {
			t.Fatal(err)
		}
		if f.NeedsStat() != tt.stat || f.NeedsType() != tt.typ || f.NeedsLinkStatus() != tt.link {
			t.Errorf("%q: stat %v type %v link %v, want %v %v %v", tt.format,
				f.NeedsStat(), f.NeedsType(), f.NeedsLinkStatus(), tt.stat, tt.typ, tt.link)
		}
	}
}

func TestFormatFlush(t *testing.T) {
	for format, want := range map[string]bool{"%p": false, `%p\c`: true, `\c`: true, `a\\c`: false} {
		f, _, _ := Compile(format)
		if f.Flush() != want {
			t.Errorf("%q: Flush() = %v", format, f.Flush())
		}
	}
}

// TestFormatTypeWithoutStat checks %y, %Y and %l from the Entry's type
// alone, and %l and %Y on real links.
func TestFormatTypeWithoutStat(t *testing.T) {
	dir := t.TempDir()
	for _, l := range [][2]string{{"target", "link"}, {"nowhere", "dangling"}, {"loop", "loop"}} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "target"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f, _, _ := Compile("%y %Y %l")
	for _, tt := range []struct {
		name string
		typ  walker.Type
		want string
	}{
		{"link", walker.TypeSymlink, "l f target"},
		{"dangling", walker.TypeSymlink, "l N nowhere"},
		{"loop", walker.TypeSymlink, "l L loop"},
		{"target", walker.TypeRegular, "f f "},
	} {
		// A starting point is looked up relative to the working
		// directory, so the Entry can be a Synthetic one without status.
		e := rootEntry(t, filepath.Join(dir, tt.name), tt.typ)
		got, _ := f.Append(nil, e, nil, testEnv(), false)
		if string(got) != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// rootEntry returns the Entry the walker gives for the starting point
// path, by walking it with -maxdepth 0 semantics and copying what the
// visit saw is impossible (Entries are borrowed), so the test does its
// work inside the visit instead.
func rootEntry(t *testing.T, path string, typ walker.Type) *walker.Entry {
	t.Helper()
	var got *walker.Entry
	err := walker.Walk([]string{path}, walker.Options{Workers: 1, MaxDepth: 0}, func(e *walker.Entry) walker.Action {
		// Lstat and Readlink fill the caches, after which the Entry no
		// longer needs its directory.
		e.Lstat()
		e.Stat()
		e.Readlink()
		c := *e
		c.Path = append([]byte(nil), e.Path...)
		got = &c
		return walker.Continue
	})
	if err != nil || got == nil {
		t.Fatalf("walking %s: %v", path, err)
	}
	return got
}

func TestRootLen(t *testing.T) {
	for _, tt := range []struct {
		path  string
		depth int
		roots []string
		want  string
	}{
		{"a", 0, nil, "a"},
		{"a/b", 1, []string{"a"}, "a"},
		{"a/b", 1, []string{"a/"}, "a/"},
		{"a/b", 1, []string{"a", "a/"}, "a"},
		{"a/b", 1, nil, "a"},
		{"a//b/c", 2, nil, "a//"},
		{"/etc", 1, nil, "/"},
		{"//etc/x", 2, nil, "//"},
		{"./x/y/z", 3, nil, "."},
		{"a/b/c", 1, []string{"a/b", "a"}, "a/b"},
		{"a/b/c", 2, []string{"a/b", "a"}, "a"},
		{"x", 1, nil, ""},
	} {
		if got := string([]byte(tt.path)[:rootLen([]byte(tt.path), tt.depth, tt.roots)]); got != tt.want {
			t.Errorf("rootLen(%q, %d, %q) gives %q, want %q", tt.path, tt.depth, tt.roots, got, tt.want)
		}
	}
}

// TestBaseDirName checks %f and %h on the starting points GNU find 4.9
// was run on.
func TestBaseDirName(t *testing.T) {
	for _, tt := range []struct{ path, base, dir string }{
		{"/", "/", ""},
		{"//", "/", "/"},
		{"r/", "r/", "r"},
		{"r//", "r/", "r/"},
		{"./r", "r", "."},
		{"r/./s", "s", "r/."},
		{"./", "./", "."},
		{".", ".", "."},
		{"..", "..", "."},
		{"r/s/", "s/", "r"},
		{"", "", "."},
	} {
		if got := string(baseName([]byte(tt.path))); got != tt.base {
			t.Errorf("%%f of %q is %q, want %q", tt.path, got, tt.base)
		}
		if got := string(dirName([]byte(tt.path))); got != tt.dir {
			t.Errorf("%%h of %q is %q, want %q", tt.path, got, tt.dir)
		}
	}
}

// TestFormatNoAlloc checks that the common directives expand without
// allocating.
func TestFormatNoAlloc(t *testing.T) {
	setLocal(t, time.UTC)
	st := testStat()
	e := walker.Synthetic("root/sub/file", 2, walker.TypeRegular, st, nil)
	env := testEnv()
	for _, format := range []string{
		`%p\n`, `%f %h %P %H %d\n`, `%s %b %k %i %n %D %U %G %u\n`, `%y %m %#o %M\n`,
		`%-20p|%10s|%.3f\n`, `%TY-%Tm-%Td %TT %t %T@ %T+\n`, `%S\n`,
	} {
		f, _, err := Compile(format)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 0, 4096)
		allocs := testing.AllocsPerRun(100, func() {
			buf, _ = f.Append(buf[:0], e, st, env, false)
		})
		if allocs != 0 {
			t.Errorf("%q: %v allocations per expansion", format, allocs)
		}
	}
}

func FuzzCompile(f *testing.F) {
	for _, tt := range formatTests {
		f.Add(tt.format)
	}
	for _, s := range []string{"%-+ #0123.456p", `\1\12\123\1234`, "%T%%A@%B+", "%%%%%", `\\\\\c`} {
		f.Add(s)
	}
	st := testStat()
	e := walker.Synthetic("root/sub/file", 2, walker.TypeRegular, st, nil)
	env := testEnv()
	f.Fuzz(func(t *testing.T, format string) {
		fm, _, err := Compile(format)
		if err != nil {
			if fm != nil {
				t.Fatalf("%q: a Format and an error", format)
			}
			return
		}
		if fm.String() != format {
			t.Fatalf("String() = %q, want %q", fm.String(), format)
		}
		for _, sg := range fm.segs {
			if sg.sp.width > 1<<16 || sg.sp.prec > 1<<16 {
				return // GNU would print that much padding; so would we
			}
		}
		out, _ := fm.Append(nil, e, st, env, false)
		tty, _ := fm.Append(nil, e, st, env, true)
		if text, _, _ := strings.Cut(format, "\x00"); !strings.ContainsAny(text, "%\\") && (string(out) != text || string(tty) != text) {
			t.Fatalf("plain text %q expands to %q (%q on a terminal)", format, out, tty)
		}
	})
}

// The C oracle: glibc's printf and strftime, to check cprintf.go and
// strftime.go against.

const cOracleSrc = `
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int unhex(const char *s, char *out) {
	int n = 0;
	for (; s[0] && s[1] && s[0] != '\t' && s[0] != '\n'; s += 2) {
		unsigned v; sscanf(s, "%2x", &v); out[n++] = (char)v;
	}
	out[n] = 0;
	return n;
}

static void puthex(const char *s, int n) {
	for (int i = 0; i < n; i++) printf("%02x", (unsigned char)s[i]);
	printf("\n");
}

int main(void) {
	static char line[8192], fmt[4096], arg[4096], out[1 << 16];
	while (fgets(line, sizeof line, stdin)) {
		char kind = line[0];
		char *p = line + 2;
		unhex(p, fmt);
		p = strchr(p, '\t') + 1;
		int n = 0;
		switch (kind) {
		case 'd': n = snprintf(out, sizeof out, fmt, (int)strtol(p, NULL, 10)); break;
		case 'o': n = snprintf(out, sizeof out, fmt, (unsigned)strtoul(p, NULL, 10)); break;
		case 'g': { unsigned long long bits = strtoull(p, NULL, 16); double d; memcpy(&d, &bits, 8);
			n = snprintf(out, sizeof out, fmt, d); break; }
		case 's': unhex(p, arg); n = snprintf(out, sizeof out, fmt, arg); break;
		case 't': { time_t t = (time_t)strtoll(p, NULL, 10); struct tm *tm = localtime(&t);
			n = tm ? (int)strftime(out, sizeof out, fmt, tm) : 0; break; }
		}
		puthex(out, n);
	}
	return 0;
}
`

type cOracle struct{ bin string }

func newCOracle(t *testing.T) *cOracle {
	t.Helper()
	cc := testtool.Need(t, "cc", "gcc")
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "oracle.c"), filepath.Join(dir, "oracle")
	if err := os.WriteFile(src, []byte(cOracleSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O1", "-w", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("building the oracle: %v\n%s", err, out)
	}
	return &cOracle{bin: bin}
}

// run sends the query lines to the oracle in the C locale with time
// zone tz and returns its answers.
func (o *cOracle) run(t *testing.T, tz string, lines []string) []string {
	t.Helper()
	cmd := exec.Command(o.bin)
	cmd.Env = []string{"LC_ALL=C", "TZ=" + tz}
	cmd.Stdin = strings.NewReader(strings.Join(lines, ""))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	var res []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		b, err := hex.DecodeString(sc.Text())
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, string(b))
	}
	if len(res) != len(lines) {
		t.Fatalf("oracle answered %d of %d queries", len(res), len(lines))
	}
	return res
}

// randSpec returns random printf flags, width and precision text, in
// the shape -printf lets through: flags from "-+ #", then digits (a
// leading 0 is printf's '0' flag), then a precision.
func randSpec(r *rand.Rand) string {
	var b strings.Builder
	b.WriteByte('%')
	for range r.IntN(4) {
		b.WriteByte("-+ #"[r.IntN(4)])
	}
	for range r.IntN(3) {
		b.WriteByte('0')
	}
	if r.IntN(2) == 0 {
		b.WriteString(strconv.Itoa(r.IntN(25)))
	}
	if r.IntN(2) == 0 {
		b.WriteByte('.')
		if r.IntN(4) > 0 {
			b.WriteString(strconv.Itoa(r.IntN(20)))
		}
	}
	return b.String()
}

// TestCPrintfAgainstGlibc compares the %d, %o, %g and %s conversions
// with glibc's on random flags, widths, precisions and values.
func TestCPrintfAgainstGlibc(t *testing.T) {
	o := newCOracle(t)
	r := rand.New(rand.NewPCG(1, 2))
	type q struct {
		conv byte
		sp   string
		i    int64
		f    float64
		s    string
	}
	var qs []q
	ints := []int64{0, 1, -1, 7, 8, 42, 511, 4095, 07777, -2147483648, 2147483647, 100000}
	floats := []float64{0, 1, 0.5, 1.024, 819.2, 0.0001, 0.00001234, 123456, 1234567, 1e100, 1e-100, 2.5, 3.5, 0.125, 99999.95, 999999.5, math.Inf(1), math.Inf(-1), -0.0, -3.75, 1.0 / 3}
	strs := []string{"", "a", "root", "sub/fi\tle", "\xff\x01"}
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		sp := randSpec(r)
		qs = append(qs,
			q{conv: 'd', sp: sp, i: ints[r.IntN(len(ints))]},
			q{conv: 'o', sp: sp, i: ints[r.IntN(len(ints))] & 0xffffffff},
			q{conv: 'g', sp: sp, f: floats[r.IntN(len(floats))]},
			q{conv: 'g', sp: sp, f: r.ExpFloat64() * math.Pow(10, float64(r.IntN(20)-10))},
			q{conv: 's', sp: sp, s: strs[r.IntN(len(strs))]},
		)
	}
	var lines []string
	for _, x := range qs {
		format := hex.EncodeToString([]byte(x.sp + string(x.conv)))
		switch x.conv {
		case 'd', 'o':
			lines = append(lines, fmt.Sprintf("%c\t%s\t%d\n", x.conv, format, x.i))
		case 'g':
			lines = append(lines, fmt.Sprintf("g\t%s\t%x\n", format, math.Float64bits(x.f)))
		case 's':
			lines = append(lines, fmt.Sprintf("s\t%s\t%s\n", format, hex.EncodeToString([]byte(x.s))))
		}
	}
	want := o.run(t, "UTC", lines)
	bad := 0
	for i, x := range qs {
		sp := parseSpec([]byte(x.sp[1:]))
		var got []byte
		switch x.conv {
		case 'd':
			got = appendCInt(nil, x.i, sp)
		case 'o':
			got = appendCOctal(nil, uint64(x.i), sp)
		case 'g':
			got = appendCFloatG(nil, x.f, sp)
		case 's':
			got = appendCString(nil, x.s, sp)
		}
		if string(got) != want[i] {
			if bad++; bad <= 20 {
				t.Errorf("printf(%q, %s) = %q, glibc %q", x.sp+string(x.conv), lines[i][strings.LastIndexByte(lines[i][:len(lines[i])-1], '\t')+1:len(lines[i])-1], got, want[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ", bad, len(qs))
	}
}

// TestStrftimeAgainstGlibc compares every strftime letter -printf can
// pass (%Tk) with glibc's in the C locale, for random times in three
// time zones.
func TestStrftimeAgainstGlibc(t *testing.T) {
	o := newCOracle(t)
	r := rand.New(rand.NewPCG(3, 4))
	var secs []int64
	for _, s := range []int64{0, -1, 1614834367, 951782400, 946684799, 1230768000, 1262304000, 2147483647, -2147483648, 4102444800, -62135596800, 253402300799} {
		secs = append(secs, s)
	}
	n := 400
	if testing.Short() {
		n = 40
	}
	for range n {
		secs = append(secs, r.Int64N(1<<34)-(1<<33))
	}
	var letters []byte
	for c := byte(' '); c < 0x7f; c++ {
		letters = append(letters, c)
	}
	for _, tz := range []string{"UTC", "America/New_York", "Asia/Kolkata"} {
		if tz != "UTC" {
			if _, err := os.Stat("/usr/share/zoneinfo/" + tz); err != nil {
				continue
			}
		}
		var lines []string
		for _, s := range secs {
			for _, c := range letters {
				lines = append(lines, fmt.Sprintf("t\t%s\t%d\n", hex.EncodeToString([]byte{'%', c}), s))
			}
		}
		want := o.run(t, tz, lines)
		loc, err := time.LoadLocation(tz)
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		i := 0
		for _, s := range secs {
			b := localTimeIn(s, loc)
			for _, c := range letters {
				got := appendStrftime(nil, c, &b)
				if string(got) != want[i] {
					if bad++; bad <= 20 {
						t.Errorf("TZ=%s strftime(%%%c, %d) = %q, glibc %q", tz, c, s, got, want[i])
					}
				}
				i++
			}
		}
		if bad > 0 {
			t.Errorf("TZ=%s: %d of %d differ", tz, bad, len(want))
		}
	}
}

// TestFormatReport: what a directive cannot read of the file goes to
// Env.Report as the Failure it is, for the file's path, and the
// directive prints nothing. A Synthetic Entry has no directory, so
// every call on the file fails (EBADF).
func TestFormatReport(t *testing.T) {
	link := &unix.Stat_t{Mode: unix.S_IFLNK | 0o777}
	for _, tt := range []struct {
		format string
		want   []Failure
	}{
		{"[%l]", []Failure{ReadlinkFailed}},
		{"[%Z]", []Failure{GetfileconFailed}},
		{"[%l][%Z]", []Failure{ReadlinkFailed, GetfileconFailed}},
		{"[%p]", nil},
	} {
		t.Run(tt.format, func(t *testing.T) {
			f, _, err := Compile(tt.format)
			if err != nil {
				t.Fatal(err)
			}
			env := testEnv()
			var got []Failure
			env.Report = func(f Failure, path []byte, err error) {
				if string(path) != "root/ln" || err == nil {
					t.Errorf("Report(%v, %q, %v), want the path root/ln and an error", f, path, err)
				}
				got = append(got, f)
			}
			e := walker.Synthetic("root/ln", 1, walker.TypeSymlink, link, nil)
			out, err := f.Append(nil, e, link, env, false)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("reported %v, want %v", got, tt.want)
			}
			if want := strings.Repeat("[]", len(tt.want)); tt.want != nil && string(out) != want {
				t.Errorf("printed %q, want %q", out, want)
			}
			env.Report = nil // dropped, not a panic
			f.Append(nil, walker.Synthetic("root/ln", 1, walker.TypeSymlink, link, nil), link, env, false)
		})
	}
}
