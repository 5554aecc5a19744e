package output

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/gfind/gfind/walker"
)

// Diag writes gfind's diagnostics, in GNU find's format, and remembers
// whether any of them means failure (exit status 1). It is the only
// writer to standard error; all its methods are safe for concurrent use.
//
// Each diagnostic is one line handed to the writer in a single Write
// under a mutex, so lines from different workers never interleave.
//
// GNU's error() flushes stdout before writing to stderr, so when both go
// to the same file the message follows the output printed before it. A
// worker that wants the same order must Flush its Buffer before
// reporting; gfind's own output is otherwise buffered per worker.
type Diag struct {
	prog string
	// The style is looked up in the environment at its first use
	// (LocaleStyle reads locale files when LANG names one): most runs
	// print no diagnostic and need no style.
	styleOnce sync.Once
	styleFn   func() Style // nil: style was given
	style     Style
	mu        sync.Mutex // serialises writes to w
	w         io.Writer
	failed    atomic.Bool
	errs      atomic.Int64 // failing diagnostics written, for --stats
	// Set before the walk by SetQuietErrors, SetPermErrorsOK, SetNoError
	// and SetJSON (json.go).
	quietPerm, permOK, noError, json bool
	suppressed                       atomic.Int64 // errors -noerror dropped
	slot0                            slot0        // ListName
	// The live status line (status.go): shown is under mu, statusOn
	// is set before the walk, ttyWrites counts the writes to a terminal
	// in progress, statusEnded refuses draws on the way to death, held
	// is set while Hold holds mu.
	shown                 bool
	statusOn, statusEnded atomic.Bool
	held                  atomic.Bool
	ttyWrites             atomic.Int32
}

// slot0 models the buffer of GNU's quotearg slot 0, where GNU find
// quotes the file named in a diagnostic about a file. GNU 4.9 quotes
// -files0-from's list name there once and keeps the pointer, so its
// "invalid zero-length file name" message shows the file named by the
// latest diagnostic before it ("'nosuch':3: ..." after "'nosuch': No
// such file or directory"). The buffer holds 256 bytes: a longer name
// leaves its first 256 bytes there and moves slot 0 to a new buffer,
// after which the old one no longer changes.
type slot0 struct {
	mu     sync.Mutex
	val    string
	set    bool // a diagnostic has quoted a name since the start
	frozen bool // a name did not fit
}

const slot0Size = 256

// noteQuoted records q, a file name quoted for a diagnostic, in slot 0.
func (d *Diag) noteQuoted(q []byte) {
	s := &d.slot0
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.frozen {
		return
	}
	s.set = true
	if len(q) >= slot0Size {
		s.val, s.frozen = string(q[:slot0Size]), true
		return
	}
	s.val = string(q)
}

// ListName returns how GNU 4.9 names -files0-from's list in a message
// about one of its records: quoted, the name the latest diagnostic
// about a file quoted, if any (see slot0).
func (d *Diag) ListName(quoted string) string {
	s := &d.slot0
	s.mu.Lock()
	defer s.mu.Unlock()
	// A list name that does not fit went to a buffer of its own, which
	// gfind does not model further.
	if s.set && len(quoted) < slot0Size {
		return s.val
	}
	return quoted
}

// QuoteFile quotes a file name for a diagnostic about it ("cannot
// delete %s"), as Quote does, and records it as GNU's quotearg slot 0
// would (ListName).
func (d *Diag) QuoteFile(name string) string {
	q := d.Style().Quote(name)
	d.noteQuoted([]byte(q))
	return q
}

// NewDiag returns a Diag writing to w (normally os.Stderr) with lines
// prefixed "prog: ". The quoting style comes from the environment as in
// GNU find (see StyleFromEnv).
func NewDiag(prog string, w io.Writer) *Diag {
	return &Diag{prog: prog, w: w, styleFn: LocaleStyle}
}

// NewDiagStyle is NewDiag with a fixed quoting style, for tests and for
// callers that decided the locale themselves.
func NewDiagStyle(prog string, w io.Writer, s Style) *Diag {
	return &Diag{prog: prog, w: w, style: s}
}

// Style returns the quoting style in use.
func (d *Diag) Style() Style {
	d.styleOnce.Do(func() {
		if d.styleFn != nil {
			d.style = d.styleFn()
		}
	})
	return d.style
}

// Quote quotes s for a message in the active style, as GNU find quotes
// file names and arguments ('x' in the C locale, ‘x’ under UTF-8).
// Parse errors such as "unknown predicate `-x'" do not use it: GNU
// writes those with a literal `…' in every locale.
func (d *Diag) Quote(s string) string { return d.Style().Quote(s) }

