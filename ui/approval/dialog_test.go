package approval

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/permission"
)

func TestChoicesProduceTheirActions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		req  agent.ApprovalRequest
		keys []string
		text string // typed after keys, then enter
		want Action
	}{
		{name: "y approves once", req: bash("touch a"), keys: []string{"y"},
			want: Action{Done: true, Reply: agent.ApprovalReply{Approved: true, By: "person"}}},
		{name: "enter approves with the first choice selected", req: bash("touch a"), keys: []string{"enter"},
			want: Action{Done: true, Reply: agent.ApprovalReply{Approved: true, By: "person"}}},
		{name: "s grants the command's first word for the session", req: bash("touch a"), keys: []string{"s"},
			want: Action{Done: true, Reply: agent.ApprovalReply{Approved: true, Grant: "Bash(touch:*)", By: "person"}}},
		{name: "s grants two words for a tool with subcommands", req: bash("git status"), keys: []string{"s"},
			want: Action{Done: true, Reply: agent.ApprovalReply{Approved: true, Grant: "Bash(git status:*)", By: "person"}}},
		{name: "arrow and enter choose the session grant", req: bash("git status"), keys: []string{"right", "enter"},
			want: Action{Done: true, Reply: agent.ApprovalReply{Approved: true, Grant: "Bash(git status:*)", By: "person"}}},
		{name: "a carries the rule for the settings file and grants it now", req: bash("touch a"), keys: []string{"a"},
			want: Action{Done: true, Always: []string{"Bash(touch:*)"},
				Reply: agent.ApprovalReply{Approved: true, Grant: "Bash(touch:*)", By: "person"}}},
		{name: "n collects feedback and denies", req: bash("rm -rf build"), keys: []string{"n"}, text: "use the clean target",
			want: Action{Done: true, Reply: agent.ApprovalReply{Feedback: "use the clean target", By: "person"}}},
		{name: "n then enter denies without feedback", req: bash("rm -rf build"), keys: []string{"n"}, text: "",
			want: Action{Done: true, Reply: agent.ApprovalReply{By: "person"}}},
		{name: "esc denies and stops the turn", req: bash("rm -rf build"), keys: []string{"esc"},
			want: Action{Done: true, Reply: agent.ApprovalReply{By: "person", Interrupt: true}}},
		{name: "the decision's suggestion is the scope when there is one",
			req: func() agent.ApprovalRequest {
				r := bash("npm run test -- --watch")
				r.Decision.Suggestion = "Bash(npm run:*)"
				return r
			}(), keys: []string{"s"},
			want: Action{Done: true, Reply: agent.ApprovalReply{Approved: true, Grant: "Bash(npm run:*)", By: "person"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := ready(t, tt.req, Options{WorkDir: t.TempDir()})
			got := keys(d, tt.keys...)
			if tt.text != "" || slices.Contains(tt.keys, "n") {
				if got.Done {
					t.Fatalf("n answered at once (%+v); it must open the feedback line", got)
				}
				typeText(d, tt.text)
				got = keys(d, "enter")
			}
			assertAction(t, got, tt.want)
		})
	}
}

func assertAction(t *testing.T, got, want Action) {
	t.Helper()
	if got.Done != want.Done || got.Reply.Approved != want.Reply.Approved ||
		got.Reply.Grant != want.Reply.Grant || got.Reply.Feedback != want.Reply.Feedback ||
		got.Reply.By != want.Reply.By || string(got.Reply.UpdatedInput) != string(want.Reply.UpdatedInput) ||
		!slices.Equal(got.Always, want.Always) {
		t.Errorf("action = %+v\nwant     %+v", got, want)
	}
}

func TestSessionScopeNamesOnlyTheUncoveredParts(t *testing.T) {
	t.Parallel()
	covered := func(p string) bool { return p == "git status" }
	d := ready(t, bash("git status && rm -rf build"), Options{WorkDir: t.TempDir(), Covered: covered})
	assertAction(t, keys(d, "s"), Action{Done: true,
		Reply: agent.ApprovalReply{Approved: true, Grant: "Bash(rm:*)", By: "person"}})
}

