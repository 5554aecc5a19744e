package mode

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
	"golang.org/x/sys/unix"
)

const (
	reg = unix.S_IFREG
	dir = unix.S_IFDIR
)

// permTests are worked examples of -perm: the file's st_mode, the
// argument, and whether GNU find 4.9 matches (each row checked with
// `find FILE -perm ARG` on a file of that mode).
var permTests = []struct {
	arg  string
	mode uint32
	want bool
}{
	// Exact octal: every mode bit, set-id and sticky included.
	{"644", reg | 0o644, true},
	{"0644", reg | 0o644, true},
	{"644", reg | 0o640, false},
	{"644", reg | 0o4644, false},
	{"4644", reg | 0o4644, true},
	{"0", reg, true},
	{"000", dir, true},
	{"07777", reg | 0o7777, true},
	{"00644", reg | 0o644, true}, // five digits
	// -MODE: all of these bits.
	{"-644", reg | 0o755, true},
	{"-644", reg | 0o664, true},
	{"-644", reg | 0o600, false},
	{"-000", reg, true},
	{"-4000", reg | 0o4755, true},
	{"-4000", reg | 0o2755, false},
	{"-1000", dir | 0o1777, true},
	// /MODE: any of these bits.
	{"/022", reg | 0o644, false},
	{"/022", reg | 0o664, true},
	{"/022", reg | 0o646, true},
	{"/111", reg | 0o100, true},
	{"/111", reg | 0o666, false},
	{"/6000", reg | 0o2755, true},
	{"/000", reg, true}, // /000 means -000 now: everything
	{"/u-r", reg, true}, // no bits either
	// Symbolic modes, applied to mode 0 with no umask.
	{"u+x,g-w", reg | 0o100, true},
	{"a=r", reg | 0o444, true},
	{"a=r", reg | 0o644, false},
	{"g=u", reg, true},
	{"u=rw,g=u", reg | 0o660, true},
	{"u=rwx,g=u,o=g", reg | 0o777, true},
	{"ug=rw,o=", reg | 0o660, true},
	{"u=rw-w", reg | 0o400, true}, // operators chain
	{"=755", reg | 0o755, true},   // an octal after an operator
	{"-+7", reg | 0o757, true},
	{"-+7", reg | 0o750, false},
	{"+t", reg | 0o1000, true},
	{"+t", dir | 0o1000, true},
	{"-+t", dir | 0o1777, true},
	{"-o+t", dir | 0o1777, true},
	{"-u+t", dir | 0o1777, true}, // t needs o: nothing is asked
	{"-u+s", reg | 0o4755, true},
	{"-u+s", reg | 0o2755, false},
	{"-g+s", dir | 0o2775, true},
	{"=s", reg | 0o6000, true},
	{"-a+X", reg | 0o600, true}, // X on a file without x bits: nothing
	{"-a+X", dir | 0o700, false},
	{"-a+X", dir | 0o711, true},
	{"/a+X", reg | 0o600, true}, // no bits for a file: true
	{"/a+X", dir | 0o600, false},
	{"/a+X", dir | 0o610, true},
	{"+w", reg | 0o222, true}, // +MODE without a digit is a symbolic mode
	{"+", reg, true},
	{"u+", reg, true},
	{"=", reg, true},
	{"-u=rwx", reg | 0o755, true},
	{"-u=rwx", reg | 0o655, false},
	{"/u=w,g=w", reg | 0o644, true},
	{"/u=w,g=w", reg | 0o444, false},
	{"-g=rwxs", dir | 0o2770, true},
	{"-g=rwxs", dir | 0o770, false},
}

// permErrors are arguments GNU find refuses with "invalid file mode"
// (4.9: "invalid mode").
var permErrors = []string{
	"", "-", "/", "8", "-8", "9", "017777", "+644", "+0", "a=r,x", "a",
	",", "u=rw,", "u=755", "u+7", "=7a", "x", "ug", "u=r,,g=r", "/a='",
	"rwx", "u=rwx g=rx",
}

func TestPerm(t *testing.T) {
	for _, tt := range permTests {
		t.Run(fmt.Sprintf("%s/%o", tt.arg, tt.mode), func(t *testing.T) {
			p, ok := Parse(tt.arg)
			if !ok {
				t.Fatalf("Parse(%q) failed", tt.arg)
			}
			if got := p.Match(tt.mode); got != tt.want {
				t.Errorf("-perm %s on mode %o = %v, want %v (values %o)", tt.arg, tt.mode, got, tt.want, p.Val)
			}
		})
	}
	for _, arg := range permErrors {
		if p, ok := Parse(arg); ok {
			t.Errorf("Parse(%q) = %+v, want a refusal", arg, p)
		}
	}
}