// FileError reports a failure on a file, as in
//
//	gfind: './secret': Permission denied
//
// and marks the run as failed. A *walker.LoopError gets GNU's own
// sentence instead (4.11's, which names only the directory met again;
// 4.9 also named the ancestor, and crashed when fts had none to name):
//
//	gfind: File system loop detected; the following directory is part of the cycle: 'a/b/up'
func (d *Diag) FileError(path []byte, err error) {
	if d.suppress() {
		return
	}
	if d.quietPerm && isPermError(err) {
		if !d.permOK {
			d.failed.Store(true) // --quiet-errors hides the message, not the failure
		}
		return
	}
	if d.json {
		d.finish(appendJSONError(make([]byte, 0, 128), path, err), true)
		return
	}
	var loop *walker.LoopError
	if errors.As(err, &loop) {
		d.Errorf("File system loop detected; the following directory is part of the cycle: %s",
			d.QuoteFile(loop.Path))
		return
	}
	line := d.start()
	n := len(line)
	line = d.Style().AppendQuote(line, path)
	d.noteQuoted(line[n:])
	line = append(line, ": "...)
	line = append(line, Strerror(err)...)
	d.finish(line, true)
}

// FileErrorf is Errorf for a failure on a file worded otherwise than
// FileError words it ("cannot delete 'x': ..."): -noerror drops it too.
func (d *Diag) FileErrorf(format string, args ...any) {
	if d.suppress() {
		return
	}
	d.Errorf(format, args...)
}

// FileNotef is Notef for a failure on a file that leaves the exit status
// alone (a -exec command that could not be run, which GNU reports and
// bfs counts as an error): -noerror drops it too.
func (d *Diag) FileNotef(format string, args ...any) {
	if d.suppress() {
		return
	}
	d.Notef(format, args...)
}

// suppress reports whether -noerror drops the error about a file being
// reported, and counts it then (Suppressed).
func (d *Diag) suppress() bool {
	if !d.noError {
		return false
	}
	d.suppressed.Add(1)
	return true
}

// Errorf reports "prog: message" and marks the run as failed. The
// message must not end in a newline; one is added.
func (d *Diag) Errorf(format string, args ...any) {
	d.finish(fmt.Appendf(d.start(), format, args...), true)
}

// Warnf reports "prog: warning: message" without marking failure, as
// GNU's warnings do. GNU find shows its parse-time warnings only when
// standard input is a terminal (or with -warn); that choice is the
// caller's.
func (d *Diag) Warnf(format string, args ...any) {
	line := append(d.start(), "warning: "...)
	d.finish(fmt.Appendf(line, format, args...), false)
}

// Notef reports "prog: message" without marking failure, for notices
// GNU find gives with exit status 0 (an ignored -D flag).
func (d *Diag) Notef(format string, args ...any) {
	d.finish(fmt.Appendf(d.start(), format, args...), false)
}

// Failed reports whether an error was reported or Fail was called: the
// exit status must then be 1.
func (d *Diag) Failed() bool { return d.failed.Load() }

// Fail marks the run as failed without writing anything, for failures
// reported elsewhere (a -exec child's status, an error already shown).
func (d *Diag) Fail() { d.failed.Store(true) }

func (d *Diag) start() []byte {
	line := make([]byte, 0, 128)
	line = append(line, d.prog...)
	return append(line, ": "...)
}

// finish writes one whole line. The failure flag is set before the
// write, so that a caller seeing the message can rely on Failed.
func (d *Diag) finish(line []byte, fail bool) {
	if fail {
		d.failed.Store(true)
		d.errs.Add(1)
	}
	line = append(line, '\n')
	d.mu.Lock()
	defer d.mu.Unlock()
	d.eraseLocked()
	// A failing stderr has nowhere left to be reported; GNU ignores it
	// too (the exit status still says failure).
	_, _ = d.w.Write(line)
}

// Strerror returns the C library's wording for the errno inside err
// ("Permission denied"), or err's own text when it carries none.
//
// Go's messages for syscall.Errno were generated from each system's own
// errno texts and differ from its C library's strerror only in the case
// of the first letter (on Linux checked for every errno against glibc
// 2.36; TestStrerrorMatchesLibc checks it wherever python3 runs), apart
// from the numbers Go has no text for: those, and errno 0, are worded in
// strerror_linux.go and strerror_bsd.go as each C library words them.
func Strerror(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	if s, ok := libcStrerror(errno); ok {
		return s
	}
	s := errno.Error()
	if len(s) > 6 && s[:6] == "errno " {
		// Go's fallback for numbers it has no text for.
		return unknownErrno(errno)
	}
	if 'a' <= s[0] && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
