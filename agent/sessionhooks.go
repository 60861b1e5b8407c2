package agent

import (
	"context"
	"strings"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/hooks"
)

// stopHooks runs the Stop hooks (SubagentStop in a subagent) when the
// model wants to end its turn; last is the model's last text. out ends the run (a hook's `"continue":
// false`); again sends the model back to work with the hooks' reasons. A
// block is honoured once: the hooks then run with stop_hook_active true,
// and a second block in a row ends the run with a notice instead of a
// loop. *active is the loop's record of that.
func (s *Session) stopHooks(ctx context.Context, turn int, last string, active *bool) (out *Outcome, again bool) {
	ev := hooks.Stop
	if s.cfg.Depth > 0 {
		ev = hooks.SubagentStop
	}
	h := s.hooks()
	if h == nil || !h.Has(ev) {
		return nil, false
	}
	in := s.hookInput(ev)
	in.StopHookActive, in.LastAssistantMessage = *active, last
	if ev == hooks.SubagentStop {
		in.AgentTranscriptPath = in.TranscriptPath
	}
	v := h.Stop(ctx, in)
	if v.Prevent {
		return &Outcome{StopReason: StopHookPrevented, Turns: turn, Text: v.Message}, false
	}
	if len(v.Continue) == 0 {
		return nil, false
	}
	if *active {
		s.cfg.Publish(Event{Kind: EventNotice, Turn: turn, Text: "A " + string(ev) +
			" hook asked again to continue; the run ends here (a stop hook keeps the model going once in a row)."})
		return nil, false
	}
	*active = true
	msg := "A " + string(ev) + " hook asks you to continue:\n" + strings.Join(v.Continue, "\n")
	s.cfg.Publish(Event{Kind: EventNotice, Turn: turn, Text: msg})
	s.appendMessage(provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{provider.TextBlock(msg)}})
	return nil, true
}

// startSource is SessionStart's source for the session's next first
// prompt: "startup", "resume", or what StartAgain set ("clear",
// "compact").
func (s *Session) startSource() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.source != "":
		return s.source
	case s.resumed:
		return "resume"
	}
	return "startup"
}

// StartAgain makes the next prompt fire the SessionStart hooks again, with
// source "clear" after /clear or "compact" after a compaction, as Claude
// Code's hooks reference documents, so the context they add is there
// again.
func (s *Session) StartAgain(source string) {
	s.mu.Lock()
	s.started, s.source = false, source
	s.mu.Unlock()
}

// SessionEnd reasons, as Claude Code's hooks reference documents them.
// Close passes any other reason to hooks as "other".
const (
	EndClear           = "clear"
	EndLogout          = "logout"
	EndPromptInputExit = "prompt_input_exit"
	EndOther           = "other"
)

// endReason is the reason SessionEnd hooks are told.
func endReason(reason string) string {
	switch reason {
	case EndClear, EndLogout, EndPromptInputExit, EndOther:
		return reason
	}
	return EndOther
}

// sessionEnd fires the SessionEnd hooks of the person's session.
func (s *Session) sessionEnd(reason string) {
	h := s.hooks()
	if h == nil || !h.Has(hooks.SessionEnd) || s.cfg.Depth != 0 {
		return
	}
	in := s.hookInput(hooks.SessionEnd)
	in.Reason = endReason(reason)
	ctx, cancel := context.WithTimeout(context.Background(), hooks.DefaultTimeout)
	defer cancel()
	h.Run(ctx, in)
}
