package agent

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/hooks"
)

// compactPrompt is what the model is asked to summarise with, reviewed like
// code beside this file.
//
//go:embed compact.md
var compactPrompt string

// Who asked for a compaction, as PreCompact hooks and the transcript see it.
const (
	TriggerManual = "manual" // the person's /compact
	TriggerAuto   = "auto"   // the context window filled up
)

// DefaultAutoCompactPercent is how full the window may get before the next
// request compacts first: late enough that short sessions never compact,
// early enough that the summary request itself still fits.
const DefaultAutoCompactPercent = 80

// Tuning numbers of compaction.
const (
	// keepMessages is how many of the latest messages stay as they are
	// (about two model turns with their results): the model goes on from
	// them, so they matter more than any summary of them.
	keepMessages = 4
	// compactMaxTokens caps the summary, so it cannot take the space it
	// was meant to free.
	compactMaxTokens = 8192
	// stubEnoughShare: when clearing old tool results alone brings the
	// estimate under this share of the threshold, an automatic compaction
	// stops there and nothing is summarised.
	stubEnoughShare = 0.75
)

// summaryIntro heads the message that replaces the compacted part.
const summaryIntro = "This session continues an earlier conversation that was compacted to fit the context window. The summary below replaces the earlier part of it (the full history stays in the session's transcript); the latest turns follow as they were.\n\n"

// CompactResult says what a compaction did.
type CompactResult struct {
	Trigger string
	// Replaced is how many messages the summary replaced, Kept how many of
	// the latest stayed as they were.
	Replaced int
	Kept     int
	// Stubbed counts old tool results replaced by a line naming their
	// spill file.
	Stubbed int
	// TokensBefore is the prompt size the last response measured (or an
	// estimate when none did); TokensAfter is an estimate, until the next
	// response measures it.
	TokensBefore int
	TokensAfter  int
	// Summary is the model's summary; empty when clearing old tool results
	// was enough.
	Summary string
}

// String says what happened in one line, for the person.
func (r CompactResult) String() string {
	what := fmt.Sprintf("summarised %d messages, kept the latest %d", r.Replaced, r.Kept)
	if r.Summary == "" {
		what = "clearing old tool results was enough"
	}
	if r.Stubbed > 0 {
		what += fmt.Sprintf(", cleared %d old tool results", r.Stubbed)
	}
	return fmt.Sprintf("Compacted (%s): %s; context about %s → %s tokens (estimate).", r.Trigger, what, humanTokens(r.TokensBefore), humanTokens(r.TokensAfter))
}

// compactRecord is the transcript entry of one compaction: enough to
// rebuild the compacted history on resume (the stubs, then Head followed
// by the Kept latest messages), with what it replaced and the sizes.
type compactRecord struct {
	Trigger      string `json:"trigger"`
	Instructions string `json:"instructions,omitempty"`
	// HookInstructions is what PreCompact hooks asked the summary to keep.
	HookInstructions string             `json:"hook_instructions,omitempty"`
	Summary          string             `json:"summary,omitempty"`
	Replaced         int                `json:"replaced"`
	Kept             int                `json:"kept"`
	Head             []provider.Message `json:"head,omitempty"`
	Stubs            []stubRecord       `json:"stubs,omitempty"`
	TokensBefore     int                `json:"tokens_before"`
	TokensAfter      int                `json:"tokens_after"`
	Estimated        bool               `json:"tokens_after_estimated"`
}

// ErrNothingToCompact is returned when the history has nothing older than
// the turns a compaction keeps.
var ErrNothingToCompact = errors.New("nothing to compact: the conversation is no longer than the latest turns, which are kept")

// Compact is /compact: it summarises the conversation now, with the
// person's instructions for the summary. A compaction that fails leaves the
// history as it was; the error says why.
func (s *Session) Compact(ctx context.Context, instructions string) (CompactResult, error) {
	s.run.Lock()
	defer s.run.Unlock()
	r, err := s.compact(ctx, TriggerManual, instructions)
	s.sync()
	return r, err
}

// autoThreshold is the prompt size above which the next request compacts
// first, or 0 when the window is unknown.
func (s *Session) autoThreshold() int {
	w := s.ContextWindowSize()
	if w <= 0 {
		return 0
	}
	pct := s.cfg.AutoCompactPercent
	if pct <= 0 || pct > 100 {
		pct = DefaultAutoCompactPercent
	}
	return w * pct / 100
}

