package output

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// sameScreen returns a Diag and a Sink writing to one file, as standard
// error and standard output on one terminal, and the file's contents.
func sameScreen(t *testing.T, tty bool) (*Diag, *Sink, func() string) {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "screen"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	d := NewDiagStyle("gfind", f, StyleC)
	s := NewSink(f, d, WithTTY(tty))
	return d, s, func() string {
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

// TestStatusLine checks what the Diag writes of a status line around
// everything else that reaches the screen.
func TestStatusLine(t *testing.T) {
	const draw, erase = "\rS\033[K", "\r\033[K"
	tests := []struct {
		name string
		tty  bool // the Sink writes to the same terminal
		do   func(t *testing.T, d *Diag, s *Sink)
		want string
	}{
		{"redrawn in place", true, func(t *testing.T, d *Diag, s *Sink) {
			d.DrawStatus([]byte("S"))
			d.DrawStatus([]byte("S"))
		}, draw + draw},
		{"erased before a diagnostic", true, func(t *testing.T, d *Diag, s *Sink) {
			d.DrawStatus([]byte("S"))
			d.Errorf("x")
			d.Warnf("y")
		}, draw + erase + "gfind: x\ngfind: warning: y\n"},
		{"nothing to erase", true, func(t *testing.T, d *Diag, s *Sink) {
			d.StartStatus()
			d.Errorf("x")
			d.EraseStatus()
			s.NewBuffer().Print([]byte("p"), '\n')
		}, "gfind: x\np\n"},
		{"erased once", true, func(t *testing.T, d *Diag, s *Sink) {
			d.DrawStatus([]byte("S"))
			d.EraseStatus()
			d.EraseStatusNow()
			d.EraseStatus()
		}, draw + erase},
		{"erased before a record on the terminal", true, func(t *testing.T, d *Diag, s *Sink) {
			d.StartStatus()
			d.DrawStatus([]byte("S"))
			s.NewBuffer().Print([]byte("p"), '\n')
			d.DrawStatus([]byte("S"))
		}, draw + erase + "p\n" + draw},
		{"a Sink off the terminal leaves it", false, func(t *testing.T, d *Diag, s *Sink) {
			d.StartStatus()
			d.DrawStatus([]byte("S"))
			b := s.NewBuffer()
			b.Print([]byte("p"), '\n')
			b.Flush()
		}, draw + "p\n"},
		{"erased by Hold, not drawn while held", true, func(t *testing.T, d *Diag, s *Sink) {
			d.DrawStatus([]byte("S"))
			w, release := d.Hold()
			if d.DrawStatus([]byte("S")) {
				t.Error("DrawStatus drew while the Diag was held")
			}
			fmt.Fprint(w, "rm p? ")
			release()
		}, draw + erase + "rm p? "},
		{"not drawn during a terminal write", true, func(t *testing.T, d *Diag, s *Sink) {
			d.StartStatus()
			d.beginTTYWrite()
			if d.DrawStatus([]byte("S")) {
				t.Error("DrawStatus drew during a terminal write")
			}
			d.endTTYWrite()
			if !d.DrawStatus([]byte("S")) {
				t.Error("DrawStatus did not draw after the write")
			}
		}, draw},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, s, contents := sameScreen(t, tt.tty)
			tt.do(t, d, s)
			if got := contents(); got != tt.want {
				t.Errorf("screen got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestStatusLineConcurrent draws the line while workers print records to
// the same terminal and report diagnostics: nothing may ever follow a
// drawn line on its row but the "\r" of its erasing or of a redraw.
func TestStatusLineConcurrent(t *testing.T) {
	d, s, contents := sameScreen(t, true)
	d.StartStatus()
	const workers, each = 4, 2000
	var wg sync.WaitGroup
	done := make(chan struct{})
	drawer := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-done:
				drawer <- n
				return
			default:
				if d.DrawStatus([]byte("STATUS")) {
					n++
				}
			}
		}
	}()
	for w := range workers {
		wg.Go(func() {
			b := s.NewBuffer()
			for i := range each {
				if i%100 == 0 {
					d.Notef("note %d %d", w, i)
				}
				b.Print(fmt.Appendf(nil, "r%d-%d", w, i), '\n')
			}
		})
	}
	wg.Wait()
	close(done)
	draws := <-drawer
	d.EraseStatus()
	got := contents()
	const line = "\rSTATUS\033[K"
	if n := strings.Count(got, line); n != draws {
		t.Errorf("%d lines drawn, %d reported", n, draws)
	}
	for rest := got; ; {
		i := strings.Index(rest, line)
		if i < 0 {
			break
		}
		rest = rest[i+len(line):]
		if !strings.HasPrefix(rest, "\r") {
			t.Fatalf("the status line is followed by %q", rest[:min(len(rest), 20)])
		}
	}
	clean := strings.ReplaceAll(strings.ReplaceAll(got, line, ""), "\r\033[K", "")
	if n := strings.Count(clean, "\n"); n != workers*each+workers*each/100 {
		t.Errorf("%d lines besides the status line, want %d", n, workers*each+workers*each/100)
	}
}
