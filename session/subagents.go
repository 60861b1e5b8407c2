package session

import (
	"os"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/subagents"
)

// subagentDefs are the Agent tool's kinds: the built-in ones, then the
// project's and the person's .claude/agents definitions. A definition only
// narrows what a subagent may use, so a project's loads whether or not the
// person trusts the project, like its CLAUDE.md.
func (s *Session) subagentDefs() []agent.AgentDef {
	builtin := agent.DefaultAgents()
	home, _ := os.UserHomeDir()
	custom, notes := subagents.Load(builtin, subagents.DefaultDirs(s.Config.ProjectDir, home)...)
	for _, n := range notes {
		s.Notes = append(s.Notes, "subagent: "+n)
	}
	return append(builtin, custom...)
}
