// Copied verbatim (below this header) from the project's shared benchmark
// material, /work/shared/bench/mktree.go, so that `go build ./bench/mktree`
// works inside the module and the trees (wide, src, deep and their .counts
// files) stay byte-for-byte the ones the reference figures in
// /work/shared/bench/README.md were measured on. Keep it in step with that
// file; do not change the generator's output, or numbers stop being comparable.
// The one departure: the system calls are x/sys/unix's, not package syscall's,
// whose *at calls exist only on Linux (and AT_FDCWD is -2 on macOS), so that
// the generator builds on every OS gfind does; the calls made are the same.
//
// mktree.go - deterministic benchmark-tree generator for gfind.
//
// Built and run by the `mktree` wrapper script next to this file.
//
//	mktree [-f] [-j N] DIR [wide|src|deep ...]
//
// Trees (created as DIR/<name>; a summary is written to DIR/<name>.counts):
//
//	wide  one directory with 100,000 empty files
//	src   a monorepo-like tree of exactly 1,000,000 entries (root included):
//	      70,000 directories (depth <= 12), 920,000 files, 10,000 symlinks,
//	      mixed extensions, hidden files/dirs, ~10% of files non-empty
//	deep  a 2,000-level directory chain (paths ~22 KB, > PATH_MAX) with
//	      3 files at each level
//
// All names, shapes and contents come from a fixed-seed splitmix64 PRNG, so
// every run produces the same tree (readdir order is up to the filesystem).
// *at() syscalls keep it fast and let the deep tree exceed PATH_MAX.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// ---------- deterministic PRNG ----------

type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float in [0,1)
func (r *rng) f() float64 { return float64(r.next()>>11) / (1 << 53) }

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// ---------- helpers ----------

func die(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "mktree: "+format+"\n", a...)
	os.Exit(1)
}

func mkdirat(dfd int, name string) {
	if err := unix.Mkdirat(dfd, name, 0o755); err != nil {
		die("mkdirat %s: %v", name, err)
	}
}

func openDir(dfd int, name string) int {
	fd, err := unix.Openat(dfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		die("openat %s: %v", name, err)
	}
	return fd
}

func createFile(dfd int, name string, content []byte) {
	fd, err := unix.Openat(dfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o644)
	if err != nil {
		die("create %s: %v", name, err)
	}
	if len(content) > 0 {
		if _, err := unix.Write(fd, content); err != nil {
			die("write %s: %v", name, err)
		}
	}
	unix.Close(fd)
}

func symlinkat(target string, dfd int, name string) {
	if err := unix.Symlinkat(target, dfd, name); err != nil {
		die("symlinkat %s: %v", name, err)
	}
}

type counts struct {
	entries, dirs, files, symlinks, nameLog, nonEmpty, hidden int
}

func writeCounts(path string, c counts, extra string) {
	s := fmt.Sprintf("entries=%d\ndirs=%d\nfiles=%d\nsymlinks=%d\nname_log=%d\nnonempty_files=%d\nhidden_entries=%d\n%s",
		c.entries, c.dirs, c.files, c.symlinks, c.nameLog, c.nonEmpty, c.hidden, extra)
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		die("%v", err)
	}
}

// ---------- wide ----------

func makeWide(root string) counts {
	const n = 100000
	mkdirat(atFDCWD, root)
	dfd := openDir(atFDCWD, root)
	defer unix.Close(dfd)
	var c counts
	c.entries, c.dirs = 1, 1
	// every 20th file is a .log (5,000 matches for -name '*.log'); all empty
	names := make([]string, n)
	for i := 0; i < n; i++ {
		ext := ".txt"
		if i%20 == 7 {
			ext = ".log"
			c.nameLog++
		}
		names[i] = fmt.Sprintf("file%06d%s", i, ext)
	}
	parallel(n, func(i int) { createFile(dfd, names[i], nil) })
	c.files = n
	c.entries += n
	return c
}

// ---------- deep ----------

