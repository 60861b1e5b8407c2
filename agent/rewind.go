package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// Entry kinds of rewind.
const (
	// EntryCheckpoint marks where a prompt of the person begins: the
	// conversation before it is what a rewind to that prompt gives back.
	EntryCheckpoint = "checkpoint"
	// EntryRewind records that the conversation went back to before a
	// prompt; resume restores the history as it was there, while the
	// transcript keeps everything that came after.
	EntryRewind = "rewind"
)

// promptMark is the data of EntryCheckpoint and EntryRewind.
type promptMark struct {
	Prompt int `json:"prompt"`
}

// beforePrompt runs the Checkpoint hook before a prompt and marks the
// prompt's start in the transcript. A subagent's prompt is part of the
// call that started it, not a prompt of the person.
func (s *Session) beforePrompt(ctx context.Context, text string) {
	if s.cfg.BeforePrompt == nil || s.cfg.Depth > 0 {
		return
	}
	if n := s.cfg.BeforePrompt(ctx, text); n > 0 {
		s.record(EntryCheckpoint, promptMark{Prompt: n})
	}
}

func (s *Session) afterPrompt(ctx context.Context) {
	if s.cfg.AfterPrompt != nil && s.cfg.Depth == 0 {
		s.cfg.AfterPrompt(ctx)
	}
}

// ErrBusy is returned when the conversation cannot go back because a
// prompt is running.
var ErrBusy = errors.New("a prompt is running: stop it first (Esc)")

// RewindConversation takes the conversation back to before prompt n: the
// history becomes what it was when that prompt began, and the transcript
// records the rewind so a resumed session has the same history. It returns
// the prompt's text, for the person to edit and send again.
func (s *Session) RewindConversation(n int) (string, error) {
	if !s.run.TryLock() {
		return "", ErrBusy
	}
	defer s.run.Unlock()
	if s.cfg.Transcript == nil {
		return "", errors.New("this session keeps no transcript to rewind")
	}
	s.flush()
	entries, err := readEntries(s.cfg.Transcript.Path())
	if err != nil {
		return "", err
	}
	h, text, err := historyBefore(entries, len(entries), n)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	s.history = h
	s.forgetMeasureLocked()
	s.mu.Unlock()
	s.record(EntryRewind, promptMark{Prompt: n})
	s.sync()
	return text, nil
}

// RewindTranscript records in a closed session's transcript that its
// conversation goes back to before prompt n, for `workbench rewind N
// --conversation`. A transcript cut off by a crash is refused, with
// nothing written: the rewind would be appended after a partial line.
func RewindTranscript(path string, n int) (string, error) {
	entries, err := readEntries(path)
	if err != nil {
		return "", err
	}
	_, text, err := historyBefore(entries, len(entries), n)
	if err != nil {
		return "", err
	}
	t, err := OpenTranscript(path)
	if err != nil {
		return "", err
	}
	t.Append(EntryRewind, promptMark{Prompt: n})
	return text, t.Close()
}

// PromptText checks that a closed session's conversation can go back to
// before prompt n and returns that prompt's text, writing nothing: the
// command line checks this before it restores any file.
func PromptText(path string, n int) (string, error) {
	entries, err := readEntries(path)
	if err != nil {
		return "", err
	}
	_, text, err := historyBefore(entries, len(entries), n)
	return text, err
}

func readEntries(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("rewind: %w", err)
	}
	defer f.Close()
	entries, err := ReadTranscript(f)
	if errors.Is(err, ErrTruncated) {
		return nil, fmt.Errorf("rewind: the transcript %s ends in a partial entry (the session was cut off by a crash): resume it once to repair it, then rewind; nothing was changed", path)
	}
	if err != nil {
		return nil, fmt.Errorf("rewind: %s: %w", path, err)
	}
	return entries, nil
}

// historyBefore replays entries[:end] and returns the history as it was
// where prompt n began, and that prompt's text.
func historyBefore(entries []Entry, end, n int) ([]provider.Message, string, error) {
	at, max := -1, 0
	for i, e := range entries[:end] {
		if e.Type != EntryCheckpoint {
			continue
		}
		var m promptMark
		if json.Unmarshal(e.Data, &m) == nil {
			if m.Prompt == n && at < 0 {
				at = i
			}
			if m.Prompt > max {
				max = m.Prompt
			}
		}
	}
	if at < 0 {
		if max == 0 {
			return nil, "", errors.New("rewind: this conversation has no recorded prompts to go back to")
		}
		return nil, "", fmt.Errorf("rewind: no prompt %d: this conversation's prompts are numbered 1 to %d", n, max)
	}
	var h []provider.Message
	for i := 0; i < at; i++ {
		h = replayHistory(h, entries, i)
	}
	text := ""
	for _, e := range entries[at+1 : end] {
		if e.Type == EntryMessage {
			var m provider.Message
			if json.Unmarshal(e.Data, &m) == nil && m.Role == provider.RoleUser {
				text = lastText(m)
			}
			break
		}
	}
	return repairHistory(h), text, nil
}

// replayHistory applies entries[i] to the history h, as resume does:
// messages, clears, compactions and rewinds.
func replayHistory(h []provider.Message, entries []Entry, i int) []provider.Message {
	e := entries[i]
	switch e.Type {
	case EntryMessage:
		var m provider.Message
		if json.Unmarshal(e.Data, &m) == nil {
			h = withMessage(h, m)
		}
	case EntryClear:
		h = nil
	case EntryCompact:
		var c compactRecord
		if json.Unmarshal(e.Data, &c) == nil {
			h = restoreCompaction(h, c)
		}
	case EntryRewind:
		var m promptMark
		if json.Unmarshal(e.Data, &m) == nil {
			if back, _, err := historyBefore(entries, i, m.Prompt); err == nil {
				h = back
			}
		}
	}
	return h
}

// lastText is a prompt message's text: its last text block (notifications
// and hook context come before it).
func lastText(m provider.Message) string {
	for i := len(m.Blocks) - 1; i >= 0; i-- {
		if m.Blocks[i].Type == provider.BlockText && m.Blocks[i].Text != "" {
			return m.Blocks[i].Text
		}
	}
	return ""
}
