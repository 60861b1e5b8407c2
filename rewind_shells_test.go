package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/rewind"
	"github.com/seed92b641c3/workbench/session"
)

// waitFor is a command that waits (up to a minute) until the files exist:
// a shell runs what shell_send typed in its own time.
func waitFor(files ...string) string {
	test := "[ -e " + strings.Join(files, " ] && [ -e ") + " ]"
	return "for i in $(seq 600); do " + test + " && break; sleep 0.1; done"
}

// A checkpoint is taken before a background task starts and before each
// shell_send to a shell, so what the task and the typed commands did is
// between two checkpoints, shown in the list and taken back by a rewind.
func TestRewindCoversBackgroundTasksAndShellSend(t *testing.T) {
	c := newCLI(t)
	c.write("keep.txt", "keep\n")
	at := func(name string) string { return filepath.Join(c.project, name) }
	s := c.script("../shells.json", fmt.Sprintf(`{"turns":[
	  {"tool_calls":[{"id":"bg","name":"Bash","input":{"command":"echo bg > bg.txt","run_in_background":true}}]},
	  {"tool_calls":[{"id":"open","name":"shell_open","input":{"command":"bash --norc"}}]},
	  {"tool_calls":[{"id":"send1","name":"shell_send","input":{"session_id":"sh_1","text":"echo typed > %s","submit":true,"quiet_ms":300}}]},
	  {"tool_calls":[{"id":"wait1","name":"Bash","input":{"command":"%s"}}]},
	  {"tool_calls":[{"id":"send2","name":"shell_send","input":{"session_id":"sh_1","text":"echo again > %s","submit":true,"quiet_ms":300}}]},
	  {"tool_calls":[{"id":"wait2","name":"Bash","input":{"command":"%s"}}]},
	  {"text":"done"}]}`, at("typed.txt"), waitFor("typed.txt"), at("again.txt"), waitFor("again.txt", "bg.txt")))
	if code, out, errb := c.run("", "--cwd", c.project, "--permission-mode", "bypassPermissions", "--script", s, "-p", "use the shells"); code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	for _, f := range []string{"bg.txt", "typed.txt", "again.txt"} {
		if !c.exists(f) {
			t.Fatalf("%s was not made: the script did not run as meant", f)
		}
	}
	l := c.rewindList()
	if len(l.Prompts) != 1 || sorted(l.Prompts[0].Files) != "A again.txt, A bg.txt, A typed.txt" {
		t.Fatalf("list %+v", l)
	}

	store, err := rewind.Open(rewind.Options{
		Dir:      filepath.Join(c.state, "workbench", "sessions", l.Session, "rewind"),
		WorkTree: c.project, Shared: session.ProjectRewindDir(c.project),
	})
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]rewind.Checkpoint{}
	for _, cp := range store.List() {
		if cp.Kind == rewind.KindCall {
			before[cp.CallID] = cp
		}
	}
	for _, id := range []string{"bg", "open", "send1", "send2"} {
		if _, ok := before[id]; !ok {
			t.Fatalf("no checkpoint before call %s: %+v", id, store.List())
		}
	}
	if !strings.Contains(before["send1"].Label, "echo typed") {
		t.Errorf("the checkpoint before shell_send is labelled %q, not with what it typed", before["send1"].Label)
	}
	// What the first shell_send typed lies between the checkpoints before
	// the two sends (the background task may end on either side).
	diff, err := store.Diff(t.Context(), before["send1"].ID, before["send2"].ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(diff); !strings.Contains(got, "A typed.txt") || strings.Contains(got, "again.txt") {
		t.Errorf("between the two sends: %v", diff)
	}
	// The checkpoint before the task started does not hold its file.
	all := store.List()
	if diff, err := store.Diff(t.Context(), before["bg"].ID, all[len(all)-1].ID); err != nil || !strings.Contains(fmt.Sprint(diff), "A bg.txt") {
		t.Errorf("from the task's checkpoint to the end: %v %v", diff, err)
	}
	store.Close()

	if code, out, errb := c.run("", "rewind", "--cwd", c.project, "1"); code != exitOK {
		t.Fatalf("rewind 1: exit %d\n%s\n%s", code, out, errb)
	}
	if c.exists("bg.txt") || c.exists("typed.txt") || c.exists("again.txt") || c.read("keep.txt") != "keep\n" {
		t.Error("the rewind did not take back what the task and the shell did")
	}
}
