package predicate

import (
	"sync"

	"github.com/gfind/gfind/internal/mounts"
	"github.com/gfind/gfind/internal/printf"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// printfNode is -printf FORMAT and -fprintf FILE FORMAT. The format is
// compiled once, at parse time (printf.Compile); evaluating runs
// its directives into the worker's Buffer as one record.
type printfNode struct {
	op, name string // name: -fprintf's file as given
	file     *outFile
	format   *printf.Format

	// env is completed by the first evaluation with what the parser does
	// not know: the final -H/-L/-P mode (-follow may come later) and the
	// Diag's style and reports. It is read-only afterwards.
	envOnce sync.Once
	env     printf.Env
}

func (n *printfNode) Eval(e *walker.Entry, s *State) bool {
	if !s.act() {
		return false
	}
	n.envOnce.Do(func() {
		n.env.Follow = s.follow
		n.env.Report = reportPrintf(s.Diag)
		n.env.Style = s.Diag.Style()
	})
	var st *unix.Stat_t
	if n.format.NeedsStat() || (n.format.NeedsType() && e.Type == walker.TypeUnknown) ||
		(n.format.NeedsLinkStatus() && e.Type == walker.TypeSymlink) || (n.format.NeedsIno() && !direntIno(e)) {
		var ok bool
		if st, ok = s.stat(e); !ok {
			return false // GNU: no status, no output, and false
		}
	}
	b, tty := s.out(n.file)
	out, err := n.format.Append(b.AvailableBuffer(), e, st, &n.env, tty)
	b.Write(out)
	if err != nil {
		// glibc's printf refused a width or precision above INT_MAX.
		s.Diag.FileError([]byte(n.destName()), err)
	}
	endRecord(b, n.file, n.format.Flush())
	return true
}

// destName is how GNU names the destination in a write error.
func (n *printfNode) destName() string {
	switch {
	case n.file == nil || n.file.id < 0:
		return "standard output"
	case n.file.stderr:
		return "standard error"
	}
	return n.name
}

func (n *printfNode) Facts() Facts {
	f := Facts{Effects: outEffect(n.file), Cost: costPrint, Prob: 1}
	if n.format.NeedsStat() || n.format.NeedsIno() {
		// An inode number comes without a stat below the starting
		// points, mostly; the optimizer counts it as GNU counts
		// need_inum, a stat.
		f.Cost += costStat
	}
	return f
}

func (n *printfNode) Args() []string {
	if n.op == "-fprintf" {
		return []string{n.op, n.name, n.format.String()}
	}
	return []string{n.op, n.format.String()}
}

func (n *printfNode) outputFile() *outFile { return n.file }

func parsePrintf(p *parser, op string, v variant) error {
	n := &printfNode{op: op}
	if v&toFile != 0 {
		name, err := p.arg(op)
		if err != nil {
			return err
		}
		if p.i >= len(p.args) {
			// GNU collects both arguments before opening the file.
			return p.errorf("invalid argument `%s' to `%s'", name, op)
		}
		if n.file, err = p.openOutput(name); err != nil {
			return err
		}
		n.name = name
	}
	format, err := p.arg(op)
	if err != nil {
		return err
	}
	f, warns, err := printf.Compile(format)
	for _, w := range warns {
		p.cfg.Warn(w) // always: GNU does not make these depend on -warn
	}
	if err != nil {
		return p.errorf("%s", err)
	}
	n.format = f
	names := systemIDs()
	n.env = printf.Env{
		Roots:  p.roots,
		User:   names.User,
		Group:  names.Group,
		FSType: fsTypeName,
	}
	p.push(n)
	return nil
}

// reportPrintf words and counts what -printf could not read of a file
// as GNU 4.9 does (printf.Failure).
func reportPrintf(d *output.Diag) func(printf.Failure, []byte, error) {
	return func(f printf.Failure, path []byte, err error) {
		switch f {
		case printf.ReadlinkFailed:
			d.FileError(path, err)
		case printf.GetfileconFailed:
			d.Errorf("getfilecon failed: %s: %s", d.Quote(string(path)), output.Strerror(err))
		case printf.TargetStatFailed:
			d.Notef("%s: %s", d.Quote(string(path)), output.Strerror(err))
		}
	}
}

// fsTypeName is %F: the type of the file system holding the file, from
// the mount table (internal/mounts).
func fsTypeName(e *walker.Entry, st *unix.Stat_t) string {
	return mounts.System().Type(uint64(st.Dev))
}
