package agent

import (
	"context"
	"strings"
	"testing"
)

func TestContextWindowOfKnownModels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		model string
		want  int
	}{
		{"claude-sonnet-4-5-20250929", 200_000},
		{"claude-sonnet-4-6", 1_000_000},
		{"claude-opus-4-7", 1_000_000},
		{"claude-opus-4-1-20250805", 200_000},
		{"claude-haiku-4-5", 200_000},
		{"claude-3-5-haiku-latest", 200_000},
		{"anthropic.claude-opus-4-6-v1", 1_000_000},
		{"us.anthropic.claude-sonnet-4-20250514-v1:0", 200_000},
		{"claude-haiku-4-5@20251001", 200_000},
		{"openai/gpt-4.1-mini", 1_047_576},
		{"gpt-5.5", 272_000},
		{"gpt-5-chat-latest", 128_000},
		{"GPT-4o-2024-11-20", 128_000},
		{"gpt-4", 8_192},
		{"o1-mini", 128_000},
		{"o3-pro", 200_000},
		{"o4-mini", 200_000},
		{"llama3.1:8b", 0},
		{"", 0},
	} {
		if got := ContextWindow(tc.model); got != tc.want {
			t.Errorf("ContextWindow(%q) = %d, want %d", tc.model, got, tc.want)
		}
	}
}

// /context splits the estimate into its parts, says it is an estimate and
// shows the measured share of the window.
func TestContextReportShowsEachPart(t *testing.T) {
	t.Parallel()
	rig := newCompactRig(t, 20000, func(n int, r chatRequest) chatReply {
		return chatReply{Calls: nil, Text: "done", Prompt: 5000}
	})
	mem := strings.Repeat("project rule. ", 100)
	rig.s.cfg.System = "You are a test.\n<project-instructions>\n" + mem + "\n</project-instructions>"
	rig.s.cfg.Memory = []MemoryFile{{Path: "AGENTS.md", Content: mem}}
	rig.s.Prompt(context.Background(), "hello")
	parts := map[string]int{}
	for _, p := range rig.s.ContextParts() {
		parts[p.Name] = p.Tokens
	}
	if parts["Memory files"] != estimateTokens(len(strings.TrimSpace(mem))) || parts["System prompt"] <= 0 || parts["Tools"] <= 0 || parts["Messages"] <= 0 {
		t.Errorf("parts %v", parts)
	}
	rep := rig.s.ContextReport()
	for _, want := range []string{"estimate", "System prompt", "Tools", "Memory files", "Messages", "Tool results", "Last request (measured): 5.0k tokens (25.0%)", "automatic compaction above 16k"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
}
