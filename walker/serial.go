package walker

import (
	"golang.org/x/sys/unix"
)

// serial is the one-worker walk: a recursive depth-first walk that visits
// each directory's entries in the order GNU find does, so that -j1
// output is byte-identical to find's. Unlike the parallel walk it reads a
// whole batch before visiting it (as fts does), because the visit order
// of a sorted batch depends on all of it.
type serial struct {
	wstate
	levels []*level
	raw    rawList  // the batch being collected (then packed, or moved to its level's listing)
	bufs   readBufs // read buffers
	tmp    sortScratch
}

// level is the reusable state of one depth of the recursion.
type level struct {
	d  dir     // the directory being read at this depth
	rd dirRead // the read of d
	// lst is the current batch in visit order: packed into a buffer of
	// its size (which grows to the largest batch met at this depth: a
	// 2,000-level chain of small directories must not cost 2,000 read
	// buffers), or for a batch read in several calls the records as
	// read (keepBig).
	lst listing
}

func newSerial(w *walk) *serial {
	s := &serial{}
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
	gen := d.gen
	rd := &lv.rd
	rd.start(d, d.fd, nil)
	for more := true; more && !w.stop.Load(); {
		var b batch
		b, more = s.collect(rd, &s.raw, &s.bufs, ftsMaxReaddirEntries, false)
		if rd.end.refused() {
			s.raw.recycle(&s.bufs)
			s.refuse(d, &rd.end)
			return
		}
		if len(s.raw.ents) > ftsInodeSortThreshold && w.inodeSortUseful(d.fd) {
			s.raw.sortByInode(&s.tmp)
		}
		lst := &lv.lst
		lst.big = nil
		if len(s.raw.chunks) > 1 {
			lst.keepBig(&s.raw)
		} else {
			lst.pack(&s.raw, b)
		}
		s.raw.recycle(&s.bufs) // before the subdirectories need it
		ok := s.visitBatch(d, lst)
		if lst.big != nil {
			lst.big.recycle(&s.bufs)
			lst.big = nil
		}
		if !ok {
			break
		}
		if d.gen != gen && more {
			// The descriptor was evicted and reopened while a
			// subdirectory was walked: go back to where the read was.
			gen = d.gen
			rd.fd = d.fd
			if err := seekDir(d.fd, d.pos); err != nil {
				rd.end.err = err
				break
			}
			d.mu.Lock()
			d.posKept = false
			d.mu.Unlock()
		}
	}
	if rd.carry != nil {
		s.bufs.give(rd.carry)
		rd.carry = nil
	}
	if !d.lost {
		s.readFailed(d, rd.end.err)
	}
}

// visitBatch visits the records of one batch of d, in lst's order. It
// returns false when the walk of d must end (Stop, or d could not be
// reopened).
func (s *serial) visitBatch(d *dir, lst *listing) bool {
	w := s.w
	s.pb.setDir(d)
	for pos, end := 0, lst.end(); pos < end; {
		if w.stop.Load() {
			return false
		}
		var de dirent
		if lst.big == nil {
			de, _, pos = packed(lst.recs, pos)
		} else {
			de, _, pos = lst.nextBig(pos)
		}
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
