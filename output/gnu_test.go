package output

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gfind/gfind/internal/testtool"
	"golang.org/x/sys/unix"
)

// Differential tests: the same names through GNU find and through this
// package must give the same bytes. GNU find comes from testtool.GNUFind.

// gnuStyles returns the locales to compare in: C always, C.UTF-8 when
// it is installed (GNU find then quotes with U+2018).
func gnuStyles(t *testing.T, find string) map[Style]string {
	styles := map[Style]string{StyleC: "C"}
	cmd := exec.Command(find, "/nonexistent-gfind-probe")
	cmd.Env = []string{"LC_ALL=C.UTF-8"}
	out, _ := cmd.CombinedOutput()
	if bytes.Contains(out, []byte("\u2018")) {
		styles[StyleUTF8] = "C.UTF-8"
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
			var want bytes.Buffer
			d := NewDiagStyle("find", &want, style)
			for _, a := range args {
				d.FileError([]byte(a), unix.ENOENT)
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
// what GNU find prints to a terminal with what a terminal-mode Sink
// prints.
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
			m, s := openPTY(t)
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

			// The same names through a Sink forced into terminal mode.
			var ours bytes.Buffer
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() { io.Copy(&ours, r); close(done) }()
			sink := NewSink(w, NewDiagStyle("find", io.Discard, style), WithTTY(true))
			buf := sink.NewBuffer()
			for _, n := range names {
				buf.Print([]byte("./"+n), '\n')
			}
			buf.Flush()
			sink.Close()
			<-done
			got := strings.Split(strings.TrimSuffix(ours.String(), "\n"), "\n")

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

// TestStyleFromEnvMatchesGNU runs GNU find under each environment and
// checks that StyleFromEnv predicts its quotes. Locales are made with
// LOCPATH and copies of the installed C.utf8.
func TestStyleFromEnvMatchesGNU(t *testing.T) {
	find := testtool.GNUFind(t)
	const cutf8 = defaultLocaleDir + "/C.utf8"
	if _, err := os.Stat(cutf8 + "/LC_CTYPE"); err != nil {
		testtool.Missing(t, "locale C.utf8", "libc-bin", err)
	}
	loc := t.TempDir()
	copyDir(t, cutf8, filepath.Join(loc, "xx_YY.utf8"))
	// A locale with only LC_CTYPE: usable for LC_CTYPE alone.
	if err := os.MkdirAll(filepath.Join(loc, "pp.utf8"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, cutf8+"/LC_CTYPE", filepath.Join(loc, "pp.utf8", "LC_CTYPE"))

	for _, env := range [][]string{
		{},
		{"LANG=C.UTF-8"},
		{"LC_ALL=C.UTF-8"},
		{"LC_ALL=C.utf8"},
		{"LC_ALL=C.UTF8"},
		{"LC_ALL=POSIX"},
		{"LANG=C.UTF-8", "LC_CTYPE=C"},
		{"LANG=C", "LC_CTYPE=C.UTF-8"},
		{"LANG=C.UTF-8", "LC_ALL="},
		{"LANG=C.UTF-8", "LC_MESSAGES=bogus"},
		{"LANG=C.UTF-8", "LC_CTYPE=bogus"},
		{"LANG=bogus", "LC_CTYPE=C.UTF-8"},
		{"LANG=c.utf-8"},
		{"LANG=C.utf-8@euro"},
		{"LANG=C.ISO-8859-1"},
		{"LC_ALL=en_US.UTF-8"},
		{"LC_ALL=xx_YY.UTF-8", "LOCPATH=" + loc},
		{"LC_ALL=xx_YY.utf8@mod", "LOCPATH=" + loc},
		{"LC_ALL=xx_YY", "LOCPATH=" + loc},
		{"LC_ALL=xx_YY.iso88591", "LOCPATH=" + loc},
		{"LC_ALL=xx.utf8", "LOCPATH=" + loc},
		{"LC_ALL=pp.utf8", "LOCPATH=" + loc},
		{"LC_CTYPE=pp.utf8", "LOCPATH=" + loc},
		{"LC_ALL=C.UTF-8", "LOCPATH=/nonexistent"},
		{"LC_ALL=../C.utf8"},
	} {
		t.Run(strings.Join(env, " "), func(t *testing.T) {
			cmd := exec.Command(find, "/nonexistent-gfind-probe")
			cmd.Env = env
			out, _ := cmd.CombinedOutput()
			gnu := StyleC
			if bytes.Contains(out, []byte("\u2018")) {
				gnu = StyleUTF8
			}
			getenv := func(k string) string {
				for _, kv := range env {
					if v, ok := strings.CutPrefix(kv, k+"="); ok {
						return v
					}
				}
				return ""
			}
			if got := StyleFromEnv(getenv); got != gnu {
				t.Errorf("StyleFromEnv = %v, GNU find quoted in %v (%q)", got, gnu, out)
			}
		})
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		copyFile(t, p, dst)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLocaleArchive builds a locale archive with localedef and checks
// that its names are found there: installed locales usually live in the
// archive, not in directories. (The locales are built from POSIX data
// in ASCII, which takes milliseconds; only their names matter here.)
func TestLocaleArchive(t *testing.T) {
	localedef := testtool.Need(t, "localedef", "libc-bin")
	// The POSIX source and the ASCII charmap come with Debian's locales.
	for _, src := range []string{"/usr/share/i18n/locales/POSIX", "/usr/share/i18n/charmaps/ANSI_X3.4-1968.gz"} {
		if _, err := os.Stat(src); err != nil {
			testtool.Missing(t, "localedef's "+filepath.Base(src), "locales", err)
		}
	}
	prefix := t.TempDir()
	dir := filepath.Join(prefix, "usr/lib/locale")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(dir, "locale-archive")
	for _, name := range []string{"xx_YY.UTF-8", "de_DE"} {
		// -c: the POSIX source lacks some categories, which is only a
		// warning, but one that sets the exit status.
		cmd := exec.Command(localedef, "--prefix="+prefix, "-c", "-i", "POSIX", "-f", "ANSI_X3.4-1968", name)
		out, _ := cmd.CombinedOutput()
		if _, err := os.Stat(archive); err != nil {
			t.Fatalf("localedef made no archive: %s", out)
		}
	}
	names := readArchiveNames(archive)
	for _, n := range []string{"xx_YY.utf8", "de_DE", "de_DE.ansix341968"} {
		if !names[n] {
			t.Errorf("archive names %v lack %q", names, n)
		}
	}
	for _, tt := range []struct {
		lang string
		want Style
	}{
		{"xx_YY.UTF-8", StyleUTF8},
		{"xx_YY.utf8", StyleUTF8},
		{"de_DE", StyleC},
		{"en_GB.UTF-8", StyleC}, // not installed: setlocale fails
	} {
		getenv := func(k string) string {
			if k == "LANG" {
				return tt.lang
			}
			return ""
		}
		if got := styleFromEnv(getenv, dir, archive); got != tt.want {
			t.Errorf("LANG=%s: style %v, want %v", tt.lang, got, tt.want)
		}
	}
	if names := readArchiveNames(filepath.Join(dir, "nonexistent")); len(names) != 0 {
		t.Errorf("names from a missing archive: %v", names)
	}
}

// TestLocaleArchiveByteOrder: an archive is read in the byte order its
// magic number shows, little- or big-endian (written here by hand: the
// header, a hash table of two used slots and one empty, the names).
func TestLocaleArchiveByteOrder(t *testing.T) {
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		const hashOff, strOff = 56, 92 // after the 14-word header; after 3 slots of 12 bytes
		strs := "fr_FR.utf8\x00C.utf8\x00"
		b := make([]byte, strOff+len(strs))
		put := func(off int, v uint32) { order.PutUint32(b[off:], v) }
		put(0, 0xde020109)
		put(2*4, hashOff)
		put(4*4, 3) // slots
		put(5*4, strOff)
		put(6*4, uint32(len(strs)))
		put(hashOff+0*12+4, strOff)    // slot 0: "fr_FR.utf8"
		put(hashOff+2*12+4, strOff+11) // slot 2: "C.utf8"; slot 1 empty
		copy(b[strOff:], strs)
		path := filepath.Join(t.TempDir(), "locale-archive")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		names := readArchiveNames(path)
		if len(names) != 2 || !names["fr_FR.utf8"] || !names["C.utf8"] {
			t.Errorf("%v: names %v, want fr_FR.utf8 and C.utf8", order, names)
		}
		// A wrong magic number is not an archive in either order.
		put(0, 0x0901d0de)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if names := readArchiveNames(path); len(names) != 0 {
			t.Errorf("%v: names %v from a bad magic number", order, names)
		}
	}
}
