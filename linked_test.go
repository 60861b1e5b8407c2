package main

import (
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// unlinkedModules are modules the workbench binary must not link. Go runs
// every linked package's initialisation before main, and these spent more
// than a third of the start before the first frame on registries (styles,
// lexers, CSS and HTML policies) that Markdown rendering does not need;
// ui/markdown and ui/highlight replaced them (issue 15).
var unlinkedModules = []string{
	"charm.land/glamour",
	"github.com/charmbracelet/glamour",
	"github.com/alecthomas/chroma",
	"github.com/microcosm-cc/bluemonday",
}

// The root package's test binary links everything the workbench binary
// does (and its tests), so a dependency added anywhere that pulls one of
// these back in fails here, not in a benchmark weeks later.
func TestSlowStartingModulesAreNotLinked(t *testing.T) {
	t.Parallel()
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("the test binary has no build information")
	}
	if len(info.Deps) < 10 {
		t.Fatalf("only %d modules listed: the build information does not list dependencies", len(info.Deps))
	}
	for _, m := range info.Deps {
		for _, bad := range unlinkedModules {
			if m.Path == bad || strings.HasPrefix(m.Path, bad+"/") {
				t.Errorf("%s %s is linked: it is what made the start slow (GODEBUG=inittrace=1 shows its init cost); find who imports it with go mod why -m %s", m.Path, m.Version, m.Path)
			}
		}
	}
}

// unlinkedPackages are packages of modules the binary does link that it
// must not: goldmark's extension package compiles large regular
// expressions at start (about 3 ms before the first frame), and its root
// package brings the HTML renderer. ui/markdown parses GitHub's
// extensions itself and builds goldmark's parser alone.
var unlinkedPackages = []string{
	"github.com/yuin/goldmark",
	"github.com/yuin/goldmark/extension",
	"github.com/yuin/goldmark/renderer/html",
}

// The workbench binary's own package graph (not the tests'), as go list
// sees it: a package is in it exactly when the binary links it.
func TestSlowStartingPackagesAreNotLinked(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 || !strings.Contains(string(out), "github.com/seed92b641c3/workbench/ui/markdown") {
		t.Fatalf("go list -deps listed %d packages, without ui/markdown: not the binary's graph", len(deps))
	}
	for _, d := range deps {
		for _, bad := range unlinkedPackages {
			if d == bad {
				t.Errorf("%s is linked into the workbench binary; go list -deps -f '{{.ImportPath}} {{.Imports}}' . shows who imports it", d)
			}
		}
	}
}
