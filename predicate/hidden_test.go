package predicate

import (
	"fmt"
	"sync"
	"testing"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

func TestHidden(t *testing.T) {
	n := parseOne(t, "-hidden")
	s := newTestState()
	for _, c := range []struct {
		path  string
		depth int
		want  bool
	}{
		{"./.git", 1, true},
		{"./a/.x", 2, true},
		{"./a/x.", 2, false},
		{"./a", 1, false},
		{"./..x", 1, true},
		// Starting points: their last component, trailing slashes off;
		// "." and ".." are never hidden.
		{".", 0, false},
		{"..", 0, false},
		{"./", 0, false},
		{"../", 0, false},
		{"a/.", 0, false},
		{"a/..", 0, false},
		{".git", 0, true},
		{".git/", 0, true},
		{"a/.git//", 0, true},
		{"./.git", 0, true},
		{"...", 0, true},
		{"/", 0, false},
		{"a", 0, false},
	} {
		e := walker.Synthetic(c.path, c.depth, walker.TypeDir, nil, nil)
		if got := n.Eval(e, s); got != c.want {
			t.Errorf("-hidden on %q (depth %d) = %v, want %v", c.path, c.depth, got, c.want)
		}
	}
}

// TestNohidden checks -nohidden: true where it stands, and an exclusion
// of hidden files below the starting points, with -exclude's.
func TestNohidden(t *testing.T) {
	states := []*State{newTestState()}
	for _, c := range []struct {
		args  string
		path  string
		depth int
		want  bool
	}{
		{"-nohidden", "./.git", 1, true},
		{"-nohidden", "./a/.x", 2, true},
		{"-nohidden", "./a", 1, false},
		{"-nohidden", ".git", 0, false}, // a starting point is walked
		{"-nohidden", ".", 0, false},
		{"-nohidden -exclude -name a", "./a", 1, true},
		{"-exclude -name a -nohidden", "./.b", 1, true},
		{"-exclude -name a -nohidden", "./b", 1, false},
		{"-nohidden -o -print", "./.b", 1, true},
	} {
		cmd, err := Parse(append([]string{"."}, parseArgs(c.args)...), Config{})
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.args, err)
		}
		f := cmd.ExcludeFunc(states, 2)
		if f == nil {
			t.Fatalf("%s: no exclusion", c.args)
		}
		e := walker.Synthetic(c.path, c.depth, walker.TypeDir, nil, nil)
		if got := f(e); got != c.want {
			t.Errorf("%s: %q (depth %d) excluded = %v, want %v", c.args, c.path, c.depth, got, c.want)
		}
	}
	// An option, always true where it stands.
	s := newTestState()
	cmd, err := Parse([]string{".", "-nohidden", "-print"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if !cmd.Expr.Eval(walker.Synthetic("./a", 1, walker.TypeRegular, nil, nil), s) || s.printed() == 0 {
		t.Errorf("-nohidden -print did not print")
	}
	// Without it, no exclusion at all.
	cmd, err = Parse([]string{".", "-hidden"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if cmd.ExcludeFunc(states, 2) != nil {
		t.Errorf("-hidden made an exclusion")
	}
}

func stAt(dev, ino uint64) *unix.Stat_t {
	st := &unix.Stat_t{Ino: ino, Mode: unix.S_IFREG}
	setStat(&st.Dev, dev)
	return st
}

// TestUnique checks -unique's exclusion: the first file met with a
// device and inode is kept, every later one skipped, before -exclude.
func TestUnique(t *testing.T) {
	cmd, err := Parse([]string{".", "-unique", "-exclude", "-name", "x"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if !cmd.Unique {
		t.Fatal("-unique not set")
	}
	f := cmd.ExcludeFunc([]*State{newTestState()}, 2)
	for i, c := range []struct {
		path     string
		dev, ino uint64
		want     bool
	}{
		{"./a", 1, 10, false},
		{"./b", 1, 10, true},  // a hard link to a
		{"./c", 2, 10, false}, // another device
		{"./x", 1, 11, true},  // -exclude, yet seen: so is the next one
		{"./y", 1, 11, true},
		{"./a", 1, 10, true},
	} {
		e := walker.Synthetic(c.path, 1, walker.TypeRegular, stAt(c.dev, c.ino), nil)
		if got := f(e); got != c.want {
			t.Errorf("%d: %s (%d, %d) excluded = %v, want %v", i, c.path, c.dev, c.ino, got, c.want)
		}
	}
	// Each Command has its own set.
	cmd2, err := Parse([]string{".", "-unique"}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	f2 := cmd2.ExcludeFunc([]*State{newTestState()}, 2)
	if f2(walker.Synthetic("./a", 1, walker.TypeRegular, stAt(1, 10), nil)) {
		t.Errorf("a second command's first file was seen before")
	}
	if cmd2.OutputOnly() {
		t.Errorf("-unique: OutputOnly, so -s would keep whichever path a worker met first")
	}
}

// TestSeenSetConcurrent has workers add overlapping keys at once: each
// key is new to exactly one of them (run with -race).
func TestSeenSetConcurrent(t *testing.T) {
	var set seenSet
	const workers, keys = 8, 5000
	var wg sync.WaitGroup
	counts := make([][]int, workers)
	for w := range workers {
		counts[w] = make([]int, keys)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range keys {
				k := (i*7 + w*13) % keys // each worker in its own order
				if set.add(fileKey{dev: uint64(k % 3), ino: uint64(k)}) {
					counts[w][k]++
				}
			}
		}()
	}
	wg.Wait()
	for k := range keys {
		n := 0
		for w := range workers {
			n += counts[w][k]
		}
		if n != 1 {
			t.Fatalf("key %d new to %d workers, want 1", k, n)
		}
	}
}

func BenchmarkSeenSet(b *testing.B) {
	for _, par := range []int{1, 4} {
		b.Run(fmt.Sprint("p", par), func(b *testing.B) {
			var set seenSet
			var next sync.Mutex
			ino := uint64(0)
			b.SetParallelism(par)
			b.RunParallel(func(pb *testing.PB) {
				next.Lock()
				base := ino
				ino += 1 << 40
				next.Unlock()
				for i := uint64(0); pb.Next(); i++ {
					set.add(fileKey{dev: 1, ino: base + i})
				}
			})
		})
	}
}
