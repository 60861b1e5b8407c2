package search

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// Grep searches the directory the permission check resolved: when it is
// swapped for a link outside the workspace after the check (a background
// job racing a slow PreToolUse hook), both engines refuse, naming both
// places, and print nothing from outside. Before, they searched the
// outside files although reading them asks.
func TestH17_GrepRefusesARootSwappedAfterTheCheck(t *testing.T) {
	t.Parallel()
	engines := map[string]func() string{"go": goEngine}
	if rg := findRipgrep(); rg != "" {
		engines["ripgrep"] = func() string { return rg }
	}
	for name, engine := range engines {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root, err := filepath.EvalSymlinks(writeTree(t, map[string]string{"d/inside.txt": "needle\n"}))
			if err != nil {
				t.Fatal(err)
			}
			outside := writeTree(t, map[string]string{"outside.txt": "needle outside\n"})
			tool := newGrep(engine)
			tc := &tools.Context{WorkDir: root}
			p := permission.NewPolicy([]string{root})
			in := json.RawMessage(`{"pattern":"needle","path":"d","output_mode":"content"}`)
			d := p.Evaluate(permission.Request{Tool: "Grep", ReadOnly: true, Target: tool.Target(in, tc), WorkDir: root,
				Own: tool.CheckPermission(context.Background(), in, tc)})
			if d.Behavior != permission.Allow {
				t.Fatalf("the check of d: %s (%s)", d.Behavior, d.Message)
			}
			tc.Checked = d.Checked
			if err := os.Rename(filepath.Join(root, "d"), filepath.Join(root, "d.old")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(root, "d")); err != nil {
				t.Fatal(err)
			}
			res := call(t, tool, tc, string(in))
			if !res.IsError || !strings.Contains(res.Text, "when it was checked") {
				t.Fatalf("Grep after the swap: %q, want a refusal naming both places", res.Text)
			}
			if strings.Contains(res.Text, "needle outside") {
				t.Fatalf("Grep printed the outside file: %q", res.Text)
			}
		})
	}
}
