package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// version is the release's version, stamped by the release build
// (make VERSION=1.2.0: -ldflags -X main.version=1.2.0). Any other build
// leaves it empty and takes the module's version from the build
// information: v1.2.0 for go install ...@v1.2.0, a pseudo-version
// naming the commit for a build in a clone.
var version string

// printVersion prints versionText for this binary.
func printVersion() int {
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprint(os.Stdout, versionText(version, bi))
	return 0
}

// versionText is --version's text: GNU's layout (the program and its
// version on the first line, the version after the last space; then the
// licence and the warranty), and where GNU find lists its features, what
// the binary was built from, so that a bug report says exactly what ran:
// the module's version, the commit and whether the tree had changes in
// it, the Go release, the target and cgo. bi may be nil (a binary built
// without module support).
func versionText(stamped string, bi *debug.BuildInfo) string {
	v := strings.TrimPrefix(stamped, "v")
	var b strings.Builder
	mod, rev, modified, cgo := "", "", false, ""
	if bi != nil {
		mv := bi.Main.Version
		if mv == "" {
			mv = "(devel)"
		}
		mod = bi.Main.Path + " " + mv
		if v == "" && mv != "(devel)" {
			v = strings.TrimPrefix(mv, "v")
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			case "CGO_ENABLED":
				cgo = s.Value
			}
		}
	}
	if v == "" {
		v = "devel"
	}
	fmt.Fprintf(&b, "gfind %s\n", v)
	b.WriteString(`Copyright (C) 2026 the gfind authors.
License MIT: <https://opensource.org/license/mit>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

A parallel reimplementation of GNU find 4.11.0.
`)
	if mod != "" {
		fmt.Fprintf(&b, "Module: %s\n", mod)
	}
	if rev != "" {
		fmt.Fprintf(&b, "Revision: %s", rev)
		if modified {
			b.WriteString(" (modified)")
		}
		b.WriteString("\n")
	}
	goVer := runtime.Version()
	if bi != nil && bi.GoVersion != "" {
		goVer = bi.GoVersion
	}
	fmt.Fprintf(&b, "Built with %s for %s/%s", goVer, runtime.GOOS, runtime.GOARCH)
	if cgo != "" {
		fmt.Fprintf(&b, ", CGO_ENABLED=%s", cgo)
	}
	b.WriteString(".\n")
	return b.String()
}
