package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/tools"
)

// benchAnswer is a reply with the Markdown a model writes: a heading, a
// paragraph, a list and a code block.
const benchAnswer = "## Answer %d\n\nThe build has **three** steps, run by `make`:\n\n" +
	"1. `go vet` checks the code.\n2. `go test -race` runs the tests.\n3. `go build` writes `bin/workbench`.\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\nRun `make run` to start it."

// fillHistory gives the app n messages as a session produces them, through
// the root's own event handling: the person's message, a Markdown reply,
// and a tool call with its stages (which the panel shows too) and output.
func fillHistory(m *Model, n int) {
	now := m.now()
	for i := range n {
		switch i % 3 {
		case 0:
			m.conv.AddUser(fmt.Sprintf("Question %d: what does the build do?", i))
		case 1:
			m.onEvent(agent.Event{Kind: agent.EventText, Text: fmt.Sprintf(benchAnswer, i)})
			m.onEvent(agent.Event{Kind: agent.EventAssistant})
		case 2:
			in, _ := json.Marshal(map[string]string{"command": "go test ./..."})
			call := agent.Call{ID: fmt.Sprintf("call-%d", i), Name: "Bash", Input: in}
			m.onEvent(agent.Event{Kind: agent.EventToolUse, Call: &call})
			for _, st := range []struct {
				stage   agent.Stage
				outcome string
			}{
				{agent.StageLookup, agent.OutcomeOK}, {agent.StageSchema, agent.OutcomeOK},
				{agent.StagePermission, agent.OutcomeAllow}, {agent.StageCall, agent.OutcomeStart},
				{agent.StageCall, agent.OutcomeOK}, {agent.StageResult, agent.OutcomeOK},
			} {
				ev := agent.StageEvent{CallID: call.ID, Tool: "Bash", Stage: st.stage, Outcome: st.outcome, Time: now, DurationUS: 1500}
				m.onEvent(agent.Event{Kind: agent.EventStage, Stage: &ev})
			}
			res := tools.Result{Text: strings.Repeat("ok  \tgithub.com/x/y\t0.012s\n", 12)}
			m.onEvent(agent.Event{Kind: agent.EventToolResult, Call: &call, Result: &res})
		}
	}
}

// benchApp is an app of 120 × 40 with n messages of history, drawn once so
// the caches are warm.
func benchApp(b *testing.B, n int) *Model {
	b.Helper()
	a := newApp(b, `{"turns":[{"text":"hi"}]}`, 120, 40, appOptions{})
	fillHistory(a.m, n)
	a.m.View()
	return a.m
}

func benchView(b *testing.B, n int) {
	m := benchApp(b, n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.View()
	}
}

// BenchmarkAppView100 and BenchmarkAppView10000 are the cost of drawing the
// whole screen with 100 and 10,000 messages in the conversation; the goal
// is that the second is within 1.5x of the first.
func BenchmarkAppView100(b *testing.B)   { benchView(b, 100) }
func BenchmarkAppView10000(b *testing.B) { benchView(b, 10_000) }

// BenchmarkKeystrokeWhileStreaming is one key press while a reply streams:
// a text delta arrives (untimed), then the key's Update and the next
// frame's View are timed. The goal is under 16 ms, one frame at 60 Hz.
func BenchmarkKeystrokeWhileStreaming(b *testing.B) {
	m := benchApp(b, 1000)
	m.running, m.started = true, m.now()
	// A long reply arriving a few words at a time.
	var deltas []string
	for i := range 50 {
		deltas = append(deltas, strings.SplitAfter(fmt.Sprintf(benchAnswer, i)+"\n\n", " ")...)
	}
	const typed = "please also run the linter and tell me what it finds "
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		b.StopTimer()
		m.Update(eventsMsg{{Kind: agent.EventText, Text: deltas[i%len(deltas)]}})
		if i%len(typed) == 0 {
			m.input.reset()
		}
		r := rune(typed[i%len(typed)])
		i++
		b.StartTimer()
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		m.View()
	}
}