func TestSessionChoicesAreWithheldWhenAGrantCouldNotHelp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		req  agent.ApprovalRequest
		note string
	}{
		{"an ask rule asks every time", func() agent.ApprovalRequest {
			r := bash("git push origin main")
			r.Decision.Rule = "Bash(git push:*)"
			return r
		}(), "The ask rule Bash(git push:*) asks every time"},
		{"protected files ask every time", agent.ApprovalRequest{Tool: "Write",
			Input:    json.RawMessage(`{"file_path":".git/config","content":"x"}`),
			Decision: permission.Decision{Rule: "protected"}}, "Git internals and settings files ask every time"},
		{"a hook asks every time", func() agent.ApprovalRequest {
			r := bash("make deploy")
			r.Decision.Rule = "hook:guard"
			return r
		}(), "Hook guard asks every time"},
		{"a command that does not parse has no safe rule", bash("echo 'unterminated"),
			"No rule narrower than the whole tool"},
		{"a bare-tool suggestion is never offered for a command", func() agent.ApprovalRequest {
			r := bash("echo 'unterminated")
			r.Decision.Suggestion = "Bash"
			return r
		}(), "No rule narrower than the whole tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := ready(t, tt.req, Options{WorkDir: t.TempDir()})
			for _, k := range []string{"s", "a"} {
				if a := keys(d, k); a.Done {
					t.Fatalf("%s answered %+v although the choice is not offered", k, a)
				}
			}
			view := screen(t, d.View(80, 24), 80, 24)
			if strings.Contains(view, "Yes for this session") || strings.Contains(view, "Always") {
				t.Errorf("session choices shown:\n%s", view)
			}
			if !strings.Contains(strings.Join(strings.Fields(view), " "), tt.note) {
				t.Errorf("view does not say %q:\n%s", tt.note, view)
			}
		})
	}
}

func TestKeysWithinTheGracePeriodAreIgnored(t *testing.T) {
	t.Parallel()
	type step struct {
		at   time.Duration // since the dialog opened
		done bool          // whether y answers
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"a key right after opening is ignored", []step{{100 * time.Millisecond, false}}},
		{"a key at 399ms is ignored", []step{{399 * time.Millisecond, false}}},
		{"a key after 400ms of quiet answers", []step{{400 * time.Millisecond, true}}},
		{"typing through the opening keeps the dialog deaf until a pause", []step{
			{100 * time.Millisecond, false}, {300 * time.Millisecond, false},
			{600 * time.Millisecond, false}, {1100 * time.Millisecond, true}}},
		{"a held key cannot keep it deaf past the cap", func() []step {
			var s []step
			for at := 50 * time.Millisecond; at < approvalGraceCap; at += 50 * time.Millisecond {
				s = append(s, step{at, false})
			}
			return append(s, step{approvalGraceCap, true})
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newClock()
			start := c.t
			d := New(bash("touch a"), Options{Now: c.now})
			d.View(80, 24)
			for _, s := range tt.steps {
				c.t = start.Add(s.at)
				if got := d.Update(press("y")).Done; got != s.done {
					t.Fatalf("y at %v: done = %v, want %v", s.at, got, s.done)
				}
			}
		})
	}
}

func TestPasteWithinTheGracePeriodIsIgnored(t *testing.T) {
	t.Parallel()
	c := newClock()
	d := New(bash("touch a"), Options{Now: c.now})
	d.View(80, 24)
	c.advance(pastGrace)
	keys(d, "n")
	c.advance(0)
	d.Update(tea.PasteMsg{Content: "because"})
	if a := keys(d, "enter"); a.Reply.Feedback != "because" {
		t.Fatalf("paste after the grace period lost: %+v", a)
	}

	c2 := newClock()
	d2 := New(bash("touch a"), Options{Now: c2.now})
	c2.advance(100 * time.Millisecond)
	d2.Update(tea.PasteMsg{Content: "y"})
	if d2.mode != choosing {
		t.Fatal("a paste during the grace period changed the dialog")
	}
}

