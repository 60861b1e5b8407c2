package provider

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestBuilderAssemblesBlocksInIndexOrder(t *testing.T) {
	t.Parallel()
	var b Builder
	for _, ev := range []Event{
		{Kind: EventThinkingDelta, Index: 0, Text: "hm"},
		{Kind: EventToolUseStart, Index: 2, ToolUseID: "t1", ToolName: "Read"},
		{Kind: EventTextDelta, Index: 1, Text: "Hel"},
		{Kind: EventThinkingDelta, Index: 0, Signature: "sig"},
		{Kind: EventTextDelta, Index: 1, Text: "lo"},
		{Kind: EventToolUseDelta, Index: 2, InputDelta: `{"a":`},
		{Kind: EventToolUseStop, Index: 2, ToolUseID: "t1", ToolName: "Read", Input: json.RawMessage(`{"a":1}`)},
		{Kind: EventToolUseStart, Index: 3, ToolUseID: "t2", ToolName: "Cut"}, // never stopped
		{Kind: EventTextDelta, Index: 4, Text: ""},
		{Kind: EventUsage, Usage: Usage{InputTokens: 3, OutputTokens: 4}},
		{Kind: EventMessageStop, StopReason: StopToolUse},
	} {
		b.Add(ev)
	}
	want := Response{
		Message: Message{Role: RoleAssistant, Blocks: []Block{
			{Type: BlockThinking, Thinking: "hm", Signature: "sig"},
			{Type: BlockText, Text: "Hello"},
			{Type: BlockToolUse, ToolUseID: "t1", ToolName: "Read", Input: json.RawMessage(`{"a":1}`)},
		}},
		StopReason: StopToolUse,
		Usage:      Usage{InputTokens: 3, OutputTokens: 4},
	}
	if got := b.Response(); !reflect.DeepEqual(got, want) {
		t.Errorf("Response() =\n%+v\nwant\n%+v", got, want)
	}
}
