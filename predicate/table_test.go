package predicate

import "testing"

// TestTable checks the parse table's rows: one per name, each with a
// parser, each found by lookup as the name is typed, and the rows of a
// help group together, in the order of the groups.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	var last HelpGroup
	for _, e := range table {
		if seen[e.name] {
			t.Errorf("two rows for %q", e.name)
		}
		seen[e.name] = true
		if e.parse == nil {
			t.Errorf("%q: no parse function", e.name)
		}
		typed := e.name
		switch {
		case e.name == "newerXY":
			typed = "-newermt"
		case e.name[0] == '-' || 'a' <= e.name[0] && e.name[0] <= 'z':
			typed = "-" + e.name
		}
		if got, op := lookup(typed); got != &table[len(seen)-1] || op != typed {
			t.Errorf("lookup(%q) = %v, %q: not its row", typed, got, op)
		}
		if e.group == HelpNone {
			if e.arg != "" || e.pre != "" || e.alt != "" || e.desc != "" || e.sep != "" {
				t.Errorf("%q: help fields on a row --help does not list", e.name)
			}
			continue
		}
		if e.group < last {
			t.Errorf("%q: help group %d after group %d", e.name, e.group, last)
		}
		last = e.group
	}
	for _, bad := range []string{"-nosuch", "--name", "-newerXYZ", "-newerX", "-"} {
		if e, _ := lookup(bad); e != nil {
			t.Errorf("lookup(%q) found %q", bad, e.name)
		}
	}
}
