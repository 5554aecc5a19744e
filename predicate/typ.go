package predicate

import (
	"github.com/gfind/gfind/walker"
)

// typeNode is -type LIST: true when the file's type is one of the
// letters. The walker's d_type answers it without a stat on file
// systems that fill d_type.
type typeNode struct {
	arg   string
	types uint16 // bit walker.Type
}

func (n *typeNode) Eval(e *walker.Entry, s *State) bool {
	t := e.Type
	if t == walker.TypeUnknown {
		if s != nil && s.follows(e) {
			// The walker could not stat the link's target (and said
			// so): like GNU, no -type matches it.
			st, ok := s.stat(e)
			if !ok {
				return false
			}
			t = walker.TypeOf(uint32(st.Mode))
		} else {
			t = lstatType(e)
		}
	}
	return n.types&(1<<t) != 0
}

// lstatType asks the file system for a type d_type did not give. A file
// that cannot be stat'ed has no type (and matches no -type).
func lstatType(e *walker.Entry) walker.Type {
	st, err := e.Lstat()
	if err != nil {
		return walker.TypeUnknown
	}
	return walker.TypeOf(uint32(st.Mode))
}

func (n *typeNode) Facts() Facts {
	f := Facts{Cost: costType}
	for t, p := range typeProb {
		if n.types&(1<<t) != 0 {
			f.Prob += p
		}
	}
	return f
}

func (n *typeNode) Args() []string { return []string{"-type", n.arg} }

// typeLetters maps -type letters to types. 'D' (Solaris doors) is
// recognised only to be refused with GNU's message.
var typeLetters = map[byte]walker.Type{
	'b': walker.TypeBlock, 'c': walker.TypeChar, 'd': walker.TypeDir,
	'p': walker.TypeFIFO, 'f': walker.TypeRegular, 'l': walker.TypeSymlink,
	's': walker.TypeSocket,
}

// typeProb is the share of each type among files, from the survey of a
// real system quoted in GNU find's parser.c (4,410,884 regular files out
// of about 5 million).
var typeProb = map[walker.Type]float64{
	walker.TypeRegular: 0.875, walker.TypeDir: 0.0922, walker.TypeSymlink: 0.0311,
	walker.TypeBlock: 0.000888, walker.TypeChar: 0.000443,
	walker.TypeSocket: 1.59e-5, walker.TypeFIFO: 7.554e-6,
}

func parseType(p *parser, op string, _ variant) error {
	arg, err := p.arg(op)
	if err != nil {
		return err
	}
	if arg == "" {
		return p.errorf("Arguments to %s should contain at least one letter", op)
	}
	n := &typeNode{arg: arg}
	for i := 0; i < len(arg); {
		c := arg[i]
		t, ok := typeLetters[c]
		switch {
		case c == 'D':
			return p.errorf("%s %c is not supported because Solaris doors are not supported on the platform find was compiled on.", op, c)
		case !ok:
			return p.errorf("Unknown argument to %s: %c", op, c)
		case n.types&(1<<t) != 0:
			return p.errorf("Duplicate file type '%c' in the argument list to %s.", c, op)
		}
		n.types |= 1 << t
		i++
		if i < len(arg) {
			if arg[i] != ',' {
				return p.errorf("Must separate multiple arguments to %s using: ','", op)
			}
			i++
			if i == len(arg) {
				return p.errorf("Last file type in list argument to %s is missing, i.e., list is ending on: ','", op)
			}
		}
	}
	p.push(n)
	return nil
}
