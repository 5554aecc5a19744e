package output

import "github.com/gfind/gfind/internal/quote"

// Style is how file names are shown to a person: how diagnostics quote
// them, how a terminal sees their unprintable bytes, and how a colored
// path escapes them. The quoting itself is internal/quote's, which the
// engines below output (internal/printf) use too; output decides the
// style from the locale (StyleFromEnv) and applies it.
type Style = quote.Style

const (
	// StyleC is the C (POSIX) locale, and any locale whose character
	// set is not UTF-8.
	StyleC = quote.C
	// StyleUTF8 is a UTF-8 locale.
	StyleUTF8 = quote.UTF8
)