func TestEditReturnsTheUpdatedInput(t *testing.T) {
	t.Parallel()
	req := bash("touch a")
	req.Input = json.RawMessage(`{"command":"touch a","timeout_ms":5000}`)
	d := ready(t, req, Options{WorkDir: t.TempDir()})
	keys(d, "e", "end")
	typeText(d, " b")
	a := keys(d, "ctrl+s")
	if !a.Done || !a.Reply.Approved {
		t.Fatalf("save did not approve: %+v", a)
	}
	var got map[string]any
	if err := json.Unmarshal(a.Reply.UpdatedInput, &got); err != nil {
		t.Fatalf("updated input %q: %v", a.Reply.UpdatedInput, err)
	}
	if got["command"] != "touch a b" || got["timeout_ms"] != float64(5000) {
		t.Errorf("updated input = %v, want the new command and the other fields kept", got)
	}
}

func TestEditOfJSONInput(t *testing.T) {
	t.Parallel()
	req := agent.ApprovalRequest{Tool: "mcp__db__query", Input: json.RawMessage(`{"sql":"drop table users"}`)}
	tests := []struct {
		name    string
		edit    func(d *Dialog)
		done    bool
		want    string // UpdatedInput when done
		message string // shown in the dialog when refused
	}{
		{"a valid edit is returned compact", func(d *Dialog) {
			keys(d, "down", "end", "left")
			for range len("drop table users") {
				keys(d, "backspace")
			}
			typeText(d, "select 1")
		}, true, `{"sql":"select 1"}`, ""},
		{"invalid JSON is refused with where it breaks", func(d *Dialog) {
			typeText(d, "x")
		}, false, "", "not valid JSON at line 1, column 1"},
		{"JSON that is not an object is refused", func(d *Dialog) {
			keys(d, "ctrl+a")
			for range 40 {
				keys(d, "delete")
			}
			d.editor.SetValue("[1, 2]")
		}, false, "", "must be a JSON object"},
		{"an unchanged input approves without an update", func(*Dialog) {}, true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := ready(t, req, Options{})
			keys(d, "e")
			tt.edit(d)
			a := keys(d, "ctrl+s")
			if a.Done != tt.done {
				t.Fatalf("done = %v, want %v (%+v, error %q)", a.Done, tt.done, a, d.editErr)
			}
			if tt.done {
				if !a.Reply.Approved || string(a.Reply.UpdatedInput) != tt.want {
					t.Errorf("reply = %+v, want approved with input %q", a.Reply, tt.want)
				}
				return
			}
			view := strings.Join(strings.Fields(screen(t, d.View(80, 24), 80, 24)), " ")
			if !strings.Contains(view, tt.message) {
				t.Errorf("view does not say %q:\n%s", tt.message, view)
			}
			if keys(d, "esc"); d.mode != choosing {
				t.Error("esc did not leave the editor")
			}
		})
	}
}

func TestEmptyEditedCommandIsRefused(t *testing.T) {
	t.Parallel()
	d := ready(t, bash("ls"), Options{})
	keys(d, "e", "end", "backspace", "backspace")
	if a := keys(d, "ctrl+s"); a.Done {
		t.Fatalf("an empty command was approved: %+v", a)
	}
	if !strings.Contains(d.editErr, "empty") {
		t.Errorf("error = %q", d.editErr)
	}
}

