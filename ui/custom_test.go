package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/commands"
)

// commands.Builtin keeps a command file from taking a built-in's name; a
// built-in added here and not there would be hidden by a repository's file.
func TestBuiltinCommandNamesAreReservedForCommandFiles(t *testing.T) {
	t.Parallel()
	for _, c := range slashCommands {
		if !slices.Contains(commands.Builtin, strings.TrimPrefix(c.name, "/")) {
			t.Errorf("%s is not in commands.Builtin", c.name)
		}
	}
}
