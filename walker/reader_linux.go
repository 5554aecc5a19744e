package walker

import "golang.org/x/sys/unix"

// The directory reader. Every walk opens a directory with openChild and
// reads it with a dirRead; what differs between the walks (the
// schedulers) is only who reads which directory, and when its records
// are visited:
//
//   - open: openat relative to the parent's descriptor (pinned for the
//     call), O_DIRECTORY, and O_NOFOLLOW unless the link is to be
//     followed, inside the descriptor budget (dir_linux.go);
//   - read: getdents64 a chunk at a time, parsed in place by nextDirent
//     (dirent_linux.go);
//   - check: the "." record against what the parent's record said
//     (dotCheck), before any record of its chunk is handed out;
//   - classify: how the read ended (readEnd), and what is reported of
//     it (refuse, readFailed, openFailed), -ignore_readdir_race
//     included (Options.raceIgnored).
//
// The order the records are handed out in is the scheduler's policy:
// a chunk at a time in readdir order (the parallel walk), gnulib fts's
// batches of up to 100,000 records, in inode order when a batch is big
// (the serial walk, serial_linux.go), or the whole directory by name
// (the sorted walk, sorted_linux.go).

// dirRead is one pass over an open directory, a getdents64 chunk at a
// time.
type dirRead struct {
	d   *dir
	fd  int    // d's descriptor, pinned by the reader (or, serially, reopened: the caller sets it)
	buf []byte // the next chunk is read into it; the caller may swap it between calls
	// dot says the "." record was checked, or that the check is given
	// up (the parallel walk, once d's children are shared: from then
	// on other workers read d.id, which the check may set).
	dot bool
	end readEnd
}

// readEnd is how a read ended early: refused by the "." check (loop or
// changed: nothing of the directory is visited), or failed after the
// records handed out (err).
type readEnd struct {
	loop    *dir  // the ancestor that the directory is again (a bind mount)
	changed bool  // the directory was swapped since its parent was read
	err     error // getdents failed
}

// refused says the "." check refused the directory.
func (e *readEnd) refused() bool { return e.loop != nil || e.changed }

// start begins a read of d, open as fd, into buf.
func (r *dirRead) start(d *dir, fd int, buf []byte) {
	*r = dirRead{d: d, fd: fd, buf: buf}
}

// next reads the next chunk of records into r.buf and returns it. It
// returns nil at the end of the directory, or when the read ended
// early, as r.end says. A chunk that holds the "." record is returned
// only once the record was checked: on ext4 "." comes in hash order,
// not first, and a directory swapped in since it was listed must not
// be walked.
func (r *dirRead) next() []byte {
	n, err := getdents(r.fd, r.buf)
	if err != nil {
		r.end.err = err
		return nil
	}
	if n == 0 {
		return nil
	}
	buf := r.buf[:n]
	if !r.dot {
		if ino, ok := dotRecord(buf); ok {
			r.dot = true
			r.end.loop, r.end.changed = dotCheck(r.d, r.fd, ino)
			if r.end.refused() {
				return nil
			}
		}
	}
	return buf
}

// dotRecord returns the d_ino of the "." record in a chunk of records,
// if the chunk has it.
func dotRecord(buf []byte) (ino uint64, ok bool) {
	for pos := 0; ; {
		var de dirent
		next, more := nextDirent(buf, pos, &de)
		if !more {
			return 0, false
		}
		if de.ino != 0 && len(de.name) == 1 && de.name[0] == '.' {
			return de.ino, true
		}
		pos = next
	}
}

// dotCheck compares the d_ino of a directory's "." record with what its
// parent's record said. They differ at a mount point (and on a few file
// systems that invent inode numbers), and only then does the directory's
// identity need a stat: this finds a bind mount of an ancestor into its
// own subtree, which fts finds by stating every directory, at no cost
// for the others. It returns the ancestor that d duplicates, or whether
// d was swapped for another directory since its parent was read
// (seam_linux.go).
func dotCheck(d *dir, fd int, dotIno uint64) (loop *dir, changed bool) {
	if dotIno == d.id.ino {
		return nil, false
	}
	var st unix.Stat_t
	if fstat(fd, &st) != nil {
		return nil, false
	}
	if replaced(d, fd, &st, dotIno) {
		return nil, true
	}
	d.id, d.idExact = idOf(&st), true
	for x := d.parent; x != nil; x = x.parent {
		if x.id == d.id {
			return x, false
		}
	}
	return nil, false
}

// refuse reports a directory that the "." check refused, when the walk
// reaches it: a loop, or what its name holds now, which was never seen.
// Either way it is neither read nor visited in post-order.
func (s *wstate) refuse(d *dir, end *readEnd) {
	if end.changed {
		s.setDirEntry(d, -1)
		s.report("open", errChanged)
	} else {
		pfd := unix.AT_FDCWD
		if d.parent != nil {
			pfd = -1 // an error Entry is not evaluated
		}
		s.setDirEntry(d, pfd)
		s.report("", &LoopError{Path: string(s.e.Path), Ancestor: end.loop.path()})
	}
	d.loop = true
}

// readFailed reports a getdents failure of d, after its records read
// before it were visited.
func (s *wstate) readFailed(d *dir, err error) {
	if err != nil && !s.w.stop.Load() {
		s.setDirEntry(d, -1)
		s.fail("readdirent", err)
	}
}

// openFailed reports that d could not be opened (or reopened), its
// parent open as parentFD. A directory that vanished (ENOENT) since its
// parent was read is still visited in post-order, as GNU visits an
// FTS_DNR under -depth, and not reported a second time there.
func (s *wstate) openFailed(d *dir, parentFD int, err error) {
	d.vanished = err == unix.ENOENT
	s.setDirEntry(d, parentFD)
	s.fail("open", err)
}

// lost reports that d's evicted descriptor could not be reopened: the
// rest of d is skipped.
func (s *wstate) lost(d *dir, err error) {
	s.setDirEntry(d, -1)
	s.report("open", err)
	d.lost = true
}

// openChild opens d relative to its parent (or the working directory for
// a root) and leaves it open with one want and one pin, for its reader.
// With dropParent, the parent's want for d is given up (pre-order: d no
// longer needs its parent once open).
func (w *walk) openChild(d *dir, scratch *[]candidate, dropParent bool) error {
	w.makeRoom(d.parent, scratch, false)
	pfd := unix.AT_FDCWD
	if d.parent != nil {
		var err error
		if pfd, err = w.pin(d.parent); err != nil {
			if dropParent {
				w.release(d.parent)
			}
			return err
		}
	}
	hookBeforeOpen(d)
	fd, err := openDir(pfd, &d.name[0], d.follow)
	if err == unix.EMFILE || err == unix.ENFILE {
		// Other parts of the program hold more than the reserve: give
		// back everything this worker can and try once more.
		w.makeRoom(d.parent, scratch, true)
		fd, err = openDir(pfd, &d.name[0], d.follow)
	}
	if d.parent != nil {
		w.unpin(d.parent, dropParent)
	}
	if err != nil {
		return err
	}
	w.fds.open.Add(1)
	d.mu.Lock()
	d.fd = fd
	d.want = 1
	d.pins = 1
	d.lastUse = w.fds.tick.Add(1)
	d.mu.Unlock()
	return nil
}
