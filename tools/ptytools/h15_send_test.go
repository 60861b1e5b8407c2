package ptytools

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/permission"
)

// echoPolicy is the narrow rule of the issue: Bash(echo:*) and nothing
// else.
func echoPolicy(t *testing.T, dir string) *permission.Policy {
	t.Helper()
	p := permission.NewPolicy([]string{dir})
	if err := p.AddRules(permission.Allow, "test", "Bash(echo:*)"); err != nil {
		t.Fatal(err)
	}
	return p
}

// decide evaluates a shell_send input as the pipeline does.
func (k *kit) decide(p *permission.Policy, mode permission.Mode, input string) permission.Decision {
	k.t.Helper()
	tool, in := k.prepare("shell_send", input)
	return p.Evaluate(permission.Request{Tool: "shell_send", Mode: mode, Target: tool.Target(in, k.tc),
		Own: tool.CheckPermission(k.t.Context(), in, k.tc), WorkDir: k.tc.WorkDir})
}

func TestH15_ShellSendEditingKeysAsk(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.call("shell_open", `{"command": "cat"}`)
	p := echoPolicy(t, k.tc.WorkDir)
	edits := []struct {
		name string
		keys string // JSON fields that edit the line between the two texts
	}{
		{"ctrl+u", `"keys": ["ctrl+u"]`},
		{"ctrl+a", `"keys": ["ctrl+a"]`},
		{"ctrl+k after moving", `"keys": ["left", "ctrl+k"]`},
		{"ctrl+w", `"keys": ["ctrl+w"]`},
		{"ctrl+y", `"keys": ["ctrl+y"]`},
		{"ctrl+e", `"keys": ["ctrl+e"]`},
		{"left arrow", `"keys": ["left"]`},
		{"up arrow (history)", `"keys": ["up"]`},
		{"home", `"keys": ["home"]`},
		{"end", `"keys": ["end"]`},
		{"tab completion", `"keys": ["tab"]`},
		{"esc", `"keys": ["esc"]`},
		{"alt+b", `"keys": ["alt+b"]`},
		{"delete", `"keys": ["delete"]`},
		{"ctrl+u as hex", `"hex": ["15"]`},
		{"a left arrow as hex", `"hex": ["1b5b44"]`},
		{"an escape sequence as hex", `"hex": ["1b", "62"]`},
		{"a byte that is not UTF-8", `"hex": ["ff"]`},
	}
	for _, e := range edits {
		// The edit and the rest of the line in one call: text, keys, hex
		// and paste are typed in that order.
		input := `{"session_id": "sh_1", "text": "echo hi ", ` + e.keys + `, "paste": "touch x\n"}`
		target := k.target("shell_send", input)
		if target.Unknown == "" {
			t.Errorf("%s: the line is taken as known: %q", e.name, target.Commands)
			continue
		}
		for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeBypass, permission.ModeAcceptEdits} {
			if d := k.decide(p, mode, input); d.Behavior != permission.Ask || d.Rule != "unknown" {
				t.Errorf("%s in %s: %s by %q (%s), want ask by unknown", e.name, mode, d.Behavior, d.Rule, d.Message)
			}
		}
		if d := k.decide(p, permission.ModeDontAsk, input); d.Behavior != permission.Deny {
			t.Errorf("%s in dontAsk: %s, want deny", e.name, d.Behavior)
		}
	}
	// Keys the tracker replays exactly keep the line known and allowed.
	known := []struct {
		input string
		want  []string
	}{
		{`{"session_id": "sh_1", "text": "echo hix", "keys": ["backspace", "enter"]}`, []string{"echo hi"}},
		{`{"session_id": "sh_1", "text": "touch x", "keys": ["ctrl+c"], "paste": "echo ok\n"}`, []string{"echo ok"}},
		{`{"session_id": "sh_1", "paste": "echo a\necho b\n"}`, []string{"echo a", "echo b"}},
		{`{"session_id": "sh_1", "hex": ["6563686f20680d"]}`, []string{"echo h"}},
	}
	for _, c := range known {
		target := k.target("shell_send", c.input)
		if target.Unknown != "" || !slices.Equal(target.Commands, c.want) {
			t.Errorf("%s: Target %q unknown %q, want %q known", c.input, target.Commands, target.Unknown, c.want)
		}
		if d := k.decide(p, permission.ModeDefault, c.input); d.Behavior != permission.Allow {
			t.Errorf("%s: %s by %q (%s), want allow", c.input, d.Behavior, d.Rule, d.Message)
		}
	}
}

