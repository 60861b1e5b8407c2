package hooks

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Config is the "hooks" section of the users' settings files, keyed by
// event name:
//
//	{"PreToolUse": [{"matcher": "Bash|Write",
//	  "hooks": [{"type": "command", "command": "./check.sh", "timeout": 60}]}]}
type Config map[Event][]Matcher

// Matcher is one group of hooks in Config sharing a tool matcher.
type Matcher struct {
	Matcher string     `json:"matcher"`
	Hooks   []HookSpec `json:"hooks"`
}

// HookSpec is one hook in Config. Only "command" hooks exist here.
type HookSpec struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	// Timeout is in seconds, as users write it; 0 means the default.
	Timeout float64 `json:"timeout"`
}

// maxTimeout caps a configured timeout; a larger one is surely a unit
// mistake (milliseconds written as seconds) and would disable H6.
const maxTimeout = 24 * time.Hour

// Load checks every hook in cfg and then registers them all, events in
// the order of Events and hooks in the order written. Nothing is
// registered when any entry is wrong, and the error names the entry: an
// unknown event, a type other than "command", an empty command, a negative
// or absurd timeout, or a bad matcher. The errors carry no "hooks:" prefix
// because the settings loader already says where they come from.
func (r *Registry) Load(cfg Config) error {
	events := make([]Event, 0, len(cfg))
	for ev := range cfg {
		events = append(events, ev)
	}
	// Map order is random; sort so errors and registration are the same
	// every time. Unknown events sort first, by name, and fail first.
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
	for _, ev := range events {
		if !ev.Valid() {
			return fmt.Errorf("unknown event %q", ev)
		}
		for i, m := range cfg[ev] {
			for j, s := range m.Hooks {
				where := fmt.Sprintf("%s[%d].hooks[%d]", ev, i, j)
				c, err := s.command()
				if err != nil {
					return fmt.Errorf("%s: %w", where, err)
				}
				h, err := prepare(ev, m.Matcher, hook{name: c.Command, cmd: c})
				if err != nil {
					return fmt.Errorf("%s: %w", where, err)
				}
				ready = append(ready, pending{ev, h})
			}
		}
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	for _, x := range ready {
		r.byEvent[x.ev] = append(r.byEvent[x.ev], x.h)
	}
	return nil
}

// command turns a spec into a Command, rejecting what cannot run.
func (s HookSpec) command() (Command, error) {
	if s.Type != "command" {
		return Command{}, fmt.Errorf("type %q is not supported (only \"command\")", s.Type)
	}
	if s.Timeout < 0 {
		return Command{}, fmt.Errorf("negative timeout %v", s.Timeout)
	}
	if s.Timeout > maxTimeout.Seconds() {
		return Command{}, fmt.Errorf("timeout %v s is longer than %s", s.Timeout, maxTimeout)
	}
	c := Command{Command: s.Command, Timeout: time.Duration(s.Timeout * float64(time.Second))}
	if err := c.validate(); err != nil {
		return Command{}, err
	}
	return c, nil
}
