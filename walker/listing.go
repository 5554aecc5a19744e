package walker

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// A listing is a batch of a directory's records in the order the walk
// visits them (depth.go): gnulib fts's batches, or the whole directory by
// name. A batch read in one getdents call is packed, in visit order, into
// a buffer of its size; a bigger one keeps its records in the read
// buffers (rawList) and is visited through its sorted entries. The sort
// by name is here too.

// listing is one batch of a directory, as the walk visits it.
type listing struct {
	// recs holds the entries to visit, in visit order, packed (see
	// packedRec): the walk reads them front to back rather than the
	// kernel's records in hash order, in about half the bytes.
	recs []byte
	// big, for a batch read in more than one call, replaces recs: its
	// records stay in the read buffers and are visited through the
	// sorted entries, rather than copied once more, which costs more
	// than the visit through the entries saves.
	//
	// Lifetime: a big listing may be read by several frames at once,
	// each visiting its own range of it (owned.offer gives ranges away),
	// and none writes to it after the read; as no big listing is kept
	// for reuse (putListing), it lives until the last of those frames
	// drops it, and the garbage collector frees it.
	big *rawList
	// lastDir is the position of the last record of type directory, or
	// -1: where a walk may look for one to give away (owned.offer).
	lastDir int
}

// nextBig returns the entry of l.big at index pos and the next index.
func (l *listing) nextBig(pos int) (de dirent, next int) {
	return l.big.dirent(&l.big.ents[pos]), pos + 1
}

// next returns the record of l at pos, and the position of the next.
func (l *listing) next(pos int) (de dirent, next int) {
	if l.big == nil {
		return packed(l.recs, pos)
	}
	return l.nextBig(pos)
}

// end returns the position past l's last entry.
func (l *listing) end() int {
	if l.big != nil {
		return len(l.big.ents)
	}
	return len(l.recs)
}

// A packed record of listing.recs: the name's length (2 bytes, native
// order), the Type (1), the inode number (8: a directory's identity, and a file's
// Entry.DirentIno), then the name and its NUL (the *at calls need it). A
// record is 15 bytes plus its name's length, against 32 on average in
// the kernel's format.
const (
	packedHead = 3
	packedIno  = 8
)

// packed returns the record of recs at pos and the position of the next.
func packed(recs []byte, pos int) (de dirent, next int) {
	b := recs[pos:]
	nlen := int(binary.NativeEndian.Uint16(b))
	de.typ = Type(b[2])
	de.ino = binary.NativeEndian.Uint64(b[packedHead:])
	const p = packedHead + packedIno
	de.name = b[p : p+nlen]
	return de, pos + p + nlen + 1
}

// rawList is a directory as read, before packing: the OS's
// records, in the read buffers they were read into (chunks of
// direntBufSize bytes), and an entry per record to sort. It is a
// reader's scratch space, reused for every directory it reads.
type rawList struct {
	chunks [][]byte
	ents   []sortEnt
	// lcp is the length of the prefix all names share: sort keys are
	// taken after it (names of one big directory often share more than
	// eight bytes: file000001.txt, file000002.txt).
	lcp int
}

// sortEnt is one entry of a rawList: where its record is, what the walk
// needs of it, and the eight bytes of its name after the listing's common
// prefix, big-endian and zero-padded, so that most comparisons are one
// integer comparison (names hold no NUL byte, so padding sorts first, as a
// shorter name must). 16 bytes: the sort moves them.
type sortEnt struct {
	key  uint64
	off  uint32 // of the record: chunk off>>chunkShift at off&chunkMask
	nlen uint16 // the name's length
	typ  Type
}

// Record offsets in a chunked listing.
const (
	chunkShift = 15
	chunkMask  = 1<<chunkShift - 1
	maxChunks  = 1 << (32 - chunkShift) // what a sortEnt.off can address
)

// A chunk must hold any offset below direntBufSize.
var _ [chunkMask + 1 - direntBufSize]struct{}

// rec returns the records from e's on.
func (l *rawList) rec(e *sortEnt) []byte {
	return l.chunks[e.off>>chunkShift][e.off&chunkMask:]
}

// dirent returns the record of e.
func (l *rawList) dirent(e *sortEnt) dirent {
	b := l.rec(e)
	return dirent{
		ino:  *(*uint64)(unsafe.Pointer(&b[direntIno])),
		typ:  e.typ,
		name: b[direntName : int(direntName)+int(e.nlen)],
	}
}

// touch loads the first and the last byte of the records of ents[from:to],
// and returns their sum for the caller to keep: in name order, a big
// listing's records are all over its read buffers, and the visits, each
// long, would otherwise meet their records' cache misses one at a time;
// loaded together, a run of them costs about one.
func (l *rawList) touch(from, to int) (sum byte) {
	for i := from; i < to; i++ {
		e := &l.ents[i]
		c := l.chunks[e.off>>chunkShift]
		off := int(e.off & chunkMask)
		sum += c[off] + c[off+int(direntName)+int(e.nlen)]
	}
	return sum
}