func makeDeep(root string) counts {
	const levels = 2000
	var c counts
	mkdirat(atFDCWD, root)
	dfd := openDir(atFDCWD, root)
	c.entries, c.dirs = 1, 1
	for lv := 1; lv <= levels; lv++ {
		createFile(dfd, "a.c", nil)
		createFile(dfd, "b.log", nil)
		createFile(dfd, "c.txt", []byte("level "+strconv.Itoa(lv)+"\n"))
		c.files += 3
		c.nameLog++
		c.nonEmpty++
		c.entries += 3
		name := fmt.Sprintf("level_%04d", lv)
		mkdirat(dfd, name)
		nfd := openDir(dfd, name)
		unix.Close(dfd)
		dfd = nfd
		c.dirs++
		c.entries++
	}
	unix.Close(dfd)
	return c
}

// ---------- src ----------

const (
	srcDirs     = 70000 // including the root
	srcSymlinks = 10000
	srcEntries  = 1000000
	srcFiles    = srcEntries - srcDirs - srcSymlinks
	srcMaxDepth = 12
)

// target number of directories at each depth 1..12 (sums to srcDirs-1)
var dirsPerDepth = []int{0, 24, 260, 1400, 3900, 7600, 10400, 11800, 11200, 9300, 6600, 4500, 3015}

var dirWords = []string{"src", "lib", "pkg", "internal", "cmd", "test", "tests", "util", "core", "api",
	"net", "io", "proto", "gen", "vendor", "third_party", "docs", "tools", "build", "scripts",
	"client", "server", "common", "base", "impl", "runtime", "compiler", "parser", "storage", "ui"}
var hiddenDirWords = []string{".git", ".cache", ".github", ".vscode", ".idea", ".config"}
var fileWords = []string{"main", "util", "parser", "handler", "config", "types", "server", "client",
	"index", "api", "model", "view", "store", "cache", "hash", "buffer", "stream", "encode", "decode",
	"table", "lexer", "token", "graph", "node", "tree", "queue", "pool", "worker", "format", "error"}
var hiddenFileWords = []string{".gitignore", ".keep", ".env", ".clang-format", ".editorconfig", ".build.log"}

type extW struct {
	ext string
	w   int
}

// extension mix (weights in percent)
var exts = []extW{{".c", 20}, {".h", 12}, {".go", 20}, {".log", 4}, {".txt", 8}, {".md", 5},
	{".json", 5}, {".py", 6}, {".o", 5}, {".sh", 3}, {".yaml", 4}, {"", 8}}

func pickExt(r *rng) string {
	x := r.intn(100)
	for _, e := range exts {
		if x < e.w {
			return e.ext
		}
		x -= e.w
	}
	return ""
}

type sdir struct {
	parent int
	depth  int
	name   string
	nkids  int // for naming
	files  []sfile
	kids   []int
}

type sfile struct {
	name   string
	size   int    // >0: write that many bytes
	link   string // non-empty: symlink target
	isLink bool
}

func isLogName(n string) bool { return len(n) >= 4 && n[len(n)-4:] == ".log" }

