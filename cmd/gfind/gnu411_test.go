package main

import (
	"testing"

	"github.com/gfind/gfind/internal/testtree"
)

// gnuOptCases run as user nobody in testtree.Perms, where the status of
// perms/listonly/f.txt cannot be had: which test runs first shows in
// the diagnostics. GNU 4.10 made -O1 the default, where only the tests
// on the name (and at -O1 -true and -false) move to the front; the
// cost-based reordering runs at -O2 and above (savannah bug 58427).
// gfind's -O2 and -O3 order by a cost model of its own, not by GNU's arm
// swaps, and are not compared here where the two differ.
var gnuOptCases = []gnuCase{
	{args: "perms/listonly -size +1 -name f.txt"},
	{args: "perms/listonly -size +1 -name nosuch"},
	{args: "-O0 perms/listonly -size +1 -name nosuch"},
	{args: "-O1 perms/listonly -size +1 -name nosuch"},
	{args: "-O3 perms/listonly -size +1 -name nosuch"},
	{args: "perms/listonly -size +1 -regex nosuch"},
	{args: "perms/listonly -size +1 ! -name f.txt", gnu411: &gnu411{stdout: []string{"perms/listonly"}, stderr: []string{"find: 'perms/listonly/f.txt': Permission denied"}, code: 1}},
	{args: "perms/listonly -size +1 , -name nosuch", gnu411: &gnu411{stderr: []string{"find: 'perms/listonly/f.txt': Permission denied"}, code: 1}},
	{args: "perms/listonly -size +1 -false"},
	{args: "-O0 perms/listonly -size +1 -false", gnu411: &gnu411{stderr: []string{"find: 'perms/listonly/f.txt': Permission denied"}, code: 1}},
	{args: "perms/listonly -size +1 -o -true"},
	{args: "perms/listonly -newer perms -type d", gnu411: &gnu411{stderr: []string{"find: 'perms/listonly/f.txt': Permission denied"}, code: 1}},
	{args: "-O2 perms/listonly -newer perms -type d"},
	{args: "-O3 perms/listonly -newer perms -type d"},
	{args: "perms/listonly -size +1 -o -type f", gnu411: &gnu411{stdout: []string{"perms/listonly", "perms/listonly/f.txt"}, stderr: []string{"find: 'perms/listonly/f.txt': Permission denied"}, code: 1}},
	{args: "-O2 perms/listonly -size +1 -o -type f"},
	{args: "perms/listonly -empty -type d", gnu411: &gnu411{stderr: []string{"find: 'perms/listonly/f.txt': Permission denied"}, code: 1}},
	// From -O2 on, what costs no more than the file type moves; a test
	// that makes a system call does not (GNU's NeedsType cost).
	{args: "-O2 perms/listonly -size +1 -readable"},
	{args: "-O2 perms/listonly -size +1 -executable"},
	{args: "-O2 perms/listonly -size +1 -lname x"},
	{args: "perms/listonly -readable -size +1", gnu411: &gnu411{stdout: []string{"perms/listonly"}}},
	{args: "perms/listonly -perm -1 -type d -name f.txt", gnu411: &gnu411{stderr: []string{"find: 'perms/listonly/f.txt': Permission denied"}, code: 1}},
	{args: "perms/listonly -size +1 -print -type d -name nosuch"},
	// From -O2 on an -fstype of a type nothing has is -false, before
	// the others, which are then never evaluated.
	{args: "-O2 perms -empty -fstype nosuchfs"},
	{args: "-O2 perms -empty -o -fstype nosuchfs"},
	{args: "perms/listonly -empty -fstype nosuchfs", gnu411: &gnu411{stderr: []string{"find: 'perms/listonly/f.txt': Permission denied"}, code: 1}},
	// -mount stats every file: one it cannot stat is reported, once,
	// and visited (4.9's -mount, which was -xdev, did not stat it).
	{args: "perms/listonly -mount", gnu411: &gnu411{stdout: []string{"perms/listonly", "perms/listonly/f.txt"}, stderr: []string{"find: 'perms/listonly/f.txt': Permission denied"}, code: 1}},
	{args: "perms/listonly -mount -size +1"},
	{args: "perms/listonly -mount -type f", gnu411: &gnu411{stderr: []string{"find: 'perms/listonly/f.txt': Permission denied"}, code: 1}},
	// The level: digits only, at most 65535 (strtoul into an unsigned
	// short).
	{args: "-O65535 perms -quit"},
	{args: "-O00002 perms -quit"},
	{args: "-O65536 perms"},
	{args: "-O18446744073709551615 perms"},
	{args: "-O18446744073709551616 perms"},
	{args: "-O1x perms"},
	{args: "-O0x10 perms"},
	{args: "-O1.5 perms"},
	{args: "-O+1 perms"},
	{args: "-O perms"},
}

