package spawn

import (
	"maps"
	"slices"
	"sync"

	"golang.org/x/sys/unix"
)

// The command lines of -exec ... + and -execdir ... +.
//
// A line holds as much as the kernel takes (Room: on Linux a quarter of
// the stack limit, 2 MiB by default, elsewhere kern.argmax; less the
// environment and GNU's headroom), like bfs; GNU find stops at 128 KiB,
// so it starts many more children for the same files.

// The limits on a new program's arguments that are the same everywhere;
// the system's own, argMax and MaxArgLen, are in sys_<os>.go.
const (
	// headroom is what GNU (and POSIX xargs) leave for the child to add
	// to its environment before it runs something else.
	headroom = 2048
	// ptrSize is the size of one argv or envp pointer, which the kernel
	// counts against the same limit as the strings: its own pointer
	// size, 8 bytes on a 64-bit kernel even for a 32-bit program (Linux's
	// bprm_stack_limits counts sizeof(void *)), so 8 on every GOARCH: on
	// a 32-bit kernel that errs on the safe side.
	ptrSize = 8
	// pathRoom is set aside in every line for the program's file name,
	// which the kernel also copies into the new image.
	pathRoom = 4096
)

// Room returns how many bytes of a new program's arguments (each
// string with its NUL, plus its pointer) fit with the environment env,
// after GNU's headroom; false when the environment leaves no room.
// argMax (sys_<os>.go) is the system's limit for the strings and
// pointers of both the arguments and the environment.
func Room(env []string) (int, bool) {
	limit := argMax()
	size := uint64(headroom + ptrSize) // the argv NULL, to be safe
	for _, kv := range env {
		size += uint64(argSize(kv))
	}
	if size >= limit {
		return 0, false
	}
	return int(limit - size), true
}

// argSize is what s takes in the argument area: itself, its NUL and its
// pointer.
func argSize(s string) int { return len(s) + 1 + ptrSize }

// A Line collects the files of one command line: one child, or a few
// when the kernel refuses the whole (see Builder.Run).
type Line struct {
	files []string
	size  int // bytes the files take in the argument area
	// dir is where the child will run: for -execdir a duplicate of the
	// walk's descriptor, owned by the line, or a path.
	dir Dir
	// key names the directory of an -execdir line, users the workers in
	// it: the line runs when the last one leaves (Builder.Leave).
	key   string
	users int
}

// A Builder builds the command lines of one -exec ... + or -execdir ...
// +, shared by the workers: one line every worker adds to, or one per
// directory, shared by the workers visiting it. A line runs when the
// next file would not fit (Add), when its directory's last worker
// leaves (Leave), or at the end (Pending): files that fit in one command
// line get one child, whatever the number of workers, as in GNU find.
type Builder struct {
	cmd  []string // the command's words, before the files
	room int      // what the files may take in the argument area

	mu   sync.Mutex // guards the lines and what they hold
	all  *Line      // the line every worker adds to
	dirs map[string]*Line
}

// NewBuilder returns the Builder for cmd (the command without its {})
// with room bytes of argument area, as Room returns it.
func NewBuilder(cmd []string, room int) *Builder {
	room -= pathRoom
	for _, w := range cmd {
		room -= argSize(w)
	}
	return &Builder{cmd: cmd, room: room}
}

// Add puts file in l, or in the line every worker shares when l is nil,
// after running the line with run if the file would not fit: run gets
// the full line to itself, and the others go on filling the line
// afresh. dir is where the child runs; a descriptor in it is
// duplicated, for the walk closes its own when it leaves the directory
// and the line may run later.
func (b *Builder) Add(l *Line, file string, dir Dir, run func(*Line)) {
	need := argSize(file)
	b.mu.Lock()
	if l == nil {
		if b.all == nil {
			b.all = &Line{}
		}
		l = b.all
	}
	for len(l.files) > 0 && l.size+need > b.room {
		full := l.detach()
		b.mu.Unlock()
		run(full)
		b.mu.Lock()
	}
	if len(l.files) == 0 {
		if dir.open {
			// Without a descriptor to spare, the path will do.
			fd, err := unix.FcntlInt(uintptr(dir.fd), unix.F_DUPFD_CLOEXEC, 3)
			dir.fd, dir.open = fd, err == nil
		}
		l.dir = dir
	}
	l.files = append(l.files, file)
	l.size += need
	b.mu.Unlock()
}

// detach moves l's files (and working directory) to a new line, and
// leaves l empty. b.mu is held.
func (l *Line) detach() *Line {
	full := &Line{files: l.files, size: l.size, key: l.key, dir: l.dir}
	l.files, l.size, l.dir = nil, 0, Dir{}
	return full
}

// Enter counts a worker (or a piece of the directory handed out) in
// directory key and returns the directory's line.
func (b *Builder) Enter(key string) *Line {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dirs == nil {
		b.dirs = map[string]*Line{}
	}
	l := b.dirs[key]
	if l == nil {
		l = &Line{key: key}
		b.dirs[key] = l
	}
	l.users++
	return l
}

// Leave counts a worker out of directory key, entered before, and
// returns the directory's line for the caller to run when that was the
// last one and the line holds files, unless keep says to leave them for
// Pending (after -quit).
func (b *Builder) Leave(key string, keep bool) *Line {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.dirs[key]
	if l == nil {
		return nil
	}
	l.users--
	if l.users > 0 || keep && len(l.files) > 0 {
		return nil
	}
	delete(b.dirs, key)
	if len(l.files) == 0 {
		return nil
	}
	return l
}

// Pending returns the lines still holding files, once the walk is over:
// the shared one, then the directories' by name.
func (b *Builder) Pending() []*Line {
	b.mu.Lock()
	defer b.mu.Unlock()
	var pending []*Line
	if b.all != nil && len(b.all.files) > 0 {
		pending = append(pending, b.all)
	}
	for _, k := range slices.Sorted(maps.Keys(b.dirs)) {
		if l := b.dirs[k]; len(l.files) > 0 {
			pending = append(pending, l)
		}
	}
	return pending
}

// Run runs l's command with its files through launch, as many children
// as it takes, and empties l. A child that execve refuses for the size
// of its arguments (TooBig: nothing ran) is retried with half as many
// files, so every file is passed exactly once; a file that alone is too
// big is given to refused. The caller has l to itself: from Add's run,
// Leave or Pending.
func (b *Builder) Run(l *Line, launch func(Job) Outcome, refused func(file string)) {
	files := l.files
	k := len(files)
	for len(files) > 0 {
		k = min(k, len(files))
		argv := append(slices.Clip(b.cmd), files[:k]...)
		if launch(Job{Argv: argv, Dir: l.dir, Line: true}) == TooBig {
			if k > 1 {
				k /= 2
				continue
			}
			refused(files[0])
		}
		files = files[k:]
	}
	clear(l.files)
	l.files, l.size = l.files[:0], 0
	if l.dir.open {
		unix.Close(l.dir.fd)
	}
	l.dir = Dir{}
}
