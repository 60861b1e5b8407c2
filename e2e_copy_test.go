package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func (r *tmuxRun) tmux(args ...string) string {
	r.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", r.socket}, args...)...).CombinedOutput()
	if err != nil {
		r.t.Fatalf("tmux %v: %v %s", args, err, out)
	}
	return string(out)
}

// The copy key sends the selected call's output with OSC 52, which tmux
// (with set-clipboard on, as it forwards the copy to its own terminal)
// turns into a paste buffer; the answer is copied when nothing is
// selected. The mouse key turns the terminal's mouse reporting off and on.
func TestE2E_CopyKeyUsesOSC52AndMouseKeyTurnsReportingOff(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.json")
	os.WriteFile(script, []byte(`{"turns":[
	  {"text":"Printing.","tool_calls":[{"id":"p","name":"Bash","input":{"command":"printf 'copy-me-%s\\n' 42"}}]},
	  {"text":"The answer is **forty-two**."}]}`), 0o644)
	r := startTmux(t, dir, 120, 40, "--no-claude-settings", "--script", script, "--allow", "'Bash(printf:*)'")
	r.tmux("set", "-g", "set-clipboard", "on")
	r.waitFor("the input", func(s string) bool { return strings.Contains(s, "Ask the agent") })
	if got := strings.TrimSpace(r.tmux("display", "-p", "-t", "0", "#{mouse_button_flag}")); got != "1" {
		t.Fatalf("mouse reporting at start: %q, want 1", got)
	}
	r.keys("go", "Enter")
	r.waitFor("the answer", func(s string) bool { return strings.Contains(s, "The answer is") })

	r.keys("C-y")
	r.waitFor("the copy notice", func(s string) bool { return strings.Contains(s, "Copied the agent's last answer") })
	if got := r.tmux("show-buffer"); got != "The answer is **forty-two**." {
		t.Errorf("with nothing selected the buffer holds %q, want the answer's text", got)
	}
	r.keys("C-p")
	r.keys("C-y")
	r.waitFor("the copy notice", func(s string) bool { return strings.Contains(s, "Copied the output of Bash") })
	if got := r.tmux("show-buffer"); got != "copy-me-42\n" {
		t.Errorf("the buffer holds %q, want the call's output", got)
	}

	r.keys("F6")
	r.waitFor("the mouse notice", func(s string) bool { return strings.Contains(s, "mouse off: drag selects") })
	if got := strings.TrimSpace(r.tmux("display", "-p", "-t", "0", "#{mouse_button_flag}#{mouse_any_flag}#{mouse_standard_flag}")); got != "000" {
		t.Errorf("mouse flags after F6: %q, want reporting off", got)
	}
	r.keys("F6")
	r.waitFor("reporting on again", func(s string) bool { return strings.Contains(s, "Mouse reporting is on") })
	if got := strings.TrimSpace(r.tmux("display", "-p", "-t", "0", "#{mouse_button_flag}")); got != "1" {
		t.Errorf("mouse reporting after a second F6: %q, want 1", got)
	}
}
