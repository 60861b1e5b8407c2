package ptytools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/permission"
)

// Inside a bracketed paste a shell inserts every byte as it is: a
// backspace, ctrl+c or ctrl+u there edits nothing. The tracker read them
// as keys, so a paste of `touch x;`, eight backspaces and `echo hi` was
// taken as `echo hi` and allowed under Bash(echo:*), while bash ran
// touch x. A control byte inside a paste makes the line unknown.
func TestH15_ShellSendControlBytesInAPasteAsk(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.call("shell_open", `{"command": "cat"}`)
	p := echoPolicy(t, k.tc.WorkDir)
	for _, paste := range []string{
		"touch x;" + strings.Repeat(`\u007f`, 8) + "echo hi", `touch x;\u0003echo hi`, `touch x;\bX\becho hi`,
		`touch x;\u0015echo hi`, `touch x;\u001b[Decho hi`,
	} {
		input := `{"session_id": "sh_1", "paste": "` + paste + `\n", "wait": false}`
		for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeBypass} {
			if d := k.decide(p, mode, input); d.Behavior != permission.Ask || d.Rule != "unknown" {
				t.Errorf("paste %q in %s: %s by %q (%s), want ask by unknown", paste, mode, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	// A plain paste is still followed.
	if d := k.decide(p, permission.ModeDefault, `{"session_id": "sh_1", "paste": "echo a\necho b\n"}`); d.Behavior != permission.Allow {
		t.Errorf("a plain paste: %s by %q (%s), want allow", d.Behavior, d.Rule, d.Message)
	}
}

// TestH15_ShellSendPasteKeepsControlBytes shows, in a real bash, that a
// backspace inside a bracketed paste deletes nothing: touch runs.
func TestH15_ShellSendPasteKeepsControlBytes(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	k := newKit(t)
	k.call("shell_open", js(map[string]any{"command": bashCmd, "mode": "interactive", "prompt_regex": `wb\$ $`}))
	p := echoPolicy(t, k.tc.WorkDir)
	input := js(map[string]any{"session_id": "sh_1", "paste": "touch x;" + strings.Repeat("\x7f", 8) + "echo hi\n", "wait": false})
	if d := k.decide(p, permission.ModeBypass, input); d.Behavior != permission.Ask || d.Rule != "unknown" {
		t.Fatalf("the paste: %s by %q (%s), want ask by unknown", d.Behavior, d.Rule, d.Message)
	}
	// A person approves; bash runs what was pasted, backspaces and all,
	// at the Enter that follows (a pasted newline does not run it).
	k.call("shell_send", input)
	k.call("shell_send", `{"session_id": "sh_1", "keys": ["enter"], "wait": false}`)
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