func planSrc() ([]sdir, counts) {
	r := &rng{s: 0x6766696e64} // "gfind"
	dirs := make([]sdir, 1, srcDirs)
	dirs[0] = sdir{parent: -1, depth: 0, name: ""}
	var c counts
	c.entries, c.dirs = 1, 1

	// fertility weights: a directory's chance to be chosen as a parent.
	// ~35% of dirs are sterile (leaves at any depth), the rest Pareto-ish.
	fert := []float64{1}
	levelStart := 0
	levelEnd := 1
	for d := 1; d <= srcMaxDepth; d++ {
		// cumulative weights over the previous level
		cum := make([]float64, levelEnd-levelStart)
		tot := 0.0
		for i := levelStart; i < levelEnd; i++ {
			tot += fert[i]
			cum[i-levelStart] = tot
		}
		if tot == 0 {
			die("plan: no fertile dirs at depth %d", d-1)
		}
		for k := 0; k < dirsPerDepth[d]; k++ {
			x := r.f() * tot
			j := sort.SearchFloat64s(cum, x)
			if j >= len(cum) {
				j = len(cum) - 1
			}
			p := levelStart + j
			for fert[p] == 0 { // skip zero-weight slots the search may land on
				j++
				p = levelStart + j
			}
			var name string
			if r.intn(100) < 2 {
				name = hiddenDirWords[r.intn(len(hiddenDirWords))] + strconv.Itoa(dirs[p].nkids)
				c.hidden++
			} else {
				name = dirWords[r.intn(len(dirWords))] + strconv.Itoa(dirs[p].nkids)
			}
			dirs[p].nkids++
			id := len(dirs)
			dirs = append(dirs, sdir{parent: p, depth: d, name: name})
			dirs[p].kids = append(dirs[p].kids, id)
			w := 0.0
			if r.intn(100) >= 35 {
				w = 1 / (0.05 + r.f()) // heavy-ish tail, max 20
			}
			fert = append(fert, w)
			c.dirs++
			c.entries++
		}
		levelStart, levelEnd = levelEnd, len(dirs)
	}
	if len(dirs) != srcDirs {
		die("plan: %d dirs, want %d", len(dirs), srcDirs)
	}

	// file weights: Pareto-like with alpha ~1.3, capped; leaves get a bit more.
	cum := make([]float64, len(dirs))
	tot := 0.0
	for i := range dirs {
		u := 0.02 + r.f()
		w := 1 / (u * u) // 1..2500
		if w > 400 {
			w = 400
		}
		if len(dirs[i].kids) == 0 {
			w *= 1.5
		}
		tot += w
		cum[i] = tot
	}
	pick := func() int {
		j := sort.SearchFloat64s(cum, r.f()*tot)
		if j >= len(cum) {
			j = len(cum) - 1
		}
		return j
	}
	perDirSeq := make([]int, len(dirs))
	for k := 0; k < srcFiles; k++ {
		d := pick()
		seq := perDirSeq[d]
		perDirSeq[d]++
		var name string
		if r.intn(100) < 1 {
			name = hiddenFileWords[r.intn(len(hiddenFileWords))] + "." + strconv.Itoa(seq)
			if r.intn(3) == 0 {
				name += ".log"
			}
			c.hidden++
		} else {
			name = fileWords[r.intn(len(fileWords))] + "_" + strconv.Itoa(seq) + pickExt(r)
		}
		f := sfile{name: name}
		if r.intn(100) < 10 {
			f.size = 1 + r.intn(512)
			c.nonEmpty++
		}
		if isLogName(name) {
			c.nameLog++
		}
		dirs[d].files = append(dirs[d].files, f)
		c.files++
		c.entries++
	}
	for k := 0; k < srcSymlinks; k++ {
		d := pick()
		seq := perDirSeq[d]
		perDirSeq[d]++
		name := "link_" + strconv.Itoa(seq) + pickExt(r)
		var target string
		switch x := r.intn(10); {
		case x < 6 && len(dirs[d].files) > 0:
			target = dirs[d].files[r.intn(len(dirs[d].files))].name
		case x < 8:
			target = ".." // points at a directory (never followed by default)
		default:
			target = "missing_" + strconv.Itoa(seq) // dangling
		}
		if isLogName(name) {
			c.nameLog++
		}
		dirs[d].files = append(dirs[d].files, sfile{name: name, link: target, isLink: true})
		c.symlinks++
		c.entries++
	}
	if c.entries != srcEntries {
		die("plan: %d entries, want %d", c.entries, srcEntries)
	}
	return dirs, c
}

