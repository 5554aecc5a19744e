package die

import (
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// helperEnv makes the test binary a child that dies of a signal
// (TestMain): "of:N" calls Of(N), "runtime:N" calls viaRuntime(N), and
// ":notify" after either first has the Go runtime catch the signal with
// signal.Notify, as gfind's handlers do.
const helperEnv = "DIE_TEST_HELPER"

func TestMain(m *testing.M) {
	if v, ok := os.LookupEnv(helperEnv); ok {
		child(v)
	}
	os.Exit(m.Run())
}

func child(v string) {
	fn, rest, _ := strings.Cut(v, ":")
	num, notify := strings.CutSuffix(rest, ":notify")
	n, err := strconv.Atoi(num)
	if err != nil {
		os.Exit(3)
	}
	sig := syscall.Signal(n)
	if notify {
		signal.Notify(make(chan os.Signal, 1), sig)
	}
	switch fn {
	case "of":
		Of(sig)
	case "runtime":
		viaRuntime(sig)
	}
	os.Exit(4) // not reached
}

// TestOf checks that the parent sees the child killed by the signal:
// SIGPIPE, which the runtime ignores unless a write to descriptor 1 or 2
// caused it, and the signals gfind catches with signal.Notify before it
// dies of them. viaRuntime, which is Of off Linux, runs here too.
func TestOf(t *testing.T) {
	for _, fn := range []string{"of", "runtime"} {
		for _, tt := range []struct {
			sig    syscall.Signal
			notify bool
		}{
			{syscall.SIGPIPE, false},
			{syscall.SIGPIPE, true},
			{syscall.SIGINT, true},
			{syscall.SIGTERM, true},
			{syscall.SIGHUP, true},
			{syscall.SIGTERM, false},
		} {
			v := fn + ":" + strconv.Itoa(int(tt.sig))
			if tt.notify {
				v += ":notify"
			}
			t.Run(v, func(t *testing.T) {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), helperEnv+"="+v)
				err := cmd.Run()
				ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
				if !ok || !ws.Signaled() || ws.Signal() != tt.sig {
					t.Fatalf("child ended with %v (%v), want killed by %v", cmd.ProcessState, err, tt.sig)
				}
			})
		}
	}
}