// ContextWindowSize is the window the session measures against: the
// configured one, else the known model's, else 0.
func (s *Session) ContextWindowSize() int {
	if s.cfg.ContextWindow > 0 {
		return s.cfg.ContextWindow
	}
	return ContextWindow(s.Model())
}

// ContextUsed is the prompt size of the last request in tokens and the
// window it is measured against (0 when unknown), for the status line.
func (s *Session) ContextUsed() (used, window int) {
	s.mu.Lock()
	used = s.lastPrompt
	s.mu.Unlock()
	return used, s.ContextWindowSize()
}

// maybeAutoCompact compacts before a model request when the last one used
// more than the threshold. A failure is told to the person and the turn
// goes on with the history as it was.
func (s *Session) maybeAutoCompact(ctx context.Context, turn int) {
	limit := s.autoThreshold()
	s.mu.Lock()
	due := limit > 0 && s.lastPrompt > limit && !s.compacted
	used := s.lastPrompt
	unmeasured := s.lastPrompt == 0
	s.mu.Unlock()
	if unmeasured && limit > 0 {
		// Nothing measured yet (a resumed session's first request): the
		// estimate decides, so a history too big for the window is
		// compacted before it is sent.
		used = s.fixedTokens() + estimateMessages(s.History())
		due = used > limit
	}
	if !due {
		return
	}
	s.cfg.Publish(Event{Kind: EventNotice, Turn: turn, Text: fmt.Sprintf("The last request used %s of the %s-token context window; compacting.", humanTokens(used), humanTokens(s.ContextWindowSize()))})
	if _, err := s.compact(ctx, TriggerAuto, ""); err != nil && ctx.Err() == nil {
		s.cfg.Publish(Event{Kind: EventNotice, Turn: turn, Text: "Automatic compaction failed; the conversation is unchanged: " + err.Error()})
	}
}

// compact replaces old tool results by stubs and, unless that was enough,
// the older part of the history by the model's summary of it. Nothing of
// the history changes until every step has succeeded.
func (s *Session) compact(ctx context.Context, trigger, instructions string) (CompactResult, error) {
	return s.compactFrom(ctx, trigger, instructions, 0)
}

// compactFrom is compact for a prompt known to be at least atLeast tokens:
// a provider that refused the prompt as too long says it is no smaller
// than the window, whatever the last response measured before the results
// that pushed it over.
func (s *Session) compactFrom(ctx context.Context, trigger, instructions string, atLeast int) (CompactResult, error) {
	h := s.History()
	res := CompactResult{Trigger: trigger}
	if len(h) == 0 {
		return res, errors.New("nothing to compact: the conversation is empty")
	}
	s.mu.Lock()
	res.TokensBefore = s.lastPrompt
	s.mu.Unlock()
	fixed := s.fixedTokens()
	if res.TokensBefore == 0 {
		res.TokensBefore = fixed + estimateMessages(h)
	}
	res.TokensBefore = max(res.TokensBefore, atLeast)
	fromHooks, err := s.preCompact(ctx, trigger, instructions)
	if err != nil {
		return res, err
	}
	stubbed, stubs := s.stubOldResults(h)
	res.Stubbed = len(stubs)
	freed := estimateMessages(h) - estimateMessages(stubbed)
	rec := compactRecord{Trigger: trigger, Instructions: instructions, HookInstructions: fromHooks, Stubs: stubs, TokensBefore: res.TokensBefore, Estimated: true}

	cut := cutPoint(stubbed)
	enough := trigger == TriggerAuto && len(stubs) > 0 &&
		float64(res.TokensBefore-freed) < stubEnoughShare*float64(s.autoThreshold())
	if enough || (cut <= 0 && len(stubs) > 0) {
		res.TokensAfter = max(res.TokensBefore-freed, 0)
		rec.TokensAfter = res.TokensAfter
		s.install(stubbed, rec)
		return res, nil
	}
	if cut <= 0 {
		return res, ErrNothingToCompact
	}
	summary, err := s.summarise(ctx, stubbed[:cut], instructions, fromHooks)
	if err != nil {
		return res, fmt.Errorf("the compaction request failed, so the conversation is unchanged: %w", err)
	}
	head, kept := s.summaryHead(ctx, summary, stubbed, cut)
	next := append([]provider.Message{head}, stubbed[len(stubbed)-kept:]...)
	res.Summary, res.Replaced, res.Kept = summary, len(stubbed)-kept, kept
	res.TokensAfter = fixed + estimateMessages(next)
	rec.Summary, rec.Replaced, rec.Kept, rec.Head, rec.TokensAfter = summary, res.Replaced, kept, []provider.Message{head}, res.TokensAfter
	s.install(next, rec)
	s.cfg.Publish(Event{Kind: EventNotice, Text: res.String()})
	return res, nil
}

