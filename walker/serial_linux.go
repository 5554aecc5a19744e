package walker

import (
	"cmp"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"
)

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

// File system magic numbers (statfs f_type) on which fts skips the
// inode sort.
const (
	magicTmpfs = 0x01021994
	magicNFS   = 0x6969
	magicCIFS  = 0xFF534D42
)

// serial is the one-worker walk: a recursive depth-first walk that visits
// each directory's entries in the order GNU find does, so that -j1
// output is byte-identical to find's. Unlike the parallel walk it reads a
// whole batch before visiting it (as fts does) into a buffer kept per
// depth, because the visit order of a sorted batch depends on all of it.
type serial struct {
	wstate
	levels []*level
	rbuf   []byte     // getdents64 buffer, copied into a level's buf
	keys   []inodeKey // for the inode sort
	packed []uint64   // for the inode sort, when inode and position fit a word
}

// level is the reusable state of one depth of the recursion.
type level struct {
	d dir // the directory being read at this depth
	// buf holds the raw getdents64 records of the current batch. It
	// grows to the size of the largest directory met at this depth: a
	// 2,000-level chain of small directories must not cost 2,000 read
	// buffers.
	buf  []byte
	recs []int   // offsets in buf of the records to visit, in visit order
	rd   dirRead // the read of d
}

// inodeKey sorts a batch by inode number; off (increasing in readdir
// order) breaks ties, which makes the sort stable as glibc's qsort
// (a merge sort for arrays this size) is.
type inodeKey struct {
	ino uint64
	off int
}

func newSerial(w *walk) *serial {
	s := &serial{rbuf: make([]byte, direntBufSize)}
	s.init(w, 0)
	return s
}

func (s *serial) level(depth int) *level {
	for len(s.levels) <= depth {
		s.levels = append(s.levels, &level{})
	}
	return s.levels[depth]
}

func (s *serial) walkRoot(r string) {
	d := &s.level(0).d
	d.reset()
	d.setName(nil, []byte(r))
	if s.visitRoot(d) {
		s.readChild(d, nil)
	}
}

// readChild opens d (a child of parent, or a root), reads it, and makes
// its post-order visit. parent, when not nil, is pinned by the caller.
func (s *serial) readChild(d *dir, parent *dir) {
	w := s.w
	parentFD := unix.AT_FDCWD
	if parent != nil {
		parentFD = parent.fd
	}
	if err := w.openChild(d, &s.scratch, false); err != nil {
		s.openFailed(d, parentFD, err)
	} else {
		if parent != nil {
			// While d is read, parent's descriptor may be evicted.
			w.unpin(parent, false)
		}
		s.readDir(d)
		if d.lost {
			w.release(d)
		} else if parent != nil {
			w.unpin(d, true) // closes d, reopening an evicted parent by ".."
			fd, err := w.pin(parent)
			if err != nil {
				// The parent cannot be reopened, so neither can its
				// remaining entries be visited.
				s.lost(parent, err)
				return
			}
			parentFD = fd
		} else {
			w.unpin(d, true)
		}
	}
	s.postVisit(d, parentFD)
}

// readDir reads the open directory d batch by batch and visits its
// entries, recursing into subdirectories. d is pinned on entry and on
// return.
func (s *serial) readDir(d *dir) {
	w := s.w
	lv := s.level(d.depth)
	lv.buf = lv.buf[:0]
	gen := d.gen
	rd := &lv.rd
	rd.start(d, d.fd, s.rbuf)
	eof := false
	carry := 0 // lv.buf[carry:] holds records read but not yet batched
	for !eof && !w.stop.Load() {
		// Read one batch.
		lv.recs = lv.recs[:0]
		if carry > 0 {
			lv.buf = lv.buf[:copy(lv.buf, lv.buf[carry:])]
		}
		pos := 0
		full := false
		for {
			// Records already in the buffer first (a carried rest).
			for {
				var de dirent
				next, ok := nextDirent(lv.buf, pos, &de)
				if !ok {
					break
				}
				if de.ino != 0 && !isDots(de.name) {
					if len(lv.recs) == cap(lv.recs) {
						// Double: append's 1.25x growth would copy
						// a 100,000-entry batch many times over.
						lv.recs = slices.Grow(lv.recs, max(64, cap(lv.recs)))
					}
					lv.recs = append(lv.recs, pos)
				}
				pos = next
				if len(lv.recs) == ftsMaxReaddirEntries {
					full = true
					break
				}
			}
			if full {
				break
			}
			chunk := rd.next()
			if chunk == nil {
				if rd.end.refused() {
					s.refuse(d, &rd.end)
					return
				}
				eof = true
				break
			}
			if cap(lv.buf)-len(lv.buf) < len(chunk) {
				lv.buf = slices.Grow(lv.buf, max(len(chunk), cap(lv.buf)))
			}
			lv.buf = append(lv.buf, chunk...)
		}
		carry = pos
		if len(lv.recs) > ftsInodeSortThreshold && s.inodeSortUseful(d) {
			s.sortByInode(lv)
		}
		if !s.visitBatch(d, lv) {
			return
		}
		if d.gen != gen && !eof {
			// The descriptor was evicted and reopened while a
			// subdirectory was walked: go back to where the read was.
			gen = d.gen
			rd.fd = d.fd
			if err := seekDir(d.fd, lastOff(lv.buf)); err != nil {
				rd.end.err = err
				break
			}
		}
	}
	s.readFailed(d, rd.end.err)
}

