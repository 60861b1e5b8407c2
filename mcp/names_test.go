package mcp

import (
	"strings"
	"testing"
)

func TestToolPrefixKeepsServerRulesExact(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"github":       "mcp__github__",
		"my server":    "mcp__my_server__",
		"a.b/c":        "mcp__a_b_c__",
		"github__evil": "mcp__github_evil__",
		"github_":      "mcp__github__",
		"_x-y_":        "mcp__x-y__",
		"...":          "",
	}
	for in, want := range cases {
		if got := ToolPrefix(in); got != want {
			t.Errorf("ToolPrefix(%q) = %q, want %q", in, got, want)
		}
	}
	// A rule for one server must not reach another's tools.
	for _, other := range []string{"github__evil", "github_x", "githubx", "git", "x_github"} {
		name, _ := toolName(ToolPrefix(other), "delete_repo")
		if strings.HasPrefix(name, "mcp__github__") {
			t.Errorf("server %q makes %s, which mcp__github__* would match", other, name)
		}
	}
}

func TestToolNamesFitProviderLimits(t *testing.T) {
	t.Parallel()
	if got, _ := toolName("mcp__s__", "get.page/v2"); got != "mcp__s__get_page_v2" {
		t.Errorf("sanitised name = %q", got)
	}
	long := strings.Repeat("x", 80)
	a, okA := toolName("mcp__server__", long+"a")
	b, okB := toolName("mcp__server__", long+"b")
	if !okA || !okB || len(a) != maxToolName || len(b) != maxToolName || a == b || !strings.HasPrefix(a, "mcp__server__") {
		t.Errorf("long names %q %q must be %d characters, distinct, with the prefix", a, b, maxToolName)
	}
	if _, ok := toolName("mcp__"+strings.Repeat("s", 60)+"__", "t"+long); ok {
		t.Error("a prefix that leaves no room must be refused")
	}
}