func TestExitPlanModeChoices(t *testing.T) {
	t.Parallel()
	plan := agent.ApprovalRequest{CallID: "plan", Tool: "ExitPlanMode",
		Decision: permission.Decision{Behavior: permission.Ask, Rule: "plan", Message: "# Plan\n\n1. Add the flag\n2. Test it\n"}}
	tests := []struct {
		name string
		keys []string
		text string
		want Action
	}{
		{"y starts", []string{"y"}, "", Action{Done: true, Reply: agent.ApprovalReply{Approved: true, By: "person"}}},
		{"n keeps planning with feedback", []string{"n"}, "split step 2",
			Action{Done: true, Reply: agent.ApprovalReply{Feedback: "split step 2", By: "person"}}},
		{"esc declines the plan and stops the turn", []string{"esc"}, "", Action{Done: true, Reply: agent.ApprovalReply{By: "person", Interrupt: true}}},
		{"s, a and e do nothing for a plan", []string{"s", "a", "e"}, "", Action{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := ready(t, plan, Options{})
			got := keys(d, tt.keys...)
			if tt.text != "" {
				typeText(d, tt.text)
				got = keys(d, "enter")
			}
			assertAction(t, got, tt.want)
		})
	}
	d := ready(t, plan, Options{})
	view := screen(t, d.View(80, 24), 80, 24)
	for _, want := range []string{"y Yes, start", "n No, keep planning", "Add the flag"} {
		if !strings.Contains(view, want) {
			t.Errorf("plan dialog lacks %q:\n%s", want, view)
		}
	}
}

func TestBodyScrolls(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 60 {
		b.WriteString("line " + strings.Repeat("x", i%7) + "\n")
	}
	dir := project(t, map[string]string{"long.txt": b.String()})
	req := agent.ApprovalRequest{Tool: "Write", Input: input(t, map[string]string{"file_path": "long.txt", "content": "new\n"})}
	d := ready(t, req, Options{WorkDir: dir})
	first := screen(t, d.View(80, 24), 80, 24)
	if !strings.Contains(first, "lines 1–") {
		t.Fatalf("no scroll position shown:\n%s", first)
	}
	keys(d, "down")
	if v := screen(t, d.View(80, 24), 80, 24); !strings.Contains(v, "lines 2–") {
		t.Errorf("down did not scroll:\n%s", v)
	}
	keys(d, "pgdown")
	if v := screen(t, d.View(80, 24), 80, 24); strings.Contains(v, "lines 2–") || strings.Contains(v, "lines 1–") {
		t.Errorf("pgdown did not scroll:\n%s", v)
	}
	keys(d, "end")
	last := screen(t, d.View(80, 24), 80, 24)
	if !strings.Contains(last, "–62 of 62") {
		t.Errorf("end did not reach the last line:\n%s", last)
	}
	keys(d, "pgup", "home")
	if v := screen(t, d.View(80, 24), 80, 24); v != first {
		t.Errorf("home did not return to the top:\n%s", v)
	}
	d.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if v := screen(t, d.View(80, 24), 80, 24); !strings.Contains(v, "lines 4–") {
		t.Errorf("the wheel did not scroll:\n%s", v)
	}
}

func TestControlCharactersAreShownNotObeyed(t *testing.T) {
	t.Parallel()
	// An escape sequence that would erase the line and a right-to-left
	// override must appear as text, so the person sees the whole command.
	d := ready(t, bash("echo ok \x1b[2K\rrm -rf ~ \u202e"), Options{})
	view := screen(t, d.View(80, 24), 80, 24)
	for _, want := range []string{`\x1b[2K\rrm -rf ~`, "<U+202E>"} {
		if !strings.Contains(view, want) {
			t.Errorf("view does not show %q:\n%s", want, view)
		}
	}
}

// A subagent's call says which subagent asks, under the title.
func TestDialogNamesTheSubagentThatAsks(t *testing.T) {
	t.Parallel()
	req := bash("make clean")
	req.Agent = "general-purpose: tidy up"
	lines := strings.Split(ready(t, req, Options{}).View(80, 24), "\n")
	if len(lines) < 3 || !strings.Contains(lines[1], "wants to run make") || !strings.Contains(lines[2], "Asked by the subagent general-purpose: tidy up") {
		t.Fatalf("dialog:\n%s", strings.Join(lines, "\n"))
	}
	if s := ready(t, bash("make clean"), Options{}).View(80, 24); strings.Contains(s, "subagent") {
		t.Errorf("the person's own agent needs no such line:\n%s", s)
	}
}
