package output

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
)

// LocaleStyle returns the Style GNU find would use in this process's
// environment. See StyleFromEnv.
func LocaleStyle() Style { return StyleFromEnv(os.Getenv) }

// StyleFromEnv decides the Style the way GNU find's setlocale(LC_ALL, "")
// does, with getenv standing for the environment:
//
//   - each category's locale name is LC_ALL, else LC_<category>, else
//     LANG, else "C" (empty values count as unset);
//   - if any category names a locale that is not installed, setlocale
//     fails as a whole and find stays in the C locale (with GNU find
//     4.9, LANG=C.UTF-8 LC_MESSAGES=bogus gives '…', and so does an
//     uninstalled LANG=en_US.UTF-8, common in containers);
//   - otherwise the style is UTF-8 when LC_CTYPE's locale uses UTF-8.
//
// "Installed" follows glibc: the locale archive
// (/usr/lib/locale/locale-archive, unless LOCPATH is set), then
// <dir>/<name>/<LC_CATEGORY> for each dir in LOCPATH and /usr/lib/locale,
// where name may drop its @modifier, .codeset and _territory parts and
// the codeset may be normalised (UTF-8 -> utf8).
//
// Not modelled: locale.alias, names that are absolute paths, and the
// character set of a locale found under a name without a codeset (taken
// as not UTF-8, which is right for the usual en_US = ISO-8859-1).
func StyleFromEnv(getenv func(string) string) Style {
	return styleFromEnv(getenv, defaultLocaleDir, defaultLocaleDir+"/locale-archive")
}

// defaultLocaleDir is glibc's compiled-in locale path (Debian, Fedora,
// Arch: /usr/lib/locale).
const defaultLocaleDir = "/usr/lib/locale"

// localeCategories are glibc's categories in setlocale(LC_ALL) order,
// with the file that holds each inside a locale directory.
var localeCategories = [...]struct{ env, file string }{
	{"LC_CTYPE", "LC_CTYPE"},
	{"LC_NUMERIC", "LC_NUMERIC"},
	{"LC_TIME", "LC_TIME"},
	{"LC_COLLATE", "LC_COLLATE"},
	{"LC_MONETARY", "LC_MONETARY"},
	{"LC_MESSAGES", "LC_MESSAGES"},
	{"LC_PAPER", "LC_PAPER"},
	{"LC_NAME", "LC_NAME"},
	{"LC_ADDRESS", "LC_ADDRESS"},
	{"LC_TELEPHONE", "LC_TELEPHONE"},
	{"LC_MEASUREMENT", "LC_MEASUREMENT"},
	{"LC_IDENTIFICATION", "LC_IDENTIFICATION"},
}

func styleFromEnv(getenv func(string) string, localeDir, archivePath string) Style {
	name := func(category string) string {
		for _, v := range [...]string{"LC_ALL", category, "LANG"} {
			if s := getenv(v); s != "" {
				return s
			}
		}
		return "C"
	}
	if isCLocale(name("LC_CTYPE")) {
		// Whatever the other categories say, the character set is
		// ASCII: either setlocale succeeds with LC_CTYPE=C or it fails
		// and everything stays C. No file system access is needed.
		return StyleC
	}
	l := locator{archivePath: archivePath}
	if p := getenv("LOCPATH"); p != "" {
		// glibc skips the archive when LOCPATH is set, and searches
		// LOCPATH's directories before the default one.
		l.dirs = append(strings.Split(p, ":"), localeDir)
		l.archivePath = ""
	} else {
		l.dirs = []string{localeDir}
	}
	utf8 := false
	for i, c := range localeCategories {
		n := name(c.env)
		if isCLocale(n) {
			continue
		}
		codeset, ok := l.find(n, c.file)
		if !ok {
			return StyleC
		}
		if i == 0 {
			utf8 = normalizeCodeset(codeset) == "utf8"
		}
	}
	if utf8 {
		return StyleUTF8
	}
	return StyleC
}

func isCLocale(name string) bool { return name == "C" || name == "POSIX" }

// locator finds installed locales, remembering the archive's names.
type locator struct {
	dirs         []string
	archivePath  string
	archive      map[string]bool
	archiveReady bool
	// found maps a locale name to the directory where a category of it
	// was last found, tried first for the next category: only whether
	// each category exists matters after the first, and glibc's own
	// candidate list would find one there anyway. It halves the stat
	// calls for the usual LANG=C.UTF-8 (a directory named C.utf8).
	found map[string]foundLocale
}

type foundLocale struct{ dir, codeset string }

// find reports whether locale name is installed for the category whose
// file is file, and the codeset of the locale found ("" if unknown).
func (l *locator) find(name, file string) (codeset string, ok bool) {
	if !validLocaleName(name) {
		return "", false
	}
	if f, ok := l.found[name]; ok && localeFileExists(f.dir, file) {
		return f.codeset, true
	}
	lang, terr, cs, mod := explodeLocale(name)
	norm := ""
	if cs != "" {
		norm = normalizeCodeset(cs)
	}
	if l.archivePath != "" {
		// _nl_load_locale_from_archive tries the name as given, then
		// with the codeset normalised, and nothing shorter.
		names := l.archiveNames()
		if names[name] {
			return cs, true
		}
		if cs != "" && norm != cs && names[joinLocale(lang, terr, norm, mod)] {
			return cs, true
		}
	}
	// _nl_make_l10nflist tries every combination of the optional parts
	// (territory, codeset as given or normalised, modifier) in every
	// directory. When the user asked for a codeset, glibc then checks
	// that the locale found really uses it; a candidate without a
	// codeset part is accepted only if its data says the same, which is
	// not read here, so such a candidate is not counted.
	codesets := []string{""}
	if cs != "" {
		codesets = []string{cs}
		if norm != cs {
			codesets = append(codesets, norm)
		}
	}
	terrs, mods := []string{""}, []string{""}
	if terr != "" {
		terrs = append(terrs, terr)
	}
	if mod != "" {
		mods = append(mods, mod)
	}
	for _, dir := range l.dirs {
		if dir == "" {
			continue
		}
		for _, t := range terrs {
			for _, m := range mods {
				for _, c := range codesets {
					if d := dir + "/" + joinLocale(lang, t, c, m); localeFileExists(d, file) {
						l.remember(name, d, cs)
						return cs, true
					}
				}
			}
		}
	}
	return "", false
}

