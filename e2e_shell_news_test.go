package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A terminal session's end is news in the conversation the moment it
// happens, as a background task's is, without a new prompt; the model's
// own notice of it (a dispatched session) is not shown a second time.
func TestE2E_ShellSessionEndIsLiveNews(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.json")
	os.WriteFile(script, []byte(`{"turns":[
	  {"text":"Starting.","tool_calls":[
	    {"id":"a","name":"shell_open","input":{"command":"sleep 1; exit 3","mode":"hands-free"}},
	    {"id":"b","name":"shell_open","input":{"command":"sleep 2; echo built","mode":"dispatch"}}]},
	  {"text":"Both run."},
	  {"text":"Noted."}]}`), 0o644)
	r := startTmux(t, dir, 140, 40, "--no-claude-settings", "--script", script, "--allow", "shell_open")
	r.waitFor("the input", func(s string) bool { return strings.Contains(s, "Ask the agent") })
	r.keys("start them", "Enter")
	first := regexp.MustCompile(`sh_1 sleep 1; exit 3 · exited 3 after [0-9.]+s`)
	second := regexp.MustCompile(`sh_2 sleep 2; echo built · exited 0 after [0-9.]+s`)
	s := r.waitFor("both ends as news", func(s string) bool { return first.MatchString(s) && second.MatchString(s) })
	if strings.Contains(s, "Noted.") {
		t.Fatalf("the news waited for another turn:\n%s", s)
	}
	// The dispatched session's notice reaches the model at the next turn;
	// the person has read it already.
	r.keys("go on", "Enter")
	s = r.waitFor("the next answer", func(s string) bool { return strings.Contains(s, "Noted.") })
	if n := len(second.FindAllString(s, -1)); n != 1 || strings.Contains(s, "Shell session sh_2") {
		t.Errorf("the dispatched session's end is shown %d times (or as the model's notice):\n%s", n, s)
	}
}
