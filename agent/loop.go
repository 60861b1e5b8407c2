package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/tools"
)

// streamRetries is how often a turn whose stream broke before any tool call
// is tried again: once covers a dropped connection without looping on a
// server that keeps failing.
const streamRetries = 1

// Prompt runs the loop for one person's message until the model ends its
// turn, a limit is reached, or ctx is cancelled (the UI's Esc, Ctrl-C
// headless), which stops the stream and the running tools.
func (s *Session) Prompt(ctx context.Context, text string) Outcome {
	s.run.Lock()
	defer s.run.Unlock()
	if s.cfg.MaxDuration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.MaxDuration)
		defer cancel()
	}
	ctx, stop := withTurnStop(ctx)
	defer stop(nil)
	s.beforePrompt(ctx, text)
	out := s.prompt(ctx, text)
	s.afterPrompt(ctx)
	out.SessionID = s.id
	out.Usage = s.Usage()
	s.record(EntryOutcome, out)
	s.sync()
	s.cfg.Publish(Event{Kind: EventDone, Outcome: &out})
	return out
}

func (s *Session) prompt(ctx context.Context, text string) Outcome {
	var blocks []provider.Block
	start := s.sessionStart(ctx)
	if start.Prevent {
		// A SessionStart hook's "continue": false: the prompt is not sent.
		return Outcome{StopReason: StopHookPrevented, Text: start.StopReason}
	}
	if start.Context != "" {
		blocks = append(blocks, provider.TextBlock(start.Context))
	}
	if h := s.hooks(); h != nil && h.Has(hooks.UserPromptSubmit) {
		in := s.hookInput(hooks.UserPromptSubmit)
		in.Prompt = text
		block, reason, extra := h.UserPrompt(ctx, in)
		if block {
			return Outcome{StopReason: StopPromptBlocked, Text: "The prompt was blocked by a hook: " + reason}
		}
		if extra != "" {
			text += "\n\n" + extra
		}
	}
	blocks = append(blocks, s.drainNotifications()...)
	blocks = append(blocks, provider.TextBlock(text))
	s.appendMessage(provider.Message{Role: provider.RoleUser, Blocks: blocks})

	ctx, hookStopped := withHookStop(ctx)
	stopHookActive := false
	continuations := 0
	// tooLongRetried says the last request was already a retry after a
	// compaction forced by a prompt too long: the next refusal ends the run.
	tooLongRetried := false
	// waitUntil bounds the time the whole run waits for background news
	// (BackgroundWait), however many times the model stops to wait.
	var waitUntil time.Time
	var last string
	for turn := 1; ; turn++ {
		if s.cfg.MaxTurns > 0 && turn > s.cfg.MaxTurns {
			return Outcome{StopReason: StopMaxTurns, Turns: turn - 1, Text: last}
		}
		if err := ctx.Err(); err != nil {
			return s.ended(ctx, turn-1, last)
		}
		s.cfg.Publish(Event{Kind: EventTurnStart, Turn: turn})
		s.maybeAutoCompact(ctx, turn)
		if reason, stop := hookStopped.stopped(); stop {
			// A PreCompact hook's "continue": false ends the run before
			// the request.
			return Outcome{StopReason: StopHookPrevented, Turns: turn - 1, Text: reason}
		}
		res := s.turn(ctx, turn)
		if t := textOf(res.message); t != "" {
			last = t
		}
		if res.err != nil && len(res.calls) == 0 && provider.IsPromptTooLong(res.err) && ctx.Err() == nil {
			if err := s.recoverTooLong(ctx, turn, res.err, tooLongRetried); err != nil {
				return Outcome{StopReason: StopModelError, Turns: turn, Text: last, Err: err}
			}
			tooLongRetried = true
			turn--
			continue
		}
		if res.err != nil && len(res.calls) == 0 {
			if ctx.Err() != nil {
				return s.ended(ctx, turn, last)
			}
			return Outcome{StopReason: StopModelError, Turns: turn, Text: last, Err: res.err}
		}
		tooLongRetried = false
		if ctx.Err() != nil {
			return s.ended(ctx, turn, last)
		}
		if reason, stop := hookStopped.stopped(); stop {
			return Outcome{StopReason: StopHookPrevented, Turns: turn, Text: reason}
		}
		if len(res.calls) > 0 {
			stopHookActive = false
			continue
		}
		if res.cutOff && continuations < maxContinuations {
			continuations++
			s.cfg.Publish(Event{Kind: EventNotice, Turn: turn, Text: "The reply reached the output token limit; asking the model to continue."})
			s.appendMessage(provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{provider.TextBlock(continueText)}})
			continue
		}
		// The model wants to stop. Stop hooks may keep it going once per
		// real tool turn, so they cannot loop it forever.
		if out, again := s.stopHooks(ctx, turn, last, &stopHookActive); out != nil {
			return *out
		} else if again {
			continue
		}
		if w, ok := s.cfg.Notifier.(BackgroundWaiter); ok && s.cfg.BackgroundWait > 0 && !s.cfg.Notifier.Pending() && w.Active() {
			if waitUntil.IsZero() {
				waitUntil = time.Now().Add(s.cfg.BackgroundWait)
			}
			if left := time.Until(waitUntil); left > 0 {
				s.cfg.Publish(Event{Kind: EventNotice, Turn: turn, Text: fmt.Sprintf("Waiting up to %s for background tasks to report.", left.Round(time.Second))})
				wctx, cancel := context.WithDeadline(ctx, waitUntil)
				w.WaitNotification(wctx)
				cancel()
			}
		}
		if s.cfg.Notifier != nil && s.cfg.Notifier.Pending() {
			if blocks := s.drainNotifications(); len(blocks) > 0 {
				s.appendMessage(provider.Message{Role: provider.RoleUser, Blocks: blocks})
				continue
			}
		}
		return Outcome{StopReason: StopCompleted, Turns: turn, Text: last}
	}
}

