package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/agent"
)

// idleProject is a project whose Notification hook (matcher idle_prompt)
// writes its event to a file, and a one-turn script; it returns the
// loaded config, the script and the file the hook writes.
func idleProject(t *testing.T) (*Config, string, string) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	dump := filepath.Join(dir, "idle.json")
	settings := `{"hooks":{"Notification":[{"matcher":"idle_prompt","hooks":[{"type":"command","command":"cat > idle.json.tmp && mv idle.json.tmp idle.json"}]}]}}`
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "s.json")
	if err := os.WriteFile(script, []byte(`{"turns":[{"text":"done"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// The hook is the project's own: it runs in a project the person trusts.
	c, err := Load(Options{Dir: dir, TrustProject: true})
	if err != nil {
		t.Fatal(err)
	}
	return c, script, dump
}

// After a run, an input left waiting fires the Notification hooks once
// with notification_type idle_prompt and the message.
func TestCompat3_IdleInputNotifiesTheNotificationHooks(t *testing.T) {
	c, script, dump := idleProject(t)
	s, err := Open(c, Model{Script: script}, Wiring{Approver: agent.Headless{}, IdleNotify: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close("exit")
	s.Agent.Prompt(context.Background(), "hi")
	var raw []byte
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if raw, err = os.ReadFile(dump); err == nil {
			break
		}
	}
	var in map[string]any
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatalf("the idle notification never came (%v): %q", err, raw)
	}
	if in["hook_event_name"] != "Notification" || in["notification_type"] != "idle_prompt" ||
		in["message"] != "Workbench is waiting for your input" || in["session_id"] != s.Dir.ID {
		t.Fatalf("the idle notification's input: %v", in)
	}
}

// A session closed before the input waited long enough tells nobody, and
// headless wiring (no IdleNotify) has no watch at all.
func TestCompat3_NoIdleNotificationBeforeTheWaitOrHeadless(t *testing.T) {
	c, script, dump := idleProject(t)
	s, err := Open(c, Model{Script: script}, Wiring{Approver: agent.Headless{}, IdleNotify: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	s.Agent.Prompt(context.Background(), "hi")
	if s.idle == nil {
		t.Fatal("no idle watch though a Notification hook listens")
	}
	s.Close("exit")
	if _, err := os.Stat(dump); err == nil {
		t.Fatal("the idle notification fired before the wait was over")
	}
	c, script, _ = idleProject(t)
	h, err := Open(c, Model{Script: script}, Wiring{Approver: agent.Headless{}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close("exit")
	if h.idle != nil {
		t.Fatal("a headless session watches the input")
	}
}