// touchAhead is how many records ahead of the visit, and in how big a
// run, visit touches a big listing's records.
const touchAhead = 16

// name returns the name of e.
func (l *rawList) name(e *sortEnt) []byte {
	return l.rec(e)[direntName : int(direntName)+int(e.nlen)]
}

// nameKey returns the sort key of name.
func nameKey(name []byte) uint64 {
	if len(name) >= 8 {
		return binary.BigEndian.Uint64(name)
	}
	if cap(name) >= 8 {
		// One load, past the name but within its buffer (a record's
		// NUL and padding, or the next record), and the bytes past
		// the name cleared: most directory names are short.
		return binary.BigEndian.Uint64(name[:8]) &^ (1<<(8*(8-len(name))) - 1)
	}
	var key uint64
	for i, c := range name {
		key |= uint64(c) << (56 - 8*i)
	}
	return key
}

// commonPrefix returns the length of the prefix a and b share.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && binary.LittleEndian.Uint64(a[i:]) == binary.LittleEndian.Uint64(b[i:]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// less orders a before b: by key, then (eight more shared bytes) by the
// rest of the names.
func (l *rawList) less(a, b *sortEnt) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return l.tieLess(a, b)
}

// tieLess orders a before b when their keys are equal.
func (l *rawList) tieLess(a, b *sortEnt) bool {
	return bytes.Compare(l.name(a)[l.lcp:], l.name(b)[l.lcp:]) < 0
}

// sort sets the keys after the common prefix of the names, and puts the
// entries in byte order of their names: insertion sort for the small
// directories that are most of a tree, a merge sort through *tmp for the
// middling (16-byte elements move less with a merge than with the swaps of
// a quick sort), and a radix sort of the keys for the big (radixSort).
// Names in one directory are distinct: stability does not matter.
func (l *rawList) sort(tmp *[]sortEnt) {
	s := l.ents
	if len(s) < 2 {
		return
	}
	if l.lcp > 0 {
		for i := range s {
			s[i].key = nameKey(l.name(&s[i])[l.lcp:])
		}
	}
	if len(s) <= 24 {
		l.insertionSort(s)
		return
	}
	if len(s) >= radixMin {
		if t := max(radixMin, len(s)/8); cap(*tmp) < t {
			*tmp = make([]sortEnt, t)
		}
		l.radixSort(s, 7, tmp)
	} else {
		if h := (len(s) + 1) / 2; cap(*tmp) < h {
			*tmp = make([]sortEnt, h)
		}
		l.mergeSort(s, (*tmp)[:cap(*tmp)])
	}
	if cap(*tmp) > 1<<15 {
		*tmp = nil // a huge directory's: not kept
	}
}

// radixMin is the fewest entries sort sorts by radix: below, the passes
// over radixSort's tables of counts cost more than the merge sort's
// comparisons.
const radixMin = 4096

// radixSort sorts s, whose keys share their bytes above byte b (0 is the
// least significant). Its comparisons are none of the merge sort's, half of
// them mispredicted on names in hash order. A slice that fits in *tmp is
// sorted by lsdSort; a bigger one is first split in place by byte b
// (American flag sort), so that the scratch space stays an eighth of the
// directory's entries, less than the merge sort's half.
func (l *rawList) radixSort(s []sortEnt, b int, tmp *[]sortEnt) {
	if len(s) <= cap(*tmp) {
		l.lsdSort(s, (*tmp)[:len(s)], b)
		l.sortTies(s, tmp)
		return
	}
	var count, next [256]int
	sh := uint(8 * b)
	for i := range s {
		count[byte(s[i].key>>sh)]++
	}
	sum := 0
	for i, n := range count {
		next[i] = sum
		sum += n
	}
	// Each entry is swapped straight to the next free place of its
	// bucket; a bucket is done once its free places are filled.
	end := 0
	for c := range 256 {
		end += count[c]
		for next[c] < end {
			v := s[next[c]]
			for t := byte(v.key >> sh); int(t) != c; t = byte(v.key >> sh) {
				v, s[next[t]] = s[next[t]], v
				next[t]++
			}
			s[next[c]] = v
			next[c]++
		}
	}
	l.sortBuckets(s, count[:], b, tmp)
}

// sortBuckets sorts each of the buckets of s, split by byte b, whose
// sizes are in count.
func (l *rawList) sortBuckets(s []sortEnt, count []int, b int, tmp *[]sortEnt) {
	start := 0
	for _, n := range count {
		if bucket := s[start : start+n]; n < 2 {
		} else if b == 0 {
			l.sortTies(bucket, tmp)
		} else {
			l.radixSort(bucket, b-1, tmp)
		}
		start += n
	}
}