// sortByInode puts the batch in increasing inode order.
func (s *serial) sortByInode(lv *level) {
	ino := func(off int) uint64 { return *(*uint64)(unsafe.Pointer(&lv.buf[off+int(direntIno)])) }
	// Inode numbers and batch positions usually fit together in one
	// word, which sorts without a comparison function (about 3x
	// faster); ties between hard links keep readdir order either way.
	maxIno := uint64(0)
	for _, off := range lv.recs {
		maxIno = max(maxIno, ino(off))
	}
	if maxIno < 1<<40 && len(lv.recs) <= 1<<24 {
		packed := slices.Grow(s.packed[:0], len(lv.recs))
		for i, off := range lv.recs {
			packed = append(packed, ino(off)<<24|uint64(i))
		}
		slices.Sort(packed)
		for i, k := range packed {
			packed[i] = uint64(lv.recs[k&(1<<24-1)])
		}
		for i, off := range packed {
			lv.recs[i] = int(off)
		}
		s.packed = packed[:0]
		return
	}
	keys := slices.Grow(s.keys[:0], len(lv.recs))
	for _, off := range lv.recs {
		keys = append(keys, inodeKey{ino(off), off})
	}
	slices.SortFunc(keys, func(a, b inodeKey) int {
		if c := cmp.Compare(a.ino, b.ino); c != 0 {
			return c
		}
		return cmp.Compare(a.off, b.off)
	})
	for i, k := range keys {
		lv.recs[i] = k.off
	}
	s.keys = keys[:0]
}

// lastOff returns the d_off cookie of the last record in buf.
func lastOff(buf []byte) int64 {
	var off int64
	for pos := 0; ; {
		var de dirent
		next, ok := nextDirent(buf, pos, &de)
		if !ok {
			return off
		}
		off = de.off
		pos = next
	}
}

// inodeSortUseful is fts's dirent_inode_sort_may_be_useful. Under -L fts
// runs without FTS_CWDFD, where it never learns the file system type and
// always sorts.
func (s *serial) inodeSortUseful(d *dir) bool {
	if s.w.opt.Follow == FollowAll {
		return true
	}
	switch fsType(d.fd) {
	case magicTmpfs, magicNFS, magicCIFS:
		return false
	}
	return true
}

// visitBatch visits the records of one batch of d. It returns false when
// the walk of d must end (Stop, or d could not be reopened).
func (s *serial) visitBatch(d *dir, lv *level) bool {
	w := s.w
	s.pb.setDir(d)
	for _, pos := range lv.recs {
		if w.stop.Load() {
			return false
		}
		var de dirent
		nextDirent(lv.buf, pos, &de)
		descend, c := s.entry(d, d.fd, &de)
		if !descend {
			continue
		}
		cl := s.level(d.depth + 1)
		cd := &cl.d
		cd.reset()
		cd.setName(d, de.name)
		cd.typ = TypeDir
		cd.follow = w.opt.Follow == FollowAll
		cd.linkFollowed = c.linkFollowed
		cd.id, cd.idExact = c.id, c.exact
		s.readChild(cd, d)
		if d.lost {
			return false
		}
		s.pb.setDir(d)
	}
	return true
}
