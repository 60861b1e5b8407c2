package files_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools/files"
)

// Glob and LS list the directory the permission check resolved: when the
// directory is swapped for a link outside the workspace after the check
// (a background job racing a slow PreToolUse hook), the call is refused,
// naming both places, and nothing outside is listed. Before, both listed
// the outside directory although reading it asks.
func TestH17_GlobAndLSRefuseARootSwappedAfterTheCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, input string
	}{
		{"Glob", `{"pattern":"*","path":"d"}`},
		{"LS", `{"path":"d"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, dir := newContext(t)
			outside := t.TempDir()
			writeFile(t, filepath.Join(outside, "outside-secret.txt"), "x\n")
			writeFile(t, filepath.Join(dir, "d", "inside.txt"), "x\n")
			p := permission.NewPolicy([]string{dir})
			tool := files.Glob()
			if tc.name == "LS" {
				tool = files.LS()
			}
			if d := check(t, p, tool, ctx, tc.input, permission.ModeDefault); d.Behavior != permission.Allow {
				t.Fatalf("the check of %s in the workspace: %s (%s)", tc.input, d.Behavior, d.Message)
			}
			if err := os.Rename(filepath.Join(dir, "d"), filepath.Join(dir, "d.old")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(dir, "d")); err != nil {
				t.Fatal(err)
			}
			res := call(t, tool, ctx, tc.input)
			if !res.IsError || !strings.Contains(res.Text, "when it was checked") || strings.Contains(res.Text, "outside-secret") {
				t.Fatalf("%s after the swap: %q, want a refusal naming both places", tc.name, res.Text)
			}
			// Called again, the new place is checked: it is outside, so it asks.
			if d := check(t, p, tool, ctx, tc.input, permission.ModeDefault); d.Behavior != permission.Ask {
				t.Fatalf("the check of the swapped %s: %s (%s), want ask", tc.input, d.Behavior, d.Message)
			}
		})
	}
}
