package main

import (
	"strings"
	"testing"
	"time"
)

// A Claude Code user's command file in the real TUI: typing / lists it with
// its description, /help names it, and /name args runs it; its !`command`
// outside allowed-tools asks in the approval dialog, as any Bash call
// would, and its output is in the prompt the model got.
func TestE2E_CustomCommandListedAndRun(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal")
	}
	c := newCLI(t)
	c.write(".claude/commands/git/shipit.md", "---\ndescription: Ship the change\nargument-hint: [what]\n---\nShip $ARGUMENTS. Marker: !`echo from-$((40+2))`\n")
	s := c.script("s.json", `{"turns":[{"text":"First reply.","delay_ms":2500},{"text":"Shipped it."}]}`)
	r := startTmuxWithState(t, c.project, c.state, 110, 30, "--script", s)
	r.waitFor("the input", func(s string) bool { return strings.Contains(s, "Ask the agent") })

	r.keys("-l", "/ship")
	listed := r.waitFor("the completion list", func(s string) bool { return strings.Contains(s, "/shipit") })
	if !strings.Contains(listed, "Ship the change (project:git)") || !strings.Contains(listed, "[what]") {
		t.Errorf("the completion list lacks the description, where it came from or the hint:\n%s", listed)
	}
	r.keys("C-u")
	r.keys("-l", "/help")
	r.keys("Enter")
	help := r.waitFor("the help page", func(s string) bool { return strings.Contains(s, "Your commands") })
	if !strings.Contains(help, "/shipit") {
		t.Errorf("/help does not name the command:\n%s", help)
	}
	r.keys("Escape")
	r.waitFor("the help page to close", func(s string) bool { return !strings.Contains(s, "Your commands") })

	// Typed while the agent runs, the command waits its turn.
	r.keys("-l", "hi")
	r.keys("Enter")
	r.waitFor("the first run", func(s string) bool { return strings.Contains(s, "esc interrupt") || strings.Contains(s, "Working") })
	r.keys("-l", "/shipit the parser")
	r.keys("Enter")
	r.waitFor("the queued notice", func(s string) bool { return strings.Contains(s, "/shipit runs when the agent finishes") })
	dialog := r.waitFor("the approval dialog", func(s string) bool { return strings.Contains(s, "wants to run") })
	if !strings.Contains(dialog, "echo from-") {
		t.Fatalf("the dialog does not show the command file's shell line:\n%s", dialog)
	}
	time.Sleep(500 * time.Millisecond) // keys within 400 ms of the dialog opening are ignored
	r.keys("y")
	r.waitFor("the reply", func(s string) bool { return strings.Contains(s, "Shipped it.") })
	// The transcript is made durable at the turn's end, a moment after
	// the reply is on screen.
	got := c.userMessages()
	for end := time.Now().Add(e2eDeadline); len(got) < 2 && time.Now().Before(end); got = c.userMessages() {
		time.Sleep(50 * time.Millisecond)
	}
	if len(got) != 2 || got[1] != "Ship the parser. Marker: from-42" {
		t.Errorf("the prompts sent were %q", got)
	}
}