// TestOptLevelAgainstGNU runs gnuOptCases.
func TestOptLevelAgainstGNU(t *testing.T) {
	runGNUCases(t, true, gnuOptCases, testtree.Perms)
}

// gnu411MiscCases are the diagnostics GNU 4.11 words otherwise than
// 4.9, that TestAgainstGNU's tree shows.
var gnu411MiscCases = []gnuCase{
	{args: ". -newermm", gnu411: &gnu411{stderr: []string{"find: The '-newermm' test needs to be followed by an argument"}, code: 1}},
	// -files0-from reading standard input, which -ok and -okdir read
	// their answers from (the rows of gnu_roots_test.go once; stdin is
	// /dev/null here, which GNU does not read before it refuses). A list
	// that is standard input under another name is refused too, which
	// gfind did not do.
	{args: "-files0-from - -ok echo {} ;", gnu411: &gnu411{stderr: []string{"find: when -ok or -okdir is in use, the option -files0-from cannot also read from standard input"}, code: 1}},
	{args: "-files0-from - -okdir echo {} ;", gnu411: &gnu411{stderr: []string{"find: when -ok or -okdir is in use, the option -files0-from cannot also read from standard input"}, code: 1}},
	{args: "-files0-from nosuch -files0-from - -ok echo {} ;", gnu411: &gnu411{stderr: []string{"find: when -ok or -okdir is in use, the option -files0-from cannot also read from standard input"}, code: 1}},
	{args: "-files0-from /dev/stdin -okdir echo {} ;", gnu411: &gnu411{stderr: []string{"find: when -ok or -okdir is in use, the option -files0-from cannot also read from standard input, but the file ('/dev/stdin') used for -files0-from appears to refer to the same file as the standard input"}, code: 1}},
	{args: "-files0-from /dev/null -ok echo {} ;", gnu411: &gnu411{stderr: []string{"find: when -ok or -okdir is in use, the option -files0-from cannot also read from standard input, but the file ('/dev/null') used for -files0-from appears to refer to the same file as the standard input"}, code: 1}},
	{args: "-files0-from /dev/stdin -print"},
	// -fstype TYPE where no mounted file system has TYPE is -false from
	// -O2 on only: at -O1, the default since 4.10, the file is stat'ed
	// and a device the mount table does not list is of type "unknown".
	{args: "-L /proc/self/ns -maxdepth 1 -fstype unknown -name mnt", gnu411: &gnu411{stdout: []string{"/proc/self/ns/mnt"}}},
	{args: "-O1 -L /proc/self/ns -maxdepth 1 -fstype unknown -name mnt"},
	{args: "-O2 -L /proc/self/ns -maxdepth 1 -fstype unknown -name mnt"},
	{args: ". -maxdepth 1 -fstype nosuchfs"},
	// A time that underflows is no error since 4.10 (gnulib's xstrtod):
	// 4.9 refused a subnormal one.
	{args: ". -maxdepth 0 ( -mtime 1e-320 -o -true )", gnu411: &gnu411{stdout: []string{"."}}},
	{args: ". -maxdepth 0 ( -amin -4e-324 -o -true )", gnu411: &gnu411{stdout: []string{"."}}},
	{args: ". -maxdepth 0 ( -used 1e-400 -o -true )"},
	// -daystart inserts no predicate (GNU 4.9 and 4.11 alike; gfind
	// kept it as a true test): it neither ends an operand nor is one.
	{args: "basic -daystart )"},
	{args: "basic -daystart -or -print"},
	{args: "basic -name a -o -daystart"},
	{args: "basic ( -daystart )"},
	{args: "basic ! -daystart"},
	{args: "basic -maxdepth 1 ! -daystart -name x.go"},
	{args: "basic -maxdepth 1 -daystart , -name x.go"},
	{args: "basic -maxdepth 1 -follow -o -print"},
	{args: "basic -maxdepth 1 -nowarn ( -warn )"},
	{args: "-files0-from /dev/null )"},
	{args: ". -newerat", gnu411: &gnu411{stderr: []string{"find: The '-newerat' test needs to be followed by an argument"}, code: 1}},
}

// TestAgainstGNU411Misc runs gnu411MiscCases in TestAgainstGNU's tree.
func TestAgainstGNU411Misc(t *testing.T) {
	runGNUCases(t, false, gnu411MiscCases, testtree.Basic, testtree.Links, testtree.WeirdNames, testtree.Deep)
}
