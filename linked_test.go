package main

import (
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