// ended reports a run stopped by its context: a person's interrupt, or the
// time limit.
func (s *Session) ended(ctx context.Context, turns int, last string) Outcome {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return Outcome{StopReason: StopMaxDuration, Turns: turns, Text: last}
	}
	return Outcome{StopReason: StopAborted, Turns: turns, Text: last}
}

// sessionStart fires SessionStart hooks before the first prompt and returns
// the context they add.
func (s *Session) sessionStart(ctx context.Context) hooks.StartVerdict {
	s.mu.Lock()
	first := !s.started
	s.started = true
	s.mu.Unlock()
	h := s.hooks()
	if !first || h == nil || !h.Has(hooks.SessionStart) || s.cfg.Depth > 0 {
		return hooks.StartVerdict{}
	}
	in := s.hookInput(hooks.SessionStart)
	in.Source = s.startSource()
	return h.Begin(ctx, in)
}

func (s *Session) drainNotifications() []provider.Block {
	if s.cfg.Notifier == nil {
		return nil
	}
	var out []provider.Block
	for _, n := range s.cfg.Notifier.Drain() {
		s.record(EntryNotice, n)
		s.cfg.Publish(Event{Kind: EventNotification, Text: n.Text})
		out = append(out, provider.TextBlock(stampNotification(n.Text, s.cfg.Nonce)))
	}
	return out
}

// turnResult is one model turn: the assistant message and the tool calls it
// made, whose results are already in the history.
type turnResult struct {
	message provider.Message
	calls   []Call
	err     error
	// cutOff says the reply ended at the output token limit.
	cutOff bool
}

// maxContinuations bounds how often one prompt asks the model to go on
// after its reply was cut off at the output limit.
const maxContinuations = 3

// Messages for a reply cut off at the output token limit.
const (
	continueText   = "Your reply was cut off by the output token limit. Continue exactly where it stopped, without repeating what you already wrote."
	cutOffCallNote = "(Your reply hit the output token limit, so the input of your last tool call may be cut off. Keep each call smaller, for example write a large file in several parts.)"
)

// turn streams one assistant message, running its tool calls as they
// complete, then records the message and the paired results.
func (s *Session) turn(ctx context.Context, turn int) turnResult {
	for attempt := 0; ; attempt++ {
		res, retry := s.streamTurn(ctx, turn)
		if !retry || attempt >= streamRetries || ctx.Err() != nil || provider.IsPromptTooLong(res.err) {
			return res
		}
		s.cfg.Publish(Event{Kind: EventDiscard, Turn: turn})
		s.cfg.Publish(Event{Kind: EventNotice, Turn: turn, Text: fmt.Sprintf("The model stream broke (%v); trying the turn again.", res.err)})
	}
}

