package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/permission"
)

// A command the person typed asks nobody: the person decided, and the
// permission stage records them as the one who did. Deny rules and hard
// deny still stop it.
func TestPersonCommandIsDecidedByThePerson(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.p.Approver = ApproverFunc(func(context.Context, ApprovalRequest) ApprovalReply {
		t.Error("the approver was asked about the person's own command")
		return ApprovalReply{}
	})
	if err := f.p.Policy.AddRules(permission.Deny, "test", "Sh(curl:*)"); err != nil {
		t.Fatal(err)
	}
	run := func(cmd string) (string, StageEvent) {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		res := f.p.Run(ByPerson(context.Background()), Call{ID: "direct_1", Name: "Sh", Input: in})
		var ev StageEvent
		f.rec.mu.Lock()
		for _, e := range f.rec.evs {
			if e.Stage == StagePermission {
				ev = e // the last verdict
			}
		}
		f.rec.evs = nil
		f.rec.mu.Unlock()
		return res.Text, ev
	}
	if text, ev := run("touch a"); text != "ran touch a" || ev.Outcome != OutcomeApproved || ev.Rule != "person" ||
		!strings.Contains(ev.Detail, "decided by the person") {
		t.Errorf("an ask must be the person's decision: result %q, permission %+v", text, ev)
	}
	for _, cmd := range []string{"curl example.com", "echo hi && curl x", "rm -rf /", "rm -fr /*"} {
		text, ev := run(cmd)
		if ev.Outcome != OutcomeDeny || !strings.HasPrefix(text, "Permission denied") {
			t.Errorf("%q must still be denied: result %q, permission %+v", cmd, text, ev)
		}
	}
	if got := f.sh.commands(); got != "touch a" {
		t.Errorf("ran %q, want only the allowed command", got)
	}
}

// The person's pipeline is in default mode whatever the agent's mode is:
// plan mode and dontAsk govern the agent, not the person's own typing.
func TestPersonPipelineIgnoresTheAgentsMode(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.p.Mode = func() permission.Mode { return permission.ModeDontAsk }
	p := f.p.ForPerson(f.p.Tools, nil)
	res := p.Run(ByPerson(context.Background()), Call{ID: "d", Name: "Sh", Input: json.RawMessage(`{"command":"make"}`)})
	if res.IsError || res.Text != "ran make" {
		t.Errorf("dontAsk must not deny the person's command: %+v", res)
	}
	if res := f.run("Sh", `{"command":"make"}`); !res.IsError {
		t.Errorf("the agent's pipeline must keep its mode: %+v", res)
	}
}

// A recorded person's command comes back on resume at its place in the
// conversation; a clear forgets it, a compaction keeps it among the kept
// messages.
func TestPersonCommandsAreRestoredInPlace(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir, err := CreateSessionDir(root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := OpenTranscript(dir.Transcript())
	if err != nil {
		t.Fatal(err)
	}
	msg := func(role provider.Role, text string) {
		tr.Append(EntryMessage, provider.Message{Role: role, Blocks: []provider.Block{provider.TextBlock(text)}})
	}
	s := NewSession(Config{Transcript: tr}, "sess", nil)
	s.RecordPersonCommand(PersonCommand{CallID: "d0", Command: "forgotten"})
	tr.Append(EntryClear, struct{}{})
	msg(provider.RoleUser, "one")
	msg(provider.RoleAssistant, "two")
	s.RecordPersonCommand(PersonCommand{CallID: "d1", Command: "ls", Result: "a\nb"})
	msg(provider.RoleUser, "three")
	msg(provider.RoleAssistant, "four")
	s.RecordPersonCommand(PersonCommand{CallID: "d2", Command: "false", IsError: true})
	tr.Close()
	r, err := LoadSession(root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.PersonCommands) != 2 {
		t.Fatalf("want the two commands after the clear, got %+v", r.PersonCommands)
	}
	if c := r.PersonCommands[0]; c.Command != "ls" || c.At != 2 || c.Result != "a\nb" {
		t.Errorf("first command %+v, want ls before message 2", c)
	}
	if c := r.PersonCommands[1]; c.Command != "false" || c.At != 4 || !c.IsError {
		t.Errorf("second command %+v, want false at the end (4)", c)
	}
	before := make([]provider.Message, 4)
	after := make([]provider.Message, 3) // a summary and the two latest
	got := placePersonCommands(append([]PersonCommand(nil), r.PersonCommands...), EntryCompact, before, after)
	if got[0].At != 1 || got[1].At != 3 {
		t.Errorf("after a compaction: %+v, want at 1 and 3", got)
	}
	got = placePersonCommands(append([]PersonCommand(nil), r.PersonCommands...), EntryRewind, before, before[:2])
	if len(got) != 1 || got[0].Command != "ls" {
		t.Errorf("after a rewind to two messages: %+v, want only ls", got)
	}
}