// lsdSort sorts s through tmp, as long, by bytes b to 0 of the keys (those
// above are shared): a least significant digit radix sort, a byte a pass,
// with the passes skipped where every key has the same byte (in a big
// directory most names have the same length and suffix: file000001.txt).
func (l *rawList) lsdSort(s, tmp []sortEnt, b int) {
	// int32: a listing holds fewer records than maxChunks chunks can,
	// under 2^31.
	var count [8][256]int32
	for i := range s {
		k := s[i].key
		for j := range b + 1 {
			count[j][byte(k>>(8*j))]++
		}
	}
	src, dst := s, tmp
	for j := range b + 1 {
		c := &count[j]
		sh := uint(8 * j)
		if c[byte(src[0].key>>sh)] == int32(len(src)) {
			continue
		}
		var sum int32
		for i, n := range c {
			c[i] = sum
			sum += n
		}
		for i := range src {
			e := &src[i]
			t := byte(e.key >> sh)
			dst[c[t]] = *e
			c[t]++
		}
		src, dst = dst, src
	}
	if &src[0] != &s[0] {
		copy(s, src)
	}
}

// sortTies sorts the runs of equal keys in s, sorted by key (names that
// share eight more bytes), by the rest of their names.
func (l *rawList) sortTies(s []sortEnt, tmp *[]sortEnt) {
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j].key == s[i].key {
			j++
		}
		if n := j - i; n > 24 {
			if h := (n + 1) / 2; cap(*tmp) < h {
				*tmp = make([]sortEnt, h)
			}
			l.mergeSort(s[i:j], (*tmp)[:cap(*tmp)])
		} else if n > 1 {
			l.insertionSort(s[i:j])
		}
		i = j
	}
}

func (l *rawList) insertionSort(s []sortEnt) {
	for i := 1; i < len(s); i++ {
		x := s[i]
		j := i
		for ; j > 0; j-- {
			// less, with its common case inline.
			if y := &s[j-1]; x.key > y.key || x.key == y.key && !l.tieLess(&x, y) {
				break
			}
			s[j] = s[j-1]
		}
		s[j] = x
	}
}

// mergeSort sorts s using tmp (at least half as long as s) as scratch
// space.
func (l *rawList) mergeSort(s, tmp []sortEnt) {
	if len(s) <= 24 {
		l.insertionSort(s)
		return
	}
	m := len(s) / 2
	l.mergeSort(s[:m], tmp)
	l.mergeSort(s[m:], tmp)
	l.merge(s, m, tmp)
}

// merge merges the sorted s[:m] and s[m:] using tmp (at least m long) as
// scratch space.
func (l *rawList) merge(s []sortEnt, m int, tmp []sortEnt) {
	if !l.less(&s[m], &s[m-1]) {
		return // already in order (common: names created in order)
	}
	// Only the first half is moved out of the way: the merge writes s[k]
	// with k <= m+j, never past the next element of the second half.
	copy(tmp, s[:m])
	a, b := tmp[:m], s[m:]
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if x, y := &b[j], &a[i]; x.key < y.key || x.key == y.key && l.tieLess(x, y) {
			s[k] = b[j]
			j++
		} else {
			s[k] = a[i]
			i++
		}
		k++
	}
	copy(s[k:], a[i:]) // the rest of b is in place
}

// pack writes raw's entries, in their order, into l.recs. b is what
// collect learned of them.
func (l *listing) pack(raw *rawList, b gathered) {
	size := len(raw.ents)*(packedHead+packedIno+1) + b.nameBytes
	if cap(l.recs) < size {
		// Rounded up, so that the listing, once recycled, fits most
		// directories without a new buffer.
		l.recs = make([]byte, 0, roundUp(size))
	}
	recs := l.recs[:size]
	pos := 0
	l.lastDir = -1
	for i := range raw.ents {
		e := &raw.ents[i]
		rec := raw.rec(e)
		nlen := int(e.nlen)
		b := recs[pos:]
		binary.NativeEndian.PutUint16(b, e.nlen)
		b[2] = byte(e.typ)
		copy(b[packedHead:packedHead+packedIno], rec[direntIno:direntIno+8])
		const p = packedHead + packedIno
		if e.typ == TypeDir {
			l.lastDir = pos
		}
		// The name, with the NUL the kernel wrote after it.
		copy(b[p:p+nlen+1], rec[direntName:int(direntName)+nlen+1])
		pos += p + nlen + 1
	}
	l.recs = recs
}

// keepBig gives l raw's records and entries as they are (a directory
// read in several calls: copying them once more costs more than the
// visit through the entries saves); raw is left empty.
func (l *listing) keepBig(raw *rawList) {
	big := new(rawList)
	*big = *raw
	*raw = rawList{}
	l.big = big
	l.lastDir = -1
	for i := len(big.ents) - 1; i >= 0; i-- {
		if big.ents[i].typ == TypeDir {
			l.lastDir = i
			break
		}
	}
}

// roundUp returns the power of two at or above n, at least 16.
func roundUp(n int) int {
	return max(16, 1<<bits.Len(uint(n-1)))
}
