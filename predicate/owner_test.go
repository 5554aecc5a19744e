package predicate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/accounts"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

const testPasswd = `root:x:0:0:root:/root:/bin/bash
# a comment
  daemon:x:1:1::/:/bin/false
bad:x:notanumber:0::/:
huge:x:4294967296:0::/:
007:x:8:8::/:
alice:x:1000:1000::/:
alice:x:1001:1001::/:
nobody:x:65534:65534::/:
+nis::::::

`

const testGroup = `root:x:0:
wheel:x:10:alice
12:x:99:
nogroup:x:65534:
`

// withTestIDs makes the parser and -nouser see testPasswd and testGroup
// for the rest of t.
func withTestIDs(t *testing.T) {
	t.Helper()
	useTestIDs(t, nil)
}

// useTestIDs is withTestIDs with ns (nil: none) behind the files.
func useTestIDs(t *testing.T, ns accounts.NameService) {
	t.Helper()
	tmp := t.TempDir()
	pw, gr := filepath.Join(tmp, "passwd"), filepath.Join(tmp, "group")
	if err := os.WriteFile(pw, []byte(testPasswd), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gr, []byte(testGroup), 0o644); err != nil {
		t.Fatal(err)
	}
	db := accounts.Load(pw, gr, ns)
	old := systemIDs
	systemIDs = func() *accounts.DB { return db }
	t.Cleanup(func() { systemIDs = old })
}

// ownerTests: the id each argument selects, or GNU find 4.11's message
// (checked with names that do and do not exist on a Debian system).
// GNU 4.10 reads a number as xstrtoumax does, up to UID_T_MAX or
// GID_T_MAX, with one message for whatever is neither a name nor such a
// number; 4.9 stopped at INT_MAX and had a message for each case.
var ownerTests = []struct {
	op, arg string
	id      uint32
	err     string
}{
	{"-user", "root", 0, ""},
	{"-user", "daemon", 1, ""}, // leading blanks are skipped
	{"-user", "alice", 1000, ""},
	{"-user", "007", 8, ""}, // a name first, then a number
	{"-user", "0", 0, ""},
	{"-user", "7", 7, ""},
	{"-user", "0042", 42, ""},
	{"-user", "4242", 4242, ""},
	{"-user", "2147483647", 2147483647, ""},
	{"-user", "2147483648", 2147483648, ""},
	{"-user", "4294967295", 4294967295, ""},
	{"-user", " 1", 1, ""},   // strtoumax skips white space
	{"-user", "\t+1", 1, ""}, // and takes a '+'
	{"-user", "+1", 1, ""},
	{"-user", "nosuch", 0, "invalid user name or UID argument to -user: 'nosuch'"},
	{"-user", "bad", 0, "invalid user name or UID argument to -user: 'bad'"},
	{"-user", "+nis", 0, "invalid user name or UID argument to -user: '+nis'"},
	{"-user", "", 0, "invalid user name or UID argument to -user: ''"},
	{"-user", "12x", 0, "invalid user name or UID argument to -user: '12x'"},
	{"-user", "1 ", 0, "invalid user name or UID argument to -user: '1 '"},
	{"-user", "+ 1", 0, "invalid user name or UID argument to -user: '+ 1'"},
	{"-user", "++1", 0, "invalid user name or UID argument to -user: '++1'"},
	{"-user", "-1", 0, "invalid user name or UID argument to -user: '-1'"},
	{"-user", " -0", 0, "invalid user name or UID argument to -user: ' -0'"},
	{"-user", "0x10", 0, "invalid user name or UID argument to -user: '0x10'"},
	{"-user", "4294967296", 0, "invalid user name or UID argument to -user: '4294967296'"},
	{"-user", "9223372036854775807", 0, "invalid user name or UID argument to -user: '9223372036854775807'"},
	{"-user", "99999999999999999999", 0, "invalid user name or UID argument to -user: '99999999999999999999'"},
	{"-group", "root", 0, ""},
	{"-group", "wheel", 10, ""},
	{"-group", "12", 99, ""},
	{"-group", "13", 13, ""},
	{"-group", "4242", 4242, ""},
	{"-group", "4294967295", 4294967295, ""},
	{"-group", "+1", 1, ""},
	{"-group", "nosuch", 0, "invalid group name or GID argument to -group: 'nosuch'"},
	{"-group", "", 0, "invalid group name or GID argument to -group: ''"},
	{"-group", "12x", 0, "invalid group name or GID argument to -group: '12x'"},
	{"-group", "1a2", 0, "invalid group name or GID argument to -group: '1a2'"},
	{"-group", "-1", 0, "invalid group name or GID argument to -group: '-1'"},
	{"-group", "a'b", 0, "invalid group name or GID argument to -group: 'a\\'b'"},
	{"-group", "4294967296", 0, "invalid group name or GID argument to -group: '4294967296'"},
	{"-group", "99999999999999999999", 0, "invalid group name or GID argument to -group: '99999999999999999999'"},
}

func TestOwnerParse(t *testing.T) {
	withTestIDs(t)
	for _, tt := range ownerTests {
		t.Run(tt.op+" "+tt.arg, func(t *testing.T) {
			if tt.err != "" {
				_, err := Parse([]string{".", tt.op, tt.arg}, Config{Quote: output.StyleC.Quote})
				if err == nil || err.Error() != tt.err {
					t.Errorf("error %v, want %q", err, tt.err)
				}
				return
			}
			n := parseOne(t, tt.op, tt.arg).(*ownerNode)
			if n.id != tt.id || n.group != (tt.op == "-group") {
				t.Errorf("id %d (group %v), want %d", n.id, n.group, tt.id)
			}
		})
	}
	for _, op := range []string{"-user", "-group"} {
		if _, err := Parse([]string{".", op}, Config{}); err == nil || err.Error() != "missing argument to `"+op+"'" {
			t.Errorf("%s without argument: %v", op, err)
		}
	}
}