// remember notes that a category of locale name was found in dir.
func (l *locator) remember(name, dir, codeset string) {
	if l.found == nil {
		l.found = make(map[string]foundLocale)
	}
	l.found[name] = foundLocale{dir, codeset}
}

// validLocaleName is glibc's valid_locale_name, further refusing every
// name with a slash: absolute locale paths are not supported here.
func validLocaleName(name string) bool {
	return len(name) <= 255 && name != ".." && !strings.Contains(name, "/")
}

// explodeLocale splits language[_territory][.codeset][@modifier].
func explodeLocale(name string) (lang, terr, codeset, mod string) {
	if i := strings.IndexByte(name, '@'); i >= 0 {
		name, mod = name[:i], name[i+1:]
	}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name, codeset = name[:i], name[i+1:]
	}
	if i := strings.IndexByte(name, '_'); i >= 0 {
		name, terr = name[:i], name[i+1:]
	}
	return name, terr, codeset, mod
}

func joinLocale(lang, terr, codeset, mod string) string {
	s := lang
	if terr != "" {
		s += "_" + terr
	}
	if codeset != "" {
		s += "." + codeset
	}
	if mod != "" {
		s += "@" + mod
	}
	return s
}

// normalizeCodeset is glibc's _nl_normalize_codeset: keep letters
// (lowered) and digits, drop the rest, and prefix "iso" to an all-digit
// result. "UTF-8" and "utf8" both give "utf8".
func normalizeCodeset(cs string) string {
	var b strings.Builder
	digits := true
	for i := 0; i < len(cs); i++ {
		c := cs[i]
		switch {
		case 'A' <= c && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
			digits = false
		case 'a' <= c && c <= 'z':
			b.WriteByte(c)
			digits = false
		case '0' <= c && c <= '9':
			b.WriteByte(c)
		}
	}
	if digits && b.Len() > 0 {
		return "iso" + b.String()
	}
	return b.String()
}

// localeFileExists reports whether locale directory dir holds the
// category file; glibc reads SYS_<file> inside it when the file is a
// directory, which is how LC_MESSAGES is stored.
func localeFileExists(dir, file string) bool {
	fi, err := os.Stat(dir + "/" + file)
	if err != nil {
		return false
	}
	if fi.IsDir() {
		fi, err = os.Stat(dir + "/" + file + "/SYS_" + file)
		return err == nil && fi.Mode().IsRegular()
	}
	return fi.Mode().IsRegular()
}

// archiveNames returns the set of locale names in the archive, read
// once. Any problem reading it gives an empty set, as glibc then finds
// nothing there either.
func (l *locator) archiveNames() map[string]bool {
	if !l.archiveReady {
		l.archive = readArchiveNames(l.archivePath)
		l.archiveReady = true
	}
	return l.archive
}

// readArchiveNames lists the locales in a glibc locale-archive. The file
// is in the byte order of the machine whose localedef wrote it (glibc
// reads only its own), which the magic number tells: so a big-endian
// gfind reads its system's archive, and one under qemu-user the host's.
// It begins with struct locarhead; its name hash table holds, for each
// used slot, the offset of a NUL-terminated name in the string table.
// Only the header, the hash table and the string table are read, never
// the locale data (the archive is 200+ MB with locales-all installed).
func readArchiveNames(path string) map[string]bool {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var head [14 * 4]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return nil
	}
	const archiveMagic = 0xde020109
	var order binary.ByteOrder
	switch {
	case binary.LittleEndian.Uint32(head[:]) == archiveMagic:
		order = binary.LittleEndian
	case binary.BigEndian.Uint32(head[:]) == archiveMagic:
		order = binary.BigEndian
	default:
		return nil
	}
	u32 := func(b []byte, i int) uint32 { return order.Uint32(b[4*i:]) }
	hashOff, hashSize := int64(u32(head[:], 2)), int64(u32(head[:], 4))
	strOff, strUsed := int64(u32(head[:], 5)), int64(u32(head[:], 6))
	const maxTable = 64 << 20 // refuse absurd sizes from a corrupt file
	if hashSize*12 > maxTable || strUsed > maxTable {
		return nil
	}
	table := make([]byte, hashSize*12)
	if _, err := f.ReadAt(table, hashOff); err != nil {
		return nil
	}
	strs := make([]byte, strUsed)
	if _, err := f.ReadAt(strs, strOff); err != nil {
		return nil
	}
	names := make(map[string]bool)
	for i := int64(0); i < hashSize; i++ {
		nameOff := int64(u32(table, int(3*i+1)))
		if nameOff == 0 {
			continue // empty slot
		}
		rel := nameOff - strOff
		if rel < 0 || rel >= int64(len(strs)) {
			continue
		}
		s := strs[rel:]
		if j := bytes.IndexByte(s, 0); j >= 0 {
			names[string(s[:j])] = true
		}
	}
	return names
}
