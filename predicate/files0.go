package predicate

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/gfind/gfind/output"
)

func init() {
	table["files0-from"] = entry{kindOption, func(p *parser, op string) (err error) {
		p.files0, err = p.arg(op)
		return err
	}}
}

// startingPoints returns the starting points: those on the command line,
// or with -files0-from the NUL-separated names read from that file ("-"
// is standard input), or "." when there are none. Empty names in the
// file are not starting points; each gives a diagnostic in rootErrs, as
// GNU reports them ("'list':2: invalid zero-length file name").
func (p *parser) startingPoints() (roots, rootErrs []string, err error) {
	if p.files0 == "" {
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
	var data []byte
	if p.files0 == "-" {
		for _, t := range p.toks {
			if t.node == nil {
				continue
			}
			if a := t.node.Args(); len(a) > 0 && (a[0] == "-ok" || a[0] == "-okdir") {
				return nil, nil, p.errorf("option -files0-from reading from standard input cannot be combined with -ok, -okdir")
			}
		}
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(p.files0)
	}
	if err != nil {
		return nil, nil, p.errorf("cannot open %s for reading: %s", p.quote(p.files0), output.Strerror(unwrapPathError(err)))
	}
	data = bytes.TrimSuffix(data, []byte{0}) // the last name may or may not end in NUL
	if len(data) == 0 {
		return nil, nil, nil
	}
	for i, name := range bytes.Split(data, []byte{0}) {
		if len(name) == 0 {
			rootErrs = append(rootErrs, fmt.Sprintf("%s:%d: invalid zero-length file name", p.quote(p.files0), i+1))
			continue
		}
		roots = append(roots, string(name))
	}
	return roots, rootErrs, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
