package hooks

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Config is the "hooks" section of the users' settings files, keyed by
// event name:
//
//	{"PreToolUse": [{"matcher": "Bash|Write",
//	  "hooks": [{"type": "command", "command": "./check.sh", "timeout": 60}]}]}
type Config map[Event][]Matcher

// Matcher is one group of hooks in Config sharing a matcher.
type Matcher struct {
	Matcher string     `json:"matcher"`
	Hooks   []HookSpec `json:"hooks"`
}

// HookSpec is one hook in Config: a "command" run by the shell, or a
// "prompt" put to the session's model as a yes/no question.
type HookSpec struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	// Prompt is the question of a "prompt" hook; $ARGUMENTS in it stands
	// for the event as JSON (appended when it is absent).
	Prompt string `json:"prompt"`
	// Model names the model a prompt hook wants; Workbench asks the
	// session's own model, so it is read and not used.
	Model string `json:"model"`
	// Timeout is in seconds, as users write it; 0 means the default.
	Timeout float64 `json:"timeout"`
	// Claude Code's other handler fields, read so that a Workbench
	// settings file (which refuses unknown keys) can hold the same hooks.
	// Workbench runs no "http" or "mcp_tool" hooks and runs every hook to
	// its end before going on, so these are not used.
	URL           string            `json:"url,omitempty"`
	Headers       map[string]string `json:"headers,omitempty"`
	Async         bool              `json:"async,omitempty"`
	Once          bool              `json:"once,omitempty"`
	StatusMessage string            `json:"statusMessage,omitempty"`
}

// Ignored is a part of a hooks configuration Workbench reads but does not
// run: an event it does not fire, or a handler type it has not got. Such
// settings never stop Workbench (a file written for a newer Claude Code
// must keep working); the host shows each one as a notice.
type Ignored struct {
	// Path locates the part inside the hooks object: the event name,
	// then, for one hook, the group index, "hooks" and the hook's index.
	Path []string
	// Msg says what is ignored and why.
	Msg string
}

// Where renders Path the way errors name entries ("Notification",
// "PreToolUse[0].hooks[1]").
func (ig Ignored) Where() string {
	if len(ig.Path) == 4 {
		return fmt.Sprintf("%s[%s].hooks[%s]", ig.Path[0], ig.Path[1], ig.Path[3])
	}
	return strings.Join(ig.Path, ".")
}

// maxTimeout caps a configured timeout; a larger one is surely a unit
// mistake (milliseconds written as seconds) and would disable H6.
const maxTimeout = 24 * time.Hour

// PromptTimeout bounds a prompt hook that names no timeout, as Claude
// Code's reference gives it: a model's answer takes longer than a script.
const PromptTimeout = 30 * time.Second

// Load checks every hook in cfg and then registers them all, events in
// the order of Events and hooks in the order written. Events Workbench does
// not fire and handler types it does not run are skipped and returned as
// Ignored, never an error. Nothing is registered when an entry Workbench
// would run is wrong, and the error names the entry: an empty command or
// prompt, a negative or absurd timeout, or a bad matcher. The errors carry
// no "hooks:" prefix because the settings loader already says where they
// come from.
func (r *Registry) Load(cfg Config) ([]Ignored, error) {
	events := make([]Event, 0, len(cfg))
	for ev := range cfg {
		events = append(events, ev)
	}
	// Map order is random; sort so errors, notices and registration are
	// the same every time. Unknown events sort first, by name.
	slices.SortFunc(events, func(a, b Event) int {
		if c := cmp.Compare(slices.Index(Events, a), slices.Index(Events, b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})

	type pending struct {
		ev Event
		h  hook
	}
	var ready []pending
	var ignored []Ignored
	for _, ev := range events {
		if !ev.Valid() {
			ignored = append(ignored, Ignored{Path: []string{string(ev)}, Msg: unknownEvent(ev)})
			continue
		}
		for i, m := range cfg[ev] {
			for j, s := range m.Hooks {
				path := []string{string(ev), strconv.Itoa(i), "hooks", strconv.Itoa(j)}
				where := fmt.Sprintf("%s[%d].hooks[%d]", ev, i, j)
				if s.Type != "command" && s.Type != "prompt" {
					ignored = append(ignored, Ignored{Path: path, Msg: fmt.Sprintf(
						"hook type %q is not one Workbench runs (it runs \"command\" and \"prompt\"); this hook is ignored", s.Type)})
					continue
				}
				h, err := s.hook()
				if err == nil {
					h, err = prepare(ev, m.Matcher, h)
				}
				if err != nil {
					return ignored, fmt.Errorf("%s: %w", where, err)
				}
				ready = append(ready, pending{ev, h})
			}
		}
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	for _, x := range ready {
		r.byEvent[x.ev] = append(slices.Clip(r.byEvent[x.ev]), x.h)
	}
	return ignored, nil
}

// unknownEvent explains an event Workbench does not fire, naming the one
// meant when only the case differs ("PreTooluse").
func unknownEvent(ev Event) string {
	msg := fmt.Sprintf("event %q is not one Workbench fires; its hooks are ignored", ev)
	for _, k := range Events {
		if strings.EqualFold(string(k), string(ev)) {
			return msg + fmt.Sprintf(" (did you mean %q?)", k)
		}
	}
	return msg
}

// hook turns a spec of a type Workbench runs into a registration,
// rejecting what cannot run.
func (s HookSpec) hook() (hook, error) {
	if s.Timeout < 0 {
		return hook{}, fmt.Errorf("negative timeout %v", s.Timeout)
	}
	if s.Timeout > maxTimeout.Seconds() {
		return hook{}, fmt.Errorf("timeout %v s is longer than %s", s.Timeout, maxTimeout)
	}
	timeout := time.Duration(s.Timeout * float64(time.Second))
	if s.Type == "prompt" {
		if strings.TrimSpace(s.Prompt) == "" {
			return hook{}, fmt.Errorf("empty prompt")
		}
		if timeout == 0 {
			timeout = PromptTimeout
		}
		return hook{name: "prompt: " + clip(s.Prompt, 60), prompt: &promptHook{text: s.Prompt, timeout: timeout}}, nil
	}
	c := Command{Command: s.Command, Timeout: timeout}
	if err := c.validate(); err != nil {
		return hook{}, err
	}
	return hook{name: c.Command, cmd: c}, nil
}
