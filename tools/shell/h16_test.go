package shell

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/internal/sandboxtest"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/sandbox"
	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tools"
)

// sandboxFixture is the shared confinement fixture (internal/sandboxtest).
func sandboxFixture(t *testing.T) (ws, outside string, sb *sandbox.Sandbox) {
	t.Helper()
	return sandboxtest.Sandbox(t)
}

// call validates input as the pipeline does and calls tool.
func call(t *testing.T, tool tools.Tool, tc *tools.Context, input map[string]any) tools.Result {
	t.Helper()
	b, _ := json.Marshal(input)
	in, err := tool.Schema().Prepare(b)
	if err != nil {
		t.Fatalf("Prepare(%s): %v", b, err)
	}
	res, err := tool.Call(context.Background(), in, tc)
	if err != nil {
		t.Fatalf("Call(%s): %v", b, err)
	}
	return res
}

func TestH16_BashRunsInsideTheSandboxAndExplainsRefusals(t *testing.T) {
	t.Parallel()
	ws, outside, sb := sandboxFixture(t)
	m, err := tasks.NewManager(t.TempDir(), tasks.Options{Wrap: sb.Start})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for name, tool := range map[string]tools.Tool{
		"foreground": Bash(WithSandbox(sb, true)),
		"managed":    BashWith(m, WithSandbox(sb, true)),
	} {
		tc := &tools.Context{WorkDir: ws}
		target := filepath.Join(outside, name)
		res := call(t, tool, tc, map[string]any{"command": `python3 -c "open('` + target + `','w')"`})
		if !res.IsError || !strings.Contains(res.Text, "The sandbox refused this: "+target) ||
			!strings.Contains(res.Text, "sandbox.allowWrite") || !strings.Contains(res.Text, "dangerouslyDisableSandbox") {
			t.Errorf("%s: a refused write reads %q", name, res.Text)
		}
		if meta(t, res).Sandbox != "inside" {
			t.Errorf("%s: meta %s", name, res.Meta)
		}
		if _, err := os.Stat(target); err == nil {
			t.Errorf("%s: wrote outside the workspace", name)
		}
		if res := call(t, tool, tc, map[string]any{"command": "echo x > " + name}); res.IsError {
			t.Errorf("%s: a workspace write failed: %s", name, res.Text)
		}
		// Approved to run outside (the pipeline asked), the same write goes through.
		res = call(t, tool, tc, map[string]any{"command": "echo x > " + target, "dangerouslyDisableSandbox": true})
		if res.IsError || meta(t, res).Sandbox != "outside" {
			t.Errorf("%s: an approved escape: %s %s", name, res.Text, res.Meta)
		}
		if _, err := os.Stat(target); err != nil {
			t.Errorf("%s: the escaped write did not happen", name)
		}
	}
	// Background commands are confined too.
	tool := BashWith(m, WithSandbox(sb, true))
	res := call(t, tool, &tools.Context{WorkDir: ws}, map[string]any{"command": "echo x > " + outside + "/bg", "run_in_background": true})
	id := meta(t, res).TaskID
	if _, err := m.Wait(context.Background(), id, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(outside, "bg")); err == nil {
		t.Error("a background command wrote outside the workspace")
	}
}

func TestH16_EscapeIsInTheSchemaAndAsksOrIsRefused(t *testing.T) {
	t.Parallel()
	_, _, sb := sandboxFixture(t)
	escape := json.RawMessage(`{"command":"touch /etc/x","dangerouslyDisableSandbox":true}`)
	plain := json.RawMessage(`{"command":"touch /etc/x"}`)
	allowed := Bash(WithSandbox(sb, true))
	if !strings.Contains(string(allowed.Schema().JSON()), "dangerouslyDisableSandbox") {
		t.Error("the schema has no dangerouslyDisableSandbox")
	}
	if strings.Contains(string(Bash().Schema().JSON()), "dangerouslyDisableSandbox") {
		t.Error("without a sandbox the schema offers an escape")
	}
	d := allowed.CheckPermission(context.Background(), escape, nil)
	if d.Behavior != permission.Ask || !strings.Contains(d.Message, "OUTSIDE the sandbox") {
		t.Errorf("an escape: %+v", d)
	}
	refused := Bash(WithSandbox(sb, false))
	if d := refused.CheckPermission(context.Background(), escape, nil); d.Behavior != permission.Deny ||
		!strings.Contains(d.Message, "allowUnsandboxedCommands") {
		t.Errorf("an escape with allowUnsandboxedCommands false: %+v", d)
	}
	if d := refused.CheckPermission(context.Background(), plain, nil); d.Behavior != permission.Ask {
		t.Errorf("a plain call: %+v", d)
	}
}

// A background Bash command's refusal is explained in its notification and
// in TaskOutput's snapshot, as a foreground one's is in its result; one
// approved to run outside is not blamed on the sandbox.
func TestH16_BackgroundBashRefusalsExplainThemselves(t *testing.T) {
	t.Parallel()
	ws, outside, sb := sandboxFixture(t)
	m, err := tasks.NewManager(t.TempDir(), tasks.Options{Wrap: sb.Start, Explain: sb.Explain})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	tool := BashWith(m, WithSandbox(sb, true))
	tc := &tools.Context{WorkDir: ws}
	target := filepath.Join(outside, "bg")
	for _, escape := range []bool{false, true} {
		// A write the sandbox refuses, or (outside) one that fails for the
		// file system's own reason, printing the same words.
		command := `python3 -c "open('` + target + `','w')"`
		if escape {
			command = `echo "touch: cannot touch '` + target + `': Read-only file system"; exit 1`
		}
		res := call(t, tool, tc, map[string]any{"command": command, "run_in_background": true, "dangerouslyDisableSandbox": escape})
		snap, err := m.Wait(context.Background(), meta(t, res).TaskID, 0)
		if err != nil {
			t.Fatal(err)
		}
		var text string
		for _, n := range m.Drain() {
			text += n.Text
		}
		explained := strings.Contains(text, "The sandbox refused this: "+target) && strings.Contains(text, "sandbox.allowWrite")
		if explained == escape || (snap.Refusal != "") == escape {
			t.Errorf("escape=%v: notification %q, refusal %q", escape, text, snap.Refusal)
		}
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("a background command wrote outside the workspace")
	}
}

// A Bash command that plants a commondir in the workspace's .git gets a
// result that says the sandbox removed it (sandbox/gitplant.go).
func TestH16_BashSaysWhenTheSandboxRemovedAPlantedCommondir(t *testing.T) {
	t.Parallel()
	ws, outside, sb := sandboxFixture(t)
	if err := os.MkdirAll(filepath.Join(ws, ".git", "objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(ws, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(ws, ".git", "config"), []byte("[core]\n"), 0o644)
	res := call(t, Bash(WithSandbox(sb, true)), &tools.Context{WorkDir: ws},
		map[string]any{"command": `python3 -c "open('.git/commondir','w').write('` + outside + `')"`})
	if !strings.Contains(res.Text, ".git/commondir") || !strings.Contains(res.Text, "Workbench removed it") {
		t.Errorf("the result does not say the commondir was removed: %q", res.Text)
	}
	if _, err := os.Stat(filepath.Join(ws, ".git", "commondir")); err == nil {
		t.Error("the planted commondir is still there")
	}
}
