package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/agent/provider/script"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// testNotifier stands in for background work: the test decides when news
// arrives.
type testNotifier struct {
	mu      sync.Mutex
	pending []Notification
}

func (n *testNotifier) push(id, text string) {
	n.mu.Lock()
	n.pending = append(n.pending, Notification{ID: id, Text: text})
	n.mu.Unlock()
}

func (n *testNotifier) Drain() []Notification {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.pending
	n.pending = nil
	return out
}

func (n *testNotifier) Pending() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.pending) > 0
}

func newLoopSession(t *testing.T, body string, extra ...tools.Tool) (*Session, *script.Provider) {
	t.Helper()
	sc, err := script.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	prov := script.New(sc)
	f := newFixture(t, extra...)
	s := NewSession(Config{Provider: prov, Pipeline: f.p, System: "test"}, "sess", nil)
	return s, prov
}

// requestText flattens what one request showed the model.
func requestText(r provider.Request) string {
	b, _ := json.Marshal(r.Messages)
	return string(b)
}

func TestNotificationsReachTheModel(t *testing.T) {
	t.Parallel()
	n := &testNotifier{}
	s, prov := newLoopSession(t, `{"turns":[
	  {"tool_calls":[{"id":"e","name":"Echo","input":{"text":"x"}}]},
	  {"text":"first done"},
	  {"text":"saw the task end"},
	  {"text":"second prompt"}]}`)
	s.cfg.Notifier = n
	// News that arrived between prompts comes with the next prompt; news
	// during a tool turn comes with its results; news pending when the
	// model would stop keeps it going.
	n.push("task_1", "<task-notification>task_1 completed</task-notification>")
	out := s.Prompt(context.Background(), "go")
	if out.StopReason != StopCompleted {
		t.Fatalf("outcome %+v", out)
	}
	reqs := prov.Requests()
	if !strings.Contains(requestText(reqs[0]), "task_1 completed") {
		t.Error("a notification pending at prompt start was not given to the model")
	}
	n.push("task_2", "<task-notification>task_2 failed</task-notification>")
	s.Prompt(context.Background(), "again")
	if !strings.Contains(requestText(prov.Requests()[len(prov.Requests())-1]), "task_2 failed") {
		t.Error("the second notification was lost")
	}
}

func TestPendingNotificationKeepsTheLoopGoing(t *testing.T) {
	t.Parallel()
	n := &testNotifier{}
	notifying := tools.Build(tools.Spec{Name: "Spawn", ReadOnly: tools.Always, Permission: tools.AllowSelf,
		Run: func(context.Context, json.RawMessage, *tools.Context) (tools.Result, error) {
			return tools.Text("started"), nil
		}})
	s, prov := newLoopSession(t, `{"turns":[
	  {"text":"waiting for the task"},
	  {"text":"the task finished"}]}`, notifying)
	s.cfg.Notifier = n
	s.cfg.Publish = func(ev Event) {
		// The task ends while the model is writing its first answer.
		if ev.Kind == EventText && strings.Contains(ev.Text, "waiting") {
			n.push("task_9", "<task-notification>task_9 completed</task-notification>")
		}
	}
	out := s.Prompt(context.Background(), "start it")
	if out.Turns != 2 || out.Text != "the task finished" {
		t.Fatalf("a pending notification must continue the loop: %+v", out)
	}
	if !strings.Contains(requestText(prov.Requests()[1]), "task_9 completed") {
		t.Error("the notification was not injected")
	}
}

func TestMaxTurnsStopsTheRun(t *testing.T) {
	t.Parallel()
	s, _ := newLoopSession(t, `{"turns":[
	  {"tool_calls":[{"name":"Echo","input":{}}]},
	  {"tool_calls":[{"name":"Echo","input":{}}]},
	  {"text":"never"}]}`)
	s.cfg.MaxTurns = 2
	if out := s.Prompt(context.Background(), "go"); out.StopReason != StopMaxTurns || out.Turns != 2 {
		t.Errorf("outcome %+v", out)
	}
}

