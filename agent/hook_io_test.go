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
	"github.com/seed92b641c3/workbench/tools/shell"
)

// PostToolUse hooks get tool_response in each core tool's own shape, as
// Claude Code's hooks reference shows it: Bash's stdout, stderr and
// interrupted; Read's file; Write's and Edit's filePath and success.
func TestPostToolUseGetsEachCoreToolsResponseShape(t *testing.T) {
	t.Parallel()
	f := newFixture(t, shell.Bash(), files.Read(), files.Write(), files.Edit())
	f.p.Mode = func() permission.Mode { return permission.ModeBypass }
	dir := f.p.WorkDir
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := hooks.NewRegistry()
	dumps := map[string]string{}
	for _, tool := range []string{"Bash", "Read", "Write", "Edit"} {
		dumps[tool] = scriptHook(t, reg, hooks.PostToolUse, tool, "")
	}
	f.p.Hooks = reg
	f.run("Bash", `{"command":"echo out; echo err >&2"}`)
	f.run("Read", `{"file_path":"a.txt"}`)
	f.run("Write", `{"file_path":"b.txt","content":"new\n"}`)
	f.run("Read", `{"file_path":"b.txt"}`)
	f.run("Edit", `{"file_path":"b.txt","old_string":"new","new_string":"old"}`)

	resp := func(tool string) map[string]any {
		in := dumped(t, dumps[tool])
		if in == nil {
			t.Fatalf("the %s hook did not run", tool)
		}
		r, _ := in["tool_response"].(map[string]any)
		return r
	}
	if r := resp("Bash"); !strings.Contains(r["stdout"].(string), "out") || r["stderr"] != "" || r["interrupted"] != false || r["is_error"] != false {
		t.Errorf("Bash tool_response %v", r)
	}
	if r := resp("Read"); r["type"] != "text" {
		t.Errorf("Read tool_response %v", r)
	} else if file := r["file"].(map[string]any); file["filePath"] != filepath.Join(dir, "b.txt") || !strings.Contains(file["content"].(string), "new") || file["startLine"] != float64(1) || file["numLines"] != float64(1) {
		t.Errorf("Read file %v", file)
	}
	if r := resp("Edit"); r["filePath"] != filepath.Join(dir, "b.txt") || r["success"] != true {
		t.Errorf("Edit tool_response %v", r)
	}
	if r := resp("Write"); r["filePath"] != filepath.Join(dir, "b.txt") || r["success"] != true {
		t.Errorf("Write tool_response %v", r)
	}
	if in := dumped(t, dumps["Bash"]); in["permission_mode"] != "bypassPermissions" || in["tool_use_id"] != "c1" {
		t.Errorf("Bash hook input %v", in)
	}
}

// A Claude-shaped updatedInput for Bash (timeout in milliseconds, a
// description) passes the schema and runs.
func TestHookUpdatedInputInClaudesBashShapeIsValid(t *testing.T) {
	t.Parallel()
	f := newFixture(t, shell.Bash())
	f.p.Policy.AddRules(permission.Allow, "test", "Bash(echo:*)")
	reg := hooks.NewRegistry()
	scriptHook(t, reg, hooks.PreToolUse, "Bash", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten","timeout":5000,"description":"Say it"}}}`)
	f.p.Hooks = reg
	res := f.run("Bash", `{"command":"echo first"}`)
	if res.IsError || !strings.Contains(res.Text, "rewritten") {
		t.Fatalf("res %q stages %s", res.Text, f.rec.stages())
	}
}

// Stop hooks see stop_hook_active: false the first time and true when they
// run again after a block; the second block in a row ends the run, so a
// hook that always blocks cannot loop the model.
func TestStopHookRunsAgainWithStopHookActive(t *testing.T) {
	t.Parallel()
	s, _ := newLoopSession(t, `{"turns":[{"text":"done"},{"text":"really done"},{"text":"never"}]}`)
	reg := hooks.NewRegistry()
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	sh, _ := filepath.Abs("../hooks/testdata/hook.sh")
	reply := filepath.Join(dir, "reply")
	os.WriteFile(reply, []byte(`{"decision":"block","reason":"run the tests"}`), 0o600)
	if err := reg.AddCommand(hooks.Stop, "", hooks.Command{Command: sh + " " + dir + "/in.json " + reply + " && cat " + dir + "/in.json >> " + log + " && echo >> " + log}); err != nil {
		t.Fatal(err)
	}
	s.cfg.Pipeline.Hooks = reg
	out := s.Prompt(context.Background(), "go")
	if out.Turns != 2 || out.Text != "really done" {
		t.Fatalf("outcome %+v", out)
	}
	raw, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"stop_hook_active":false`) || !strings.Contains(lines[1], `"stop_hook_active":true`) {
		t.Errorf("Stop inputs:\n%s", raw)
	}
}

// SessionStart hooks get source and their matcher tests it; /clear fires
// SessionEnd with reason "clear" and then SessionStart with source
// "clear"; Close tells SessionEnd one of the documented reasons.
func TestSessionStartSourceAndSessionEndReason(t *testing.T) {
	t.Parallel()
	s, _ := newLoopSession(t, `{"turns":[{"text":"one"},{"text":"two"}]}`)
	reg := hooks.NewRegistry()
	startup := scriptHook(t, reg, hooks.SessionStart, "startup", "")
	clear := scriptHook(t, reg, hooks.SessionStart, "clear", "")
	endClear := scriptHook(t, reg, hooks.SessionEnd, "clear", "")
	endOther := scriptHook(t, reg, hooks.SessionEnd, "prompt_input_exit|other", "")
	s.cfg.Pipeline.Hooks = reg
	s.Prompt(context.Background(), "a")
	if in := dumped(t, startup); in == nil || in["source"] != "startup" {
		t.Fatalf("startup SessionStart got %v", in)
	}
	if dumped(t, clear) != nil {
		t.Fatal("the clear matcher fired at startup")
	}
	s.Clear()
	if in := dumped(t, endClear); in == nil || in["reason"] != "clear" {
		t.Fatalf("SessionEnd on /clear got %v", in)
	}
	s.Prompt(context.Background(), "b")
	if in := dumped(t, clear); in == nil || in["source"] != "clear" {
		t.Fatalf("SessionStart after /clear got %v", in)
	}
	s.Close(EndPromptInputExit)
	if in := dumped(t, endOther); in == nil || in["reason"] != "prompt_input_exit" {
		t.Fatalf("SessionEnd on close got %v", in)
	}
}
