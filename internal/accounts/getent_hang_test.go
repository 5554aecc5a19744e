package accounts

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hangingGetent stands for a getent whose NSS module hangs on some keys
// ("hang", uid 666) and answers others at once. It logs its arguments
// as fakeGetent does.
const hangingGetent = `#!/bin/sh
printf '%s|' "$@" >>"$0.log"; echo >>"$0.log"
case "$3" in
hang|666) exec sleep 60 ;;
alice) echo 'alice:x:4242:4343::/:' ;;
*) exit 2 ;;
esac
`

// TestGetentTimeout: a getent run that outlasts the time limit is
// killed, the name or id is unknown, one warning names the lookup, and
// the name service is not asked again (each question would wait as
// long), for names (parse time) and ids (during the walk) alike.
func TestGetentTimeout(t *testing.T) {
	for _, tt := range []struct {
		name string
		ask  func(g getentNS) bool // whether the hanging question was answered
		want string                // the warning
	}{
		{"user", func(g getentNS) bool { _, ok := g.UserID("hang"); return ok },
			"getent passwd 'hang' did not answer within 300ms: taken as unknown, and the name service is not asked again"},
		{"group", func(g getentNS) bool { _, ok := g.GroupID("hang"); return ok },
			"getent group 'hang' did not answer within 300ms: taken as unknown, and the name service is not asked again"},
		{"uid", func(g getentNS) bool { _, ok := g.UserName(666); return ok },
			"getent passwd '666' did not answer within 300ms: taken as unknown, and the name service is not asked again"},
	} {
		// Written before the parallel subtests start: a script still
		// open for writing in a child another subtest forks would not
		// run (ETXTBSY), which looks like a getent that fails at once.
		prog := filepath.Join(t.TempDir(), "getent")
		if err := os.WriteFile(prog, []byte(hangingGetent), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var warns []string
			g := getentNS{path: func() string { return prog }, timeout: 300 * time.Millisecond, hung: new(atomic.Bool),
				report: func(db, key string, limit time.Duration) {
					warns = append(warns, HangMessage(db, key, limit, quote))
				}}
			start := time.Now()
			if tt.ask(g) {
				t.Error("a getent that hangs answered")
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the lookup took %v, with a limit of 300ms", d)
			}
			if len(warns) != 1 || warns[0] != tt.want {
				t.Errorf("warnings %q, want %q", warns, tt.want)
			}
			// Not asked again, even what it would answer.
			if _, ok := g.UserID("alice"); ok {
				t.Error("the name service was asked again after it hung")
			}
			log, _ := os.ReadFile(prog + ".log")
			if n := strings.Count(string(log), "\n"); n != 1 {
				t.Errorf("getent ran %d times: %q", n, log)
			}
			if len(warns) != 1 {
				t.Errorf("warnings %q, want one", warns)
			}
		})
	}
}

// quote is output.StyleC's quoting of the keys in these tests.
func quote(s string) string { return "'" + s + "'" }
