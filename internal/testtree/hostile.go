package testtree

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// Hostile trees for the hardening tests (issue 6): a chain far deeper
// than PATH_MAX, names with every byte, and symbolic link loops.

// ChainName returns the name of level i (1-based) of a DeepChain of
// names n bytes long: the level number, then 'x's.
func ChainName(i, n int) string {
	p := fmt.Sprintf("%05d", i)
	return p + strings.Repeat("x", n-len(p))
}

// DeepChain returns a part named "chain" holding levels nested
// directories whose names are nameLen bytes long (see ChainName), with
// an empty file "bottom" in the last one:
//
//	chain/
//	  00001xxx…/
//	    00002xxx…/
//	      …
//	        bottom
//
// 2,000 levels of 255-byte names make paths of 512,000 bytes, 125 times
// PATH_MAX. The chain is built level by level with mkdirat and openat,
// holding two descriptors at a time. Times are not set.
//
// os.RemoveAll (t.TempDir's cleanup) holds a descriptor per level while
// it removes the chain: a test that lowers RLIMIT_NOFILE for itself
// must remove the chain first.
func DeepChain(levels, nameLen int) Part {
	return Part{Name: "chain", build: func(t testing.TB, dir string) error {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		for i := 1; i <= levels; i++ {
			name := ChainName(i, nameLen)
			if err := unix.Mkdirat(fd, name, 0o755); err != nil {
				unix.Close(fd)
				return fmt.Errorf("mkdirat level %d: %w", i, err)
			}
			sub, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			unix.Close(fd)
			if err != nil {
				return fmt.Errorf("openat level %d: %w", i, err)
			}
			fd = sub
		}
		defer unix.Close(fd)
		f, err := unix.Openat(fd, "bottom", unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o644)
		if err != nil {
			return err
		}
		return unix.Close(f)
	}}
}

// AllBytesName is a name holding every byte value allowed in a name,
// 1 to 255 except '/', in order: 254 bytes.
var AllBytesName = func() string {
	var b []byte
	for c := 1; c < 256; c++ {
		if c != '/' {
			b = append(b, byte(c))
		}
	}
	return string(b)
}()

// ByteNameList lists the names of the empty files directly in bytes/
// (see ByteNames).
var ByteNameList = func() []string {
	var names []string
	for c := 1; c < 256; c++ {
		if c == '/' {
			continue
		}
		if c != '.' { // "." alone is the directory itself
			names = append(names, string([]byte{byte(c)}))
		}
		names = append(names, "x"+string([]byte{byte(c)})+"y")
	}
	return append(names,
		"-", "--", "-print", "-delete", "-exec", "(", ")", "!", ",", "\\", "\\n",
		"\n", "\n\n", " ", "\t", "\x1b[31mred\x1b[0m", "\xff\xfe", "\xc3", "caf\xc3\xa9",
		"\xe2\x80\xae", "{}", "'", "\"", "$HOME", "`id`", "*", "?", "[", "...",
	)
}()

// ByteNames holds names with every byte value, in a part named
// "bytes":
//
//	bytes/
//	  (each name in ByteNameList as an empty file: every byte but '/'
//	   and NUL alone (but '.') and between 'x' and 'y', and names that
//	   look like options, operators, escapes and shell syntax)
//	  AllBytesName/   dir with all 254 bytes in its name
//	    AllBytesName  empty file of the same name
//
// Times are not set.
var ByteNames = Part{Name: "bytes", build: func(t testing.TB, dir string) error {
	b := &builder{dir: dir}
	b.mkdir("")
	seen := map[string]bool{}
	for _, n := range ByteNameList {
		if !seen[n] {
			seen[n] = true
			b.file(n, 0)
		}
	}
	b.mkdir(AllBytesName)
	b.file(AllBytesName+"/"+AllBytesName, 0)
	return b.err
}}

// Loops holds symbolic link loops, for -L, in a part named "loops":
//
//	loops/
//	  self -> self          ELOOP
//	  a -> b  b -> a        a two-link cycle
//	  dot -> .              a link to its own directory
//	  d1/
//	    d2/
//	      up2 -> ../..      a link to an ancestor two levels up
//	      f                 empty file
//	  top -> (the absolute path of loops)
//
// Times are not set.
var Loops = Part{Name: "loops", build: func(t testing.TB, dir string) error {
	b := &builder{dir: dir}
	b.mkdir("")
	b.symlink("self", "self")
	b.symlink("b", "a")
	b.symlink("a", "b")
	b.symlink(".", "dot")
	b.mkdir("d1")
	b.mkdir("d1/d2")
	b.symlink("../..", "d1/d2/up2")
	b.file("d1/d2/f", 0)
	b.symlink(dir, "top")
	return b.err
}}
