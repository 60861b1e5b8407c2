package hooks

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// script writes body as an executable /bin/sh script in a temp dir and
// returns a command that runs it.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hook.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return shq(p)
}

// shq quotes s for /bin/sh.
func shq(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// printing returns a command hook that drains stdin and prints out.
func printing(t *testing.T, out string) Command {
	return Command{Command: script(t, "cat >/dev/null\nprintf '%s' "+shq(out))}
}

// exiting returns a command hook that writes msg to stderr and exits code.
func exiting(t *testing.T, code int, msg string) Command {
	return Command{Command: script(t, fmt.Sprintf("cat >/dev/null\nprintf '%%s\\n' %s >&2\nexit %d", shq(msg), code))}
}

// touching returns a command hook that creates a file, to prove it ran.
func touching(t *testing.T) (Command, string) {
	p := filepath.Join(t.TempDir(), "ran")
	return Command{Command: "touch " + shq(p)}, p
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func mustAdd(t *testing.T, r *Registry, ev Event, matcher string, c Command) {
	t.Helper()
	if err := r.AddCommand(ev, matcher, c); err != nil {
		t.Fatal(err)
	}
}

func bashInput(cmd string) Input {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	return Input{SessionID: "s1", ToolName: "Bash", ToolInput: in, ToolUseID: "toolu_1"}
}
