package output

import (
	"errors"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/gfind/gfind/internal/die"
	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// FlushSize is the amount a Buffer collects before handing it to its
// Sink. 64 KiB is the default pipe capacity on Linux and amortises the
// lock and the write(2) over several hundred typical paths; GNU find's
// stdio writes 4 KiB at a time.
const FlushSize = 64 << 10

// Sink is one output stream (standard output, or a -fprint file) shared
// by all workers. Workers do not write to it directly: each owns a
// Buffer and hands over blocks of whole records, which the Sink writes
// under a mutex, so records are never split or interleaved.
//
// The first write error is reported through the Diag, once, in GNU's
// words ("gfind: 'standard output': No space left on device", followed
// for standard output by "gfind: write error"); the Sink then stops, so
// that the walk can end early (Stopped), and the Diag records failure.
//
// GNU find keeps walking after a write error and reports it at exit; we
// stop because every later record would be lost anyway.
//
// A broken pipe ends the process with SIGPIPE, silently, as it does GNU
// find: for standard output the Go runtime does this inside
// (*os.File).Write; for any other file the Sink does it itself (see
// die.Of). EPIPE is reported like any other write error only when
// the program has called signal.Ignore for SIGPIPE (or, for standard
// output, signal.Notify).
// Known difference: GNU find started with SIGPIPE ignored (trap "" PIPE)
// reports "'standard output': Broken pipe" and exits 1. A Go program
// cannot tell that SIGPIPE was ignored when it started (the runtime
// installs its own handler before main and keeps no record of an
// inherited SIG_IGN for SIGPIPE), so gfind dies of the signal instead.
type Sink struct {
	f      *os.File
	fd     int
	diag   *Diag
	name   string // the file as named in a write error
	stdout bool   // also say "write error", as gnulib's close_stdout does
	tty    bool
	style  Style
	// ownEPIPE: a broken pipe comes back from the write as EPIPE, and
	// the Sink dies of SIGPIPE itself (any file but descriptors 1 and 2,
	// and those under WithOwnSIGPIPE).
	ownEPIPE, dupStd bool

	// mu is held for each write and for Stop, so that once Stop returns
	// no byte reaches the file, whichever worker tries.
	mu      sync.Mutex
	stopped atomic.Bool // set under mu; read without it
	err     error       // first write error, under mu
	large   func()      // BeforeLargeWrite's hook, under mu; nil once run
}

// pipeBuf is PIPE_BUF on Linux: a write of at most this many bytes to a
// pipe is atomic, and one to a file or terminal is not cut short by a
// signal either, so a process killed during it leaves no partial record.
const pipeBuf = 4096

// BeforeLargeWrite sets fn to be called once, just before the Sink's
// first write of more than pipeBuf bytes (one that a signal could cut in
// the middle of a record), under the Sink's lock. gfind installs its
// signal handlers there: a walk whose output is written in atomic pieces
// does not pay for their start-up (see cmd/gfind's signalWatch).
func (s *Sink) BeforeLargeWrite(fn func()) {
	s.mu.Lock()
	s.large = fn
	s.mu.Unlock()
}

// SinkOption adjusts a Sink made by NewSink.
type SinkOption func(*Sink)

// WithTTY forces terminal mode on or off instead of asking the file
// descriptor (tests use it). See NewSink.
func WithTTY(tty bool) SinkOption { return func(s *Sink) { s.tty = tty } }

// WithOwnSIGPIPE makes a Sink on standard output (or error) write
// through a duplicate of the descriptor, on which a broken pipe comes
// back as EPIPE instead of killing the process inside the write (what
// the Go runtime does for descriptors 1 and 2): the Sink then erases the
// status line (status.go) and dies of SIGPIPE itself, as before. The
// duplicate shares the open file, and its offset, with the descriptor
// that -exec children inherit.
func WithOwnSIGPIPE() SinkOption { return func(s *Sink) { s.dupStd = true } }

// WithName sets how write errors name the file. The default is
// "standard output" for descriptor 1 and f.Name() otherwise, which is
// the -fprint argument as given, as GNU reports it.
func WithName(name string) SinkOption { return func(s *Sink) { s.name = name } }

// NewSink returns a Sink writing to f and reporting write errors through
// d.
//
// When f is a terminal the Sink is in terminal mode, as GNU find is when
// its output is a tty: -print (Buffer.Print with '\n') and Buffer.WriteName
// show each unprintable character as '?', in the style of d, and every
// record is written as soon as it ends, as a line-buffered stdout would.
// -print0 output (Print with NUL) stays raw, as in GNU.
func NewSink(f *os.File, d *Diag, opts ...SinkOption) *Sink {
	s := &Sink{f: f, fd: fdOf(f), diag: d}
	s.stdout = s.fd == 1
	if s.stdout {
		s.name = "standard output"
	} else {
		s.name = f.Name()
	}
	s.tty = term.IsTerminal(s.fd)
	for _, o := range opts {
		o(s)
	}
	if s.tty {
		s.style = d.Style() // only terminal output is escaped
	}
	s.ownEPIPE = s.fd > 2
	if s.dupStd && 0 <= s.fd && s.fd <= 2 {
		if fd, err := unix.FcntlInt(uintptr(s.fd), unix.F_DUPFD_CLOEXEC, 3); err == nil {
			s.f = os.NewFile(uintptr(fd), f.Name())
			s.ownEPIPE = true
		}
	}
	return s
}

// TTY reports whether the Sink is in terminal mode.
func (s *Sink) TTY() bool { return s.tty }

// Stopped reports whether the Sink refuses writes, after Stop or a
// write error. It is one atomic load: the walk checks it per entry.
func (s *Sink) Stopped() bool { return s.stopped.Load() }

// Stop makes the Sink refuse every later write (-quit). When Stop
// returns, nothing more is written to the file, from any worker; what
// workers still hold in their Buffers is dropped.
func (s *Sink) Stop() {
	s.mu.Lock()
	s.stopped.Store(true)
	s.mu.Unlock()
}

// Abandon makes the Sink refuse every later write at once, without the
// lock that a running -exec child or a write in progress holds: the
// walk sees Stopped from its next entry. That write still completes;
// Stop, called afterwards, waits for it. (gfind's signal handler.)
func (s *Sink) Abandon() { s.stopped.Store(true) }

// Close ends the Sink after every Buffer has been flushed: it stops it
// and closes the file unless it is standard output or standard error.
// It returns the first write or close error, which has already been
// reported.
//
// Standard output is left open: unlike gnulib's close_stdout, a close
// error on it (possible on NFS) is not detected.
func (s *Sink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped.Store(true)
	if s.fd > 2 && s.err == nil {
		if err := s.f.Close(); err != nil {
			s.fail(err)
		}
	}
	return s.err
}

// write writes block, made of whole records, unless the Sink is stopped.
func (s *Sink) write(block []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writeLocked(block)
}

func (s *Sink) writeLocked(block []byte) {
	if s.stopped.Load() {
		return
	}
	if s.large != nil && len(block) > pipeBuf {
		fn := s.large
		s.large = nil
		fn()
	}
	if s.tty && s.diag.beginTTYWrite() { // a status line is kept off the records (status.go)
		defer s.diag.endTTYWrite()
	}
	// (*os.File).Write retries short writes and EINTR/EAGAIN, and on
	// EPIPE to descriptor 1 or 2 raises SIGPIPE, which kills us.
	if _, err := s.f.Write(block); err != nil {
		if errors.Is(err, syscall.EPIPE) && s.ownEPIPE && !signal.Ignored(syscall.SIGPIPE) {
			s.diag.EraseStatusNow()
			die.Of(syscall.SIGPIPE)
		}
		s.fail(err)
	}
}

// WriteRecords writes p, whole records, now, unless the Sink is stopped:
// output Reorder captured from visits that were not next, written in
// the walk's order (gfind -s).
func (s *Sink) WriteRecords(p []byte) {
	if len(p) > 0 {
		s.write(p)
	}
}

// fail reports the first error and stops the Sink; mu is held.
func (s *Sink) fail(err error) {
	if s.err != nil {
		return
	}
	s.err = err
	s.stopped.Store(true)
	s.diag.FileError([]byte(s.name), err)
	if s.stdout {
		s.diag.Errorf("write error")
	}
}

// Buffer collects one worker's output records for a Sink. It is owned
// by one goroutine and is not safe for concurrent use.
//
// A record (one -print line, one -printf expansion) may be appended in
// several calls; the Buffer only hands its contents to the Sink in
// EndRecord, Print (which is a whole record), Flush and FlushAndStop, so
// a record is never split as long as the caller ends it with EndRecord
// and does not Flush in the middle of it.
type Buffer struct {
	s       *Sink
	buf     []byte
	flushAt int // hand the records over once they are this many bytes
	// held, while Hold is in force, is the Buffer's own space: records
	// go to the caller's slice in buf and are not handed to the Sink.
	held    []byte
	holding bool
}

// NewBuffer returns an empty Buffer writing to s, FlushSize bytes at a
// time.
func (s *Sink) NewBuffer() *Buffer { return s.NewBufferSize(FlushSize) }

// NewBufferSize returns an empty Buffer writing to s size bytes at a
// time (FlushSize when size <= 0): smaller writes, for a worker whose
// walk waits on its calls more than it writes.
func (s *Sink) NewBufferSize(size int) *Buffer {
	if size <= 0 {
		size = FlushSize
	}
	// The spare room above size lets the record that crosses the
	// threshold fit without growing the slice.
	return &Buffer{s: s, buf: make([]byte, 0, size+4096), flushAt: size}
}

// Print appends the record path+term: -print (term '\n') or -print0
// (term 0). It does not allocate. In terminal mode a '\n'-terminated
// path has its unprintable characters shown as '?', as GNU's -print
// does; a NUL-terminated one is left raw, as GNU's -print0 does.
func (b *Buffer) Print(path []byte, term byte) {
	if b.s.stopped.Load() {
		return // nothing would be written; don't even copy
	}
	if b.s.tty && term == '\n' {
		b.buf = b.s.style.AppendTTY(b.buf, path)
	} else {
		b.buf = append(b.buf, path...)
	}
	b.buf = append(b.buf, term)
	b.EndRecord()
}

// Write appends p to the current record. It never flushes and always
// returns len(p), nil (io.Writer, for fmt.Fprintf).
func (b *Buffer) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// WriteString appends s to the current record, like Write.
func (b *Buffer) WriteString(s string) (int, error) {
	b.buf = append(b.buf, s...)
	return len(s), nil
}

// WriteByte appends c to the current record.
func (b *Buffer) WriteByte(c byte) error {
	b.buf = append(b.buf, c)
	return nil
}

// WriteName appends a file name to the current record, with unprintable
// characters shown as '?' in terminal mode: what -printf's %p, %f, %h,
// %P and friends do in GNU find when the output is a tty.
func (b *Buffer) WriteName(name []byte) {
	if b.s.tty {
		b.buf = b.s.style.AppendTTY(b.buf, name)
		return
	}
	b.buf = append(b.buf, name...)
}

// AvailableBuffer returns an empty slice with free capacity, to append
// to and pass to Write without copying (strconv.AppendInt and the like),
// as bufio.Writer.AvailableBuffer does.
func (b *Buffer) AvailableBuffer() []byte { return b.buf[len(b.buf):] }

// EndRecord marks the end of a record: the Buffer hands its contents to
// the Sink once it holds its size (FlushSize unless made by
// NewBufferSize), or at once in terminal mode.
func (b *Buffer) EndRecord() {
	if len(b.buf) >= b.flushAt || b.s.tty {
		b.Flush()
	}
}

// Capture makes the records written from now on go to buf (appended
// from its start), and none to the Sink, until Release: under gfind -s,
// Reorder captures so the output of a worker whose visits are not next
// in the walk's order, and writes it itself once they are. Nothing must
// be buffered.
func (b *Buffer) Capture(buf []byte) {
	if b.holding || len(b.buf) > 0 {
		panic("output: Capture on a Buffer holding records")
	}
	b.held, b.buf, b.holding = b.buf, buf[:0], true
}

// Release ends a Capture and returns the records written since, in the
// slice given to Capture or one grown from it.
func (b *Buffer) Release() []byte {
	out := b.buf
	b.buf, b.held, b.holding = b.held[:0], nil, false
	return out
}

// Flush hands everything buffered to the Sink now. Call it before
// running a -exec child (whose output must follow ours) and when the
// worker is done. Under Hold it does nothing.
func (b *Buffer) Flush() {
	if len(b.buf) == 0 || b.holding {
		return
	}
	b.s.write(b.buf)
	b.buf = b.buf[:0]
}

// FlushAndStop writes what this Buffer holds and stops the Sink in one
// step, under the Sink's lock: -quit. What this worker printed before
// -quit appears (as GNU's `-print -quit` requires); no other worker can
// write in between, and nothing is written after it returns.
func (b *Buffer) FlushAndStop() {
	s := b.s
	s.mu.Lock()
	if len(b.buf) > 0 {
		s.writeLocked(b.buf)
		b.buf = b.buf[:0]
	}
	s.stopped.Store(true)
	s.mu.Unlock()
}

// fdOf returns f's descriptor without f.Fd's side effect of switching
// it to blocking mode.
func fdOf(f *os.File) int {
	fd := -1
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(u uintptr) { fd = int(u) })
	}
	return fd
}

// Len returns the number of bytes buffered and not yet handed over.
func (b *Buffer) Len() int { return len(b.buf) }
