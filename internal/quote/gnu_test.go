package quote

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gfind/gfind/internal/testtool"
)

// Differential tests: the same names through GNU find and through this
// package must give the same bytes. GNU find comes from testtool.GNUFind.

// gnuStyles returns the locales to compare in: C always, C.UTF-8 when
// it is installed (GNU find then quotes with U+2018).
func gnuStyles(t *testing.T, find string) map[Style]string {
	styles := map[Style]string{C: "C"}
	cmd := exec.Command(find, "/nonexistent-gfind-probe")
	cmd.Env = []string{"LC_ALL=C.UTF-8"}
	out, _ := cmd.CombinedOutput()
	if bytes.Contains(out, []byte("\u2018")) {
		styles[UTF8] = "C.UTF-8"
	} else if testtool.CI() {
		t.Error("C.UTF-8 is missing under CI (Debian package libc-bin has it)")
	} else {
		t.Log("C.UTF-8 is not installed (Debian package libc-bin); comparing the C locale only")
	}
	return styles
}

// nameCorpus returns file names (no NUL, no '/') that exercise the
// quoting rules: the table inputs, every byte alone and in context,
// and random mixtures of ASCII, control bytes, high bytes and UTF-8.
func nameCorpus() []string {
	seen := map[string]bool{}
	var names []string
	add := func(s string) {
		if s == "" || s == "." || s == ".." || strings.ContainsAny(s, "/\x00") || len(s) > 255 || seen[s] {
			return
		}
		seen[s] = true
		names = append(names, s)
	}
	for _, tt := range quoteTests {
		add(tt.in)
	}
	for _, tt := range qmarkTests {
		add(tt.in)
	}
	for _, s := range utf8Edges {
		add(s)
	}
	for c := 1; c < 256; c++ {
		add(string([]byte{byte(c)}))
		add("a" + string([]byte{byte(c)}) + "z")
	}
	// Characters from Unicode 14 or earlier only: glibc 2.36 does not
	// know the later ones (a documented difference).
	ranges := [][2]rune{
		{0x80, 0x9f}, {0xa0, 0x17f}, {0x300, 0x36f}, {0x370, 0x3ff}, {0x400, 0x4ff},
		{0x600, 0x6ff}, {0x2000, 0x206f}, {0x2190, 0x21ff}, {0x3000, 0x303f},
		{0x4e00, 0x4e80}, {0xe000, 0xe010}, {0xfdd0, 0xfdef}, {0xfeff, 0xfeff},
		{0xfff0, 0xffff}, {0x1f600, 0x1f64f}, {0xe0001, 0xe0001}, {0xe0020, 0xe007f},
		{0xf0000, 0xf0010}, {0x10fff0, 0x10ffff},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1500; i++ {
		var b []byte
		for n := 1 + rng.IntN(12); n > 0; n-- {
			switch rng.IntN(6) {
			case 0:
				b = append(b, byte(0x20+rng.IntN(0x5f)))
			case 1:
				b = append(b, byte(1+rng.IntN(0x1f)))
			case 2:
				b = append(b, byte(0x80+rng.IntN(0x80)))
			case 3, 4:
				r := ranges[rng.IntN(len(ranges))]
				b = utf8.AppendRune(b, r[0]+rune(rng.IntN(int(r[1]-r[0]+1))))
			case 5:
				// a truncated or over-long multibyte sequence
				seqs := []string{"\xe2\x80", "\xf0\x9f", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xc0\xaf", "\xe0\x80\xaf", "\xfc\x84\x80\x80\x80\x80"}
				b = append(b, seqs[rng.IntN(len(seqs))]...)
			}
		}
		add(string(b))
	}
	return names
}

// TestQuoteMatchesGNU compares every corpus name's error line with GNU
// find's, in C and (where installed) C.UTF-8.
func TestQuoteMatchesGNU(t *testing.T) {
	find := testtool.GNUFind(t)
	names := nameCorpus()
	const dir = "/nonexistent-gfind-test/"
	args := make([]string, len(names))
	for i, n := range names {
		args[i] = dir + n
	}
	for style, locale := range gnuStyles(t, find) {
		t.Run(style.String(), func(t *testing.T) {
			cmd := exec.Command(find, args...)
			cmd.Args[0] = "find" // GNU names itself after argv[0]
			cmd.Env = []string{"LC_ALL=" + locale}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err == nil {
				t.Fatal("find succeeded on nonexistent paths")
			}
			// output.Diag's FileError: the program, the quoted name and
			// the C library's words for ENOENT.
			var want bytes.Buffer
			for _, a := range args {
				want.WriteString("find: " + style.Quote(a) + ": No such file or directory\n")
			}
			got := strings.SplitAfter(want.String(), "\n")
			gnu := strings.SplitAfter(stderr.String(), "\n")
			if len(got) != len(gnu) {
				t.Fatalf("GNU find wrote %d lines, we %d", len(gnu), len(got))
			}
			bad := 0
			for i := range got {
				if got[i] != gnu[i] {
					t.Errorf("name %q:\n got %q\nGNU %q", names[i], got[i], gnu[i])
					if bad++; bad > 10 {
						t.FailNow()
					}
				}
			}
		})
	}
}

// readAll reads the pty master until the slave side is closed (EIO).
func readAll(m *os.File) <-chan []byte {
	ch := make(chan []byte, 1)
	go func() {
		var out []byte
		buf := make([]byte, 4096)
		for {
			n, err := m.Read(buf)
			out = append(out, buf[:n]...)
			if err != nil {
				break
			}
		}
		ch <- out
	}()
	return ch
}

// TestQmarkMatchesGNU creates a file for each corpus name and compares
// what GNU find prints to a terminal with what a terminal-mode
// output.Sink prints: AppendTTY.
func TestQmarkMatchesGNU(t *testing.T) {
	find := testtool.GNUFind(t)
	dir := t.TempDir()
	var names []string
	for _, n := range nameCorpus() {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err == nil {
			names = append(names, n)
		}
	}
	for style, locale := range gnuStyles(t, find) {
		t.Run(style.String(), func(t *testing.T) {
			m, s := testtool.OpenPTY(t)
			cmd := exec.Command(find, ".", "-mindepth", "1")
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=" + locale}
			cmd.Stdout = s
			out := readAll(m)
			if err := cmd.Run(); err != nil {
				t.Fatal(err)
			}
			s.Close()
			gnu := strings.Split(strings.TrimSuffix(string(<-out), "\n"), "\n")

			// The same names as a terminal-mode output.Sink prints them.
			got := make([]string, len(names))
			for i, n := range names {
				got[i] = string(style.AppendTTY(nil, []byte("./"+n)))
			}

			slices.Sort(gnu)
			slices.Sort(got)
			if !slices.Equal(got, gnu) {
				for i := 0; i < len(got) && i < len(gnu); i++ {
					if got[i] != gnu[i] {
						t.Fatalf("first difference at %d (of %d/%d lines): got %q, GNU %q", i, len(got), len(gnu), got[i], gnu[i])
					}
				}
				t.Fatalf("got %d lines, GNU %d", len(got), len(gnu))
			}
		})
	}
}
