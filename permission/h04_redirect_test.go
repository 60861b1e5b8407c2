package permission

import (
	"path/filepath"
	"testing"
)

// A shell redirection writes a file as surely as Edit does, and an allow
// rule for the command says nothing about where: `Bash(echo:*)` must not
// open ~/.bashrc. Redirect targets go through the path rules, the protected
// files and the workspace boundary; inside the workspace the command's own
// allow rule still covers them, so `make > build.log` stays quiet.
func TestH04_RedirectionsFollowTheBoundary(t *testing.T) {
	t.Parallel()
	project, outside := workspace(t)
	p := newPolicy(t, []string{project}, rules{
		allow: []string{"Bash(echo:*)", "Bash(make:*)", "Bash(cat:*)", "Bash(cd:*)", "Edit(/" + filepath.Join(outside, "allowed") + ")"},
		deny:  []string{"Edit(./secrets/**)"},
	})
	p.AddProtected(".workbench/settings.json") // as the program does for its settings files
	cases := []commandCase{
		{"echo hi > out.txt", Allow, "Bash(echo:*)", ""},
		{"make all > build.log 2>&1", Allow, "Bash(make:*)", ""},
		{"echo hi 2>/dev/null >/dev/stderr", Allow, "Bash(echo:*)", ""},
		{"echo hi >&2", Allow, "Bash(echo:*)", ""},
		{"cat < " + filepath.Join(outside, "secret"), Allow, "Bash(cat:*)", ""},
		{"echo hi > " + filepath.Join(outside, "x"), Ask, "workspace", "redirection"},
		{"echo hi >> ~/.bashrc", Ask, "workspace", "outside the workspace"},
		{"echo hi &> " + filepath.Join(outside, "x"), Ask, "workspace", ""},
		{"echo hi >& " + filepath.Join(outside, "x"), Ask, "workspace", ""},
		{"echo hi > escape/y", Ask, "workspace", "really"},
		{"echo hi > " + filepath.Join(outside, "allowed"), Allow, "Bash(echo:*)", ""},
		{"echo hi > secrets/key", Deny, "Edit(./secrets/**)", ""},
		{"bash -c 'echo hi > secrets/key'", Deny, "Edit(./secrets/**)", ""},
		{"echo hi > .git/config", Ask, "protected", "redirection"},
		{"echo hi > .workbench/settings.json", Ask, "protected", ""},
		{"echo hi > \"$TARGET\"", Ask, "unknown-target", "only known when it runs"},
		{"cd /etc && echo hi > passwd", Ask, "workspace", "/etc/passwd"},
		{"cd src && echo hi > passwd", Ask, "unknown-target", "only known when it runs"}, // CDPATH may send it anywhere
		{"cd src && echo hi > " + filepath.Join(project, "out.txt"), Allow, "Bash(cd:*), Bash(echo:*)", ""},
	}
	checkCommands(t, p, project, cases)
}

// Bypass mode still stops at the boundary for a redirection, as it does for
// an Edit outside the workspace.
func TestH04_RedirectionOutsideAsksEvenInBypass(t *testing.T) {
	t.Parallel()
	project, outside := workspace(t)
	p := newPolicy(t, []string{project}, rules{})
	req := bash("echo hi > " + filepath.Join(outside, "x"))
	req.WorkDir, req.Mode = project, ModeBypass
	if d := p.Evaluate(req); d.Behavior != Ask || d.Rule != "workspace" {
		t.Fatalf("got %s by %q (%s)", d.Behavior, d.Rule, d.Message)
	}
	if d := p.Evaluate(func() Request { r := bash("echo hi > in.txt"); r.WorkDir, r.Mode = project, ModeBypass; return r }()); d.Behavior != Allow {
		t.Fatalf("inside the workspace bypass allows: %s by %q", d.Behavior, d.Rule)
	}
}