func (s *Session) streamTurn(ctx context.Context, turn int) (turnResult, bool) {
	p := s.cfg.Pipeline
	req := provider.Request{
		Model: s.cfg.Model, System: s.system(), Messages: s.historyView(),
		Tools: s.toolDefs(), MaxTokens: s.cfg.MaxTokens,
	}
	toolCtx, cancelTools := context.WithCancel(ctx)
	defer cancelTools()
	sched := newScheduler(toolCtx, p.Run, safeFor(p.Tools), func(_ int, c Call, r tools.Result) {
		s.cfg.Publish(Event{Kind: EventToolResult, Turn: turn, Call: &c, Result: &r})
	})
	if s.cfg.InterruptGrace > 0 {
		sched.grace = s.cfg.InterruptGrace
	}
	stream, err := s.cfg.Provider.Stream(ctx, req)
	if err != nil {
		return turnResult{err: err}, false
	}
	var b provider.Builder
	for stream.Next() {
		ev := stream.Event()
		b.Add(ev)
		switch ev.Kind {
		case provider.EventTextDelta:
			s.cfg.Publish(Event{Kind: EventText, Turn: turn, Text: ev.Text})
		case provider.EventThinkingDelta:
			if ev.Text != "" {
				s.cfg.Publish(Event{Kind: EventThinking, Turn: turn, Text: ev.Text})
			}
		case provider.EventToolUseStop:
			c := Call{ID: ev.ToolUseID, Name: ev.ToolName, Input: ev.Input}
			s.cfg.Publish(Event{Kind: EventToolUse, Turn: turn, Call: &c})
			sched.add(c)
		}
	}
	streamErr := stream.Err()
	stream.Close()
	resp := b.Response()
	s.addUsage(resp.Usage, true)
	calls := sched.callsSoFar()
	if streamErr != nil && len(calls) == 0 {
		// Nothing ran: drop the partial message and let the caller retry
		// (unless it was the person who stopped it).
		retry := ctx.Err() == nil
		if t := textOf(resp.Message); t != "" && !retry {
			s.appendMessage(resp.Message)
		}
		return turnResult{message: resp.Message, err: streamErr}, retry
	}
	if len(resp.Message.Blocks) > 0 {
		s.appendMessage(resp.Message)
		s.cfg.Publish(Event{Kind: EventAssistant, Turn: turn, Message: &resp.Message})
	}
	if len(calls) == 0 {
		return turnResult{message: resp.Message, cutOff: resp.StopReason == provider.StopMaxTokens}, false
	}
	// The model's turn is over: hand it to the OS before the tools run, so
	// a process killed while they run still leaves the calls on disk.
	s.flush()
	results := sched.wait()
	blocks := make([]provider.Block, 0, len(calls))
	var extra []provider.Block
	for i, c := range calls {
		b := provider.ToolResultBlock(c.ID, results[i].Text, results[i].IsError)
		for _, img := range results[i].Images {
			b.Images = append(b.Images, provider.Image{MediaType: img.MediaType, Data: img.Data})
		}
		blocks = append(blocks, b)
		for _, e := range results[i].Extra {
			extra = append(extra, provider.TextBlock(e))
		}
	}
	blocks = append(blocks, extra...)
	if r := s.todoReminder(calls); r != "" {
		blocks = append(blocks, provider.TextBlock(r))
	}
	switch {
	case streamErr != nil && ctx.Err() != nil:
		blocks = append(blocks, provider.TextBlock("(The person interrupted your reply after these calls.)"))
	case streamErr != nil:
		blocks = append(blocks, provider.TextBlock(fmt.Sprintf("(The model stream broke after these calls: %v. Continue from here.)", streamErr)))
	}
	if resp.StopReason == provider.StopMaxTokens {
		blocks = append(blocks, provider.TextBlock(cutOffCallNote))
	}
	blocks = append(blocks, s.drainNotifications()...)
	s.appendMessage(provider.Message{Role: provider.RoleUser, Blocks: blocks})
	// Each model turn reaches the OS (a killed process loses nothing);
	// fsync waits for the end of the person's turn in Prompt.
	s.flush()
	return turnResult{message: resp.Message, calls: calls}, false
}

// todoReminder counts turns since the todo list was last written or shown
// and returns the list when it is due again.
func (s *Session) todoReminder(calls []Call) string {
	if s.cfg.TodoReminder == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range calls {
		if c.Name == "TodoWrite" {
			s.sinceTodo = 0
			return ""
		}
	}
	s.sinceTodo++
	if s.sinceTodo < todoReminderEvery {
		return ""
	}
	r := s.cfg.TodoReminder()
	if r != "" {
		s.sinceTodo = 0
	}
	return r
}

// addUsage adds a response's tokens to the session's totals. measure says
// the response answered the conversation itself (not a summary request),
// so its prompt size is what the context window holds now.
func (s *Session) addUsage(u provider.Usage, measure bool) {
	s.mu.Lock()
	measured := measure && u.Prompt() > 0
	if measured {
		s.lastPrompt, s.compacted = u.Prompt(), false
	}
	s.usage.InputTokens += u.InputTokens
	s.usage.OutputTokens += u.OutputTokens
	s.usage.CacheRead += u.CacheRead
	s.usage.CacheWrite += u.CacheWrite
	total := s.usage
	s.mu.Unlock()
	if measured {
		s.measured(u.Prompt())
	}
	s.cfg.Publish(Event{Kind: EventUsage, Usage: total})
}

// toolDefs is the schema list the model sees: deferred tools stay hidden
// until searched for.
func (s *Session) toolDefs() []provider.ToolDef {
	var hidden func(string) bool
	if s.cfg.Deferred != nil {
		hidden = s.cfg.Deferred.Deferred
	}
	entries := s.cfg.Pipeline.Tools.Schemas(hidden)
	defs := make([]provider.ToolDef, len(entries))
	for i, e := range entries {
		defs[i] = provider.ToolDef{Name: e.Name, Description: e.Description, Schema: e.InputSchema}
	}
	return defs
}

func textOf(m provider.Message) string {
	var parts []string
	for _, b := range m.Blocks {
		if b.Type == provider.BlockText && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
