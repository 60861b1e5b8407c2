package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/hooks"
)

// compactRig is a session against the loopback server with a real
// transcript in a state tree and command hooks that log what they are told.
type compactRig struct {
	t       *testing.T
	srv     *chatServer
	s       *Session
	f       *fixture
	root    string
	dir     SessionDir
	tr      *Transcript
	hookLog string
}

func newCompactRig(t *testing.T, window int, reply func(n int, r chatRequest) chatReply) *compactRig {
	t.Helper()
	rig := &compactRig{t: t, srv: newChatServer(t, reply), f: newFixture(t), root: t.TempDir()}
	var err error
	if rig.dir, err = CreateSessionDir(rig.root, "sess"); err != nil {
		t.Fatal(err)
	}
	if rig.tr, err = OpenTranscript(rig.dir.Transcript()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rig.tr.Close() })
	rig.hookLog = filepath.Join(t.TempDir(), "hooks.log")
	reg := hooks.NewRegistry()
	for _, ev := range []hooks.Event{hooks.PreCompact, hooks.SessionStart} {
		if err := reg.AddCommand(ev, "", hooks.Command{Command: "{ cat; echo; } >> '" + rig.hookLog + "'"}); err != nil {
			t.Fatal(err)
		}
	}
	rig.f.p.Hooks = reg
	rig.f.p.SpillDir = rig.dir.Spill()
	rig.s = NewSession(Config{Provider: rig.srv.provider(t), Pipeline: rig.f.p, System: "test system",
		Transcript: rig.tr, ContextWindow: window}, "sess", nil)
	return rig
}

func (r *compactRig) prompt(text string) Outcome {
	r.t.Helper()
	out := r.s.Prompt(context.Background(), text)
	if out.StopReason != StopCompleted {
		r.t.Fatalf("prompt %q: %+v (%v)", text, out, out.Err)
	}
	return out
}

// hookInputs are the inputs the command hooks received, in order.
func (r *compactRig) hookInputs() []hooks.Input {
	r.t.Helper()
	f, err := os.Open(r.hookLog)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []hooks.Input
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var in hooks.Input
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			r.t.Fatalf("hook input %q: %v", sc.Text(), err)
		}
		out = append(out, in)
	}
	return out
}

// compactions are the transcript's compaction records.
func (r *compactRig) compactions() []compactRecord {
	r.t.Helper()
	r.tr.Sync()
	f, err := os.Open(r.dir.Transcript())
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	entries, err := ReadTranscript(f)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []compactRecord
	for _, e := range entries {
		if e.Type == EntryCompact {
			var c compactRecord
			if err := json.Unmarshal(e.Data, &c); err != nil {
				r.t.Fatal(err)
			}
			out = append(out, c)
		}
	}
	return out
}

// checkPaired fails unless every tool call in a request is answered by a
// tool message and every tool message answers a call before it.
func checkPaired(t *testing.T, r chatRequest) {
	t.Helper()
	open := map[string]bool{}
	for _, m := range r.Messages {
		for _, c := range m.ToolCalls {
			open[c.ID] = true
		}
		if m.Role == "tool" {
			if !open[m.ToolCallID] {
				t.Errorf("tool result %s answers no call in %s", m.ToolCallID, r.Raw)
			}
			delete(open, m.ToolCallID)
		}
	}
	if len(open) > 0 {
		t.Errorf("calls without results %v in %s", open, r.Raw)
	}
}

var bigPrompt = "first task: " + strings.Repeat("the long description of the first task. ", 200)

