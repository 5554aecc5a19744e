package predicate

import (
	"sync"

	"github.com/gfind/gfind/walker"
)

// bfs's -unique: a file met again, by device and inode (another hard
// link, or the same directory reached through a followed symbolic link),
// is skipped with everything below it: neither visited nor descended
// into, as if -exclude had matched it. bfs checks it on every file before
// anything else, -exclude and -mindepth included, so gfind does it first
// in the walker's Options.Exclude (ExcludeFunc). Which of two paths to a
// file is kept is the one the walk meets first: under -j1 (and -s)
// always the same, with several workers whichever gets there first.
//
// Under -L a directory that loops back to an ancestor is such a file: bfs
// skips it silently then, instead of reporting a file system loop, and
// so does gfind (cmd/gfind drops the walker's LoopError under -unique).

// parseUnique is -unique, an option that is always true wherever it
// stands.
func parseUnique(p *parser, op string, _ variant) error {
	p.ext.Unique = true
	return nil
}

// seenShards is the number of locks of a seenSet: enough that workers
// (one per CPU) rarely wait for each other, few enough to cost nothing
// to make.
const seenShards = 64

// A seenSet is the files -unique has met, shared by all workers: a map
// per shard, each behind its own lock, chosen by the inode number, so
// that two workers contend only when their files fall in the same shard.
type seenSet struct {
	shards [seenShards]seenShard
}

type seenShard struct {
	mu sync.Mutex
	m  map[fileKey]struct{}
	_  [64 - 16]byte // one cache line per shard: no false sharing
}

// fileKey identifies a file, as bfs's bfs_file_id.
type fileKey struct{ dev, ino uint64 }

// add records k and reports whether it is new.
func (s *seenSet) add(k fileKey) bool {
	// The low bits of inode numbers are well spread; the device's mixed
	// in keeps two file systems' inode 2 apart.
	sh := &s.shards[(k.ino^k.dev*0x9e3779b97f4a7c15)%seenShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if _, ok := sh.m[k]; ok {
		return false
	}
	if sh.m == nil {
		sh.m = make(map[fileKey]struct{})
	}
	sh.m[k] = struct{}{}
	return true
}

// seenBefore reports whether -unique skips e: its status, as the tests
// see it (the target of a followed link), has been met before, or cannot
// be read (reported, as bfs does, and skipped).
func (s *State) seenBefore(set *seenSet, e *walker.Entry) bool {
	st, ok := s.stat(e)
	if !ok {
		return true
	}
	return !set.add(fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)})
}
