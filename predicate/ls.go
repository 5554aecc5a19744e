package predicate

import (
	"os"

	"github.com/gfind/gfind/internal/listfile"
	"github.com/gfind/gfind/internal/lscolors"
	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

// lsNode is -ls and -fls FILE: one line per file in the layout of GNU
// find 4.9's list_file (lib/listfile.c), which is that of ls -dils
// (internal/listfile formats the fields and escapes the names):
//
//	11118975      4 -rw-r--r--   1 root     root         3000 Mar  4  2021 ./a\ b -> c
//
// then "-> target" for a symbolic link. The columns widen for the rest
// of the run when a value does not fit, and every -ls and -fls shares
// one listfile.Widths, as GNU's statics are shared.
type lsNode struct {
	op, name  string // name: -fls's file as given
	file      *outFile
	now       int64 // the start of the run, for the recent-file rule
	blockSize int64 // 1024, or 512 under POSIXLY_CORRECT
	w         *listfile.Widths
	color     *colorizer // -ls on standard output with colors on (color.go)
}

func (n *lsNode) Eval(e *walker.Entry, s *State) bool {
	if !s.act() {
		return false
	}
	st, ok := s.stat(e)
	if !ok {
		return false
	}
	b, _ := s.out(n.file)
	b.Write(n.appendLine(b.AvailableBuffer(), e, st, s))
	endRecord(b, n.file, false)
	return true
}

// appendLine appends the -ls line of e.
func (n *lsNode) appendLine(dst []byte, e *walker.Entry, st *unix.Stat_t, s *State) []byte {
	// Colored, bfs writes the fields before the name in the "no"
	// color, when it is set.
	var normal []byte
	if n.color != nil {
		normal = n.color.c.Color(lscolors.IndNormal)
	}
	dst = append(dst, normal...)
	dst = n.w.AppendFields(dst, st, systemIDs(), n.now, n.blockSize)
	if normal != nil {
		dst = append(dst, n.color.reset...)
	}
	dst = append(dst, ' ')

	esc := listfile.AppendName
	if n.color != nil && !s.Out.TTY() {
		// Colored through a pipe, names are written as -print writes
		// them colored (bfs); on a terminal -ls keeps GNU's escapes.
		esc = s.Out.ColorEscape()
	}
	if n.color != nil {
		dst = n.color.appendPath(dst, e, s, esc)
	} else {
		dst = listfile.AppendName(dst, e.Path)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		if target, err := e.Readlink(); err == nil {
			dst = append(dst, " -> "...)
			if n.color != nil {
				dst = n.color.appendTarget(dst, e, target, esc)
			} else {
				dst = listfile.AppendName(dst, target)
			}
		} else {
			// GNU's error (0, errno, "%s", name): the path unquoted,
			// and the exit status is left alone.
			s.Diag.Notef("%s: %s", e.Path, output.Strerror(err))
		}
	}
	return append(dst, '\n')
}

func (n *lsNode) Facts() Facts {
	return Facts{Effects: outEffect(n.file) | EffectOrder, Cost: costPrint + costStat, Prob: 1}
}

func (n *lsNode) Args() []string {
	if n.op == "-fls" {
		return []string{n.op, n.name}
	}
	return []string{n.op}
}

func (n *lsNode) outputFile() *outFile { return n.file }

func parseLs(p *parser, op string, v variant) error {
	n := &lsNode{op: op, now: p.cfg.Now.Unix(), blockSize: 1024}
	if _, posix := os.LookupEnv("POSIXLY_CORRECT"); posix {
		n.blockSize = 512
	}
	if v&toFile != 0 {
		name, err := p.arg(op)
		if err != nil {
			return err
		}
		if n.file, err = p.openOutput(name); err != nil {
			return err
		}
		n.name = name
	}
	// The widths are shared by every -ls and -fls, as GNU's statics are.
	for _, t := range p.toks {
		if ls, ok := t.node.(*lsNode); ok {
			n.w = ls.w
			break
		}
	}
	if n.w == nil {
		n.w = listfile.NewWidths()
	}
	p.push(n)
	return nil
}
