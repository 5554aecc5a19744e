package predicate

import (
	"os"
	"sync"
	"syscall"

	"github.com/gfind/gfind/output"
	"github.com/gfind/gfind/walker"
)

// The actions that write to a file of their own: -fprint, -fprint0,
// -fprintf and -fls.
//
// The file is opened when the primary is parsed, as GNU does, and
// truncated (fopen "w": O_WRONLY|O_CREAT|O_TRUNC, mode 0666 less the
// umask); a failure ends the parse with GNU's message ("'f': Permission
// denied"). Two primaries naming the same file, by device and inode
// after opening, share one output (GNU's sharefile), so their records
// interleave in evaluation order instead of overwriting each other.
// "/dev/stdout" is standard output itself, the stream -print writes to,
// and "/dev/stderr" standard error, unbuffered as C's stderr is; both
// by name only, as in GNU.
//
// Each file gets its own output.Sink, created when a worker first
// writes to it, and each worker its own Buffer for it (State.files), so
// records stay whole and workers do not contend per record. At the end,
// Command.Close flushes every worker's Buffer and closes the files
// (openOutput adds each file's close to parser.atExit).

// openOutputFile opens a file named by -fprint and friends. Tests point
// it elsewhere, so that a fuzzer cannot create files.
var openOutputFile = func(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
}

// outFile is one output file, shared by every primary that names it.
type outFile struct {
	// id is the index of the workers' Buffers in State.files, or -1 for
	// "/dev/stdout", which uses State.Out.
	id       int
	f        *os.File
	dev, ino uint64
	stderr   bool // "/dev/stderr": each record is written at once

	sinkOnce sync.Once
	sink     *output.Sink
	mu       sync.Mutex
	bufs     []*output.Buffer // every worker's, for close

	closeOnce sync.Once
	closeErr  error
}

// outEffect is the effect of writing to of: standard output's for nil
// (-printf, -ls), another file's for any file named (-fprintf, -fls).
func outEffect(of *outFile) Effect {
	if of == nil {
		return EffectStdout
	}
	return EffectFile
}

// fileUser is a node writing to an outFile.
type fileUser interface {
	outputFile() *outFile
}

// outFiles returns the files the primaries parsed so far write to, in
// the order of their ids.
func (p *parser) outFiles() []*outFile {
	var files []*outFile
	for _, t := range p.toks {
		u, ok := t.node.(fileUser)
		if !ok {
			continue
		}
		of := u.outputFile()
		if of != nil && of.id >= len(files) {
			files = append(files, of)
		}
	}
	return files
}

// openOutput opens the file name for the primary being parsed, or finds
// the one already opened for it.
func (p *parser) openOutput(name string) (*outFile, error) {
	files := p.outFiles()
	switch name {
	case "/dev/stdout":
		return &outFile{id: -1}, nil
	case "/dev/stderr":
		for _, of := range files {
			if of.stderr {
				return of, nil
			}
		}
		of := &outFile{id: len(files), f: os.Stderr, stderr: true}
		p.atExit = append(p.atExit, of.close)
		return of, nil
	}
	f, err := openOutputFile(name)
	if err != nil {
		return nil, p.fileError(name, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, p.fileError(name, err)
	}
	of := &outFile{id: len(files), f: f}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		of.dev, of.ino = uint64(st.Dev), uint64(st.Ino)
		for _, old := range files {
			if old.f != nil && !old.stderr && old.dev == of.dev && old.ino == of.ino {
				f.Close() // GNU's sharefile keeps the first stream
				return old, nil
			}
		}
	}
	p.atExit = append(p.atExit, of.close)
	return of, nil
}

// fileError is GNU's fatal_nontarget_file_error: "'name': strerror".
func (p *parser) fileError(name string, err error) error {
	if pe, ok := err.(*os.PathError); ok {
		err = pe.Err
	}
	return &ParseError{Msg: p.quote(name) + ": " + output.Strerror(err)}
}

// out returns this worker's Buffer for of (nil or "/dev/stdout": the
// standard output's) and whether it goes to a terminal.
func (s *State) out(of *outFile) (*output.Buffer, bool) {
	if of == nil || of.id < 0 {
		return s.Out, s.sink.TTY()
	}
	if of.id < len(s.files) && s.files[of.id] != nil {
		return s.files[of.id], of.sink.TTY()
	}
	of.sinkOnce.Do(func() {
		if of.stderr {
			of.sink = output.NewSink(of.f, s.Diag, output.WithName("standard error"))
		} else {
			of.sink = output.NewSink(of.f, s.Diag)
		}
	})
	b := of.sink.NewBufferSize(s.bufSize)
	of.mu.Lock()
	of.bufs = append(of.bufs, b)
	of.mu.Unlock()
	for len(s.files) <= of.id {
		s.files = append(s.files, nil)
	}
	s.files[of.id] = b
	return b, of.sink.TTY()
}

// endRecord ends a record written to b for of, writing it at once to
// standard error (C's stderr is unbuffered) or when flush is set (-printf's
// \c).
func endRecord(b *output.Buffer, of *outFile, flush bool) {
	b.EndRecord()
	if flush || (of != nil && of.stderr) {
		b.Flush()
	}
}

// close flushes every worker's Buffer and closes the file (standard
// output and standard error stay open). Write errors have already been
// reported by the Sink; close returns the first one.
func (of *outFile) close() error {
	if of == nil {
		return nil
	}
	of.closeOnce.Do(func() {
		switch {
		case of.f == nil:
		case of.sink == nil:
			if !of.stderr {
				of.closeErr = of.f.Close() // nothing was written
			}
		default:
			of.mu.Lock()
			for _, b := range of.bufs {
				b.Flush()
			}
			of.mu.Unlock()
			of.closeErr = of.sink.Close()
		}
	})
	return of.closeErr
}

// fprintNode is -fprint FILE (term '\n') and -fprint0 FILE (term 0):
// -print and -print0 to a file.
type fprintNode struct {
	op, name string
	file     *outFile
	term     byte
}

func (n *fprintNode) Eval(e *walker.Entry, s *State) bool {
	if !s.act() {
		return false
	}
	b, _ := s.out(n.file)
	b.Print(e.Path, n.term) // a whole record: quoted on a terminal
	if n.file.stderr {
		b.Flush()
	}
	return true
}

func (n *fprintNode) Facts() Facts {
	return Facts{Effects: EffectFile, Cost: costPrint, Prob: 1}
}

func (n *fprintNode) Args() []string       { return []string{n.op, n.name} }
func (n *fprintNode) outputFile() *outFile { return n.file }

func parseFprint(p *parser, op string, v variant) error {
	name, err := p.arg(op)
	if err != nil {
		return err
	}
	of, err := p.openOutput(name)
	if err != nil {
		return err
	}
	term := byte('\n')
	if v&nulTerm != 0 {
		term = 0
	}
	p.push(&fprintNode{op: op, name: name, file: of, term: term})
	return nil
}
