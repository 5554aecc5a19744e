package predicate

import (
	"testing"

	"github.com/gfind/gfind/output"
	"golang.org/x/sys/unix"
)

const (
	reg = unix.S_IFREG
	dir = unix.S_IFDIR
)

// permArgs are -perm arguments of each kind, for the parse fuzzers'
// seeds (internal/mode has the worked examples).
var permArgs = []string{"644", "-644", "/022", "/000", "u+x,g-w", "-a+X", "=755", "-g=rwxs", "+t"}

// permErrors are arguments GNU find refuses with "invalid file mode"
// (4.9: "invalid mode").
var permErrors = []string{
	"", "-", "/", "8", "-8", "9", "017777", "+644", "+0", "a=r,x", "a",
	",", "u=rw,", "u=755", "u+7", "=7a", "x", "ug", "u=r,,g=r", "/a='",
	"rwx", "u=rwx g=rx",
}

func TestPerm(t *testing.T) {
	for _, arg := range permErrors {
		cmd, err := Parse([]string{".", "-perm", arg}, Config{Quote: output.StyleC.Quote})
		want := "invalid file mode " + output.StyleC.Quote(arg)
		if err == nil || err.Error() != want {
			t.Errorf("-perm %q: %v, %v; want error %q", arg, cmd, err, want)
		}
	}
}

func TestPermWarning(t *testing.T) {
	for _, tt := range []struct {
		arg  string
		warn bool
	}{
		{"/000", true}, {"/u-r", true}, {"/a+X", false}, {"-000", false}, {"/1", false},
	} {
		var got []string
		// Warnings off: GNU gives this one anyway.
		_, err := Parse([]string{".", "-perm", tt.arg}, Config{Warn: func(s string) { got = append(got, s) }})
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if tt.warn {
			want = 1
		}
		if len(got) != want {
			t.Errorf("-perm %s: warnings %q, want %d", tt.arg, got, want)
			continue
		}
		if tt.warn && got[0] != "you have specified a mode pattern "+tt.arg+" (which is equivalent to /000). The meaning of -perm /000 was changed in 2007 to be consistent with -perm -000; that is, while it used to match no files, it now matches all files. This warning message will be removed in a future findutils release." {
			t.Errorf("-perm %s: warning %q", tt.arg, got[0])
		}
	}
}
