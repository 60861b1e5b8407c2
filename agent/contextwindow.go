package agent

import "strings"

// knownWindows are the context windows of the model families Workbench
// knows, in tokens of input. A model id matches the longest prefix that
// fits, so "claude-sonnet-4-5-20250929" finds "claude-sonnet-4-5" and a
// later snapshot of a family needs no new row. For the GPT-5 family the
// window is the input the API accepts (272k of its 400k: the rest is
// reserved for the reply), because the measure compared with it is the
// prompt. Anthropic's 1M window of Sonnet 4 and 4.5 needs a beta header
// Workbench does not send, so those rows say 200k.
var knownWindows = []struct {
	prefix string
	tokens int
}{
	// Anthropic.
	{"claude-opus-4-7", 1_000_000},
	{"claude-opus-4-6", 1_000_000},
	{"claude-sonnet-4-6", 1_000_000},
	{"claude-opus-4", 200_000},
	{"claude-sonnet-4", 200_000},
	{"claude-haiku-4", 200_000},
	{"claude-3", 200_000},
	{"claude-", 200_000},
	// OpenAI.
	{"gpt-5-chat", 128_000},
	{"gpt-5.1-chat", 128_000},
	{"gpt-5", 272_000},
	{"gpt-4.1", 1_047_576},
	{"gpt-4o", 128_000},
	{"gpt-4-turbo", 128_000},
	{"gpt-4-32k", 32_768},
	{"gpt-4", 8_192},
	{"gpt-3.5-turbo", 16_385},
	{"o1-mini", 128_000},
	{"o1", 200_000},
	{"o3", 200_000},
	{"o4-mini", 200_000},
	{"codex-mini", 200_000},
}

// ContextWindow is the context window of a model id in tokens, or 0 when
// the model is unknown (then contextWindow in settings or --context-window
// says it). Provider prefixes ("anthropic/", "openai/", Bedrock's
// "anthropic.", Vertex's "@date" suffix) are looked through.
func ContextWindow(model string) int {
	id := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	for _, vendor := range []string{"anthropic.", "us.anthropic.", "eu.anthropic.", "global.anthropic.", "openai."} {
		id = strings.TrimPrefix(id, vendor)
	}
	id, _, _ = strings.Cut(id, "@")
	best, tokens := 0, 0
	for _, w := range knownWindows {
		if strings.HasPrefix(id, w.prefix) && len(w.prefix) > best {
			best, tokens = len(w.prefix), w.tokens
		}
	}
	return tokens
}
