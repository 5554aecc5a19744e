package predicate

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gfind/gfind/walker"
	"golang.org/x/sys/unix"
)

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

// TestRowVariants checks that each row sharing its parse function with
// a row of another variant gets its own behaviour: what the node, the
// walk's options and the warnings show of it for "PRIMARY ARGS".
func TestRowVariants(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	e := walker.Synthetic("./Dir/File", 2, walker.TypeRegular, &unix.Stat_t{Mode: unix.S_IFREG}, nil)
	tests := []struct{ args, want string }{
		{"-false", "const false"}, {"-true", "const true"},
		{"! ( -true -a -false )", "not *predicate.andNode false"},
		{"! ( -true -and -false )", "not *predicate.andNode false"},
		{"! ( -true -o -false )", "not *predicate.orNode true"},
		{"! ( -true -or -false )", "not *predicate.orNode true"},
		{"! ( -true , -false )", "not *predicate.commaNode false"},
		{"-nowarn -name a/b", "match false"}, {"-warn -name a/b", "match false warned"},
		{"-maxdepth 3", "print 10 depth 3 0"}, {"-mindepth 3", "print 10 depth -1 3"},
		{"-ignore_readdir_race", "print 10 race"}, {"-noignore_readdir_race", "print 10"},
		{"-depth", "print 10 post"}, {"-d", "print 10 post warned"},
		{"-amin 1", "time a"}, {"-cmin 1", "time c"}, {"-mmin 1", "time m"},
		{"-atime 1", "time a"}, {"-ctime 1", "time c"}, {"-mtime 1", "time m"},
		{"-anewer .", "newer a"}, {"-cnewer .", "newer c"}, {"-newer .", "newer m"},
		{"-uid 0", "group false"}, {"-gid 0", "group true"},
		{"-user 0", "group false"}, {"-group 0", "group true"},
		{"-nouser", "group false"}, {"-nogroup", "group true"},
		{"-name file", "match false"}, {"-iname file", "match true"},
		{"-path ./dir/file", "match false"}, {"-ipath ./dir/file", "match true"},
		{"-wholename ./dir/file", "match false"}, {"-iwholename ./dir/file", "match true"},
		{"-regex ./dir/file", "match false"}, {"-iregex ./dir/file", "match true"},
		{"-glob dir/file", "match false"}, {"-iglob dir/file", "match true"},
		{"-lname file", "match false"}, {"-ilname file", "match true"},
		{"-links 1", "inum false"}, {"-inum 1", "inum true"},
		{"-readable", "mode 4"}, {"-writable", "mode 2"}, {"-executable", "mode 1"},
		{"-xattr", "meta -xattr"}, {"-xattrname user.x", "meta -xattrname"},
		{"-acl", "meta -acl"}, {"-capable", "meta -capable"},
		{"-older 1d", "older true"}, {"-newer-than 1d", "older false"},
		{"-printf %p", "file false"}, {"-fprintf " + out + " %p", "file true"},
		{"-ls", "file false"}, {"-fls " + out, "file true"},
		{"-fprint " + out, "term 10"}, {"-fprint0 " + out, "term 0"},
		{"-exec true ;", "exec false false"}, {"-ok true ;", "exec false true"},
		{"-execdir true ;", "exec true false"}, {"-okdir true ;", "exec true true"},
		{"-delete", "dry false post"}, {"-delete-dry-run", "dry true post"},
		{"-nocolor -print", "print 10"}, {"-color -print", "colored print"},
		{"-print", "print 10"}, {"-print0", "print 0"},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		args := parseArgs(tt.args)
		covered[args[0]] = true
		if args[0] == "!" {
			covered[args[3]] = true
		}
		var warned bool
		cfg := Config{Warnings: true, Warn: func(string) { warned = true }, Now: timeNow}
		cmd, err := Parse(append([]string{"."}, args...), cfg)
		if err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		got := describeVariant(cmd, e)
		if warned {
			got += " warned"
		}
		if got != tt.want {
			t.Errorf("%q: %q, want %q", tt.args, got, tt.want)
		}
		cmd.Close()
	}
	// Every row whose function another row of another variant shares
	// has a case.
	variants := map[uintptr]map[variant]bool{}
	for _, r := range table {
		fn := reflect.ValueOf(r.parse).Pointer()
		if variants[fn] == nil {
			variants[fn] = map[variant]bool{}
		}
		variants[fn][r.v] = true
	}
	primaries := Primaries()
	for i, r := range table {
		if len(variants[reflect.ValueOf(r.parse).Pointer()]) > 1 && !covered[primaries[i].Name] {
			t.Errorf("%q shares its parse function with another variant: no case", r.name)
		}
	}
}

// describeVariant says what a row's variant decides in cmd: of the
// first node that is not an option's, then of the walk's options.
func describeVariant(cmd *Command, e *walker.Entry) string {
	kids := []Node{cmd.Expr}
	if and, ok := cmd.Expr.(*andNode); ok {
		kids = and.kids
	}
	var got string
	for _, k := range kids {
		if p, ok := k.(*posNode); ok {
			k = p.kid
		}
		if c, ok := k.(*constNode); ok && c.args[0] != "-true" && c.args[0] != "-false" {
			continue // an option's
		}
		got = describeNode(k, e)
		break
	}
	if w := cmd.Walk; w.MaxDepth != -1 || w.MinDepth != 0 {
		got += fmt.Sprint(" depth ", w.MaxDepth, " ", w.MinDepth)
	}
	if cmd.Walk.PostOrder {
		got += " post"
	}
	if cmd.Walk.IgnoreReaddirRace {
		got += " race"
	}
	return got
}

func describeNode(n Node, e *walker.Entry) string {
	switch n := n.(type) {
	case *nameNode, *pathNode, *regexNode, *globNode:
		return fmt.Sprint("match ", n.Eval(e, newTestState()))
	case *lnameNode:
		return fmt.Sprint("match ", n.g.Match([]byte("File")))
	case *notNode:
		return fmt.Sprintf("not %T %v", n.kid, n.kid.Eval(e, newTestState()))
	case *constNode:
		return fmt.Sprint("const ", n.val)
	case *timeNode:
		return "time " + string(n.field)
	case *newerNode:
		return "newer " + string(n.x)
	case *idNumNode:
		return fmt.Sprint("group ", n.group)
	case *ownerNode:
		return fmt.Sprint("group ", n.group)
	case *noOwnerNode:
		return fmt.Sprint("group ", n.group)
	case *inodeNumNode:
		return fmt.Sprint("inum ", n.inum)
	case *accessNode:
		return fmt.Sprint("mode ", n.mode)
	case *metaNode:
		return "meta " + metaOps[n.kind]
	case *olderNode:
		return fmt.Sprint("older ", n.older)
	case *printfNode:
		return fmt.Sprint("file ", n.file != nil)
	case *lsNode:
		return fmt.Sprint("file ", n.file != nil)
	case *fprintNode:
		return fmt.Sprint("term ", n.term)
	case *execNode:
		return fmt.Sprint("exec ", n.inDir, " ", n.ask)
	case *deleteNode:
		return fmt.Sprint("dry ", n.dry != nil)
	case *printNode:
		return fmt.Sprint("print ", n.term)
	case *colorPrintNode:
		return "colored print"
	}
	return fmt.Sprintf("%T", n)
}