func TestH15_ShellSendEditAcrossCallsStaysUnknown(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.call("shell_open", `{"command": "cat"}`)
	p := echoPolicy(t, k.tc.WorkDir)
	k.call("shell_send", `{"session_id": "sh_1", "text": "echo hi ", "keys": ["ctrl+u"], "wait": false}`)
	k.call("shell_send", `{"session_id": "sh_1", "text": "touch x", "wait": false}`)
	enter := `{"session_id": "sh_1", "keys": ["enter"], "wait": false}`
	if d := k.decide(p, permission.ModeBypass, enter); d.Behavior != permission.Ask || d.Rule != "unknown" || !strings.Contains(d.Message, "ctrl+u") {
		t.Fatalf("Enter after an edit in an earlier call: %s by %q (%s)", d.Behavior, d.Rule, d.Message)
	}
	// Even an edit that leaves nothing visible submits an unknown line.
	k.call("shell_send", enter)
	k.call("shell_send", `{"session_id": "sh_1", "keys": ["up"], "wait": false}`)
	if d := k.decide(p, permission.ModeBypass, enter); d.Behavior != permission.Ask || d.Rule != "unknown" {
		t.Fatalf("Enter after recalling history: %s by %q", d.Behavior, d.Rule)
	}
	// Submitting or ctrl+c starts a known line again.
	k.call("shell_send", `{"session_id": "sh_1", "keys": ["ctrl+c"], "wait": false}`)
	if d := k.decide(p, permission.ModeDefault, `{"session_id": "sh_1", "text": "echo fine", "submit": true}`); d.Behavior != permission.Allow {
		t.Fatalf("a fresh line after ctrl+c: %s by %q (%s)", d.Behavior, d.Rule, d.Message)
	}
}

// TestH15_ShellSendEditedLineRunsSomethingElse shows, in a real bash, why an
// edited line cannot be allowed from its typed text: the naive reading was
// `echo hi touch x`, what bash ran was `touch x`.
func TestH15_ShellSendEditedLineRunsSomethingElse(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	k := newKit(t)
	k.call("shell_open", js(map[string]any{"command": bashCmd, "mode": "interactive", "prompt_regex": `wb\$ $`}))
	p := echoPolicy(t, k.tc.WorkDir)
	k.call("shell_send", `{"session_id": "sh_1", "text": "echo hi ", "keys": ["ctrl+u"], "wait": false}`)
	submit := `{"session_id": "sh_1", "text": "touch x", "submit": true}`
	for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeBypass} {
		if d := k.decide(p, mode, submit); d.Behavior != permission.Ask || d.Rule != "unknown" {
			t.Fatalf("the edited line in %s: %s by %q (%s)", mode, d.Behavior, d.Rule, d.Message)
		}
	}
	// A person approves; bash runs what the edit left, not the typed text.
	k.call("shell_send", submit)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(k.tc.WorkDir, "x")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bash did not run touch x; screen:\n%s", k.screenUntil("sh_1", "wb")["screen"])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestH15_ShellSendLineRunsWhereEarlierLinesLeftIt shows, in a real bash,
// why a line sent to a session cannot be judged as if its shell started
// afresh: after `cd OUTSIDE`, `touch x` writes outside the workspace. The
// relative write asks in every mode; an absolute one is judged as usual.
func TestH15_ShellSendLineRunsWhereEarlierLinesLeftIt(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	k := newKit(t)
	outside := t.TempDir()
	k.call("shell_open", js(map[string]any{"command": bashCmd, "mode": "interactive", "prompt_regex": `wb\$ $`}))
	p := permission.NewPolicy([]string{k.tc.WorkDir})
	if err := p.AddRules(permission.Allow, "test", "Bash(cd:*)", "Bash(touch:*)"); err != nil {
		t.Fatal(err)
	}
	cd := js(map[string]any{"session_id": "sh_1", "text": "cd " + outside, "submit": true})
	if d := k.decide(p, permission.ModeDefault, cd); d.Behavior != permission.Allow {
		t.Fatalf("cd: %s by %q (%s)", d.Behavior, d.Rule, d.Message)
	}
	k.call("shell_send", cd)
	touch := `{"session_id": "sh_1", "text": "touch x", "submit": true}`
	if target := k.target("shell_send", touch); !target.Persistent {
		t.Fatalf("shell_send's Target does not say its shell keeps state: %+v", target)
	}
	for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeBypass} {
		if d := k.decide(p, mode, touch); d.Behavior != permission.Ask || d.Rule != "unknown-target" {
			t.Fatalf("touch x after cd, in %s: %s by %q (%s)", mode, d.Behavior, d.Rule, d.Message)
		}
	}
	abs := js(map[string]any{"session_id": "sh_1", "text": "touch " + filepath.Join(k.tc.WorkDir, "y"), "submit": true})
	if d := k.decide(p, permission.ModeDefault, abs); d.Behavior != permission.Allow {
		t.Fatalf("an absolute name in the workspace: %s by %q (%s)", d.Behavior, d.Rule, d.Message)
	}
	// A person approves; the file lands where the shell was, not in the
	// workspace.
	k.call("shell_send", touch)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(outside, "x")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bash did not run touch x in %s; screen:\n%s", outside, k.screenUntil("sh_1", "wb")["screen"])
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(k.tc.WorkDir, "x")); err == nil {
		t.Fatal("x was written in the workspace, so the shell did not keep its directory")
	}
}