func FuzzPerm(f *testing.F) {
	for _, tt := range permTests {
		f.Add(tt.arg, tt.mode)
	}
	for _, arg := range permErrors {
		f.Add(arg, uint32(reg|0o644))
	}
	f.Fuzz(func(t *testing.T, arg string, mode uint32) {
		p, ok := Parse(arg)
		if !ok {
			return
		}
		p.Match(mode)
		again, ok := Parse(arg)
		if !ok || again != p {
			t.Fatalf("round trip of %q: %+v, then %+v", arg, p, again)
		}
		if p.Val[0]&^modeChmod != 0 || p.Val[1]&^modeChmod != 0 {
			t.Fatalf("%q: values %o outside the mode bits", arg, p.Val)
		}
	})
}

// permModes are the file and directory modes TestPermAgainstGNU tries.
var permModes = []uint32{
	0, 0o644, 0o755, 0o777, 0o600, 0o444, 0o111, 0o222, 0o070, 0o007,
	0o4755, 0o2755, 0o1777, 0o7777, 0o6000, 0o2070, 0o1001, 0o640, 0o711,
}

// permPatterns generates -perm arguments: octal modes, and symbolic
// clauses of every who, operator and permission list, with each prefix.
func permPatterns() []string {
	var modes []string
	for _, m := range []string{"0", "644", "0755", "4000", "2000", "1000", "6000", "7777", "022", "111", "00700", "070"} {
		modes = append(modes, m)
	}
	for _, who := range []string{"", "u", "g", "o", "a", "ug", "go", "uo"} {
		for _, op := range []string{"=", "+", "-"} {
			for _, perm := range []string{"", "r", "w", "x", "X", "s", "t", "rw", "rwx", "rX", "st", "u", "g", "o", "xs", "wt", "755", "7"} {
				if who != "" && (perm == "755" || perm == "7") {
					continue // invalid
				}
				modes = append(modes, who+op+perm)
			}
		}
	}
	modes = append(modes, "u=rwx,g=u", "a=r,u+w", "u+s,g+s", "u=rw,g=u,o=g", "g=u,u=rw",
		"u=rw-w", "a+X,u-x", "o=t,u=s", "ug+s-x", "a=rwx,g-s", "=rX,+t", "u=,g=,o=")
	var out []string
	for _, m := range modes {
		for _, prefix := range []string{"", "-", "/"} {
			if prefix == "" && strings.HasPrefix(m, "+") && len(m) > 1 && m[1] >= '0' && m[1] < '8' {
				continue // refused
			}
			out = append(out, prefix+m)
		}
	}
	return out
}

// TestPermAgainstGNU makes files and directories of many modes and asks
// GNU find, in one run, which of them each generated -perm argument
// matches; Parse must agree on every pair.
func TestPermAgainstGNU(t *testing.T) {
	gnu := testtool.GNUFind(t)
	tmp := t.TempDir()
	for _, m := range permModes {
		f := filepath.Join(tmp, fmt.Sprintf("f%04o", m))
		d := filepath.Join(tmp, fmt.Sprintf("d%04o", m))
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{f, d} {
			if err := unix.Chmod(p, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Cleanup(func() {
		for _, m := range permModes {
			os.Chmod(filepath.Join(tmp, fmt.Sprintf("d%04o", m)), 0o700)
		}
	})
	// Arguments Parse refuses must be refused by GNU too, one run
	// each (GNU stops at the first); the others go in one run.
	var pats []string
	for _, p := range permPatterns() {
		if _, ok := Parse(p); ok {
			pats = append(pats, p)
			continue
		}
		out, err := exec.Command(gnu, tmp, "-maxdepth", "0", "-perm", p).CombinedOutput()
		// 4.11 says "invalid file mode", 4.9 "invalid mode".
		if err == nil || !bytes.Contains(out, []byte("invalid file mode")) && !bytes.Contains(out, []byte("invalid mode")) {
			t.Errorf("Parse refuses %q; GNU find: %v, %s", p, err, out)
		}
	}
	t.Logf("%d arguments on %d modes, %d refused", len(pats), len(permModes), len(permPatterns())-len(pats))
	args := []string{tmp, "-mindepth", "1", "-maxdepth", "1"}
	for i, p := range pats {
		if i > 0 {
			args = append(args, ",")
		}
		args = append(args, "(", "-perm", p, "-printf", fmt.Sprintf("%d %%f\\n", i), ")")
	}
	cmd := exec.Command(gnu, args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.Stderr = &bytes.Buffer{}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("GNU find: %v: %s", err, cmd.Stderr)
	}
	gnuMatch := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		gnuMatch[sc.Text()] = true
	}
	for i, p := range pats {
		n, _ := Parse(p)
		for _, m := range permModes {
			for _, typ := range []struct {
				prefix string
				bits   uint32
			}{{"f", reg}, {"d", dir}} {
				name := fmt.Sprintf("%s%04o", typ.prefix, m)
				want := gnuMatch[fmt.Sprintf("%d %s", i, name)]
				if got := n.Match(typ.bits | m); got != want {
					t.Errorf("-perm %s on %s: %v, GNU find %v", p, name, got, want)
				}
			}
		}
	}
}
