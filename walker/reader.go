package walker

import (
	"cmp"
	"slices"
	"unsafe"

	"github.com/gfind/gfind/internal/seam"
	"golang.org/x/sys/unix"
)

// The directory reader. Every walk opens a directory with openChild and
// reads it with a dirRead; what differs between the walks (the
// schedulers) is only who reads which directory, and when its records
// are visited:
//
//   - open: openat relative to the parent's descriptor (pinned for the
//     call), O_DIRECTORY, and O_NOFOLLOW unless the link is to be
//     followed, inside the descriptor budget (dir.go);
//   - read: the OS's getdents a chunk at a time (sys_*.go), parsed in
//     place by nextDirent (dirent.go);
//   - check: the "." record against what the parent's record said
//     (dotCheck), or the directory's fstat when the first chunk has no
//     "." (statCheck), before any record is handed out;
//   - classify: how the read ended (readEnd), and what is reported of
//     it (refuse, readFailed, openFailed), -ignore_readdir_race
//     included (Options.raceIgnored).
//
// The order the records are handed out in is the scheduler's policy:
// a chunk at a time in readdir order (the parallel walk), gnulib fts's
// batches of up to 100,000 records, in inode order when a batch is big,
// or the whole directory by name (the depth-first walk, depth.go; the
// sort is in listing.go).

// dirRead is one pass over an open directory, a getdents chunk at a
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
	// carry holds the records read past a batch's limit (collect), in
	// a read buffer of its own, for the next batch. The descriptor's
	// read position is past them: that is where a reread resumes on a
	// reopened descriptor (dir.pos).
	carry []byte
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
// early, as r.end says. No record is handed out before the directory
// was checked: by its "." record when the first chunk holds it (on ext4
// "." comes in hash order, not always first), else by the directory's
// own fstat (statCheck), for a reader that gives no "." (the portable
// reader may not) or gives it later. A directory swapped in since it was
// listed must not be walked.
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
		r.dot = true
		if ino, ok := dotRecord(buf); ok {
			r.end.loop, r.end.changed = dotCheck(r.d, r.fd, ino)
		} else {
			r.end.loop, r.end.changed = statCheck(r.d, r.fd)
		}
		if r.end.refused() {
			return nil
		}
	}
	return buf
}

// readBufs is a free list of getdents buffers. A buffer is held only
// while records in it wait to be handed out: a directory's records are
// packed into a buffer of their size before its subdirectories are
// walked, so that a deep chain of small directories does not hold a
// read buffer per level.
type readBufs [][]byte

// maxSpareChunks bounds a readBufs.
const maxSpareChunks = 16

// take returns a read buffer.
func (b *readBufs) take() []byte {
	if c, ok := popLast((*[][]byte)(b)); ok {
		return c
	}
	return make([]byte, direntBufSize)
}

// give keeps c for reuse.
func (b *readBufs) give(c []byte) {
	pushSpare((*[][]byte)(b), c[:cap(c)], maxSpareChunks)
}

// gathered is what collect learned of the records it gathered.
type gathered struct {
	leaf      bool // no record that the walk may descend into
	nameBytes int  // the names' bytes
}

// collect gathers the records of the read rd into raw, in readdir
// order: the read buffers, taken from bufs, become raw's chunks, and
// each record but ".", ".." and deleted ones an entry. It stops at the
// end of the directory, at the end of the read (rd.end says why), or
// with limit > 0 at limit entries, the records read past it kept in
// rd.carry; more says whether the directory has records left. byName
// sets the entries' sort keys and raw.lcp for sortByName.
//
// It is the depth-first walk's one read loop: gnulib fts's batches, or
// the whole directory by name.
func (s *wstate) collect(rd *dirRead, raw *rawList, bufs *readBufs, limit int, byName bool) (b gathered, more bool) {
	b.leaf = true
	var first []byte // the first name, for raw.lcp
	lcp := 0
	raw.lcp = 0
	defer func() {
		if rd.buf != nil {
			bufs.give(rd.buf)
			rd.buf = nil
		}
	}()
	for !s.w.stop.Load() {
		var buf []byte
		if rd.carry != nil {
			buf, rd.carry = rd.carry, nil
		} else {
			if rd.buf == nil {
				rd.buf = bufs.take()
			}
			if buf = rd.next(); buf == nil {
				break
			}
			rd.buf = nil // raw's now
		}
		ci := len(raw.chunks)
		if ci == maxChunks {
			rd.end.err = unix.EOVERFLOW // 4 GiB of records: not addressable
			bufs.give(buf)
			break
		}
		raw.chunks = append(raw.chunks, buf)
		var de dirent
		for pos := 0; ; {
			off := pos
			var ok bool
			if pos, ok = nextDirent(buf, pos, &de); !ok {
				break
			}
			if de.ino == 0 || isDots(de.name) {
				continue
			}
			if limit > 0 && len(raw.ents) == limit {
				c := bufs.take()
				rd.carry = c[:copy(c, buf[off:])]
				if byName && len(raw.ents) > 1 {
					raw.lcp = lcp
				}
				return b, true
			}
			s.maybeYield()
			if de.typ == TypeDir || de.typ == TypeUnknown || de.typ == TypeSymlink {
				b.leaf = false
			}
			b.nameBytes += len(de.name)
			// Set in place, field by field: a sortEnt built whole and
			// then stored is read back before its parts reach memory
			// (a store-forwarding stall per record).
			i := len(raw.ents)
			if i == cap(raw.ents) {
				raw.grow(rd, limit)
			}
			raw.ents = raw.ents[:i+1]
			e := &raw.ents[i]
			if byName {
				e.key = nameKey(de.name)
				if first == nil {
					first, lcp = de.name, len(de.name)
				} else if lcp > 0 {
					lcp = commonPrefix(first[:lcp], de.name)
				}
			}
			e.off = uint32(ci<<chunkShift | off)
			e.nlen = uint16(len(de.name))
			e.typ = de.typ
		}
	}
	if byName && len(raw.ents) > 1 {
		raw.lcp = lcp
	}
	return b, false
}

