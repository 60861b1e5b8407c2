package session

import (
	"testing"

	"github.com/seed92b641c3/workbench/agent"
)

// Build compiles a tool's schema at its first call, not at start; this
// compiles every tool a whole session has, so a built-in schema that does
// not compile fails here rather than at somebody's first call.
func TestEveryToolSchemaCompiles(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cfg, err := Load(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(cfg, Model{}, Wiring{Approver: agent.Headless{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close("exit")
	list := s.Registry.List()
	if len(list) < 25 {
		t.Fatalf("only %d tools in the session", len(list))
	}
	for _, tool := range list {
		if err := tool.Schema().Compile(); err != nil {
			t.Errorf("%s: %v", tool.Name(), err)
		}
	}
}
