package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
)

// A resumed session knows how full the window was where its transcript
// ended: the status line has the measured size at once, and when it was
// past the threshold the first request of the resumed session compacts
// first (a headless --continue is a new process every time, so nothing
// measured in this process could say so).
func TestAResumedSessionKnowsHowFullTheWindowWas(t *testing.T) {
	t.Parallel()
	rig := newCompactRig(t, 10000, func(_ int, r chatRequest) chatReply {
		switch {
		case r.isSummary():
			return chatReply{Text: "SUMMARY of the first task", Prompt: 500}
		case strings.Contains(r.Raw, "third"):
			return chatReply{Text: "resumed done", Prompt: 1500}
		case strings.Contains(r.Raw, "second"):
			return chatReply{Text: "done", Prompt: 9000}
		}
		return chatReply{Text: "done", Prompt: 3000}
	})
	rig.prompt(bigPrompt)
	rig.prompt("second")
	rig.tr.Close()

	restored, err := LoadSession(rig.root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	if restored.Context != (ContextAtEnd{Tokens: 9000}) {
		t.Fatalf("the transcript ends with context %+v, want 9000 measured", restored.Context)
	}
	tr, err := OpenTranscript(rig.dir.Transcript())
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	s := NewSession(Config{Provider: rig.srv.provider(t), Pipeline: rig.f.p, System: "test system",
		Transcript: tr, ContextWindow: 10000}, "sess", restored.History)
	s.ResumeContext(restored.Context)
	if used, window := s.ContextUsed(); used != 9000 || window != 10000 {
		t.Fatalf("the resumed session shows %d of %d", used, window)
	}
	if out := s.Prompt(context.Background(), "third"); out.StopReason != StopCompleted {
		t.Fatalf("%+v (%v)", out, out.Err)
	}
	reqs := rig.srv.requests()
	if len(reqs) != 4 || !reqs[2].isSummary() || !strings.Contains(reqs[3].Raw, "SUMMARY of the first task") {
		t.Fatalf("want the summary request first in the resumed session; %d requests", len(reqs))
	}
	tr.Sync()
	again, err := LoadSession(rig.root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	if again.Context != (ContextAtEnd{Tokens: 1500}) {
		t.Errorf("after the resumed run the context is %+v, want 1500 measured", again.Context)
	}
}

// What a transcript says of the window at its end: the last measurement,
// a compaction's estimate after it, nothing after a clear or a rewind.
func TestTheContextAtATranscriptsEnd(t *testing.T) {
	t.Parallel()
	entry := func(kind, data string) Entry { return Entry{Type: kind, Data: []byte(data)} }
	for _, tc := range []struct {
		name    string
		entries []Entry
		want    ContextAtEnd
	}{
		{"a measurement", []Entry{entry(EntryContextUsed, `{"prompt_tokens":7000}`)}, ContextAtEnd{Tokens: 7000}},
		{"a compaction after it", []Entry{entry(EntryContextUsed, `{"prompt_tokens":7000}`), entry(EntryCompact, `{"tokens_after":1200}`)}, ContextAtEnd{Tokens: 1200, Estimated: true}},
		{"a clear after it", []Entry{entry(EntryContextUsed, `{"prompt_tokens":7000}`), entry(EntryClear, `{}`)}, ContextAtEnd{}},
		{"a rewind after it", []Entry{entry(EntryContextUsed, `{"prompt_tokens":7000}`), entry(EntryRewind, `{"prompt":1}`)}, ContextAtEnd{}},
		{"a broken entry changes nothing", []Entry{entry(EntryContextUsed, `{"prompt_tokens":7000}`), entry(EntryContextUsed, `{"prompt_tokens":"x"}`)}, ContextAtEnd{Tokens: 7000}},
	} {
		var c ContextAtEnd
		for _, e := range tc.entries {
			c = replayContext(c, e)
		}
		if c != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, c, tc.want)
		}
	}
}

// A prompt the provider refused as too long is at least the window, even
// when the last response measured far less (the results since pushed it
// over): clearing old tool results is enough only if it frees that much,
// otherwise the history is summarised before the one retry.
func TestAPromptRefusedAsTooLongIsSummarisedNotOnlyCleared(t *testing.T) {
	t.Parallel()
	tooLong := `{"error":{"message":"This model's maximum context length is 20000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`
	old := strings.Repeat("a line of old output\n", 100)
	args, _ := json.Marshal(map[string]string{"text": old})
	var refused atomic.Bool
	rig := newCompactRig(t, 20000, func(n int, r chatRequest) chatReply {
		switch {
		case r.isSummary():
			return chatReply{Text: "SUMMARY before the retry", Prompt: 500}
		case n == 0:
			return chatReply{Calls: []chatCall{{"old_1", "Echo", string(args)}}, Prompt: 2000}
		case strings.Contains(r.Raw, "third") && !refused.Swap(true):
			return chatReply{Status: 400, Error: tooLong}
		}
		return chatReply{Text: "done", Prompt: 2000}
	})
	rig.prompt("run it")
	rig.prompt("second")
	rig.prompt("third")
	reqs := rig.srv.requests()
	last := reqs[len(reqs)-1]
	if !reqs[len(reqs)-2].isSummary() || !strings.Contains(last.Raw, "SUMMARY before the retry") {
		t.Fatalf("the retry after the refusal was not summarised first; %d requests, last %s", len(reqs), last.Raw)
	}
	checkPaired(t, last)
}

// After /clear or a rewind of the conversation, the last measure no
// longer says how full the window is: the status line shows nothing until
// the next response, and the next request does not compact the short
// history that is left.
func TestClearAndRewindForgetTheLastMeasure(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"clear", "rewind"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			rig := newCompactRig(t, 10000, func(_ int, r chatRequest) chatReply {
				if r.isSummary() {
					return chatReply{Text: "SUMMARY", Prompt: 500}
				}
				return chatReply{Text: "done", Prompt: 9000}
			})
			rig.s.cfg.BeforePrompt = func(context.Context, string) int { return 1 }
			rig.prompt("first")
			if used, _ := rig.s.ContextUsed(); used != 9000 {
				t.Fatalf("measured %d", used)
			}
			if how == "clear" {
				rig.s.Clear()
			} else if _, err := rig.s.RewindConversation(1); err != nil {
				t.Fatal(err)
			}
			if used, _ := rig.s.ContextUsed(); used != 0 {
				t.Errorf("after %s the context still shows %d tokens", how, used)
			}
			rig.prompt("again")
			for _, r := range rig.srv.requests() {
				if r.isSummary() {
					t.Errorf("after %s the next request compacted first", how)
				}
			}
		})
	}
}
