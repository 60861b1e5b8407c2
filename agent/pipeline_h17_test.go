package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools/files"
)

// swapCase is a project whose `link` points at its own `inside` directory
// when a call is checked and is swapped to a directory outside by a
// PreToolUse hook, after the check and before the call, as a slow hook (or
// a process racing it) could.
type swapCase struct {
	f            *fixture
	project, out string
	swapped      bool
}

func newSwapCase(t *testing.T, swap bool) *swapCase {
	t.Helper()
	f := newFixture(t, files.All()...)
	c := &swapCase{f: f, project: permission.Resolve(f.p.WorkDir), out: permission.Resolve(t.TempDir())}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(c.project, "inside"), 0o755))
	must(os.WriteFile(filepath.Join(c.project, "inside", "f"), []byte("inside-content\n"), 0o644))
	must(os.WriteFile(filepath.Join(c.out, "f"), []byte("outside-secret\n"), 0o644))
	must(os.Symlink(filepath.Join(c.project, "inside"), filepath.Join(c.project, "link")))
	f.p.Mode = func() permission.Mode { return permission.ModeAcceptEdits }
	if swap {
		reg := hooks.NewRegistry()
		reg.On(hooks.PreToolUse, "", "swap-the-link", func(context.Context, hooks.Input) hooks.Outcome {
			tmp := filepath.Join(c.project, "link.new")
			must(os.Symlink(c.out, tmp))
			must(os.Rename(tmp, filepath.Join(c.project, "link")))
			c.swapped = true
			return hooks.Outcome{}
		})
		f.p.Hooks = reg
	}
	return c
}

// checkRefused requires the call to have been refused for the swap and the
// outside file to be untouched; want names the file's content inside.
func (c *swapCase) checkRefused(t *testing.T, tool, input, inside string) {
	t.Helper()
	res := c.f.run(tool, input)
	if !c.swapped {
		t.Fatalf("the hook did not run: %s", c.f.rec.stages())
	}
	if !res.IsError || !strings.Contains(res.Text, "changed after the permission check") {
		t.Errorf("%s after the swap: %q, want a refusal naming the change", tool, res.Text)
	}
	if strings.Contains(res.Text, "outside-secret") {
		t.Errorf("%s showed the outside file: %q", tool, res.Text)
	}
	if got, _ := os.ReadFile(filepath.Join(c.out, "f")); string(got) != "outside-secret\n" {
		t.Errorf("%s changed the outside file: %q", tool, got)
	}
	if entries, _ := os.ReadDir(c.out); len(entries) != 1 {
		t.Errorf("%s left files outside: %v", tool, entries)
	}
	if got, _ := os.ReadFile(filepath.Join(c.project, "inside", "f")); string(got) != inside {
		t.Errorf("%s changed the checked file after refusing: %q", tool, got)
	}
}

var swapInputs = map[string]string{
	"Write":     `{"file_path":"link/f","content":"pwned\n"}`,
	"Edit":      `{"file_path":"link/f","old_string":"content","new_string":"pwned"}`,
	"MultiEdit": `{"file_path":"link/f","edits":[{"old_string":"content","new_string":"pwned"}]}`,
	"Read":      `{"file_path":"link/f"}`,
}

// checkWorksWithoutASwap shows the same call does its work when nothing
// moves, so a refusal above is the swap's doing.
func checkWorksWithoutASwap(t *testing.T, tool string) {
	t.Helper()
	c := newSwapCase(t, false)
	res := c.f.run(tool, swapInputs[tool])
	if res.IsError {
		t.Fatalf("%s without a swap failed: %s", tool, res.Text)
	}
	got, _ := os.ReadFile(filepath.Join(c.project, "inside", "f"))
	if tool == "Read" && !strings.Contains(res.Text, "inside-content") || tool != "Read" && !strings.Contains(string(got), "pwned") {
		t.Fatalf("%s without a swap: result %q, file %q", tool, res.Text, got)
	}
}

func TestH17_WriteOpensWhatItChecked(t *testing.T) {
	t.Parallel()
	checkWorksWithoutASwap(t, "Write")
	newSwapCase(t, true).checkRefused(t, "Write", swapInputs["Write"], "inside-content\n")
}

func TestH17_EditOpensWhatItChecked(t *testing.T) {
	t.Parallel()
	checkWorksWithoutASwap(t, "Edit")
	newSwapCase(t, true).checkRefused(t, "Edit", swapInputs["Edit"], "inside-content\n")
}

func TestH17_MultiEditOpensWhatItChecked(t *testing.T) {
	t.Parallel()
	checkWorksWithoutASwap(t, "MultiEdit")
	newSwapCase(t, true).checkRefused(t, "MultiEdit", swapInputs["MultiEdit"], "inside-content\n")
}

func TestH17_ReadOpensWhatItChecked(t *testing.T) {
	t.Parallel()
	checkWorksWithoutASwap(t, "Read")
	newSwapCase(t, true).checkRefused(t, "Read", swapInputs["Read"], "inside-content\n")
}

func TestH17_WriteOutsideTheWorkspaceOpensWhatItChecked(t *testing.T) {
	t.Parallel()
	c := newSwapCase(t, false)
	// An outside directory a rule opens, reached through a link there.
	allowed := permission.Resolve(t.TempDir())
	if err := os.Mkdir(filepath.Join(allowed, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(allowed, "l")
	if err := os.Symlink(filepath.Join(allowed, "real"), link); err != nil {
		t.Fatal(err)
	}
	if err := c.f.p.Policy.AddRules(permission.Allow, "test", "Write(/"+allowed+"/**)"); err != nil {
		t.Fatal(err)
	}
	reg := hooks.NewRegistry()
	reg.On(hooks.PreToolUse, "", "swap-the-link", func(context.Context, hooks.Input) hooks.Outcome {
		os.Remove(link)
		os.Symlink(c.out, link)
		c.swapped = true
		return hooks.Outcome{}
	})
	c.f.p.Hooks = reg
	res := c.f.run("Write", `{"file_path":"`+link+`/f","content":"pwned\n"}`)
	if !c.swapped || !res.IsError || !strings.Contains(res.Text, "changed after the permission check") {
		t.Fatalf("Write outside after the swap: %q (trace %s)", res.Text, c.f.rec.stages())
	}
	if got, _ := os.ReadFile(filepath.Join(c.out, "f")); string(got) != "outside-secret\n" {
		t.Fatalf("the swapped-in directory was written: %q", got)
	}
}

func TestH17_WriteRefusesAPlaceThatBecameProtected(t *testing.T) {
	t.Parallel()
	c := newSwapCase(t, false)
	c.f.p.Mode = func() permission.Mode { return permission.ModeBypass }
	reg := hooks.NewRegistry()
	reg.On(hooks.PreToolUse, "", "link-the-settings", func(context.Context, hooks.Input) hooks.Outcome {
		os.Symlink("inside", filepath.Join(c.project, ".workbench"))
		c.swapped = true
		return hooks.Outcome{}
	})
	c.f.p.Hooks = reg
	res := c.f.run("Write", `{"file_path":"inside/settings.local.json","content":"{\"permissions\":{\"allow\":[\"Bash\"]}}"}`)
	if !c.swapped || !res.IsError || !strings.Contains(res.Text, "became protected") {
		t.Fatalf("Write after .workbench was linked onto its directory: %q (trace %s)", res.Text, c.f.rec.stages())
	}
	if _, err := os.Stat(filepath.Join(c.project, "inside", "settings.local.json")); err == nil {
		t.Fatal("the settings file was planted")
	}
}