func TestCancelStopsTheTurnAndPairsEveryCall(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	block := tools.Build(tools.Spec{Name: "Block", ReadOnly: tools.Always, ConcurrencySafe: tools.Always, Permission: tools.AllowSelf,
		Run: func(ctx context.Context, _ json.RawMessage, _ *tools.Context) (tools.Result, error) {
			close(started)
			<-ctx.Done()
			return tools.Error("interrupted"), nil
		}})
	s, _ := newLoopSession(t, `{"turns":[{"tool_calls":[{"id":"b","name":"Block","input":{}}]},{"text":"never"}]}`, block)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	out := s.Prompt(ctx, "go")
	if out.StopReason != StopAborted {
		t.Fatalf("outcome %+v", out)
	}
	h := s.History()
	lastMsg := h[len(h)-1]
	if lastMsg.Role != provider.RoleUser || len(lastMsg.Blocks) == 0 || lastMsg.Blocks[0].ToolUseID != "b" {
		t.Errorf("the interrupted call must still have its result in the history: %+v", lastMsg)
	}
}

// A tool that ignores its context must not hold the session after the
// person interrupts: the turn ends after the grace period, the model is told
// the call was abandoned, and the tool's late result stays out of it.
func TestInterruptAbandonsACallThatIgnoresCancellation(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(release) })
	stubborn := tools.Build(tools.Spec{Name: "Stubborn", Permission: tools.AllowSelf,
		Run: func(context.Context, json.RawMessage, *tools.Context) (tools.Result, error) {
			close(started)
			<-release // deaf to cancellation
			return tools.Text("finished late"), nil
		}})
	s, _ := newLoopSession(t, `{"turns":[{"tool_calls":[{"id":"s","name":"Stubborn","input":{}},{"id":"q","name":"Stubborn","input":{}}]},{"text":"never"}]}`, stubborn)
	s.cfg.InterruptGrace = 50 * time.Millisecond
	var mu sync.Mutex
	results := map[string]string{}
	queued := make(chan struct{})
	s.cfg.Publish = func(ev Event) {
		switch {
		case ev.Kind == EventToolUse && ev.Call.ID == "q":
			close(queued) // the second call waits behind the first
		case ev.Kind == EventToolResult:
			mu.Lock()
			results[ev.Call.ID] = ev.Result.Text
			mu.Unlock()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; <-queued; cancel() }()
	done := make(chan Outcome, 1)
	go func() { done <- s.Prompt(ctx, "go") }()
	var out Outcome
	select {
	case out = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the interrupted turn waited for a tool that ignores cancellation")
	}
	if out.StopReason != StopAborted {
		t.Fatalf("outcome %+v", out)
	}
	h := s.History()
	last := h[len(h)-1]
	if len(last.Blocks) < 2 || !strings.Contains(last.Blocks[0].Content, "abandoned") ||
		!strings.Contains(last.Blocks[1].Content, "before it started") {
		t.Fatalf("the model must learn the first call was abandoned and the second never ran: %+v", last.Blocks)
	}
	for _, b := range last.Blocks[2:] {
		if strings.Contains(b.Text, "stream broke") {
			t.Errorf("an interrupt is the person's doing, not a broken stream: %q", b.Text)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(results["s"], "abandoned") || !strings.Contains(results["q"], "before it started") {
		t.Errorf("the UI must learn how both calls ended: %q", results)
	}
}

// A reply cut off at the output token limit is not the end of the work:
// the model is asked to go on, a bounded number of times, and a cut-off
// turn with tool calls tells the model why its input may be broken.
func TestCutOffReplyContinues(t *testing.T) {
	t.Parallel()
	s, prov := newLoopSession(t, `{"turns":[
		{"text":"The first half","stop_reason":"max_tokens"},
		{"text":" and the rest.","stop_reason":"end_turn"}]}`)
	out := s.Prompt(context.Background(), "write a long answer")
	if out.StopReason != StopCompleted || out.Turns != 2 || out.Text != " and the rest." {
		t.Fatalf("outcome %+v", out)
	}
	reqs := prov.Requests()
	if len(reqs) != 2 || !strings.Contains(requestText(reqs[1]), "cut off by the output token limit") {
		t.Fatalf("the second request must ask the model to continue: %d requests", len(reqs))
	}

	s2, _ := newLoopSession(t, `{"turns":[
		{"text":"a","stop_reason":"max_tokens"},{"text":"b","stop_reason":"max_tokens"},
		{"text":"c","stop_reason":"max_tokens"},{"text":"d","stop_reason":"max_tokens"},
		{"text":"never"}]}`)
	if out := s2.Prompt(context.Background(), "go"); out.Turns != maxContinuations+1 || out.Text != "d" {
		t.Errorf("continuations must be bounded: %+v", out)
	}
}

func TestCutOffToolTurnTellsTheModel(t *testing.T) {
	t.Parallel()
	s, prov := newLoopSession(t, `{"turns":[
		{"tool_calls":[{"id":"r","name":"Echo","input":{"text":"x"}}],"stop_reason":"max_tokens"},
		{"text":"ok"}]}`)
	s.Prompt(context.Background(), "go")
	reqs := prov.Requests()
	if len(reqs) != 2 || !strings.Contains(requestText(reqs[1]), "hit the output token limit") {
		t.Fatalf("the tool results must carry the cut-off note")
	}
}

// brokenAfterCall streams one tool call, then fails; the next request gets
// a plain answer.
type brokenAfterCall struct{ calls int }

func (p *brokenAfterCall) Name() string  { return "broken" }
func (p *brokenAfterCall) Model() string { return "broken" }
func (p *brokenAfterCall) Stream(context.Context, provider.Request) (provider.Stream, error) {
	p.calls++
	if p.calls > 1 {
		return &eventStream{events: []provider.Event{{Kind: provider.EventTextDelta, Text: "recovered"},
			{Kind: provider.EventMessageStop, StopReason: provider.StopEndTurn}}}, nil
	}
	return &eventStream{events: []provider.Event{
		{Kind: provider.EventToolUseStart, ToolUseID: "e", ToolName: "Echo"},
		{Kind: provider.EventToolUseStop, ToolUseID: "e", ToolName: "Echo", Input: json.RawMessage(`{"text":"x"}`)},
	}, err: errors.New("connection reset")}, nil
}

type eventStream struct {
	events []provider.Event
	i      int
	err    error
}

func (s *eventStream) Next() bool            { s.i++; return s.i <= len(s.events) }
func (s *eventStream) Event() provider.Event { return s.events[s.i-1] }
func (s *eventStream) Err() error            { return s.err }
func (s *eventStream) Close() error          { return nil }

// A stream that breaks after a tool ran keeps the call's result and tells
// the model the stream broke, so it can go on from there.
func TestStreamBrokenAfterACallKeepsTheResult(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	prov := &brokenAfterCall{}
	s := NewSession(Config{Provider: prov, Pipeline: f.p, System: "test"}, "sess", nil)
	out := s.Prompt(context.Background(), "go")
	if out.StopReason != StopCompleted || out.Text != "recovered" {
		t.Fatalf("outcome %+v", out)
	}
	h := s.History()
	var note bool
	for _, m := range h {
		for _, b := range m.Blocks {
			if b.ToolUseID == "e" && b.Type == provider.BlockToolResult && b.IsError {
				t.Errorf("the call's result must be kept: %+v", b)
			}
			if strings.Contains(b.Text, "stream broke after these calls: connection reset") {
				note = true
			}
		}
	}
	if !note {
		t.Errorf("the model must be told the stream broke: %+v", h)
	}
}

func TestSubagentRunsWithTheParentsRules(t *testing.T) {
	t.Parallel()
	s, _ := newLoopSession(t, `{"turns":[
	  {"tool_calls":[{"id":"a","name":"Agent","input":{"description":"look","prompt":"run a command","subagent_type":"general-purpose"}}]},
	  {"tool_calls":[{"id":"c","name":"Sh","input":{"command":"rm -r src"}}]},
	  {"text":"child: the command was denied"},
	  {"text":"parent: done"}]}`)
	s.cfg.Pipeline.Policy.AddRules(permission.Deny, "test", "Bash(rm:*)")
	s.cfg.Pipeline.Tools.Add(s.AgentTool(DefaultAgents()))
	var results []string
	s.cfg.Publish = func(ev Event) {
		if ev.Kind == EventToolResult {
			results = append(results, ev.Call.ID+":"+ev.Result.Text)
		}
	}
	out := s.Prompt(context.Background(), "delegate")
	if out.Text != "parent: done" {
		t.Fatalf("outcome %+v", out)
	}
	joined := strings.Join(results, "\n")
	if !strings.Contains(joined, "a/c:Permission denied") || !strings.Contains(joined, "a:child: the command was denied") {
		t.Errorf("the child's call must be shown under the Agent call: results %s", joined)
	}
}

// A subagent's ask reaches the person's approver saying which subagent
// asks, under the Agent call's id.
func TestSubagentAskSaysWhoAsks(t *testing.T) {
	t.Parallel()
	s, _ := newLoopSession(t, `{"turns":[
	  {"tool_calls":[{"id":"a","name":"Agent","input":{"description":"tidy up","prompt":"run it","subagent_type":"general-purpose"}}]},
	  {"tool_calls":[{"id":"c","name":"Sh","input":{"command":"make clean"}}]},
	  {"text":"child done"},
	  {"text":"parent done"}]}`)
	s.cfg.Pipeline.Tools.Add(s.AgentTool(DefaultAgents()))
	var asked []ApprovalRequest
	s.cfg.Pipeline.Approver = ApproverFunc(func(_ context.Context, req ApprovalRequest) ApprovalReply {
		asked = append(asked, req)
		return ApprovalReply{Approved: true, By: "person"}
	})
	s.Prompt(context.Background(), "delegate")
	if len(asked) != 1 || asked[0].Agent != "general-purpose: tidy up" || asked[0].CallID != "a/c" {
		t.Fatalf("asks: %+v", asked)
	}
}

// The stages of a subagent's calls are recorded under the Agent call, so
// the audit trail and the pipeline panel say whose calls they were.
func TestSubagentStagesAreNestedUnderTheAgentCall(t *testing.T) {
	t.Parallel()
	s, _ := newLoopSession(t, `{"turns":[
	  {"tool_calls":[{"id":"a","name":"Agent","input":{"description":"look","prompt":"echo","subagent_type":"general-purpose"}}]},
	  {"tool_calls":[{"id":"e","name":"Echo","input":{"text":"x"}}]},
	  {"text":"child done"},
	  {"text":"parent done"}]}`)
	s.cfg.Pipeline.Tools.Add(s.AgentTool(DefaultAgents()))
	var mu sync.Mutex
	ids := map[string]bool{}
	s.cfg.Pipeline.Observe = func(ev StageEvent) {
		mu.Lock()
		ids[ev.CallID] = true
		mu.Unlock()
	}
	if out := s.Prompt(context.Background(), "delegate"); out.Text != "parent done" {
		t.Fatalf("outcome %+v", out)
	}
	mu.Lock()
	defer mu.Unlock()
	if !ids["a"] || !ids["a/e"] || ids["e"] {
		t.Errorf("stage events by call id: %v; want the child's call as a/e", ids)
	}
}

func TestTodoListIsShownAgainWhenLeftUntouched(t *testing.T) {
	t.Parallel()
	var turns []string
	for range 12 {
		turns = append(turns, `{"tool_calls":[{"name":"Echo","input":{}}]}`)
	}
	turns = append(turns, `{"text":"done"}`)
	s, prov := newLoopSession(t, `{"turns":[`+strings.Join(turns, ",")+`]}`)
	s.cfg.TodoReminder = func() string { return "<system-reminder>1. [in_progress] ship it</system-reminder>" }
	if out := s.Prompt(context.Background(), "go"); out.StopReason != StopCompleted {
		t.Fatalf("outcome %+v", out)
	}
	reqs := prov.Requests()
	shown := 0
	for i, r := range reqs {
		if strings.Contains(requestText(provider.Request{Messages: r.Messages[len(r.Messages)-1:]}), "ship it") {
			shown++
			if i < todoReminderEvery {
				t.Errorf("the reminder came after only %d turns", i)
			}
		}
	}
	if shown != 1 {
		t.Errorf("the list was shown %d times in 12 tool turns, want once", shown)
	}
}
