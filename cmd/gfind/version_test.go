package main

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionText: the version comes from the stamp, else the module's
// version (go install ...@v1.2.0, a pseudo-version in a clone), else
// "devel"; the build lines name the module, the commit (and changes in
// the tree), Go, the target and cgo; GNU's layout holds throughout.
func TestVersionText(t *testing.T) {
	mod := func(v string, settings ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Path: "github.com/gfind/gfind", Version: v}}
		for i := 0; i+1 < len(settings); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return bi
	}
	target := " for " + runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		name    string
		stamped string
		bi      *debug.BuildInfo
		first   string
		lines   []string // lines the text must hold
		not     []string // substrings it must not
	}{
		{"release", "1.2.0", mod("(devel)", "vcs.revision", "abc123", "vcs.modified", "false", "CGO_ENABLED", "0"),
			"gfind 1.2.0", []string{"Module: github.com/gfind/gfind (devel)", "Revision: abc123", "Built with go1.99.1" + target + ", CGO_ENABLED=0."}, []string{"modified"}},
		{"stamp with v", "v1.2.0", mod("v1.1.0"), "gfind 1.2.0", []string{"Module: github.com/gfind/gfind v1.1.0"}, nil},
		{"go install", "", mod("v1.3.0", "CGO_ENABLED", "1"),
			"gfind 1.3.0", []string{"Module: github.com/gfind/gfind v1.3.0", "Built with go1.99.1" + target + ", CGO_ENABLED=1."}, []string{"Revision"}},
		{"clone with changes", "", mod("v0.0.0-20261205033144-d9224dd48a6b+dirty", "vcs.revision", "d9224dd48a6b43d1", "vcs.modified", "true"),
			"gfind 0.0.0-20261205033144-d9224dd48a6b+dirty", []string{"Revision: d9224dd48a6b43d1 (modified)"}, nil},
		{"no version", "", mod(""), "gfind devel", []string{"Module: github.com/gfind/gfind (devel)"}, nil},
		{"no build info", "", nil, "gfind devel", []string{"Built with " + runtime.Version() + target + "."}, []string{"Module", "Revision", "CGO_ENABLED"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := versionText(tt.stamped, tt.bi)
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			if lines[0] != tt.first {
				t.Errorf("first line %q, want %q", lines[0], tt.first)
			}
			// GNU's layout: the licence right after, and no line of
			// GNU find's (the tests look for GNU find under this name).
			if !strings.HasPrefix(lines[1], "Copyright (C) ") || !strings.HasPrefix(lines[2], "License MIT") {
				t.Errorf("lines 2-3 are not the copyright and licence:\n%s", text)
			}
			for _, want := range tt.lines {
				if !contains(lines, want) {
					t.Errorf("no line %q in:\n%s", want, text)
				}
			}
			for _, bad := range append(tt.not, "GNU findutils") {
				if strings.Contains(text, bad) {
					t.Errorf("%q in:\n%s", bad, text)
				}
			}
		})
	}
}
