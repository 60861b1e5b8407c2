package ptytools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tasks/pty"
)

// The person's own /shell pane runs outside the sandbox: an agent that could
// type into it would run anything outside the sandbox, so no tool reaches it.
func TestH16_TheAgentCannotUseThePersonsShell(t *testing.T) {
	k := newKit(t)
	marker := filepath.Join(t.TempDir(), "typed")
	person, err := k.m.Open(pty.OpenSpec{Argv: []string{"bash", "--norc", "--noprofile"}, Mode: "person", Person: true,
		Env: []string{"PS1=$ "}, Wrap: pty.Unconfined})
	if err != nil {
		t.Fatal(err)
	}
	id := person.ID()
	for _, c := range []struct{ tool, input string }{
		{"shell_send", fmt.Sprintf(`{"session_id": %q, "text": "touch %s\n"}`, id, marker)},
		{"shell_read", fmt.Sprintf(`{"session_id": %q}`, id)},
		{"shell_resize", fmt.Sprintf(`{"session_id": %q, "rows": 10, "cols": 40}`, id)},
		{"shell_close", fmt.Sprintf(`{"session_id": %q}`, id)},
	} {
		if msg := k.fail(c.tool, c.input); !strings.Contains(msg, "person's own terminal") {
			t.Errorf("%s on the person's shell: %q", c.tool, msg)
		}
	}
	if list := k.call("shell_list", `{}`); len(list["sessions"].([]any)) != 0 {
		t.Errorf("shell_list shows the person's shell: %v", list)
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the agent's shell_send typed a command into the person's shell")
	}
	if person.State() != pty.Running {
		t.Errorf("the person's shell is %v after the agent's calls", person.State())
	}
}
