package hooks

import (
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
	if err := r.Load(cfg); err != nil {
		t.Fatal(err)
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
		{"unknown event", `{` + good + `,"PreTooluse":[{"hooks":[{"type":"command","command":"x"}]}]}`, `unknown event "PreTooluse"`},
		{"non-command type", `{` + good + `,"Stop":[{"hooks":[{"type":"prompt","command":"x"}]}]}`, `Stop[0].hooks[0]: type "prompt"`},
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
		err := r.Load(cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
		if r.Has(SessionStart) {
			t.Errorf("%s: the good entries were registered although the config was refused", c.name)
		}
	}
}
