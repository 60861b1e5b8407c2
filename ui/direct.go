package ui

import (
	"context"
	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/tools"
)

// directDoneMsg reports the end of a `!command` call.
type directDoneMsg struct{ call agent.Call }

// direct runs `!command` as the person's own: through the session's
// pipeline (deny rules and hard deny still stop it) without an approval
// dialog, since the person decided by typing it (agent.ByPerson, recorded
// so in the audit trail). Esc and Ctrl-C stop it; its result goes to the
// transcript as soon as it ends.
func (m *Model) direct(command string) tea.Cmd {
	if command == "" {
		return nil
	}
	in, _ := json.Marshal(map[string]string{"command": command})
	call := agent.Call{ID: fmt.Sprintf("direct_%d", m.now().UnixNano()), Name: "Bash", Input: in}
	m.conv.AddUser("!" + command)
	m.onEvent(agent.Event{Kind: agent.EventToolUse, Call: &call})
	m.conv.ScrollToBottom()
	ctx, cancel := context.WithCancel(agent.ByPerson(context.Background()))
	m.directs[call.ID] = cancel
	p, bridge, sess, now := m.cfg.PersonPipeline, m.cfg.Bridge, m.cfg.Agent, m.cfg.Now
	if p == nil {
		p = m.cfg.Pipeline
	}
	return tea.Batch(func() tea.Msg {
		res := p.Run(ctx, call)
		bridge.Publish(agent.Event{Kind: agent.EventToolResult, Call: &call, Result: &res})
		if sess != nil {
			sess.RecordPersonCommand(agent.PersonCommand{CallID: call.ID, Command: command,
				Result: res.Text, IsError: res.IsError, Time: now()})
		}
		return directDoneMsg{call: call}
	}, m.tick())
}

// directDone forgets a finished `!command`.
func (m *Model) directDone(msg directDoneMsg) {
	if cancel, ok := m.directs[msg.call.ID]; ok {
		cancel()
		delete(m.directs, msg.call.ID)
	}
}

// stopDirects stops every running `!command`; each still ends with a
// result (directDoneMsg).
func (m *Model) stopDirects() {
	for _, cancel := range m.directs {
		cancel()
	}
}

// busy reports whether anything Esc or Ctrl-C would stop is running: the
// agent's turn or a `!command`.
func (m *Model) busy() bool { return m.running || len(m.directs) > 0 }

// replayPerson shows the resumed person's commands whose place is before
// message i and returns the rest.
func (m *Model) replayPerson(cs []agent.PersonCommand, i int) []agent.PersonCommand {
	for len(cs) > 0 && cs[0].At <= i {
		c := cs[0]
		cs = cs[1:]
		in, _ := json.Marshal(map[string]string{"command": c.Command})
		m.conv.AddUser("!" + c.Command)
		m.conv.AddToolUse(c.CallID, "Bash", in)
		m.conv.SetToolResult(c.CallID, tools.Result{Text: c.Result, IsError: c.IsError}, 0)
	}
	return cs
}
