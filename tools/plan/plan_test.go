package plan_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/plan"
)

// session stands in for the session that owns the mode.
type session struct {
	mu   sync.Mutex
	mode permission.Mode
}

func (s *session) get() permission.Mode {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode
}

func (s *session) set(m permission.Mode) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode = m
}

func newController(start permission.Mode) (*plan.Controller, *session) {
	s := &session{mode: start}
	return &plan.Controller{Mode: s.get, SetMode: s.set}, s
}

func run(t *testing.T, tool tools.Tool, input string) tools.Result {
	t.Helper()
	prepared, err := tool.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatalf("the schema rejected %s: %v", input, err)
	}
	res, err := tool.Call(context.Background(), prepared, &tools.Context{})
	if err != nil {
		t.Fatalf("Call(%s) returned an error: %v", input, err)
	}
	return res
}

const aPlan = `{"plan":"1. Add the flag\n2. Test it"}`

func TestToolsAreReadOnlyAndAllowThemselves(t *testing.T) {
	t.Parallel()
	c, _ := newController(permission.ModeDefault)
	for _, tool := range []tools.Tool{plan.EnterPlanMode(c), plan.ExitPlanMode(c)} {
		in := json.RawMessage(`{}`)
		if !tool.ReadOnly(in) {
			t.Errorf("%s must be read-only so plan mode allows it", tool.Name())
		}
		if tool.ConcurrencySafe(in) {
			t.Errorf("%s switches the mode, so it must run alone", tool.Name())
		}
		if d := tool.CheckPermission(context.Background(), in, &tools.Context{}); d.Behavior != permission.Allow {
			t.Errorf("%s own verdict %v, want allow", tool.Name(), d.Behavior)
		}
	}
}

func TestSchemas(t *testing.T) {
	t.Parallel()
	c, _ := newController(permission.ModeDefault)
	cases := []struct {
		name  string
		tool  tools.Tool
		input string
		want  string // "" means accepted
	}{
		{"EnterPlanMode takes no input", plan.EnterPlanMode(c), `{}`, ""},
		{"EnterPlanMode refuses a property", plan.EnterPlanMode(c), `{"why":"x"}`, "why"},
		{"ExitPlanMode needs a plan", plan.ExitPlanMode(c), `{}`, "plan"},
		{"ExitPlanMode refuses an empty plan", plan.ExitPlanMode(c), `{"plan":""}`, "plan"},
		{"ExitPlanMode takes a plan", plan.ExitPlanMode(c), aPlan, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := tc.tool.Schema().Prepare(json.RawMessage(tc.input))
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("Prepare(%s) = %v, want %q", tc.input, err, tc.want)
			}
		})
	}
}

func TestEnterPlanModeSwitchesToPlan(t *testing.T) {
	t.Parallel()
	c, s := newController(permission.ModeDefault)
	res := run(t, plan.EnterPlanMode(c), `{}`)
	if res.IsError || s.get() != permission.ModePlan {
		t.Fatalf("mode %s after %q", s.get(), res.Text)
	}
	if !strings.Contains(res.Text, "read-only") || !strings.Contains(res.Text, "ExitPlanMode") {
		t.Errorf("the result must tell the model to explore read-only and then call ExitPlanMode: %q", res.Text)
	}
}

func TestEnterPlanModeTwiceSaysSoAndKeepsTheFirstMode(t *testing.T) {
	t.Parallel()
	c, s := newController(permission.ModeBypass)
	enter := plan.EnterPlanMode(c)
	run(t, enter, `{}`)
	res := run(t, enter, `{}`)
	if res.IsError || !strings.Contains(res.Text, "already in plan mode") {
		t.Fatalf("second enter said %q", res.Text)
	}
	run(t, plan.ExitPlanMode(c), aPlan)
	if s.get() != permission.ModeBypass {
		t.Fatalf("mode %s after approval, want bypassPermissions from before the first enter", s.get())
	}
}

