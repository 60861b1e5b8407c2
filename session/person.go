package session

import (
	"encoding/json"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/shell"
)

// PersonPipeline is the pipeline the person's own `!` commands run through:
// the session's rules, hooks, transcript and rewind checkpoints, with Bash
// in the sandbox only when sandbox.person is true (as the /shell pane,
// PersonShell), in default mode whatever the agent's mode is. The call's
// context says the person decided (agent.ByPerson), so nothing asks.
func (s *Session) PersonPipeline() *agent.Pipeline {
	c := s.Config
	if c.Settings.Sandbox.Person || !c.Sandbox.Active() {
		return s.Pipeline.ForPerson(tools.NewRegistry(shell.Bash(c.bashOptions()...)), c.sandboxGate())
	}
	return s.Pipeline.ForPerson(tools.NewRegistry(shell.Bash()), personOutside{})
}

// personOutside is the sandbox's say on a person's command that runs as it
// is: no adjustment, and the record says where it ran.
type personOutside struct{}

func (personOutside) Gate(_ string, _ json.RawMessage, _ permission.Mode, d permission.Decision) permission.Decision {
	return d
}

func (personOutside) Describe(tool string, _ json.RawMessage) string {
	if tool != "Bash" {
		return ""
	}
	return "outside the sandbox (the person's own command; sandbox.person is false)"
}

// RestoredPersonCommands are the person's own commands of the session this
// one continues, each placed in the restored history; nil for a new one.
func (s *Session) RestoredPersonCommands() []agent.PersonCommand {
	if s.Restored == nil {
		return nil
	}
	return s.Restored.PersonCommands
}
