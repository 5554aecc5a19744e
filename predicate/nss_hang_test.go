package predicate

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gfind/gfind/internal/accounts"
	"github.com/gfind/gfind/output"
)

// hangingGetent stands for a getent whose NSS module hangs on some keys
// ("hang", uid 666) and answers others at once (as in internal/accounts'
// tests).
const hangingGetent = `#!/bin/sh
printf '%s|' "$@" >>"$0.log"; echo >>"$0.log"
case "$3" in
hang|666) exec sleep 60 ;;
alice) echo 'alice:x:4242:4343::/:' ;;
*) exit 2 ;;
esac
`

// TestGetentTimeoutParse: -user NAME whose lookup hangs fails as for an
// unknown user, after the warning, through Config.Warn (accounts.SetReport).
func TestGetentTimeoutParse(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "getent")
	if err := os.WriteFile(prog, []byte(hangingGetent), 0o755); err != nil {
		t.Fatal(err)
	}
	withTestNS(t, accounts.Getent(prog, 300*time.Millisecond))
	var warns []string
	_, err := Parse([]string{".", "-user", "hang"}, Config{Quote: output.StyleC.Quote, Warn: func(s string) { warns = append(warns, s) }})
	if err == nil || err.Error() != "invalid user name or UID argument to -user: 'hang'" {
		t.Errorf("Parse: %v", err)
	}
	want := "getent passwd 'hang' did not answer within 300ms: taken as unknown, and the name service is not asked again"
	if len(warns) != 1 || warns[0] != want {
		t.Errorf("warnings %q, want %q", warns, want)
	}
}