// grow makes room for more entries in raw.ents, a directory of rd's
// being collected up to limit entries (0: all of it). Past the first
// few hundred, the directory's size (st_size: ext4 and tmpfs count its
// records' bytes) gives a guess of how many entries it holds, so that a
// huge directory's entries are allocated once, not doubled a dozen
// times: each doubling leaves the last array as garbage, resident until
// collected. The guess is bounded by limit, since a batch never holds
// more: an array sized for the whole directory would be resident for
// every batch of it. One too small falls back to doubling.
//
// By hand, not with slices.Grow, whose temporary slice of the growth's
// size slows a huge directory down.
func (raw *rawList) grow(rd *dirRead, limit int) {
	i := len(raw.ents)
	n := max(256, 2*i)
	if i == 256 {
		var st unix.Stat_t
		if fstat(rd.fd, &st) == nil && st.Size > 0 {
			n = max(n, int(min(st.Size/direntGuessBytes, maxEntsGuess)))
		}
	}
	if limit > 0 {
		n = min(n, limit)
	}
	ents := make([]sortEnt, i, n)
	copy(ents, raw.ents)
	raw.ents = ents
}

// The guess of a directory's entries from its size: a record is rarely
// shorter than direntGuessBytes in the directory's blocks, and the
// guess is bounded.
const (
	direntGuessBytes = 24
	maxEntsGuess     = 1 << 24
)

// recycle gives raw's read buffers back to bufs and empties raw, whose
// entries' space is kept unless a huge directory grew it.
func (raw *rawList) recycle(bufs *readBufs) {
	for i, c := range raw.chunks {
		bufs.give(c)
		raw.chunks[i] = nil
	}
	raw.chunks = raw.chunks[:0]
	if cap(raw.ents) > 1<<15 {
		raw.ents = nil
	} else {
		raw.ents = raw.ents[:0]
	}
}

// GNU find's directory batches (gnulib fts.c, fts_build). Without a
// comparison function fts reads at most ftsMaxReaddirEntries records
// before handing them out (the rest of the directory is read after that
// batch, and its subdirectories, are done), and sorts a batch of more
// than ftsInodeSortThreshold records by inode number, unless the file
// system is one where that is known not to help
// (dirent_inode_sort_may_be_useful). Checked against the findutils 4.9.0
// binary: cmp $0x2710 (10000) before the fstatfs test of tmpfs, CIFS and
// NFS, and max_entries = 0x186a0 (100000).
const (
	ftsMaxReaddirEntries  = 100000
	ftsInodeSortThreshold = 10000
)

// inodeSortUseful is fts's dirent_inode_sort_may_be_useful for the
// directory open as fd. Under -L fts runs without FTS_CWDFD, where it
// never learns the file system type and always sorts.
func (w *walk) inodeSortUseful(fd int) bool {
	return w.opt.Follow == FollowAll || !inodeSortUseless(fd)
}

// inodeKey sorts a batch by inode number; pos (increasing in readdir
// order) breaks ties, which makes the sort stable as glibc's qsort
// (a merge sort for arrays this size) is.
type inodeKey struct {
	ino uint64
	pos int
}

// sortScratch is scratch space for the sorts.
type sortScratch struct {
	ents   []sortEnt
	keys   []inodeKey
	packed []uint64
}