func TestApprovedPlanSwitchesMode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		start  permission.Mode
		target permission.Mode
		enter  bool // call EnterPlanMode first, else the session starts in plan
		want   permission.Mode
	}{
		{"from default to acceptEdits", permission.ModeDefault, "", true, permission.ModeAcceptEdits},
		{"from acceptEdits to acceptEdits", permission.ModeAcceptEdits, "", true, permission.ModeAcceptEdits},
		{"back to bypassPermissions", permission.ModeBypass, "", true, permission.ModeBypass},
		{"back to dontAsk", permission.ModeDontAsk, "", true, permission.ModeDontAsk},
		{"back to auto", permission.ModeAuto, "", true, permission.ModeAuto},
		{"to a configured target", permission.ModeDefault, permission.ModeDefault, true, permission.ModeDefault},
		{"bypass wins over a configured target", permission.ModeBypass, permission.ModeDefault, true, permission.ModeBypass},
		{"a started-in-plan session to the target", permission.ModePlan, "", false, permission.ModeAcceptEdits},
		{"a plan target is not a way out", permission.ModeDefault, permission.ModePlan, true, permission.ModeAcceptEdits},
		{"an unknown target falls back", permission.ModeDefault, "yolo", true, permission.ModeAcceptEdits},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, s := newController(tc.start)
			c.Target = tc.target
			var shown string
			c.Approve = func(_ context.Context, p string) (bool, string) { shown = p; return true, "" }
			if tc.enter {
				run(t, plan.EnterPlanMode(c), `{}`)
			}
			if got := c.After(); got != tc.want {
				t.Errorf("After() = %s before approval, want %s", got, tc.want)
			}
			res := run(t, plan.ExitPlanMode(c), aPlan)
			if res.IsError || s.get() != tc.want {
				t.Fatalf("mode %s, want %s; result (error=%v) %q", s.get(), tc.want, res.IsError, res.Text)
			}
			if shown != "1. Add the flag\n2. Test it" {
				t.Errorf("the person was shown %q", shown)
			}
			if !strings.Contains(res.Text, "1. Add the flag\n2. Test it") || !strings.Contains(res.Text, "begin the implementation") {
				t.Errorf("the result must repeat the plan and say work may begin: %q", res.Text)
			}
			var meta struct {
				Approved bool
				Mode     permission.Mode
			}
			if err := json.Unmarshal(res.Meta, &meta); err != nil || !meta.Approved || meta.Mode != tc.want {
				t.Errorf("Meta %s (%v)", res.Meta, err)
			}
		})
	}
}

func TestNilApproveApproves(t *testing.T) {
	t.Parallel()
	c, s := newController(permission.ModePlan)
	res := run(t, plan.ExitPlanMode(c), aPlan)
	if res.IsError || s.get() != permission.ModeAcceptEdits {
		t.Fatalf("mode %s, result %q", s.get(), res.Text)
	}
}

func TestApprovalFeedbackIsPassedOn(t *testing.T) {
	t.Parallel()
	c, _ := newController(permission.ModePlan)
	c.Approve = func(context.Context, string) (bool, string) { return true, "also update the changelog" }
	res := run(t, plan.ExitPlanMode(c), aPlan)
	if !strings.Contains(res.Text, "also update the changelog") {
		t.Fatalf("a note given with approval was lost: %q", res.Text)
	}
}

func TestRejectedPlanStaysInPlanMode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		feedback string
		want     string
	}{
		{"with feedback", "  split step 2 into two  ", "Their feedback: split step 2 into two"},
		{"without feedback", "", "They gave no reason"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, s := newController(permission.ModeDefault)
			c.Approve = func(context.Context, string) (bool, string) { return false, tc.feedback }
			run(t, plan.EnterPlanMode(c), `{}`)
			res := run(t, plan.ExitPlanMode(c), aPlan)
			if !res.IsError {
				t.Fatalf("a rejected plan must be an error result: %q", res.Text)
			}
			if !strings.Contains(res.Text, tc.want) || !strings.Contains(res.Text, "Stay in plan mode") {
				t.Errorf("result %q lacks %q or the instruction to stay in plan mode", res.Text, tc.want)
			}
			if s.get() != permission.ModePlan {
				t.Fatalf("mode %s after a rejection, want plan", s.get())
			}
		})
	}
}

