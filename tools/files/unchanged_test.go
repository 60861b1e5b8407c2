package files_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/files"
)

// check evaluates a Write call as the pipeline does and gives the tool the
// checked paths, returning the decision.
func check(t *testing.T, p *permission.Policy, tool tools.Tool, tc *tools.Context, input string, mode permission.Mode) permission.Decision {
	t.Helper()
	in, err := tool.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatal(err)
	}
	d := p.Evaluate(permission.Request{Tool: tool.Name(), Mode: mode, Own: tool.CheckPermission(context.Background(), in, tc),
		Target: tool.Target(in, tc), WorkDir: tc.WorkDir})
	tc.Checked = d.Checked
	return d
}

// A Write whose content is already the file's does not ask, in any mode
// that would, and reports that it wrote nothing; one that changes the file,
// a file outside the workspace, a protected one or one the agent may not
// read still asks.
func TestWriteUnchangedDoesNotAsk(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.txt"), "same\n")
	writeFile(t, filepath.Join(dir, ".env"), "TOKEN=x\n")
	writeFile(t, filepath.Join(dir, ".workbench", "settings.json"), "{}\n")
	writeFile(t, filepath.Join(outside, "o.txt"), "same\n")
	p := permission.NewPolicy([]string{dir})
	if err := p.AddRules(permission.Deny, "test", "Read(./.env)"); err != nil {
		t.Fatal(err)
	}
	p.AddProtected(".workbench/settings.json")
	tc.Paths = p
	w := files.Write()
	same := jsonInput(t, map[string]string{"file_path": "a.txt", "content": "same\n"})
	for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeDontAsk} {
		if d := check(t, p, w, tc, same, mode); d.Behavior != permission.Allow || d.Rule != "tool" || !strings.Contains(d.Message, "changes nothing") {
			t.Fatalf("unchanged Write in %s: %s by %q (%s)", mode, d.Behavior, d.Rule, d.Message)
		}
	}
	before, _ := os.Stat(filepath.Join(dir, "a.txt"))
	res := call(t, w, tc, same)
	if res.IsError || !strings.Contains(res.Text, "Unchanged") || !strings.Contains(res.Text, "nothing was written") {
		t.Fatalf("unchanged Write result: %q", res.Text)
	}
	if after, _ := os.Stat(filepath.Join(dir, "a.txt")); !after.ModTime().Equal(before.ModTime()) {
		t.Fatal("the unchanged file was written")
	}
	for name, input := range map[string]string{
		"different content": jsonInput(t, map[string]string{"file_path": "a.txt", "content": "other\n"}),
		"a new file":        jsonInput(t, map[string]string{"file_path": "new.txt", "content": ""}),
		"outside":           jsonInput(t, map[string]string{"file_path": filepath.Join(outside, "o.txt"), "content": "same\n"}),
		"protected":         jsonInput(t, map[string]string{"file_path": ".workbench/settings.json", "content": "{}\n"}),
		"hidden by Read":    jsonInput(t, map[string]string{"file_path": ".env", "content": "TOKEN=x\n"}),
	} {
		if d := check(t, p, w, tc, input, permission.ModeDefault); d.Behavior != permission.Ask {
			t.Errorf("%s: %s by %q (%s), want ask", name, d.Behavior, d.Rule, d.Message)
		}
	}
}

// The shortcut cannot become a write no one approved: when the file
// changes (or a link is swapped in) between the check and the run, the
// Write writes nothing.
func TestWriteUnchangedRaceWritesNothing(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	outside := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	writeFile(t, path, "same\n")
	p := permission.NewPolicy([]string{dir})
	tc.Paths = p
	w := files.Write()
	same := jsonInput(t, map[string]string{"file_path": "a.txt", "content": "same\n"})

	// The file changes after the check: the content the check saw is not
	// written back over the new one.
	if d := check(t, p, w, tc, same, permission.ModeDefault); d.Behavior != permission.Allow {
		t.Fatalf("check: %s by %q", d.Behavior, d.Rule)
	}
	writeFile(t, path, "changed by someone else\n")
	res := call(t, w, tc, same)
	if !res.IsError || !strings.Contains(res.Text, "nothing was written") {
		t.Fatalf("after a change: %q", res.Text)
	}
	if got := readFile(t, path); got != "changed by someone else\n" {
		t.Fatalf("the file now holds %q", got)
	}

	// A link swapped in after the check, to a file outside with other
	// content: refused, both files as they were.
	writeFile(t, path, "same\n")
	if d := check(t, p, w, tc, same, permission.ModeDefault); d.Behavior != permission.Allow {
		t.Fatalf("check: %s by %q", d.Behavior, d.Rule)
	}
	target := filepath.Join(outside, "victim")
	writeFile(t, target, "victim\n")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	res = call(t, w, tc, same)
	if !res.IsError {
		t.Fatalf("after a link swap: %q", res.Text)
	}
	if got := readFile(t, target); got != "victim\n" {
		t.Fatalf("the file outside now holds %q", got)
	}

	// A person's approval (the check asked) is not the shortcut: a changed
	// file is written as approved.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, "old\n")
	other := jsonInput(t, map[string]string{"file_path": "a.txt", "content": "new\n"})
	if d := check(t, p, w, tc, other, permission.ModeDefault); d.Behavior != permission.Ask {
		t.Fatalf("a change: %s by %q", d.Behavior, d.Rule)
	}
	if res := call(t, w, tc, other); res.IsError || readFile(t, path) != "new\n" {
		t.Fatalf("approved write: %q, file %q", res.Text, readFile(t, path))
	}
}
