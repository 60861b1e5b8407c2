package shell

import "github.com/seed92b641c3/workbench/tasks"

// NonInteractiveEnv returns what every shell command gets on top of the
// inherited environment, so that nothing waits for a person who is not
// there; see tasks.NonInteractiveEnv for each entry and why.
func NonInteractiveEnv() []string { return tasks.NonInteractiveEnv() }