// install makes a compacted history the session's, records it and sets the
// estimate that stands until the next response measures the prompt.
func (s *Session) install(next []provider.Message, rec compactRecord) {
	s.mu.Lock()
	s.history = next
	s.lastPrompt, s.compacted = rec.TokensAfter, true
	s.mu.Unlock()
	s.record(EntryCompact, rec)
	s.flush()
	if rec.Summary == "" {
		s.cfg.Publish(Event{Kind: EventNotice, Text: fmt.Sprintf("Compacted (%s): cleared %d old tool results; context about %s → %s tokens (estimate).", rec.Trigger, len(rec.Stubs), humanTokens(rec.TokensBefore), humanTokens(rec.TokensAfter))})
	}
}

// ErrCompactBlocked is returned when a PreCompact hook stopped the
// compaction: the history stays as it was.
var ErrCompactBlocked = errors.New("a PreCompact hook blocked the compaction")

// preCompact fires the PreCompact hooks of the person's session and
// returns what they ask the summary to keep: their additionalContext (or
// customInstructions) in hookSpecificOutput, one hook per line. A hook
// that exits 2, answers "decision": "block" or "continue": false stops
// the compaction, as Claude Code's hooks reference documents; its reason
// is in the error. A hook that fails otherwise is told and the compaction
// goes on: a broken hook must not leave a full context with no way out.
func (s *Session) preCompact(ctx context.Context, trigger, instructions string) (string, error) {
	h := s.hooks()
	if h == nil || s.cfg.Depth > 0 || !h.Has(hooks.PreCompact) {
		return "", nil
	}
	in := s.hookInput(hooks.PreCompact)
	in.Trigger, in.CustomInstructions = trigger, instructions
	var asks []string
	for _, o := range h.Run(ctx, in) {
		if o.SystemMessage != "" {
			s.cfg.Publish(Event{Kind: EventNotice, Text: "PreCompact hook: " + o.SystemMessage})
		}
		switch {
		case o.Block || o.Prevent:
			why := o.Reason
			if o.Prevent && o.StopReason != "" {
				why = o.StopReason
			}
			if strings.TrimSpace(why) == "" {
				why = "it gave no reason"
			}
			if hs, ok := ctx.Value(hookStopKey{}).(*hookStop); ok && o.Prevent {
				// "continue": false also ends the run that needed the
				// compaction (see hookStop); /compact has none to end.
				hs.stop(firstNonEmpty(strings.TrimSpace(o.StopReason), "PreCompact hook "+o.Hook+" ended the run."))
			}
			return "", fmt.Errorf("%w (%s): %s", ErrCompactBlocked, o.Hook, strings.TrimSpace(why))
		case o.Err != nil:
			s.cfg.Publish(Event{Kind: EventNotice, Text: fmt.Sprintf("A PreCompact hook failed (%s): %v; the compaction goes on without it.", o.Hook, o.Err)})
		case strings.TrimSpace(o.AdditionalContext) != "":
			asks = append(asks, strings.TrimSpace(o.AdditionalContext))
		}
	}
	return strings.Join(asks, "\n"), nil
}

// summarise asks the model for a summary of older messages with the
// compaction prompt. The tool list is the session's (a provider may refuse
// tool calls in a history that declares no tools); a tool call in the
// answer is ignored.
func (s *Session) summarise(ctx context.Context, older []provider.Message, instructions, fromHooks string) (string, error) {
	ask := compactPrompt
	if strings.TrimSpace(instructions) != "" {
		ask += "\nThe person gave these instructions for the summary; follow them:\n" + strings.TrimSpace(instructions) + "\n"
	}
	if fromHooks != "" {
		ask += "\nThe project's PreCompact hooks ask the summary to keep this; follow it:\n" + fromHooks + "\n"
	}
	msgs := append([]provider.Message(nil), older...)
	if last := len(msgs) - 1; msgs[last].Role == provider.RoleUser {
		// Two user messages in a row are refused by some APIs: the request
		// joins the last one.
		joined := msgs[last]
		joined.Blocks = append(append([]provider.Block(nil), joined.Blocks...), provider.TextBlock(ask))
		msgs[last] = joined
	} else {
		msgs = append(msgs, provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{provider.TextBlock(ask)}})
	}
	maxTokens := compactMaxTokens
	if s.cfg.MaxTokens > 0 && s.cfg.MaxTokens < maxTokens {
		maxTokens = s.cfg.MaxTokens
	}
	stream, err := s.cfg.Provider.Stream(ctx, provider.Request{
		Model: s.cfg.Model, System: s.system(), Messages: msgs, Tools: s.toolDefs(), MaxTokens: maxTokens,
	})
	if err != nil {
		return "", err
	}
	resp, err := provider.Collect(stream)
	s.addUsage(resp.Usage, false)
	if err != nil {
		return "", err
	}
	summary := strings.TrimSpace(textOf(resp.Message))
	if summary == "" {
		return "", errors.New("the model answered without a summary")
	}
	return summary, nil
}

