package shell

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/sandbox"
)

// decide runs a Bash input through the real policy and then the gate, as
// the pipeline does.
func decide(t *testing.T, g *Gatekeeper, p *permission.Policy, mode permission.Mode, input map[string]any) permission.Decision {
	t.Helper()
	tool := Bash(WithSandbox(g.Sandbox, true))
	b, _ := json.Marshal(input)
	d := p.Evaluate(permission.Request{
		Tool: "Bash", Mode: mode,
		Own:    tool.CheckPermission(context.Background(), b, nil),
		Target: tool.Target(b, nil),
	})
	return g.Gate("Bash", b, mode, d)
}

func gateFixture(t *testing.T, autoAllow bool) (*Gatekeeper, *permission.Policy, string) {
	t.Helper()
	ws, _, sb := sandboxFixture(t)
	p := permission.NewPolicy([]string{ws})
	for b, rules := range map[permission.Behavior][]string{
		permission.Allow: {"Bash(git status:*)", "Bash(make:*)"},
		permission.Ask:   {"Bash(git push:*)"},
		permission.Deny:  {"Bash(rm -rf:*)"},
	} {
		if err := p.AddRules(b, "test", rules...); err != nil {
			t.Fatal(err)
		}
	}
	p.AddProtected(filepath.Join(ws, ".workbench", "settings.json"))
	return &Gatekeeper{Sandbox: sb, Label: sb.Describe().String(), AutoAllow: autoAllow,
		NetworkClosed: sb.Describe().Network == sandbox.NetNone}, p, ws
}

func TestH16_LeavingTheSandboxAlwaysAsks(t *testing.T) {
	t.Parallel()
	g, p, _ := gateFixture(t, true)
	escape := map[string]any{"command": "git status", "dangerouslyDisableSandbox": true}
	for mode, want := range map[permission.Mode]permission.Behavior{
		permission.ModeDefault:     permission.Ask,
		permission.ModeAcceptEdits: permission.Ask,
		permission.ModeDontAsk:     permission.Deny,
		permission.ModeBypass:      permission.Allow,
	} {
		d := decide(t, g, p, mode, escape)
		if d.Behavior != want {
			t.Errorf("%s: an allowed command leaving the sandbox got %+v, want %s", mode, d, want)
		}
		if want == permission.Ask && !strings.Contains(d.Message, "OUTSIDE the sandbox") {
			t.Errorf("%s: the question does not say it leaves the sandbox: %q", mode, d.Message)
		}
	}
	// Not allowed by a rule, it asks (never auto-allowed), with the same words.
	d := decide(t, g, p, permission.ModeDefault, map[string]any{"command": "ls", "dangerouslyDisableSandbox": true})
	if d.Behavior != permission.Ask || !strings.Contains(d.Message, "OUTSIDE the sandbox") {
		t.Errorf("an unmatched escape: %+v", d)
	}
	// A deny rule still denies.
	if d := decide(t, g, p, permission.ModeBypass, map[string]any{"command": "rm -rf x", "dangerouslyDisableSandbox": true}); d.Behavior != permission.Deny {
		t.Errorf("a denied escape: %+v", d)
	}
	if got := g.Describe("Bash", json.RawMessage(`{"command":"ls","dangerouslyDisableSandbox":true}`)); got != "outside the sandbox" {
		t.Errorf("Describe = %q", got)
	}
}

func TestH16_AutoAllowRunsOnlyWhatLackedARule(t *testing.T) {
	t.Parallel()
	g, p, ws := gateFixture(t, true)
	cases := []struct {
		command string
		want    permission.Behavior
	}{
		{"ls -la", permission.Allow},
		{`python3 -c "print(1)"`, permission.Allow},
		{"git status", permission.Allow}, // a rule allows it anyway
		{"git push origin main", permission.Ask},
		{"rm -rf build", permission.Deny},
		{"echo x > " + filepath.Join(ws, ".workbench", "settings.json"), permission.Ask},
		{"echo x > /etc/profile", permission.Ask},
		{"curl https://example.com", permission.Ask}, // needs a network the sandbox closes
		{"FOO=1 git clone https://example.com/r", permission.Ask},
		{"cd sub && npm install", permission.Ask},
		{"f=$(mktemp); echo x > $f", permission.Ask}, // a target known only at run time
	}
	for _, c := range cases {
		d := decide(t, g, p, permission.ModeDefault, map[string]any{"command": c.command})
		if d.Behavior != c.want {
			t.Errorf("%q: %+v, want %s", c.command, d, c.want)
		}
		if c.want == permission.Allow && c.command == "ls -la" && d.Rule != "sandbox.autoAllow" {
			t.Errorf("%q: decided by %q", c.command, d.Rule)
		}
	}
	// Off by default: the same call asks.
	off, p2, _ := gateFixture(t, false)
	if d := decide(t, off, p2, permission.ModeDefault, map[string]any{"command": "ls -la"}); d.Behavior != permission.Ask {
		t.Errorf("without autoAllow: %+v", d)
	}
	if got := g.Describe("Monitor", nil); !strings.Contains(got, "workspace-write") || !strings.Contains(got, "network none") {
		t.Errorf("Describe(Monitor) = %q", got)
	}
	if got := g.Describe("Read", nil); got != "" {
		t.Errorf("Describe(Read) = %q", got)
	}
}
