package predicate

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// benchState returns a State for expression args whose output goes to
// /dev/null, and a function closing it.
func benchState(b *testing.B, args string) (*State, Node, func()) {
	b.Helper()
	cmd, err := Parse(append([]string{"."}, strings.Fields(args)...), Config{})
	if err != nil {
		b.Fatal(err)
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	diag := output.NewDiag("gfind", io.Discard)
	sink := output.NewSink(null, diag)
	s := NewState(cmd, sink, diag)
	return s, Optimize(cmd.Expr, 2), func() {
		s.Done()
		cmd.Close()
		sink.Close() // and null
	}
}

// BenchmarkEval evaluates expressions on synthetic entries (no file
// system): the evaluator's own cost per entry, which must allocate
// nothing.
func BenchmarkEval(b *testing.B) {
	st := &unix.Stat_t{Mode: unix.S_IFREG | 0o644, Size: 1234, Nlink: 1}
	files := []*walker.Entry{
		walker.Synthetic("./src/pkg/module/file_0001.go", 4, walker.TypeRegular, st, nil),
		walker.Synthetic("./src/pkg/module/server.log", 4, walker.TypeRegular, st, nil),
		walker.Synthetic("./src/pkg/module/sub", 4, walker.TypeDir, &unix.Stat_t{Mode: unix.S_IFDIR | 0o755}, nil),
		// Owned by ids no account database knows: the name service is
		// asked once per id, and then the cache answers.
		walker.Synthetic("./src/pkg/module/unknown", 4, walker.TypeRegular, &unix.Stat_t{Mode: unix.S_IFREG | 0o600, Uid: 4242, Gid: 4343}, nil),
	}
	for _, expr := range []string{
		"-print",
		"-name *.log",
		"-type f -name *.go -print",
		"-name .git -prune -o -type f -print0",
		"-type f -size +1k",
		"-path */module/* -printf %p\\t%s\\n",
		"-printf %u:%g\\n",
		"-nouser",
		"-ls",
	} {
		b.Run(strings.ReplaceAll(expr, " ", "_"), func(b *testing.B) {
			s, node, done := benchState(b, expr)
			defer done()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				s.Visit(node, files[i%len(files)])
			}
		})
	}
}

// BenchmarkWalkPrint is the whole walk-and-print path on a real tree
// (-benchdir, default GOROOT): walker, evaluator and output, one State
// per worker as cmd/gfind wires them, output to /dev/null. allocs/op
// divided by entries/op must stay at 0.00 (a few allocations per walk
// for the workers, none per entry). The sort=true rows are -s, with
// output.Reorder as cmd/gfind wires it for 2 workers.
func BenchmarkWalkPrint(b *testing.B) {
	root := os.Getenv("GFIND_BENCH_DIR")
	if root == "" {
		root = runtime.GOROOT()
	}
	for _, c := range []struct {
		expr string
		sort bool
	}{{"-print", false}, {"-name *.go", false}, {"-type f -size +0", false}, {"-ls", false}, {"-print", true}, {"-type f -size +0", true}} {
		expr := c.expr
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/sort=%v/workers=%d", strings.ReplaceAll(expr, " ", "_"), c.sort, workers), func(b *testing.B) {
				cmd, err := Parse(append([]string{root}, strings.Fields(expr)...), Config{})
				if err != nil {
					b.Fatal(err)
				}
				diag := output.NewDiag("gfind", io.Discard)
				node := Optimize(cmd.Expr, 2)
				var entries atomic.Int64
				b.ReportAllocs()
				for b.Loop() {
					null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
					if err != nil {
						b.Fatal(err)
					}
					sink := output.NewSink(null, diag) // Close closes null
					states := make([]*State, workers)
					for i := range states {
						states[i] = NewState(cmd, sink, diag)
					}
					opt := cmd.Walk
					opt.Workers = workers
					opt.Sort = c.sort
					if reorders(opt, sink.TTY(), cmd.OutputOnly()) {
						bufs := make([]*output.Buffer, workers)
						for i, s := range states {
							bufs[i] = s.Out
						}
						opt.Ordered = output.NewReorder(bufs)
					}
					err = walker.Walk(cmd.Roots, opt, func(e *walker.Entry) walker.Action {
						entries.Add(1)
						return states[e.Worker].Visit(node, e)
					})
					if err != nil {
						b.Fatal(err)
					}
					for _, s := range states {
						s.Done()
					}
					sink.Close()
				}
				b.ReportMetric(float64(entries.Load())/float64(b.N), "entries/op")
			})
		}
	}
}

// BenchmarkParse parses and optimizes typical command lines: the parse
// table's lookup is on this path once per primary.
func BenchmarkParse(b *testing.B) {
	for _, args := range []string{
		". -name *.go -print",
		". -type f ( -name *.c -o -name *.h ) -newer bench_test.go -size +1k -mtime -7 -print0",
		". -maxdepth 3 -user root -perm -u+x -o -ls -o -printf %p\\n -o -regex .*x -o -prune",
	} {
		b.Run(strings.ReplaceAll(args, " ", "_"), func(b *testing.B) {
			argv := strings.Fields(args)
			b.ReportAllocs()
			for b.Loop() {
				cmd, err := Parse(argv, Config{})
				if err != nil {
					b.Fatal(err)
				}
				Optimize(cmd.Expr, 2)
			}
		})
	}
}

// BenchmarkLookup finds primaries in the parse table, as buildList does
// for each argument.
func BenchmarkLookup(b *testing.B) {
	args := []string{"-name", "-type", "-print", "-newermt", "-o", "(", "-exec", "-maxdepth", "-nosuch"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		lookup(args[i%len(args)])
	}
}
