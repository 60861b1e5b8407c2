package session

import (
	"os"

	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/memory"
)

// ruledTools are the file tools whose paths bring in a path-scoped rule
// (.claude/rules with `paths`), as Claude Code's Read, Edit and Write do.
var ruledTools = map[string]bool{"Read": true, "Edit": true, "MultiEdit": true, "Write": true}

// withPathRules wraps the file tools so a path-scoped rule joins the
// conversation when a call first touches a file it names. The rules that
// always apply are read with CLAUDE.md (memory.LoadInstructions), which
// also gives the notices of rule files that could not be read.
func withPathRules(projectDir string, ts []tools.Tool) []tools.Tool {
	home, _ := os.UserHomeDir()
	rules, _ := memory.LoadRules(home, projectDir)
	pr := memory.NewPathRules(projectDir, rules)
	out := make([]tools.Tool, 0, len(ts))
	for _, t := range ts {
		if ruledTools[t.Name()] {
			t = memory.WithRules(t, pr)
		}
		out = append(out, t)
	}
	return out
}