// A server that reports a prompt past 80% of the window makes the next
// request compact first: hooks, a summary request, then a shorter request
// that starts with the summary and keeps the latest turns with their tool
// results paired; the transcript records it and resume restores it.
func TestAutoCompactionWhenTheLastRequestFilledTheWindow(t *testing.T) {
	t.Parallel()
	rig := newCompactRig(t, 10000, func(n int, r chatRequest) chatReply {
		switch {
		case r.isSummary():
			return chatReply{Text: "SUMMARY: the person asked for the first task and the second.", Prompt: 8500}
		case n == 0:
			return chatReply{Text: "first done", Prompt: 3000}
		case n == 1:
			return chatReply{Calls: []chatCall{{"call_1", "Echo", `{"text":"echoed"}`}}, Prompt: 6000}
		case n == 2:
			return chatReply{Text: "second done", Prompt: 8500}
		default:
			return chatReply{Text: "third done", Prompt: 1200}
		}
	})
	rig.prompt(bigPrompt)
	rig.prompt("second task")
	if used, window := rig.s.ContextUsed(); used != 8500 || window != 10000 {
		t.Fatalf("context used %d of %d", used, window)
	}
	before := rig.srv.requests()
	rig.prompt("third task")
	reqs := rig.srv.requests()
	if len(reqs) != 5 || !reqs[3].isSummary() || reqs[4].isSummary() {
		t.Fatalf("want the summary request then the turn, got %d requests", len(reqs))
	}
	if !strings.Contains(reqs[3].Raw, "first task") || reqs[3].MaxTokens != compactMaxTokens {
		t.Errorf("the summary request does not carry the old part or its cap: %s", reqs[3].Raw)
	}
	after := reqs[4]
	if !strings.Contains(after.Raw, "SUMMARY: the person asked") || strings.Contains(after.Raw, "long description") {
		t.Errorf("the request after compaction is not the summary plus the latest turns: %s", after.Raw)
	}
	if !strings.Contains(after.Raw, "third task") || !strings.Contains(after.Raw, "echoed") {
		t.Errorf("the latest turns were not kept: %s", after.Raw)
	}
	if len(after.Raw) >= len(before[2].Raw) {
		t.Errorf("the request after compaction (%d bytes) is not shorter than the one before (%d)", len(after.Raw), len(before[2].Raw))
	}
	checkPaired(t, after)

	var pre, start []hooks.Input
	for _, in := range rig.hookInputs() {
		switch {
		case in.HookEventName == hooks.PreCompact:
			pre = append(pre, in)
		case in.HookEventName == hooks.SessionStart && in.Source == "compact":
			start = append(start, in)
		}
	}
	if len(pre) != 1 || pre[0].Trigger != TriggerAuto || len(start) != 1 {
		t.Errorf("hooks: PreCompact %+v, SessionStart(compact) %+v", pre, start)
	}

	recs := rig.compactions()
	if len(recs) != 1 {
		t.Fatalf("transcript has %d compactions", len(recs))
	}
	c := recs[0]
	if c.Trigger != TriggerAuto || !strings.HasPrefix(c.Summary, "SUMMARY:") || c.Replaced != 3 || c.Kept != 4 ||
		c.TokensBefore != 8500 || c.TokensAfter <= 0 || c.TokensAfter >= c.TokensBefore {
		t.Errorf("compaction record %+v", c)
	}
	if used, _ := rig.s.ContextUsed(); used != 1200 {
		t.Errorf("the response after compaction measured %d, want 1200", used)
	}

	restored, err := LoadSession(rig.root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(restored.History)
	want, _ := json.Marshal(rig.s.History())
	if string(got) != string(want) {
		t.Errorf("resume does not restore the compacted history\n got %s\nwant %s", got, want)
	}
	full, _ := os.ReadFile(rig.dir.Transcript())
	if !strings.Contains(string(full), "long description") {
		t.Error("the transcript lost the history that was compacted")
	}
}

// /compact summarises now with the person's instructions, whatever the
// usage; PreCompact hooks see trigger manual and the instructions.
func TestCompactWithInstructions(t *testing.T) {
	t.Parallel()
	rig := newCompactRig(t, 0, func(n int, r chatRequest) chatReply {
		if r.isSummary() {
			return chatReply{Text: "SUMMARY with the API names", Prompt: 900}
		}
		return chatReply{Text: "done", Prompt: 100}
	})
	rig.prompt(bigPrompt)
	rig.prompt("second")
	rig.prompt("third")
	res, err := rig.s.Compact(context.Background(), "keep the API names")
	if err != nil {
		t.Fatal(err)
	}
	reqs := rig.srv.requests()
	if len(reqs) != 4 || !reqs[3].isSummary() || !strings.Contains(reqs[3].Raw, "keep the API names") {
		t.Fatalf("the summary request does not carry the instructions: %d requests", len(reqs))
	}
	if res.Trigger != TriggerManual || res.Summary != "SUMMARY with the API names" || res.Replaced == 0 {
		t.Errorf("result %+v", res)
	}
	var pre []hooks.Input
	for _, in := range rig.hookInputs() {
		if in.HookEventName == hooks.PreCompact {
			pre = append(pre, in)
		}
	}
	if len(pre) != 1 || pre[0].Trigger != TriggerManual || pre[0].CustomInstructions != "keep the API names" {
		t.Errorf("PreCompact inputs %+v", pre)
	}
	h := rig.s.History()
	if h[0].Role != provider.RoleUser || !strings.Contains(textOf(h[0]), "SUMMARY with the API names") {
		t.Errorf("history does not start with the summary: %+v", h[0])
	}
}

// A provider that refuses the prompt as too long gets one compaction and
// one retry; refused again, the run stops with a clear error, never a loop.
func TestPromptTooLongCompactsOnceThenStops(t *testing.T) {
	t.Parallel()
	tooLong := `{"error":{"message":"This model's maximum context length is 10000 tokens. However, your messages resulted in 12000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`
	var refuse atomic.Bool
	rig := newCompactRig(t, 0, func(n int, r chatRequest) chatReply {
		switch {
		case r.isSummary():
			return chatReply{Text: "SUMMARY", Prompt: 500}
		case refuse.Load():
			return chatReply{Status: 400, Error: tooLong}
		}
		return chatReply{Text: "done", Prompt: 500}
	})
	rig.prompt(bigPrompt)
	rig.prompt("second")
	refuse.Store(true)
	out := rig.s.Prompt(context.Background(), "third")
	if out.StopReason != StopModelError || !errors.Is(out.Err, ErrStillTooLong) {
		t.Fatalf("outcome %+v (%v)", out, out.Err)
	}
	if !strings.Contains(out.Err.Error(), "maximum context length") {
		t.Errorf("the error does not say what the provider said: %v", out.Err)
	}
	reqs := rig.srv.requests()[2:]
	if len(reqs) != 3 || reqs[0].isSummary() || !reqs[1].isSummary() || reqs[2].isSummary() {
		t.Fatalf("want refused, summary, refused; got %d requests", len(reqs))
	}
	if n := len(rig.compactions()); n != 1 {
		t.Errorf("%d compactions, want 1", n)
	}
}

// A compaction whose summary request fails changes nothing and says why.
func TestFailedCompactionLeavesTheHistory(t *testing.T) {
	t.Parallel()
	rig := newCompactRig(t, 0, func(n int, r chatRequest) chatReply {
		if r.isSummary() {
			return chatReply{Status: 400, Error: `{"error":{"message":"no summaries today","type":"invalid_request_error"}}`}
		}
		return chatReply{Text: "done", Prompt: 100}
	})
	rig.prompt(bigPrompt)
	rig.prompt("second")
	rig.prompt("third")
	before, _ := json.Marshal(rig.s.History())
	_, err := rig.s.Compact(context.Background(), "")
	if err == nil || !strings.Contains(err.Error(), "conversation is unchanged") || !strings.Contains(err.Error(), "no summaries today") {
		t.Fatalf("error %v", err)
	}
	after, _ := json.Marshal(rig.s.History())
	if string(before) != string(after) || len(rig.compactions()) != 0 {
		t.Error("a failed compaction changed the history or recorded itself")
	}
}

// Old large tool results are replaced by a line naming a spill file with
// their full text before the summary is asked for; the latest are kept.
func TestOldToolResultsBecomeStubsNamingTheirSpillFile(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("output line of the old call\n", 100)
	args, _ := json.Marshal(map[string]string{"text": big})
	rig := newCompactRig(t, 0, func(n int, r chatRequest) chatReply {
		switch {
		case r.isSummary():
			return chatReply{Text: "SUMMARY", Prompt: 500}
		case n == 0:
			return chatReply{Calls: []chatCall{{"old_1", "Echo", string(args)}}, Prompt: 100}
		}
		return chatReply{Text: "done", Prompt: 100}
	})
	rig.prompt("run it")
	rig.prompt("second")
	rig.prompt("third")
	res, err := rig.s.Compact(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	sum := rig.srv.requests()[4]
	if !sum.isSummary() || res.Stubbed != 1 {
		t.Fatalf("stubbed %d; request %s", res.Stubbed, sum.Raw)
	}
	for _, m := range sum.Messages {
		if m.Role == "tool" && (strings.Contains(string(m.Content), "output line of the old call") || !strings.Contains(string(m.Content), "was cleared to save context: 2800 bytes")) {
			t.Errorf("the summary request still carries the old result: %s", m.Content)
		}
	}
	st := rig.compactions()[0].Stubs
	if len(st) != 1 || st[0].ToolUseID != "old_1" || !strings.Contains(st[0].Content, st[0].SpillPath) {
		t.Fatalf("stubs %+v", st)
	}
	if data, err := os.ReadFile(st[0].SpillPath); err != nil || string(data) != big {
		t.Errorf("the spill file does not hold the old result: %v", err)
	}
}

// When clearing old tool results alone frees enough, an automatic
// compaction stops there: no summary request, the latest turns untouched.
func TestClearingOldResultsCanBeEnough(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("a line of old output\n", 1400)
	args, _ := json.Marshal(map[string]string{"text": big})
	rig := newCompactRig(t, 20000, func(n int, r chatRequest) chatReply {
		switch {
		case r.isSummary():
			return chatReply{Text: "SUMMARY", Prompt: 500}
		case n == 0:
			return chatReply{Calls: []chatCall{{"old_1", "Echo", string(args)}}, Prompt: 9000}
		case n == 2:
			return chatReply{Text: "done", Prompt: 17000}
		}
		return chatReply{Text: "done", Prompt: 9000}
	})
	rig.prompt("run it")
	rig.prompt("second")
	rig.prompt("third")
	for _, r := range rig.srv.requests() {
		if r.isSummary() {
			t.Fatal("a summary was asked for")
		}
	}
	recs := rig.compactions()
	if len(recs) != 1 || recs[0].Summary != "" || len(recs[0].Stubs) != 1 || recs[0].Head != nil {
		t.Fatalf("compactions %+v", recs)
	}
	last := rig.srv.requests()[len(rig.srv.requests())-1]
	for _, m := range last.Messages {
		if m.Role == "tool" && !strings.Contains(string(m.Content), "was cleared to save context: 29400 bytes") {
			t.Errorf("the old result is still sent: %.200s", m.Content)
		}
	}
	restored, err := LoadSession(rig.root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(restored.History)
	want, _ := json.Marshal(rig.s.History())
	if string(got) != string(want) {
		t.Errorf("resume does not restore the cleared results\n got %s\nwant %s", got, want)
	}
}
