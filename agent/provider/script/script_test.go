package script

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/seed92b641c3/workbench/agent/provider"
)

func TestParseRejectsBadScripts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, script, want string
	}{
		{"not JSON", `{"turns": [`, "script: unexpected EOF"},
		{"no turns", `{}`, "script: it has no turns"},
		{"an unknown top-level field", `{"turns": [{"text": "x"}], "model": "m"}`, `script: unknown field "model"`},
		{"an unknown turn field names the turn", `{"turns": [{"text": "x"}, {"txt": "y"}]}`, `script: turns[1]: unknown field "txt"`},
		{"an unknown tool call field", `{"turns": [{"tool_calls": [{"name": "Bash", "args": {}}]}]}`, `script: turns[0]: unknown field "args"`},
		{"a tool call without a name names the turn", `{"turns": [{"text": "a"}, {"text": "b"}, {"tool_calls": [{"input": {}}]}]}`, "script: turns[2].tool_calls[0]: name is required"},
		{"an input that is not an object", `{"turns": [{"tool_calls": [{"name": "Bash", "input": "ls"}]}]}`, "script: turns[0].tool_calls[0]: input must be a JSON object"},
		{"a null input", `{"turns": [{"tool_calls": [{"name": "Bash", "input": null}]}]}`, "script: turns[0].tool_calls[0]: input must be a JSON object"},
		{"a negative delay", `{"turns": [{"text": "x", "delay_ms": -1}]}`, "script: turns[0]: delay_ms is negative"},
		{"an unknown stop reason", `{"turns": [{"text": "x", "stop_reason": "done"}]}`, `script: turns[0]: unknown stop_reason "done"`},
		{"a duplicate id", `{"turns": [{"tool_calls": [{"name": "A"}]}, {"tool_calls": [{"id": "call_0_0", "name": "B"}]}]}`, `script: turns[1].tool_calls[0]: id "call_0_0" is already used by turns[0].tool_calls[0]`},
		{"data after the script", `{"turns": [{"text": "x"}]} {}`, "script: unexpected data after the script"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tc.script))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func userText(s string) provider.Message {
	return provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{provider.TextBlock(s)}}
}

