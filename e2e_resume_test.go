package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// /resume ID switches the running workbench to an earlier session of the
// project: the old one is closed and saved, the new one shows its history
// and answers with its model, without the person restarting anything.
func TestE2E_ResumeSwitchesInPlace(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal")
	}
	c := newCLI(t)
	s1 := c.script("s1.json", `{"turns":[{"text":"Noted: the password hint is pelican."}]}`)
	if code, _, stderr := c.run("", "--cwd", c.project, "--script", s1, "-p", "remember the hint"); code != 0 {
		t.Fatalf("first session: %d %s", code, stderr)
	}
	tr := c.transcripts()
	if len(tr) != 1 {
		t.Fatalf("want one earlier session, found %v", tr)
	}
	earlier := filepath.Base(filepath.Dir(tr[0]))

	s2 := c.script("s2.json", `{"turns":[{"text":"A fresh session."}]}`)
	r := startTmuxWithState(t, c.project, c.state, 120, 36, "--script", s2)
	r.waitFor("the new session", func(s string) bool { return strings.Contains(s, "New session") })
	r.keys("/resume", "Enter")
	r.waitFor("the list of sessions with their first prompts", func(s string) bool {
		return strings.Contains(s, earlier) && strings.Contains(s, "remember the hint")
	})
	r.keys("/resume "+earlier[:len(earlier)-3], "Enter")
	screen := r.waitFor("the earlier session", func(s string) bool {
		return strings.Contains(s, "Resumed session "+earlier)
	})
	if !strings.Contains(screen, "remember the hint") || !strings.Contains(screen, "pelican") {
		t.Errorf("the resumed session must show its history:\n%s", screen)
	}
	if strings.Contains(screen, "A fresh session") {
		t.Errorf("the session left behind is still on screen:\n%s", screen)
	}
	if got := c.transcripts(); len(got) != 2 {
		t.Errorf("the session switched away from must be saved: %v", got)
	}
}