// sortByInode puts raw's entries in increasing inode order, ties (hard
// links) in readdir order.
func (raw *rawList) sortByInode(tmp *sortScratch) {
	ents := raw.ents
	ino := func(e *sortEnt) uint64 { return *(*uint64)(unsafe.Pointer(&raw.rec(e)[direntIno])) }
	perm := slices.Grow(tmp.ents[:0], len(ents))[:len(ents)]
	// Inode numbers and positions usually fit together in one word,
	// which sorts without a comparison function (bench/NOTES.md, "GNU
	// fts's batches").
	maxIno := uint64(0)
	for i := range ents {
		maxIno = max(maxIno, ino(&ents[i]))
	}
	if maxIno < 1<<40 && len(ents) <= 1<<24 {
		packed := slices.Grow(tmp.packed[:0], len(ents))
		for i := range ents {
			packed = append(packed, ino(&ents[i])<<24|uint64(i))
		}
		slices.Sort(packed)
		for i, k := range packed {
			perm[i] = ents[k&(1<<24-1)]
		}
		tmp.packed = packed[:0]
	} else {
		keys := slices.Grow(tmp.keys[:0], len(ents))
		for i := range ents {
			keys = append(keys, inodeKey{ino(&ents[i]), i})
		}
		slices.SortFunc(keys, func(a, b inodeKey) int {
			if c := cmp.Compare(a.ino, b.ino); c != 0 {
				return c
			}
			return cmp.Compare(a.pos, b.pos)
		})
		for i, k := range keys {
			perm[i] = ents[k.pos]
		}
		tmp.keys = keys[:0]
	}
	copy(ents, perm)
	tmp.ents = perm[:0]
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
// (seam.go).
//
// A directory whose identity came from a stat already (an lstat made
// for -xdev or -mount) holds a bind mount's real identity, which the
// "." record repeats: it is compared with its ancestors' at once.
func dotCheck(d *dir, fd int, dotIno uint64) (loop *dir, changed bool) {
	if dotIno == d.id.ino {
		if d.idExact {
			return ancestorOf(d), false
		}
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
	return ancestorOf(d), false
}

// statCheck is dotCheck for a directory whose first chunk has no "."
// record: the directory's own fstat gives its exact identity, for the
// loop check. A swap is reported only where it can be told from a file
// system whose records carry other inode numbers than stat (overlayfs,
// some FUSE): when the identity to compare came from a stat too.
func statCheck(d *dir, fd int) (loop *dir, changed bool) {
	var st unix.Stat_t
	if fstat(fd, &st) != nil {
		return nil, false
	}
	id := idOf(&st)
	if id == d.id {
		d.idExact = true
		return ancestorOf(d), false
	}
	if d.idExact && replaced(d, fd, &st, id.ino) {
		return nil, true
	}
	d.id, d.idExact = id, true
	return ancestorOf(d), false
}

// ancestorOf returns the ancestor of d that has d's identity, if any.
func ancestorOf(d *dir) *dir {
	for x := d.parent; x != nil; x = x.parent {
		if x.id == d.id {
			return x
		}
	}
	return nil
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
// FTS_DNR under -depth, and not reported a second time there; under
// IgnoreReaddirRace it is not (postVisit).
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
	if f := seam.BeforeOpen.Load(); f != nil {
		f(d.path())
	}
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

// replaced reports whether the directory open as fd, whose status is st
// and whose "." record has d_ino dotIno, is not the directory the walk
// saw under that name: the name was swapped (by rename(2)) for another
// directory between the read of its parent and the open. O_NOFOLLOW
// already refuses a symbolic link put there; this catches a directory.
// It is called only when dotIno differs from the identity recorded for
// d (dotCheck's slow path), so it costs nothing on the common path.
//
// A mismatch is not an error when
//   - the device differs: a mount point, whose record in the parent
//     carries the covered directory's inode (a rename cannot cross
//     file systems, so a swapped directory keeps the device);
//   - the identity came from a record's d_ino and this file system's
//     "." d_ino is not st_ino (overlayfs across file systems, some
//     FUSE): its d_ino cannot be compared with a stat;
//   - the directory is the root of a mount (a bind mount from the same
//     file system keeps the device, and its record still carries the
//     covered directory's inode), or may be one: where mountRoot cannot
//     tell (Linux < 5.8), nothing is reported.
func replaced(d *dir, fd int, st *unix.Stat_t, dotIno uint64) bool {
	if uint64(st.Dev) != d.id.dev || uint64(st.Ino) == d.id.ino {
		return false
	}
	if !d.idExact && dotIno != uint64(st.Ino) {
		return false
	}
	root, known := mountRoot(fd)
	return known && !root
}