// idNumTests are the arguments of -uid, -gid, -links and -inum: "" when
// accepted, else GNU find 4.11's message with OP for the primary. GNU
// 4.10 names a missing argument as it does for other primaries and
// says "non-numeric" for what xstrtoumax refuses; 4.9 said "invalid
// argument `-gid' to `-gid'" and "invalid argument `x' to `-gid'".
var idNumTests = []struct{ arg, err string }{
	{"5", ""}, {"+0", ""}, {"-1", ""}, {"007", ""}, {" 1", ""}, {"-+1", ""}, {"+ 1", ""},
	{"18446744073709551615", ""},
	{"x", "non-numeric argument to OP: 'x'"},
	{"", "non-numeric argument to OP: ''"},
	{"-", "non-numeric argument to OP: '-'"},
	{"+", "non-numeric argument to OP: '+'"},
	{"1x", "non-numeric argument to OP: '1x'"},
	{"1 ", "non-numeric argument to OP: '1 '"},
	{"0x10", "non-numeric argument to OP: '0x10'"},
	{"--1", "non-numeric argument to OP: '--1'"},
	{"+-1", "non-numeric argument to OP: '+-1'"},
	{"- -1", "non-numeric argument to OP: '- -1'"},
	{"18446744073709551616", "non-numeric argument to OP: '18446744073709551616'"},
	{"99999999999999999999", "non-numeric argument to OP: '99999999999999999999'"},
}

func TestIDNumParse(t *testing.T) {
	for _, op := range []string{"-uid", "-gid", "-links", "-inum"} {
		for _, tt := range idNumTests {
			if tt.err == "" {
				parseOne(t, op, tt.arg)
				continue
			}
			want := strings.Replace(tt.err, "OP", op, 1)
			if _, err := Parse([]string{".", op, tt.arg}, Config{Quote: output.StyleC.Quote}); err == nil || err.Error() != want {
				t.Errorf("%s %q: error %v, want %q", op, tt.arg, err, want)
			}
		}
		want := "missing argument to `" + op + "'"
		if _, err := Parse([]string{".", op}, Config{}); err == nil || err.Error() != want {
			t.Errorf("%s without argument: %v, want %q", op, err, want)
		}
	}
}

func TestOwnerEval(t *testing.T) {
	withTestIDs(t)
	s := newTestState()
	file := func(uid, gid uint32) *walker.Entry {
		return walker.Synthetic("f", 1, walker.TypeRegular, &unix.Stat_t{Mode: reg | 0o644, Uid: uid, Gid: gid}, nil)
	}
	for _, tt := range []struct {
		args     []string
		uid, gid uint32
		want     bool
	}{
		{[]string{"-user", "root"}, 0, 5, true},
		{[]string{"-user", "root"}, 1, 0, false},
		{[]string{"-user", "4242"}, 4242, 0, true},
		{[]string{"-group", "wheel"}, 0, 10, true},
		{[]string{"-group", "wheel"}, 10, 0, false},
		{[]string{"-uid", "1000"}, 1000, 0, true},
		{[]string{"-uid", "+999"}, 1000, 0, true},
		{[]string{"-uid", "-1000"}, 1000, 0, false},
		{[]string{"-uid", "-1"}, 0, 7, true},
		{[]string{"-gid", "-1"}, 7, 0, true},
		{[]string{"-gid", "+65533"}, 0, 65534, true},
		{[]string{"-nouser"}, 0, 0, false},
		{[]string{"-nouser"}, 4242, 0, true},
		{[]string{"-nouser"}, 1001, 0, false}, // a second line for alice still names 1001
		{[]string{"-nouser"}, 8, 0, false},
		{[]string{"-nouser"}, 65534, 4242, false},
		{[]string{"-nogroup"}, 4242, 65534, false},
		{[]string{"-nogroup"}, 0, 4242, true},
		{[]string{"-nogroup"}, 0, 1000, true}, // a user's gid need not be a group
		{[]string{"-nogroup"}, 0, 99, false},
	} {
		n := parseOne(t, tt.args...)
		if got := n.Eval(file(tt.uid, tt.gid), s); got != tt.want {
			t.Errorf("%q on %d:%d = %v, want %v", tt.args, tt.uid, tt.gid, got, tt.want)
		}
	}
}

func FuzzOwner(f *testing.F) {
	for _, tt := range ownerTests {
		f.Add(tt.op == "-group", tt.arg)
	}
	f.Fuzz(func(t *testing.T, group bool, arg string) {
		// The database parser on arbitrary files: internal/accounts'
		// FuzzParseIDLine.
		op := "-user"
		if group {
			op = "-group"
		}
		cmd, err := Parse([]string{".", op, arg}, Config{})
		if err != nil {
			return
		}
		again, err := Parse(append([]string{"."}, cmd.Expr.Args()...), Config{})
		if err != nil || *again.Expr.(*andNode).kids[0].(*ownerNode) != *cmd.Expr.(*andNode).kids[0].(*ownerNode) {
			t.Fatalf("round trip of %s %q: %v", op, arg, err)
		}
	})
}
