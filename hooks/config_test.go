package hooks

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestConfigUnmarshalsAndLoads(t *testing.T) {
	t.Parallel()
	var cfg Config
	src := `{
		"PreToolUse": [{"matcher": "Bash|Write", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 60}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "./done.sh", "timeout": 1.5}, {"type": "command", "command": "./x.sh"}]}]
	}`
	if err := json.Unmarshal([]byte(src), &cfg); err != nil {
		t.Fatal(err)
	}
	r := NewRegistry()
	if ignored, err := r.Load(cfg); err != nil || len(ignored) > 0 {
		t.Fatal(ignored, err)
	}
	if !r.Has(PreToolUse) || !r.Has(Stop) || r.Has(PostToolUse) {
		t.Fatal("Has does not reflect the config")
	}
	pre, stop := r.byEvent[PreToolUse], r.byEvent[Stop]
	if pre[0].cmd.Command != "./guard.sh" || pre[0].cmd.Timeout != time.Minute || !pre[0].match.match("Write") || pre[0].match.match("Read") {
		t.Errorf("PreToolUse hook = %+v", pre[0])
	}
	if len(stop) != 2 || stop[0].cmd.Timeout != 1500*time.Millisecond || stop[1].cmd.Timeout != 0 || stop[1].name != "./x.sh" {
		t.Errorf("Stop hooks = %+v", stop)
	}
}

func TestLoadRejectsBadEntries(t *testing.T) {
	t.Parallel()
	good := `"SessionStart":[{"hooks":[{"type":"command","command":"true"}]}]`
	cases := []struct{ name, src, want string }{
		{"empty prompt", `{` + good + `,"Stop":[{"hooks":[{"type":"prompt","command":"x"}]}]}`, `Stop[0].hooks[0]: empty prompt`},
		{"empty command", `{` + good + `,"Stop":[{"hooks":[{"type":"command","command":""}]}]}`, "empty command"},
		{"negative timeout", `{` + good + `,"Stop":[{"hooks":[{"type":"command","command":"x","timeout":-1}]}]}`, "negative timeout"},
		{"absurd timeout", `{` + good + `,"Stop":[{"hooks":[{"type":"command","command":"x","timeout":1e12}]}]}`, "longer than"},
		{"bad matcher", `{` + good + `,"PostToolUse":[{"matcher":"a","hooks":[]},{"matcher":"[","hooks":[{"type":"command","command":"x"}]}]}`, "PostToolUse[1].hooks[0]: bad matcher"},
	}
	for _, c := range cases {
		var cfg Config
		if err := json.Unmarshal([]byte(c.src), &cfg); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r := NewRegistry()
		_, err := r.Load(cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
		if r.Has(SessionStart) {
			t.Errorf("%s: the good entries were registered although the config was refused", c.name)
		}
	}
}

// Events Workbench does not fire and handler types it does not run are
// notices, never errors: a settings file written for a newer Claude Code
// must not stop Workbench, and what is ignored is said, not hidden.
func TestLoadIgnoresUnknownEventsAndTypesWithANotice(t *testing.T) {
	t.Parallel()
	src := `{
		"TeammateIdle": [{"hooks": [{"type": "command", "command": "./idle.sh"}]}],
		"PreTooluse": [{"hooks": [{"type": "command", "command": "./typo.sh"}]}],
		"PreToolUse": [{"matcher": "Bash", "hooks": [
			{"type": "http", "url": "http://127.0.0.1:1/hook"},
			{"type": "command", "command": "./guard.sh"},
			{"type": "agent", "prompt": "check it"}]}],
		"Notification": [{"matcher": "permission_prompt", "hooks": [{"type": "command", "command": "./notify.sh"}]}],
		"PreCompact": [{"matcher": "auto|manual", "hooks": [{"type": "command", "command": "./compact.sh"}]}],
		"SubagentStop": [{"hooks": [{"type": "prompt", "prompt": "Is the subagent done? $ARGUMENTS"}]}],
		"PermissionRequest": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./perm.sh"}]}]
	}`
	var cfg Config
	if err := json.Unmarshal([]byte(src), &cfg); err != nil {
		t.Fatal(err)
	}
	r := NewRegistry()
	ignored, err := r.Load(cfg)
	if err != nil {
		t.Fatalf("Load refused the file: %v", err)
	}
	var got []string
	for _, ig := range ignored {
		got = append(got, ig.Where()+": "+ig.Msg)
	}
	want := []string{
		`PreTooluse: event "PreTooluse" is not one Workbench fires; its hooks are ignored (did you mean "PreToolUse"?)`,
		`TeammateIdle: event "TeammateIdle" is not one Workbench fires; its hooks are ignored`,
		`PreToolUse[0].hooks[0]: hook type "http" is not one Workbench runs (it runs "command" and "prompt"); this hook is ignored`,
		`PreToolUse[0].hooks[2]: hook type "agent" is not one Workbench runs (it runs "command" and "prompt"); this hook is ignored`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ignored:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, ev := range []Event{PreToolUse, Notification, PreCompact, SubagentStop, PermissionRequest} {
		if !r.Has(ev) {
			t.Errorf("%s hooks were not registered", ev)
		}
	}
	if n := len(r.byEvent[PreToolUse]); n != 1 {
		t.Errorf("PreToolUse has %d hooks, want the one command", n)
	}
	if p := r.byEvent[SubagentStop][0].prompt; p == nil || p.timeout != PromptTimeout {
		t.Errorf("the prompt hook = %+v, want a prompt hook with the 30 s default", p)
	}
}

// Claude Code's async, once and statusMessage are read and not used: the
// hook runs to its end before the call goes on, so an "async" PreToolUse
// hook that exits 2 still blocks, and a "once" hook runs every time.
func TestAsyncAndOnceHooksRunToTheirEndEveryTime(t *testing.T) {
	t.Parallel()
	block := exiting(t, 2, "not now")
	var cfg Config
	raw := `{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":` + mustJSON(block.Command) +
		`,"async":true,"once":true,"statusMessage":"checking"}]}]}`
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		t.Fatal(err)
	}
	r := NewRegistry()
	if ignored, err := r.Load(cfg); err != nil || len(ignored) != 0 {
		t.Fatalf("load: %v %v", ignored, err)
	}
	for i := 0; i < 2; i++ {
		if v := r.PreToolUse(context.Background(), bashInput("ls")); !v.Block || !strings.Contains(v.Reason, "not now") {
			t.Fatalf("run %d: an async hook's exit 2 did not block: %+v", i, v)
		}
	}
}