func TestExitOutsidePlanModeIsAPlainNote(t *testing.T) {
	t.Parallel()
	c, s := newController(permission.ModeDefault)
	c.Approve = func(context.Context, string) (bool, string) {
		t.Error("nothing must be put to the person outside plan mode")
		return false, ""
	}
	res := run(t, plan.ExitPlanMode(c), aPlan)
	if res.IsError || !strings.Contains(res.Text, "not in plan mode") || s.get() != permission.ModeDefault {
		t.Fatalf("got (error=%v) %q, mode %s", res.IsError, res.Text, s.get())
	}
}

func TestBlankPlanIsRefused(t *testing.T) {
	t.Parallel()
	c, s := newController(permission.ModePlan)
	res := run(t, plan.ExitPlanMode(c), `{"plan":"  \n "}`)
	if !res.IsError || s.get() != permission.ModePlan {
		t.Fatalf("a blank plan got (error=%v) %q, mode %s", res.IsError, res.Text, s.get())
	}
}

func TestModeChangedByHandDuringApprovalStands(t *testing.T) {
	t.Parallel()
	c, s := newController(permission.ModeDefault)
	c.Approve = func(context.Context, string) (bool, string) {
		s.set(permission.ModeDefault) // the person pressed Shift+Tab while deciding
		return true, ""
	}
	run(t, plan.EnterPlanMode(c), `{}`)
	res := run(t, plan.ExitPlanMode(c), aPlan)
	if s.get() != permission.ModeDefault || !strings.Contains(res.Text, "now default") {
		t.Fatalf("mode %s, result %q: the person's own choice must win", s.get(), res.Text)
	}
}

func TestForgetDropsTheRememberedMode(t *testing.T) {
	t.Parallel()
	c, s := newController(permission.ModeBypass)
	run(t, plan.EnterPlanMode(c), `{}`)
	c.Forget()
	run(t, plan.ExitPlanMode(c), aPlan)
	if s.get() != permission.ModeAcceptEdits {
		t.Fatalf("mode %s, want acceptEdits once the old mode is forgotten", s.get())
	}
}

func TestCancelledApprovalLeavesTheModeAlone(t *testing.T) {
	t.Parallel()
	c, s := newController(permission.ModePlan)
	ctx, cancel := context.WithCancel(context.Background())
	c.Approve = func(context.Context, string) (bool, string) { cancel(); return true, "" }
	_, err := plan.ExitPlanMode(c).Call(ctx, json.RawMessage(aPlan), &tools.Context{})
	if !errors.Is(err, context.Canceled) || s.get() != permission.ModePlan {
		t.Fatalf("err %v, mode %s; want context.Canceled and plan", err, s.get())
	}
}

func TestControllerUnderConcurrentUse(t *testing.T) {
	t.Parallel()
	c, s := newController(permission.ModeBypass)
	enter, exit := plan.EnterPlanMode(c), plan.ExitPlanMode(c)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				enter.Call(context.Background(), json.RawMessage(`{}`), nil)
				exit.Call(context.Background(), json.RawMessage(aPlan), nil)
				_ = c.After()
			}
		})
	}
	wg.Wait()
	if m := s.get(); m != permission.ModePlan && m != permission.ModeBypass {
		t.Fatalf("mode %s: only plan and the remembered bypass can be reached", m)
	}
}

func TestMissingWiringPanicsAtBuild(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Fatal("a Controller without Mode/SetMode must be refused when the tool is built")
		}
	}()
	plan.EnterPlanMode(&plan.Controller{})
}
