package approval

import (
	"strings"
	"testing"
)

func TestH16_TheDialogSaysACommandLeavesTheSandbox(t *testing.T) {
	t.Parallel()
	req := bash("make deploy")
	req.Input = input(t, map[string]any{"command": "make deploy", "dangerouslyDisableSandbox": true})
	view := screen(t, ready(t, req, Options{}).View(80, 24), 80, 24)
	if !strings.Contains(view, "runs OUTSIDE the sandbox") {
		t.Errorf("the dialog does not say the command leaves the sandbox:\n%s", view)
	}
	plain := screen(t, ready(t, bash("make deploy"), Options{}).View(80, 24), 80, 24)
	if strings.Contains(plain, "OUTSIDE the sandbox") {
		t.Errorf("a sandboxed command is shown as leaving it:\n%s", plain)
	}
}
