package testtool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fake programs for TestLookGNUFind: shell scripts that answer --version
// as each kind of find does.
const (
	bsdFind  = "#!/bin/sh\necho 'find: illegal option -- -' >&2\nexit 1\n"
	ourGfind = "#!/bin/sh\nprintf 'gfind 0.1.0\\nA parallel reimplementation of GNU find 4.11.\\nLicense MIT.\\n'\n"
	lateGNU  = "#!/bin/sh\nprintf 'find 1.0\\nfind (GNU findutils) 4.9.0\\n'\n"
	// testGfind is cmd/gfind's test binary as gfind: GNU find under
	// GFIND_TEST_GNU=1.
	testGfind = "#!/bin/sh\nif [ \"$GFIND_TEST_GNU\" = 1 ]; then echo 'find (GNU findutils) 4.9.0'; else echo 'gfind 0.1.0'; fi\n"
)

func gnu(version string) string {
	return "#!/bin/sh\nprintf 'find (GNU findutils) " + version + "\\nCopyright (C) 2026 Free Software Foundation, Inc.\\n'\n"
}

// TestLookGNUFind checks the search for GNU find on fake directories: a
// Debian one, macOS's with BSD find in /usr/bin and Homebrew's findutils,
// and PATHs that hold gfind itself ahead of GNU find's gfind.
func TestLookGNUFind(t *testing.T) {
	for _, tt := range []struct {
		name    string
		files   map[string]string // path under the test's root: script ("-" prefix: not executable)
		env     string
		setenv  string // one VAR=value set while the search runs
		places  []string
		path    []string // directories; relative ones are taken as they are
		want    string   // "" for an error
		version string
	}{
		{
			name:  "the variable first",
			files: map[string]string{"ref/find": gnu("4.11.0"), "usr/bin/find": gnu("4.9.0"), "bin/gfind": gnu("4.10.0")},
			env:   "ref/find", places: []string{"usr/bin/find"}, path: []string{"bin"},
			want: "ref/find", version: "4.11.0",
		},
		{
			name:  "the variable naming no GNU find is an error",
			files: map[string]string{"usr/bin/bsdfind": bsdFind, "usr/bin/find": gnu("4.9.0")},
			env:   "usr/bin/bsdfind", places: []string{"usr/bin/find"},
		},
		{
			name:   "Debian's /usr/bin/find before PATH",
			files:  map[string]string{"usr/bin/find": gnu("4.9.0"), "bin/gfind": gnu("4.10.0")},
			places: []string{"usr/bin/find"}, path: []string{"bin", "usr/bin"},
			want: "usr/bin/find", version: "4.9.0",
		},
		{
			name: "macOS: BSD find, then Homebrew's gnubin",
			files: map[string]string{
				"usr/bin/find": bsdFind,
				"opt/homebrew/opt/findutils/libexec/gnubin/find": gnu("4.10.0"),
				"opt/homebrew/bin/gfind":                         gnu("4.10.0"),
			},
			places: []string{"usr/bin/find", "opt/homebrew/opt/findutils/libexec/gnubin/find", "usr/local/opt/findutils/libexec/gnubin/find"},
			path:   []string{"opt/homebrew/bin", "usr/bin"},
			want:   "opt/homebrew/opt/findutils/libexec/gnubin/find", version: "4.10.0",
		},
		{
			name: "gfind itself ahead of Homebrew's gfind on PATH",
			files: map[string]string{
				"usr/bin/find":           bsdFind,
				"go/bin/gfind":           ourGfind,
				"opt/homebrew/bin/gfind": gnu("4.10.0"),
			},
			places: []string{"usr/bin/find", "opt/homebrew/opt/findutils/libexec/gnubin/find"},
			path:   []string{"go/bin", "opt/homebrew/bin", "usr/bin"},
			want:   "opt/homebrew/bin/gfind", version: "4.10.0",
		},
		{
			name:   "only gfind itself and BSD find",
			files:  map[string]string{"usr/bin/find": bsdFind, "go/bin/gfind": ourGfind},
			places: []string{"usr/bin/find"}, path: []string{"go/bin", "usr/bin"},
		},
		{
			name:   "the tests' gfind under GFIND_TEST_GNU=1",
			files:  map[string]string{"usr/bin/find": bsdFind, "testbin/gfind": testGfind},
			places: []string{"usr/bin/find"}, path: []string{"testbin", "usr/bin"},
			setenv: "GFIND_TEST_GNU=1",
		},
		{
			name:  "gfind before find, in any directory",
			files: map[string]string{"a/find": gnu("4.9.0"), "b/gfind": gnu("4.10.0")},
			path:  []string{"a", "b"},
			want:  "b/gfind", version: "4.10.0",
		},
		{
			name:  "not executable",
			files: map[string]string{"a/gfind": "-" + gnu("4.9.0"), "b/gfind": gnu("4.10.0")},
			path:  []string{"a", "b"},
			want:  "b/gfind", version: "4.10.0",
		},
		{
			name:  "a directory named find",
			files: map[string]string{"a/find/x": gnu("4.9.0"), "b/find": gnu("4.10.0")},
			path:  []string{"a", "b"},
			want:  "b/find", version: "4.10.0",
		},
		{
			name:  "GNU findutils not on the first line",
			files: map[string]string{"a/find": lateGNU},
			path:  []string{"a"},
		},
		{
			name:  "a relative PATH directory is not searched",
			files: map[string]string{"a/find": gnu("4.9.0")},
			path:  []string{"@a"},
		},
		{
			name:   "nothing at all",
			places: []string{"usr/bin/find"}, path: []string{"bin"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			t.Chdir(root) // where a relative PATH directory would lead
			abs := func(p string) string { return filepath.Join(root, p) }
			for name, script := range tt.files {
				mode := os.FileMode(0o755)
				if s, ok := strings.CutPrefix(script, "-"); ok {
					script, mode = s, 0o644
				}
				if err := os.MkdirAll(filepath.Dir(abs(name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(abs(name), []byte(script), mode); err != nil {
					t.Fatal(err)
				}
			}
			if k, v, ok := strings.Cut(tt.setenv, "="); ok {
				t.Setenv(k, v)
			}
			env := ""
			if tt.env != "" {
				env = abs(tt.env)
			}
			var places, dirs []string
			for _, p := range tt.places {
				places = append(places, abs(p))
			}
			for _, d := range tt.path {
				if rel, ok := strings.CutPrefix(d, "@"); ok {
					dirs = append(dirs, rel)
				} else {
					dirs = append(dirs, abs(d))
				}
			}
			g, err := lookGNUFind(env, places, strings.Join(dirs, string(os.PathListSeparator)))
			switch {
			case tt.want == "" && err == nil:
				t.Errorf("found %s (%s), want none", g.path, g.version)
			case tt.want != "" && err != nil:
				t.Errorf("error %v, want %s", err, tt.want)
			case tt.want != "" && (g.path != abs(tt.want) || g.version != tt.version):
				t.Errorf("found %s (%s), want %s (%s)", g.path, g.version, abs(tt.want), tt.version)
			}
		})
	}
}