func makeSrc(root string) (counts, string) {
	dirs, c := planSrc()
	mkdirat(atFDCWD, root)
	// paths (all < PATH_MAX here)
	paths := make([]string, len(dirs))
	paths[0] = root
	maxDepth, depthHist := 0, make([]int, srcMaxDepth+1)
	maxFiles := 0
	for i := 1; i < len(dirs); i++ {
		paths[i] = paths[dirs[i].parent] + "/" + dirs[i].name
		depthHist[dirs[i].depth]++
		if dirs[i].depth > maxDepth {
			maxDepth = dirs[i].depth
		}
	}
	for i := range dirs {
		if len(dirs[i].files) > maxFiles {
			maxFiles = len(dirs[i].files)
		}
	}
	// dirs are stored level by level, so creating each level in parallel
	// after the previous one is safe.
	start := 1
	for d := 1; d <= srcMaxDepth; d++ {
		end := start
		for end < len(dirs) && dirs[end].depth == d {
			end++
		}
		lo := start
		parallel(end-start, func(k int) {
			i := lo + k
			if err := unix.Mkdir(paths[i], 0o755); err != nil {
				die("mkdir %s: %v", paths[i], err)
			}
		})
		start = end
	}
	content := make([]byte, 512)
	for i := range content {
		content[i] = byte('a' + i%26)
	}
	content[511] = '\n'
	parallel(len(dirs), func(i int) {
		if len(dirs[i].files) == 0 {
			return
		}
		dfd := openDir(atFDCWD, paths[i])
		for _, f := range dirs[i].files {
			if f.isLink {
				symlinkat(f.link, dfd, f.name)
			} else {
				createFile(dfd, f.name, content[:f.size])
			}
		}
		unix.Close(dfd)
	})
	extra := fmt.Sprintf("max_depth_dir=%d\nmax_entries_per_dir=%d\ndirs_per_depth=%v\n", maxDepth, maxFiles, depthHist[1:])
	return c, extra
}

// ---------- parallel loop ----------

var workers = runtime.NumCPU() * 4

func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	const chunk = 64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				s := next
				next += chunk
				mu.Unlock()
				if s >= n {
					return
				}
				e := s + chunk
				if e > n {
					e = n
				}
				for i := s; i < e; i++ {
					fn(i)
				}
			}
		}()
	}
	wg.Wait()
}

func main() {
	force := flag.Bool("f", false, "remove and recreate trees that already exist")
	flag.IntVar(&workers, "j", workers, "parallel creators")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: mktree [-f] [-j N] DIR [wide|src|deep ...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 {
		flag.Usage()
		os.Exit(2)
	}
	base := flag.Arg(0)
	which := flag.Args()[1:]
	if len(which) == 0 {
		which = []string{"wide", "src", "deep"}
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		die("%v", err)
	}
	for _, t := range which {
		root := filepath.Join(base, t)
		cf := root + ".counts"
		if _, err := os.Lstat(root); err == nil {
			if !*force {
				fmt.Fprintf(os.Stderr, "mktree: %s exists, keeping it (-f to recreate)\n", root)
				continue
			}
			fmt.Fprintf(os.Stderr, "mktree: removing %s\n", root)
			if err := removeTree(root); err != nil {
				die("remove %s: %v", root, err)
			}
		}
		os.Remove(cf)
		var c counts
		extra := ""
		switch t {
		case "wide":
			c = makeWide(root)
		case "src":
			c, extra = makeSrc(root)
		case "deep":
			c = makeDeep(root)
			extra = "levels=2000\n"
		default:
			die("unknown tree %q", t)
		}
		// `sync` is not needed for page-cache benchmarks; counts last so a
		// partial tree has no .counts file.
		writeCounts(cf, c, extra)
		fmt.Fprintf(os.Stderr, "mktree: %s: %d entries (%d dirs, %d files, %d symlinks)\n",
			root, c.entries, c.dirs, c.files, c.symlinks)
	}
}

// os.RemoveAll works relative to directory fds on Unix, so it copes with
// the > PATH_MAX deep tree.
func removeTree(p string) error { return os.RemoveAll(p) }

const atFDCWD = unix.AT_FDCWD
