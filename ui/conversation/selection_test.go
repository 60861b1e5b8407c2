package conversation

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/tools"
)

// calls adds n finished Bash calls with ids c0 ... c(n-1), each with nine
// lines of output, and messages between them.
func calls(v *View, n int) {
	for i := range n {
		v.AddUser(fmt.Sprintf("go %d", i))
		id := fmt.Sprintf("c%d", i)
		v.AddToolUse(id, "Bash", bashInput(fmt.Sprintf("step %d", i)))
		v.SetToolResult(id, tools.Result{Text: numbered(9)}, time.Second)
	}
}

func selectedID(v *View) string {
	id, _, _ := v.Selected()
	return id
}

func TestSelection(t *testing.T) {
	t.Parallel()
	t.Run("nothing is selected at first", func(t *testing.T) {
		t.Parallel()
		v := newView(60, 20)
		calls(v, 3)
		if _, _, ok := v.Selected(); ok {
			t.Fatal("a fresh view has a selection")
		}
	})
	t.Run("select previous starts from the last call on screen", func(t *testing.T) {
		t.Parallel()
		v := newView(60, 20)
		calls(v, 3)
		if !v.SelectPrev() || selectedID(v) != "c2" {
			t.Fatalf("selected %q, want c2", selectedID(v))
		}
	})
	t.Run("select previous and next move among calls only", func(t *testing.T) {
		t.Parallel()
		v := newView(60, 20)
		calls(v, 3)
		v.SelectPrev()
		v.SelectPrev()
		if selectedID(v) != "c1" {
			t.Fatalf("selected %q, want c1", selectedID(v))
		}
		v.SelectPrev()
		if v.SelectPrev() {
			t.Fatal("moved past the first call")
		}
		v.SelectNext()
		if selectedID(v) != "c1" {
			t.Fatalf("selected %q, want c1", selectedID(v))
		}
	})
	t.Run("selecting an off-screen call scrolls to it", func(t *testing.T) {
		t.Parallel()
		v := newView(60, 8)
		calls(v, 10)
		v.SelectPrev()
		for selectedID(v) != "c2" {
			if !v.SelectPrev() {
				t.Fatal("ran out of calls")
			}
		}
		if got := screen(t, v); !strings.Contains(got, "Bash(step 2)") {
			t.Fatalf("the selected call is not on screen:\n%s", got)
		}
		if v.AtBottom() {
			t.Fatal("still pinned to the bottom after selecting an old call")
		}
		for v.SelectNext() {
		}
		if got := screen(t, v); !strings.Contains(got, "Bash(step 9)") {
			t.Fatalf("the last call is not on screen:\n%s", got)
		}
	})
	t.Run("expanding the selected call shows all its output", func(t *testing.T) {
		t.Parallel()
		v := newView(60, 30)
		calls(v, 2)
		v.SelectPrev()
		v.SelectPrev()
		v.ToggleExpand()
		got := screen(t, v)
		if !strings.Contains(got, "│ line 9") {
			t.Fatalf("expanded output is missing:\n%s", got)
		}
		if strings.Count(got, "line 9") != 1 {
			t.Fatalf("the other call expanded too:\n%s", got)
		}
	})
	t.Run("an expanded call taller than the screen shows its start", func(t *testing.T) {
		t.Parallel()
		v := newView(60, 6)
		calls(v, 1)
		v.SelectPrev()
		v.ToggleExpand()
		if got := strings.Split(screen(t, v), "\n")[0]; !strings.Contains(got, "Bash(step 0)") {
			t.Fatalf("screen starts %q, want the call's header", got)
		}
	})
	t.Run("deselect clears the selection", func(t *testing.T) {
		t.Parallel()
		v := newView(60, 20)
		calls(v, 2)
		v.SelectPrev()
		if !v.HasSelection() {
			t.Fatal("HasSelection is false after SelectPrev")
		}
		v.Deselect()
		if _, _, ok := v.Selected(); ok || v.HasSelection() {
			t.Fatal("still selected")
		}
	})
	t.Run("thinking can be selected and expanded but is not a call", func(t *testing.T) {
		t.Parallel()
		v := newView(60, 20)
		v.AddThinking("first thought\nsecond thought")
		v.AppendAssistantDelta("answer")
		if got := screen(t, v); strings.Contains(got, "second thought") {
			t.Fatalf("thinking is not collapsed:\n%s", got)
		}
		v.SelectPrev()
		if _, _, ok := v.Selected(); ok {
			t.Fatal("thinking reported as a tool call")
		}
		v.ToggleExpand()
		if got := screen(t, v); !strings.Contains(got, "second thought") {
			t.Fatalf("thinking did not expand:\n%s", got)
		}
	})
	t.Run("a view without calls selects nothing", func(t *testing.T) {
		t.Parallel()
		v := newView(60, 20)
		v.AddUser("hi")
		if v.SelectPrev() || v.SelectNext() || v.ToggleExpand() {
			t.Fatal("something was selected or expanded")
		}
	})
}

