package predicate

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/gfind/gfind/output"
)

// parseFiles0From is -files0-from FILE. GNU's parse_files0_from inserts
// no predicate, unlike the other options (which are tests that are always
// true): buildList adds nothing to the expression for it.
func parseFiles0From(p *parser, op string, _ variant) (err error) {
	p.files0, err = p.arg(op)
	p.hasFiles0 = err == nil
	return err
}

// A rootList reads -files0-from's list one name at a time, as GNU's
// argv_iter does: a name is read only when the walk wants the next
// starting point, so what is wrong with a name is reported in its place
// in the walk, and after -quit the rest is never read.
type rootList struct {
	r     *bufio.Reader
	f     *os.File // nil for standard input
	shown string   // the list's name for messages, quoted
	n     int      // names read
	err   bool     // a read failed: no more names
	// refuse, when set, says why a starting point may not be walked
	// (checkPreserveRoot), as a message and a hint.
	refuse func(root string) *ParseError
}

// openRootList opens the list -files0-from names ("-" is standard
// input), or returns GNU's error. GNU opens the list once the whole
// command line has been parsed, and reads it as it walks.
func (p *parser) openRootList() (*rootList, error) {
	// -ok and -okdir read their answers from standard input, so the list
	// may not be read from it too (GNU's options.ok_prompt_stdin).
	ok := p.promptsStdin()
	if p.files0 == "-" {
		if ok {
			return nil, p.errorf("when -ok or -okdir is in use, the option -files0-from cannot also read from standard input")
		}
		// GNU names standard input "(standard input)" in its messages.
		return &rootList{r: bufio.NewReader(os.Stdin), shown: p.quote("(standard input)")}, nil
	}
	f, err := os.Open(p.files0)
	if err != nil {
		return nil, p.errorf("cannot open %s for reading: %s", p.quote(p.files0), output.Strerror(unwrapPathError(err)))
	}
	if ok && sameAsStdin(f) {
		// The list is standard input under another name: /dev/stdin,
		// or the file standard input is redirected from, by any of its
		// names. GNU compares the two open files' device and inode.
		f.Close()
		return nil, p.errorf("when -ok or -okdir is in use, the option -files0-from cannot also read from standard input, but the file (%s) used for -files0-from appears to refer to the same file as the standard input", p.quote(p.files0))
	}
	return &rootList{r: bufio.NewReader(f), f: f, shown: p.quote(p.files0)}, nil
}

// promptsStdin reports whether the expression has -ok or -okdir.
func (p *parser) promptsStdin() bool {
	for _, t := range p.toks {
		if t.node == nil {
			continue
		}
		if a := t.node.Args(); len(a) > 0 && (a[0] == "-ok" || a[0] == "-okdir") {
			return true
		}
	}
	return false
}

// sameAsStdin reports whether f is the file open on standard input
// (fstat of both: device and inode). A standard input that cannot be
// examined is not the list, as in GNU.
func sameAsStdin(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	in, err := os.Stdin.Stat()
	return err == nil && os.SameFile(fi, in)
}

// next returns the next starting point. An empty name is not one: it
// is reported ("'list':2: invalid zero-length file name", with its
// record number) and skipped. A read error is reported and ends the
// list.
func (l *rootList) next(d *output.Diag) (string, bool) {
	for !l.err {
		name, err := l.r.ReadBytes(0)
		if err != nil && err != io.EOF {
			d.Errorf("%s: read error: %s", l.shown, output.Strerror(unwrapPathError(err)))
			l.err = true
			return "", false
		}
		if err == io.EOF && len(name) == 0 {
			return "", false // a last name without its NUL was read already
		}
		l.n++
		name = bytes.TrimSuffix(name, []byte{0})
		if len(name) == 0 {
			// A starting point that cannot be there, which bfs's -noerror
			// hides as it hides a missing one.
			d.FileErrorf("%s:%d: invalid zero-length file name", d.ListName(l.shown), l.n)
			continue
		}
		root := string(name)
		if l.refuse != nil {
			if pe := l.refuse(root); pe != nil {
				d.Errorf("%s", pe.Msg)
				d.Errorf("%s", pe.Hint)
				l.err = true
				return "", false
			}
		}
		return root, true
	}
	return "", false
}

func (l *rootList) close() error {
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// NextRoot returns the function the walk takes its starting points
// from (walker.WalkNext): the command line's, or one at a time from
// -files0-from's list, reporting what is wrong with the list (an empty
// name, a read error) to d.
func (c *Command) NextRoot(d *output.Diag) func() (string, bool) {
	if c.list != nil {
		return func() (string, bool) { return c.list.next(d) }
	}
	i := 0
	return func() (string, bool) {
		if i >= len(c.Roots) {
			return "", false
		}
		i++
		return c.Roots[i-1], true
	}
}

// startingPoints returns the starting points on the command line, or
// "." when there are none; with -files0-from, none, and the list to
// read them from (command-line operands are then an error).
func (p *parser) startingPoints() ([]string, *rootList, error) {
	if !p.hasFiles0 {
		if len(p.roots) == 0 {
			return []string{"."}, nil, nil
		}
		return p.roots, nil, nil
	}
	if len(p.roots) > 0 {
		return nil, nil, &ParseError{
			Msg:  fmt.Sprintf("extra operand %s", p.quote(p.roots[0])),
			Hint: "file operands cannot be combined with -files0-from",
		}
	}
	l, err := p.openRootList()
	return nil, l, err
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
