package main

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/gfind/gfind/internal/testtool"
)

// digits are what differs between two runs of -printf %i on two copies
// of a tree: the inode numbers.
var digits = regexp.MustCompile(`[0-9]+`)

// TestVanishingInodeAgainstGNU: -inum and %i take a file's inode number
// from its directory record where GNU does (get_info's need_inum), so a
// file that vanished after its directory was read still has one: it is
// neither reported nor false, under -P, -L and -H, with and without
// -ignore_readdir_race. Under -L the links are followed, and stat'ed,
// by both. The numbers themselves differ between the two trees; only
// their presence is compared.
func TestVanishingInodeAgainstGNU(t *testing.T) {
	gnu := testtool.GNUFind(t)
	gfind := gfindBin(t)
	for _, lead := range []string{"-P", "-L", "-H"} {
		for _, opt := range []string{"", "-ignore_readdir_race", "-depth"} {
			for _, test := range []string{"-inum +0 -print", "-inum -1 -print", `-printf %i_%p\n`, `-printf %i_%s\n`} {
				c := fmt.Sprintf("%s race %s ( -path race/d/* %s -o -true ) %s", lead, opt, raceKill, test)
				t.Run(lead+" "+opt+" "+test, func(t *testing.T) {
					t.Parallel()
					compareVanishingOut(t, gnu, gfind, shellWords(c), mkRaceFiles, false, func(out string) string {
						return digits.ReplaceAllString(out, "N")
					})
				})
			}
		}
	}
}