func play(t *testing.T, p *Provider, req provider.Request) provider.Response {
	t.Helper()
	s, err := p.Stream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	r, err := provider.Collect(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestTurnsPlayInOrderAndWaitForToolResults(t *testing.T) {
	t.Parallel()
	s, err := Load("testdata/two_turns.json")
	if err != nil {
		t.Fatal(err)
	}
	p := New(s)
	if p.Name() != "script" || p.Model() != "two_turns" {
		t.Errorf("name, model = %q, %q", p.Name(), p.Model())
	}
	req := provider.Request{Messages: []provider.Message{userText("go")}}
	first := play(t, p, req)
	if first.StopReason != provider.StopToolUse {
		t.Errorf("stop reason = %q", first.StopReason)
	}
	bl := first.Message.Blocks
	if len(bl) != 5 || bl[0].Thinking != "Start by listing." || bl[1].Text != "Let me look." {
		t.Fatalf("blocks = %+v", bl)
	}
	uses := first.Message.ToolUses()
	var got []string
	for _, u := range uses {
		got = append(got, u.ToolUseID+" "+u.ToolName+" "+string(u.Input))
	}
	want := `call_0_0 Bash {"command": "ls"}|toolu_custom Read {"file_path": "go.mod"}|call_0_2 TodoRead {}`
	if strings.Join(got, "|") != want {
		t.Errorf("tool uses = %s\nwant %s", strings.Join(got, "|"), want)
	}

	// The next turn is not played until every call has its result.
	req.Messages = append(req.Messages, first.Message, provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{
		provider.ToolResultBlock("call_0_0", "go.mod", false),
	}})
	_, err = p.Stream(context.Background(), req)
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.ErrorBadRequest || !strings.Contains(pe.Message, "toolu_custom, call_0_2") {
		t.Fatalf("err = %v, want a bad request naming the missing results", err)
	}
	last := &req.Messages[len(req.Messages)-1]
	last.Blocks = append(last.Blocks, provider.ToolResultBlock("toolu_custom", "module x", false), provider.ToolResultBlock("call_0_2", "", true))
	second := play(t, p, req)
	if second.StopReason != provider.StopMaxTokens || len(second.Message.Blocks) != 1 || second.Message.Blocks[0].Text != "Done." {
		t.Errorf("second turn = %+v", second)
	}
	if n := len(p.Requests()); n != 3 {
		t.Errorf("requests = %d, want 3", n)
	}
}

func TestPastTheEndEveryTurnIsAnEmptyEndTurn(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(`{"turns": [{"text": "only"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := New(s)
	req := provider.Request{Messages: []provider.Message{userText("go")}}
	if r := play(t, p, req); r.Message.Blocks[0].Text != "only" {
		t.Fatalf("first = %+v", r)
	}
	for range 3 {
		r := play(t, p, req)
		if r.StopReason != provider.StopEndTurn || len(r.Message.Blocks) != 0 {
			t.Errorf("past the end = %+v", r)
		}
	}
}

func TestPacedTurnsArriveAWordAtATime(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(`{"turns": [{"text": "one two\n\nthree ", "delay_ms": 1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(s).Stream(context.Background(), provider.Request{})
	if err != nil {
		t.Fatal(err)
	}
	var pieces []string
	for st.Next() {
		if ev := st.Event(); ev.Kind == provider.EventTextDelta {
			pieces = append(pieces, ev.Text)
		}
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(pieces, "|"); got != "one |two\n\n|three " {
		t.Errorf("pieces = %q", got)
	}
}

func TestCancellingStopsAPacedTurn(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(`{"turns": [{"text": "a b c d", "delay_ms": 60000}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, err := New(s).Stream(ctx, provider.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Next() {
		t.Fatal("no first event")
	}
	cancel()
	if st.Next() {
		t.Fatal("an event after cancel")
	}
	if !errors.Is(st.Err(), context.Canceled) {
		t.Errorf("err = %v", st.Err())
	}
}

func TestDemoSaysItIsADemoReadsThenAsksToRunEcho(t *testing.T) {
	t.Parallel()
	d := Demo()
	p := New(d)
	if p.Model() != "demo" {
		t.Errorf("model = %q", p.Model())
	}
	first := d.Turns[0]
	if !strings.HasPrefix(first.Text, "This is the Workbench demo") {
		t.Errorf("first words = %q", first.Text[:40])
	}
	for _, want := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "--provider"} {
		if !strings.Contains(first.Text, want) {
			t.Errorf("first turn does not mention %s", want)
		}
	}
	var calls []string
	for _, turn := range d.Turns {
		var names []string
		for _, c := range turn.ToolCalls {
			names = append(names, c.Name+string(c.Input))
		}
		calls = append(calls, strings.Join(names, " "))
	}
	want := []string{
		`LS{"path": "."} Glob{"pattern": "*.md"}`,
		`Bash{"command": "echo hello from the Workbench demo"}`,
		``,
	}
	if strings.Join(calls, "|") != strings.Join(want, "|") {
		t.Errorf("calls = %q\nwant %q", calls, want)
	}
}

func TestConcurrentStreamsEachGetOneTurn(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(`{"turns": [{"text": "a"}, {"text": "b"}, {"text": "c"}, {"text": "d"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := New(s)
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			st, err := p.Stream(context.Background(), provider.Request{})
			if err != nil {
				t.Error(err)
				return
			}
			r, err := provider.Collect(st)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			seen[r.Message.Blocks[0].Text] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(seen) != 4 {
		t.Errorf("turns played = %v", seen)
	}
}

func TestLoadNamesTheFileInErrors(t *testing.T) {
	t.Parallel()
	if _, err := Load("testdata/missing.json"); err == nil || !strings.Contains(err.Error(), "testdata/missing.json") {
		t.Errorf("err = %v", err)
	}
}

// FuzzParse checks that Parse never panics and that what it accepts can be
// played: every tool call has a name, an id and an object input.
func FuzzParse(f *testing.F) {
	f.Add(demoJSON)
	f.Add([]byte(`{"turns": [{"text": "x", "tool_calls": [{"name": "A", "input": {"a": 1}}]}]}`))
	f.Add([]byte(`{"turns": [{"tool_calls": [{"name": ""}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		for _, turn := range s.Turns {
			for _, c := range turn.ToolCalls {
				if c.Name == "" || c.ID == "" || len(c.Input) == 0 || c.Input[0] != '{' {
					t.Fatalf("accepted a bad call %+v", c)
				}
			}
		}
	})
}
