package main

import (
	"testing"
	"time"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// TestFormatStatus checks the status line's text and how it is cut to
// the terminal's width: never more than width-1 columns, the directory
// escaped as -print escapes names on a terminal and cut from the left.
func TestFormatStatus(t *testing.T) {
	base := sample{dirs: 10, files: 90, matches: 7}
	with := func(dir string) sample { s := base; s.dir = []byte(dir); return s }
	counts := "100 entries, 10 directories, 7 matches, 50/s, 0:02" // 50 columns
	tests := []struct {
		name    string
		s       sample
		elapsed time.Duration
		width   int
		style   output.Style
		want    string
	}{
		{"no dir yet", base, 2 * time.Second, 100, output.StyleUTF8, counts},
		{"dir fits", with("src/a/b"), 2 * time.Second, 100, output.StyleUTF8, counts + " src/a/b"},
		{"dir fills the row less one", with("src/a/b"), 2 * time.Second, 59, output.StyleUTF8, counts + " src/a/b"},
		{"dir cut from the left", with("src/a/b"), 2 * time.Second, 58, output.StyleUTF8, counts + " …/a/b"},
		{"dir cut, C locale", with("src/a/bc"), 2 * time.Second, 58, output.StyleC, counts + " .../bc"},
		{"no room for a dir", with("src/a/b"), 2 * time.Second, 53, output.StyleUTF8, counts},
		{"counts cut", with("src"), 2 * time.Second, 21, output.StyleUTF8, "100 entries, 10 direc"[:20]},
		{"width 1", with("src"), 2 * time.Second, 1, output.StyleUTF8, ""},
		{"width 0", with("src"), 2 * time.Second, 0, output.StyleUTF8, ""},
		{"newline in a name", with("src/a\nb"), 2 * time.Second, 100, output.StyleUTF8, counts + " src/a?b"},
		{"invalid UTF-8", with("src/\xff"), 2 * time.Second, 100, output.StyleUTF8, counts + " src/?"},
		{"escape in a name", with("x/\033[2J"), 2 * time.Second, 100, output.StyleUTF8, counts + " x/?[2J"},
		{"UTF-8 kept", with("été"), 2 * time.Second, 100, output.StyleUTF8, counts + " été"},
		{"UTF-8 in the C locale", with("été"), 2 * time.Second, 100, output.StyleC, counts + " ??t??"},
		// Wide characters count two columns: 6 columns of room, less
		// the ellipsis, hold two of them.
		{"wide characters", with("日本語の"), 2 * time.Second, 58, output.StyleUTF8, counts + " …語の"},
		{"no time yet", base, 0, 100, output.StyleUTF8, "100 entries, 10 directories, 7 matches, 0/s, 0:00"},
		{"an hour", base, time.Hour + 62*time.Second, 100, output.StyleUTF8, "100 entries, 10 directories, 7 matches, 0/s, 1:01:02"},
	}
	for _, tt := range tests {
		got := string(formatStatus(tt.s, tt.elapsed, tt.width, tt.style))
		if got != tt.want {
			t.Errorf("%s: formatStatus(width %d) = %q, want %q", tt.name, tt.width, got, tt.want)
		}
		if c := columns([]byte(got)); tt.width > 0 && c > tt.width-1 {
			t.Errorf("%s: %d columns for a width of %d", tt.name, c, tt.width)
		}
	}
}

// BenchmarkStatusVisit measures what a visit costs under each of the
// three ways the visit function is wrapped: not at all, for --stats,
// and for the status line (with its sampler running): ns/op is per
// visit, of one Entry over and over, so that the file system is out of
// it. Compare with a walk's time per entry (bench/status.sh).
func BenchmarkStatusVisit(b *testing.B) {
	e := walker.Synthetic("src/a/b.go", 2, walker.TypeRegular, &unix.Stat_t{Mode: unix.S_IFREG}, nil)
	noop := func(*walker.Entry) walker.Action { return walker.Continue }
	for _, mode := range []string{"off", "stats", "status"} {
		b.Run(mode, func(b *testing.B) {
			visit := noop
			var st *runStats
			switch mode {
			case "stats":
				st = startStats(true, false)
			case "status":
				st = startStats(false, true)
				st.matches = func(int) int64 { return 0 }
			}
			visit = st.wrap(1, walker.FollowNever, noop)
			if mode == "status" {
				quit := make(chan struct{})
				defer close(quit)
				go func() {
					tick := time.NewTicker(statusInterval)
					defer tick.Stop()
					for {
						select {
						case <-quit:
							return
						case <-tick.C:
							st.sample()
						}
					}
				}()
			}
			b.ResetTimer()
			for range b.N {
				visit(e)
			}
		})
	}
}
