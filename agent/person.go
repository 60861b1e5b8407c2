package agent

import (
	"context"
	"encoding/json"
	"time"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// EntryPersonCommand records a command the person ran themselves (`!cmd`
// in the TUI) with its result, as soon as it ends, so a crash does not lose
// it and a resumed session shows it again.
const EntryPersonCommand = "person_command"

// personKey marks a context whose call the person typed themselves.
type personKey struct{}

// ByPerson marks ctx as carrying a call the person typed themselves (the
// TUI's `!command`). The person already decided: an ask of the rules, the
// mode, a hook or the sandbox is answered by them without a dialog, and the
// audit trail says so. Deny rules and hard deny are decided before any ask
// and still stop the call.
func ByPerson(ctx context.Context) context.Context {
	return context.WithValue(ctx, personKey{}, true)
}

func byPerson(ctx context.Context) bool {
	v, _ := ctx.Value(personKey{}).(bool)
	return v
}

// personDecision is the detail an ask answered by the person's own typing
// records.
const personDecision = "decided by the person: they typed the command themselves"

// ForPerson returns a copy of p for the person's own commands: their mode
// is always default (plan or dontAsk govern the agent, not the person's own
// typing); reg holds the person's tools (their Bash runs outside the
// sandbox unless sandbox.person says otherwise) and sb is the sandbox gate
// that goes with them, nil for none.
func (p *Pipeline) ForPerson(reg *tools.Registry, sb SandboxPolicy) *Pipeline {
	c := *p
	c.Mode = func() permission.Mode { return permission.ModeDefault }
	c.Tools, c.Sandbox = reg, sb
	return &c
}

// PersonCommand is one command the person ran and what it printed.
type PersonCommand struct {
	CallID  string    `json:"call_id"`
	Command string    `json:"command"`
	Result  string    `json:"result"`
	IsError bool      `json:"is_error,omitempty"`
	Time    time.Time `json:"time"`
	// At is where a resumed conversation shows it: before History[At]
	// (len(History) for the end). Not recorded; LoadSession sets it.
	At int `json:"-"`
}

// RecordPersonCommand writes a finished person's command to the transcript
// and makes it durable at once. The model is not sent it: it is the
// person's, shown to them and kept for them.
func (s *Session) RecordPersonCommand(c PersonCommand) {
	s.record(EntryPersonCommand, c)
	s.sync()
}

// placePersonCommands keeps the recorded person's commands at their place
// in a history that a clear, a compaction or a rewind changed: a clear
// forgets them, a compaction keeps those among the messages it kept (older
// ones go to the start), a rewind drops those after the point it went back
// to.
func placePersonCommands(cs []PersonCommand, kind string, before, after []provider.Message) []PersonCommand {
	switch kind {
	case EntryClear:
		return nil
	case EntryCompact:
		for i := range cs {
			cs[i].At = max(0, len(after)-(len(before)-cs[i].At))
		}
	case EntryRewind:
		kept := cs[:0]
		for _, c := range cs {
			if c.At <= len(after) {
				kept = append(kept, c)
			}
		}
		return kept
	}
	return cs
}

// readPersonCommand decodes an entry, placed at the end of history.
func readPersonCommand(data json.RawMessage, history []provider.Message) (PersonCommand, bool) {
	var c PersonCommand
	if json.Unmarshal(data, &c) != nil || c.Command == "" {
		return c, false
	}
	c.At = len(history)
	return c, true
}
