package die

import (
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"testing"
)

// helperEnv, set to a signal number, makes the test binary a child that
// dies of that signal (TestMain); "notify:N" first has the Go runtime
// catch it with signal.Notify, as gfind's handlers do.
const helperEnv = "DIE_TEST_HELPER"

func TestMain(m *testing.M) {
	if v, ok := os.LookupEnv(helperEnv); ok {
		child(v)
	}
	os.Exit(m.Run())
}

func child(v string) {
	notify := false
	if len(v) > 7 && v[:7] == "notify:" {
		notify, v = true, v[7:]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		os.Exit(3)
	}
	sig := syscall.Signal(n)
	if notify {
		signal.Notify(make(chan os.Signal, 1), sig)
	}
	Of(sig)
	os.Exit(4) // not reached
}

// TestOf checks that the parent sees the child killed by the signal:
// SIGPIPE, which the runtime ignores unless a write to descriptor 1 or 2
// caused it, and the signals gfind catches with signal.Notify before it
// dies of them.
func TestOf(t *testing.T) {
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
		v := strconv.Itoa(int(tt.sig))
		if tt.notify {
			v = "notify:" + v
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
