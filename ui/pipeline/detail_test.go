package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed92b641c3/workbench/agent"
)

// traced is one call that went through everything the detail view shows:
// an ask a person approved for the session, a hook rewrite and its
// re-check, a spilled capture and an error result.
func traced(t testing.TB) *Panel {
	p := New()
	p.ToolUse("toolu_01", "Bash", input(t, map[string]any{"command": "git status", "timeout": 30}))
	feed(p, "toolu_01", "Bash", t0,
		s(agent.StageLookup, agent.OutcomeOK, 0),
		s(agent.StageSchema, agent.OutcomeOK, ms(1)),
		s(agent.StagePermission, agent.OutcomeAsk, ms(1), detail("Bash asks in default mode", "mode:default")),
		s(agent.StagePermission, agent.OutcomeApproved, ms(2300),
			detail("approved by person; allowed for the session: Bash(git status:*)", "Bash(git status:*)")),
		s(agent.StagePreHook, agent.OutcomeRewrite, ms(150), detail("hook porcelain rewrote the input", "hook:porcelain")),
		s(agent.StageRecheck, agent.OutcomeRewrite, ms(1), func(e *agent.StageEvent) {
			e.Detail = "input rewritten by hook porcelain; checking schema and permissions again"
			e.Input = []byte(`{"command":"git status --porcelain","timeout":30}`)
		}),
		s(agent.StageRecheck, agent.OutcomeAllow, ms(1), rule("Bash(git status:*)")),
		s(agent.StageCall, agent.OutcomeStart, 0),
		s(agent.StageCall, agent.OutcomeError, ms(900), detail("exit status 128", "")),
		s(agent.StageCapture, agent.OutcomeSpilled, ms(30), func(e *agent.StageEvent) {
			e.Bytes = 2_100_000
			e.SpillPath = "/state/sessions/s1/spill/toolu_01.txt"
			e.SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
			e.Detail = "2100000 bytes, 40000 lines spilled"
		}),
		s(agent.StagePostHook, agent.OutcomeSkipped, 0, detail("no hooks", "")),
		s(agent.StageResult, agent.OutcomeError, 0),
	)
	var res strings.Builder
	res.WriteString("fatal: not a git repository\n")
	for i := range 30 {
		fmt.Fprintf(&res, "line %d\n", i)
	}
	p.SetResult("toolu_01", res.String(), true)
	return p
}

func TestDetailGolden(t *testing.T) {
	t.Parallel()
	p := traced(t)
	p.SetSize(60, 10)
	p.SelectPrev()
	out := p.Detail(80, 60)
	checkSize(t, out, 80, 60)
	golden.RequireEqual(t, plain(out))
}

func TestDetailShows(t *testing.T) {
	t.Parallel()
	p := traced(t)
	p.SelectPrev()
	if p.Selected() != "toolu_01" {
		t.Fatalf("selected %q", p.Selected())
	}
	out := plain(p.Detail(100, 0))
	tests := []struct {
		name string
		want string
	}{
		{"the call's id", "toolu_01"},
		{"how it ended and how long it took", "error in 3.4s"},
		{"the deciding rule", "rule      Bash(git status:*)"},
		{"the rule that asked", "rule mode:default"},
		{"who approved and what they granted", "approved by person; allowed for the session: Bash(git status:*)"},
		{"the hook that rewrote", "hook porcelain rewrote the input"},
		{"the input, pretty", "\n  {\n    \"command\": \"git status\",\n    \"timeout\": 30\n  }"},
		{"the rewritten input and who rewrote it", "rewritten input (by hook porcelain)\n  {\n    \"command\": \"git status --porcelain\","},
		{"the call's error", "exit status 128"},
		{"the captured size", "  bytes     2,100,000 (2.0 MiB)"},
		{"the spill path", "  spill     /state/sessions/s1/spill/toolu_01.txt"},
		{"the spill's sha256", "  sha256    9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
		{"that the result is an error", "result (error)"},
		{"the head of the result", "  fatal: not a git repository\n  line 0"},
	}
	for _, tt := range tests {
		if !strings.Contains(out, tt.want) {
			t.Errorf("detail lacks %s: want %q in\n%s", tt.name, tt.want, out)
		}
	}
	if strings.Contains(out, "line 20") {
		t.Errorf("detail shows more than the head of the result:\n%s", out)
	}
	// Every event is in the trace, in the order it happened.
	last := -1
	for _, st := range []string{"lookup", "schema", "permission", "pre_hook", "recheck", "call", "capture", "post_hook", "result"} {
		i := strings.Index(out, " "+st+" ")
		if i <= last {
			t.Errorf("trace stage %q missing or out of order", st)
		}
		last = i
	}
}

func TestDetailFitsItsSize(t *testing.T) {
	t.Parallel()
	for _, w := range []int{1, 20, MinWidth, 80} {
		for _, h := range []int{1, 5, 30} {
			t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
				t.Parallel()
				p := traced(t)
				p.SelectPrev()
				out := p.Detail(w, h)
				checkSize(t, out, w, h)
				if h < 30 && !strings.Contains(plain(out), "more lines") && w > 15 {
					t.Errorf("a clipped detail should say how much is left:\n%s", plain(out))
				}
			})
		}
	}
}

func TestDetailWithoutSelection(t *testing.T) {
	t.Parallel()
	p := traced(t)
	out := p.Detail(40, 3)
	checkSize(t, out, 40, 3)
	if !strings.Contains(plain(out), "No call selected.") {
		t.Errorf("want a hint, got:\n%s", plain(out))
	}
}

func TestDetailOfADirectCallWithoutInput(t *testing.T) {
	t.Parallel()
	p := New()
	feed(p, "direct-1", "Bash", t0, cat(front("Bash"), back(ms(2)))...)
	p.SelectPrev()
	if out := plain(p.Detail(80, 0)); !strings.Contains(out, "(not known") {
		t.Errorf("an unknown input should say so:\n%s", out)
	}
}

func TestSelectionMovesInArrivalOrder(t *testing.T) {
	t.Parallel()
	p := nested(t)
	p.SelectNext() // nothing selected: the newest
	want := []string{"c2", "c1/Sleep", "c1", "c1"}
	for i, id := range want {
		if i > 0 {
			p.SelectPrev()
		}
		if got := p.Selected(); got != id {
			t.Fatalf("step %d: selected %q, want %q", i, got, id)
		}
	}
	for _, id := range []string{"c1/Sleep", "c2", "c2"} {
		p.SelectNext()
		if got := p.Selected(); got != id {
			t.Fatalf("SelectNext: selected %q, want %q", got, id)
		}
	}
	if !p.Select("c1/Sleep") || p.Selected() != "c1/Sleep" {
		t.Error("Select by id does not select the nested call")
	}
	if p.Select("nope") || p.Selected() != "c1/Sleep" {
		t.Error("selecting an unknown id changed the selection")
	}
	p.Deselect()
	if p.Selected() != "" {
		t.Error("Deselect left a selection")
	}
}