func TestApply(t *testing.T) {
	t.Parallel()
	call := &agent.Call{ID: "t1", Name: "Bash", Input: bashInput("rm -r build")}
	stage := func(s agent.Stage, outcome string, us int64) agent.Event {
		return agent.Event{Kind: agent.EventStage, Stage: &agent.StageEvent{CallID: "t1", Tool: "Bash", Stage: s, Outcome: outcome, DurationUS: us}}
	}
	v := newView(60, 14)
	steps := []struct {
		ev   agent.Event
		want string
	}{
		{agent.Event{Kind: agent.EventThinking, Text: "hmm"}, "∴ Thinking…"},
		{agent.Event{Kind: agent.EventText, Text: "Cleaning **up**."}, "Cleaning **up**."},
		{agent.Event{Kind: agent.EventToolUse, Call: call}, "● Bash(rm -r build)"},
		{stage(agent.StagePermission, agent.OutcomeAsk, 0), "? Bash(rm -r build)"},
		{stage(agent.StagePermission, agent.OutcomeApproved, 0), "● Bash(rm -r build)"},
		{agent.Event{Kind: agent.EventStage, Stage: &agent.StageEvent{CallID: "t1", Stage: agent.StageRecheck, Outcome: agent.OutcomeRewrite, Input: bashInput("rm -r build/tmp")}}, "● Bash(rm -r build/tmp)"},
		{stage(agent.StageCall, agent.OutcomeStart, 0), "● Bash(rm -r build/tmp)"},
		{stage(agent.StageCall, agent.OutcomeOK, 250000), "● Bash(rm -r build/tmp)"},
		{agent.Event{Kind: agent.EventToolResult, Call: call, Result: &tools.Result{Text: "removed"}}, "✓ Bash(rm -r build/tmp) 250ms"},
		{agent.Event{Kind: agent.EventAssistant, Message: &provider.Message{Blocks: []provider.Block{provider.TextBlock("Cleaning **up**.")}}}, "Cleaning up."},
		{agent.Event{Kind: agent.EventNotice, Text: "retrying"}, "· retrying"},
		{agent.Event{Kind: agent.EventAssistant, Message: &provider.Message{Blocks: []provider.Block{provider.TextBlock("Not streamed.")}}}, "Not streamed."},
		{agent.Event{Kind: agent.EventDone, Outcome: &agent.Outcome{StopReason: agent.StopModelError, Err: errors.New("overloaded")}}, "✗ The model call failed: overloaded"},
	}
	for i, s := range steps {
		v.Apply(s.ev)
		if got := screen(t, v); !strings.Contains(got, s.want) {
			t.Fatalf("after event %d (%s) the screen lacks %q:\n%s", i, s.ev.Kind, s.want, got)
		}
	}
	if got := screen(t, v); strings.Count(got, "Cleaning") != 1 {
		t.Fatalf("a streamed reply was added twice:\n%s", got)
	}
}

func TestApplyIgnoresWhatItDoesNotDraw(t *testing.T) {
	t.Parallel()
	v := newView(40, 4)
	for _, ev := range []agent.Event{
		{Kind: agent.EventTurnStart},
		{Kind: agent.EventUsage},
		{Kind: agent.EventToolUse},
		{Kind: agent.EventStage},
		{Kind: agent.EventStage, Stage: &agent.StageEvent{CallID: "nope", Outcome: agent.OutcomeAsk}},
		{Kind: agent.EventDone, Outcome: &agent.Outcome{StopReason: agent.StopCompleted}},
		{Kind: agent.EventToolResult, Call: &agent.Call{ID: "x"}},
	} {
		if v.Apply(ev) {
			t.Errorf("Apply(%s) reported a change", ev.Kind)
		}
	}
	if v.Len() != 0 {
		t.Fatalf("%d items added", v.Len())
	}
}
