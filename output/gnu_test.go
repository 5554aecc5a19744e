package output

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

// Differential tests: the same names through GNU find and through this
// package must give the same bytes. GNU find comes from testtool.GNUFind.

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
