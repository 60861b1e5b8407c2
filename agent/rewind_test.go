package agent

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/agent/provider/script"
)

// rewindSession is a session with a transcript in a state root, whose
// prompts are numbered as a checkpoint store would number them.
func rewindSession(t *testing.T, root, body string) (*Session, *[]string) {
	t.Helper()
	sc, err := script.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := CreateSessionDir(root, "rw")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := OpenTranscript(dir.Transcript())
	if err != nil {
		t.Fatal(err)
	}
	tr.Append(EntrySession, map[string]string{"id": "rw", "cwd": "/p"})
	var events []string
	n := 0
	f := newFixture(t)
	f.p.BeforeCall = func(_ context.Context, c Call) { events = append(events, "call "+c.Name) }
	s := NewSession(Config{
		Provider: script.New(sc), Pipeline: f.p, System: "test", Transcript: tr,
		BeforePrompt: func(_ context.Context, text string) int { n++; events = append(events, "before "+text); return n },
		AfterPrompt:  func(context.Context) { events = append(events, "after") },
	}, "rw", nil)
	t.Cleanup(func() { tr.Close() })
	return s, &events
}

func userTexts(h []provider.Message) string {
	var out []string
	for _, m := range h {
		if m.Role == provider.RoleUser {
			if t := lastText(m); t != "" {
				out = append(out, t)
			}
		}
	}
	return strings.Join(out, "|")
}

const threePrompts = `{"turns":[
  {"text":"one done"},
  {"tool_calls":[{"id":"e","name":"Echo","input":{"text":"x"}}]},
  {"text":"two done"},
  {"text":"three done"},
  {"text":"four done"}]}`

func TestTheConversationGoesBackToBeforeAPromptAndResumeKeepsIt(t *testing.T) {
	root := t.TempDir()
	s, events := rewindSession(t, root, threePrompts)
	ctx := context.Background()
	for _, p := range []string{"first", "second", "third"} {
		s.Prompt(ctx, p)
	}
	if got := strings.Join(*events, ", "); got != "before first, after, before second, call Echo, after, before third, after" {
		t.Fatalf("hooks ran as %s", got)
	}
	text, err := s.RewindConversation(2)
	if err != nil || text != "second" {
		t.Fatalf("rewind: %q, %v", text, err)
	}
	if got := userTexts(s.History()); got != "first" {
		t.Fatalf("history after rewind: %s", got)
	}
	s.Prompt(ctx, "fourth")
	s.cfg.Transcript.Sync()

	r, err := LoadSession(root, "rw")
	if err != nil {
		t.Fatal(err)
	}
	if got := userTexts(r.History); got != "first|fourth" {
		t.Fatalf("resumed history: %s", got)
	}
	// The transcript still holds everything.
	data, _ := os.ReadFile(s.cfg.Transcript.Path())
	for _, p := range []string{"second", "third", "two done"} {
		if !strings.Contains(string(data), p) {
			t.Fatalf("transcript lost %q", p)
		}
	}
	// Prompt 4 came after the rewind: going back to it keeps the rewind.
	if _, err := s.RewindConversation(4); err != nil {
		t.Fatal(err)
	}
	if got := userTexts(s.History()); got != "first" {
		t.Fatalf("history before prompt 4: %s", got)
	}
}

func TestABadConversationRewindSaysWhyAndChangesNothing(t *testing.T) {
	root := t.TempDir()
	s, _ := rewindSession(t, root, threePrompts)
	if _, err := s.RewindConversation(1); err == nil || !strings.Contains(err.Error(), "no recorded prompts") {
		t.Fatalf("no prompts: %v", err)
	}
	s.Prompt(context.Background(), "first")
	before := userTexts(s.History())
	for _, n := range []int{0, 2, 7} {
		if _, err := s.RewindConversation(n); err == nil || !strings.Contains(err.Error(), "numbered 1 to 1") {
			t.Fatalf("prompt %d: %v", n, err)
		}
	}
	if userTexts(s.History()) != before {
		t.Fatal("a refused rewind changed the history")
	}
	// A closed session's transcript cut off by a crash is refused whole.
	path := s.cfg.Transcript.Path()
	s.cfg.Transcript.Close()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":99,"type":"mess`)
	f.Close()
	size := fileSize(t, path)
	if _, err := RewindTranscript(path, 1); err == nil || !strings.Contains(err.Error(), "partial entry") {
		t.Fatalf("cut-off transcript: %v", err)
	}
	if fileSize(t, path) != size {
		t.Fatal("a refused rewind wrote to the transcript")
	}
}

func fileSize(t *testing.T, path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

func TestAReopenedTranscriptDropsItsPartialLastEntry(t *testing.T) {
	path := t.TempDir() + "/t.jsonl"
	tr, _ := OpenTranscript(path)
	tr.Append(EntryMessage, provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{provider.TextBlock("kept")}})
	tr.Close()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":2,"type":"message","data":{"ro`)
	f.Close()
	tr, err := OpenTranscript(path)
	if err != nil {
		t.Fatal(err)
	}
	tr.Append(EntryRewind, promptMark{Prompt: 1})
	tr.Close()
	f, _ = os.Open(path)
	defer f.Close()
	entries, err := ReadTranscript(f)
	if err != nil || len(entries) != 2 || entries[1].Type != EntryRewind {
		t.Fatalf("entries %+v, %v", entries, err)
	}
	var m provider.Message
	json.Unmarshal(entries[0].Data, &m)
	if lastText(m) != "kept" {
		t.Fatalf("first entry lost: %s", entries[0].Data)
	}
}

func TestRewindTranscriptOfAClosedSession(t *testing.T) {
	root := t.TempDir()
	s, _ := rewindSession(t, root, threePrompts)
	s.Prompt(context.Background(), "first")
	s.Prompt(context.Background(), "second")
	path := s.cfg.Transcript.Path()
	s.cfg.Transcript.Close()
	text, err := RewindTranscript(path, 2)
	if err != nil || text != "second" {
		t.Fatalf("%q, %v", text, err)
	}
	r, err := LoadSession(root, "rw")
	if err != nil {
		t.Fatal(err)
	}
	if got := userTexts(r.History); got != "first" {
		t.Fatalf("resumed history: %s", got)
	}
}