// summaryHead builds the message that starts the compacted history: the
// summary, the todo list as it stands, what SessionStart hooks add after a
// compaction and, when the first kept message is the person's, that
// message's blocks (two user messages in a row are refused by some APIs).
// kept is how many of the latest messages follow it.
func (s *Session) summaryHead(ctx context.Context, summary string, h []provider.Message, cut int) (provider.Message, int) {
	blocks := []provider.Block{provider.TextBlock(summaryIntro + "<summary>\n" + summary + "\n</summary>")}
	if s.cfg.TodoReminder != nil {
		if todo := s.cfg.TodoReminder(); todo != "" {
			blocks = append(blocks, provider.TextBlock(todo))
		}
	}
	if extra := s.compactSessionStart(ctx); extra != "" {
		blocks = append(blocks, provider.TextBlock(extra))
	}
	kept := len(h) - cut
	if h[cut].Role == provider.RoleUser {
		blocks = append(blocks, h[cut].Blocks...)
		kept--
	}
	return provider.Message{Role: provider.RoleUser, Blocks: blocks}, kept
}

// compactSessionStart fires SessionStart hooks with source "compact" and
// returns the context they add for the model.
func (s *Session) compactSessionStart(ctx context.Context) string {
	h := s.hooks()
	if h == nil || s.cfg.Depth > 0 || !h.Has(hooks.SessionStart) {
		return ""
	}
	in := s.hookInput(hooks.SessionStart)
	in.Source = "compact"
	return h.Context(ctx, in)
}

// cutPoint is where the kept latest messages begin: at most keepMessages
// from the end and at most half of a short history (so /compact early in a
// session still summarises something), moved so that no tool result is
// kept without the call it answers. A kept part may begin with an assistant message, or with a user
// message that answers no call. 0 means there is nothing older to
// summarise.
func cutPoint(h []provider.Message) int {
	valid := func(i int) bool {
		m := h[i]
		if m.Role == provider.RoleAssistant {
			return true
		}
		for _, b := range m.Blocks {
			if b.Type == provider.BlockToolResult {
				return false
			}
		}
		return true
	}
	cut := max(len(h)-keepMessages, len(h)/2)
	for cut < len(h) && !valid(cut) {
		cut++
	}
	if cut == len(h) {
		for cut = len(h) - 1; cut > 0 && !valid(cut); cut-- {
		}
	}
	return cut
}

// humanTokens writes a token count the way the status line does.
func humanTokens(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%dk", (n+500)/1000)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	default:
		return fmt.Sprint(n)
	}
}

// ErrStillTooLong ends a run whose prompt the provider refused as too long
// again right after a compaction: compacting once more would loop.
var ErrStillTooLong = errors.New("the conversation does not fit the model's context window even after compacting it")

// recoverTooLong answers a provider that refused the prompt as too long:
// compact, so the turn can be tried once more. It returns the error that
// ends the run when this already was the retry or the compaction failed.
func (s *Session) recoverTooLong(ctx context.Context, turn int, cause error, retried bool) error {
	if retried {
		return fmt.Errorf("%w (start a new session, or give a larger --context-window if the model has one): %v", ErrStillTooLong, cause)
	}
	s.cfg.Publish(Event{Kind: EventNotice, Turn: turn, Text: "The model refused the prompt as too long for its context window; compacting and trying once more."})
	if _, err := s.compactFrom(ctx, TriggerAuto, "", s.ContextWindowSize()); err != nil {
		return fmt.Errorf("the prompt is too long for the model's context window and compacting it failed (%v): %w", err, cause)
	}
	return nil
}
