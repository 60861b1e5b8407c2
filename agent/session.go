package agent

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/tools/deferred"
)

// Config is what a Session runs with. The pipeline carries the tools,
// rules, hooks and approver; the session adds the model and the loop's
// limits.
type Config struct {
	Provider  provider.Provider
	Model     string
	MaxTokens int
	Pipeline  *Pipeline
	// Deferred says which tools are hidden from the model until loaded.
	Deferred *deferred.Set
	// System is the system prompt (see SystemPrompt).
	System string
	// SystemFrom, when set, makes the system prompt in place of System,
	// once, when a request or a report first needs it: what it waits for
	// (the project's git status) then runs while the session starts
	// instead of before, and the first frame does not wait for it.
	SystemFrom func() string
	// MaxTurns ends a run after this many model turns (0: no limit).
	MaxTurns int
	// MaxDuration ends a run after this long, interrupting its tools.
	MaxDuration time.Duration
	// InterruptGrace is how long an interrupted turn waits for its running
	// calls to stop before it abandons them (0: abandonGrace).
	InterruptGrace time.Duration
	Transcript     *Transcript
	Notifier       Notifier
	// Publish receives every Event; it must not block for long.
	Publish func(Event)
	// Depth is the subagent nesting level, 0 for the person's session.
	Depth int
	// AgentType names a subagent's definition, for hooks.
	AgentType string
	// BackgroundWait is how long a run that would end waits, in all, for
	// running background work to report (headless runs); news arriving in
	// that time goes to the model. 0 does not wait: the TUI, where the
	// person sees news as it comes.
	BackgroundWait time.Duration
	// TodoReminder renders the todo list for the model, or "" when it is
	// empty. It is re-shown after tool turns when the list went untouched
	// for a while (see todoReminderEvery).
	TodoReminder func() string
	// BeforePrompt, when set, runs before each prompt of the person and
	// returns the prompt's checkpoint number (0: none was taken), which the
	// transcript marks so the conversation can be rewound to it; AfterPrompt
	// runs when the prompt's run ended. Rewind's checkpoints hang here.
	BeforePrompt func(ctx context.Context, text string) int
	AfterPrompt  func(ctx context.Context)
	// ContextWindow is the model's context window in tokens; 0 looks the
	// model up in the table of known models (ContextWindow). Without a
	// window there is no automatic compaction, only /compact and the
	// recovery from a prompt the provider found too long.
	ContextWindow int
	// AutoCompactPercent is the share of the window (1-100) the last
	// request may use before the next one compacts first; 0 means
	// DefaultAutoCompactPercent.
	AutoCompactPercent int
	// Memory lists the project instruction files inside System, so
	// /context can show their share apart from the rest of the prompt.
	Memory []MemoryFile
	// Nonce marks Workbench's own notices for the model (task
	// notifications, capped-output notices), which the system prompt
	// names, so output quoting one cannot pass for it. Empty makes a new
	// one, recorded in the transcript; a resumed session passes the
	// recorded one (Restored.Nonce).
	Nonce string
}

// todoReminderEvery is how many model turns without TodoWrite (and without
// a reminder) pass before the list is shown again: often enough that a long
// task does not lose its plan, rarely enough not to crowd the context.
const todoReminderEvery = 10

// Session is one conversation: its history, its usage and its loop. One
// prompt runs at a time.
type Session struct {
	cfg Config
	id  string
	// systemLater makes the system prompt from cfg.SystemFrom, once.
	systemLater func() string

	run     sync.Mutex // held while a prompt runs
	mu      sync.Mutex
	history []provider.Message
	usage   provider.Usage
	started bool
	resumed bool
	// source is SessionStart's source after StartAgain ("clear",
	// "compact"); empty means startup or resume.
	source string
	// sinceTodo counts model turns since TodoWrite ran or the list was
	// last shown as a reminder.
	sinceTodo int
	// lastPrompt is the prompt size the last response reported (its
	// input, cache reads and cache writes), or the estimate made after a
	// compaction until the next response measures it.
	lastPrompt int
	// compacted is set by a compaction and cleared by the next measured
	// response: an estimate never triggers another automatic compaction.
	compacted bool
}

// NewSession starts a session; history is non-empty when it resumes one.
func NewSession(cfg Config, id string, history []provider.Message) *Session {
	if cfg.Publish == nil {
		cfg.Publish = func(Event) {}
	}
	fresh := cfg.Nonce == ""
	if fresh {
		cfg.Nonce = NewNonce()
	}
	if cfg.Pipeline != nil && cfg.Pipeline.Nonce == "" {
		cfg.Pipeline.Nonce = cfg.Nonce
	}
	if note := nonceNote(cfg.Nonce); !strings.Contains(cfg.System, note) {
		cfg.System += note
	}
	s := &Session{cfg: cfg, id: id, history: history, resumed: len(history) > 0}
	s.systemLater = sync.OnceValue(func() string {
		text := cfg.SystemFrom()
		if note := nonceNote(cfg.Nonce); !strings.Contains(text, note) {
			text += note
		}
		return text
	})
	if fresh {
		s.record(EntryNonce, map[string]string{"nonce": cfg.Nonce})
	}
	return s
}

// system is the system prompt every request carries: cfg.System, or
// what cfg.SystemFrom made the first time it was needed.
func (s *Session) system() string {
	if s.cfg.SystemFrom == nil {
		return s.cfg.System
	}
	return s.systemLater()
}

// ID is the session id, the name of its directory in the state tree.
func (s *Session) ID() string { return s.id }

// History returns a copy of the conversation so far.
func (s *Session) History() []provider.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]provider.Message(nil), s.history...)
}

// historyView is the conversation as a request carries it: the session's
// own messages, not a copy, capped so that appending to it cannot write
// into the session's array. Messages are never changed in place (they are
// appended, or the history is replaced whole), so the view stays what it
// was; a copy per turn made a long session's memory grow with the square
// of its length wherever a request was kept.
func (s *Session) historyView() []provider.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.history[:len(s.history):len(s.history)]
}

// Usage returns the tokens used so far.
func (s *Session) Usage() provider.Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.usage
}

// Model names the model in use.
func (s *Session) Model() string {
	if s.cfg.Model != "" {
		return s.cfg.Model
	}
	return s.cfg.Provider.Model()
}

// Provider names the backend in use.
func (s *Session) Provider() string { return s.cfg.Provider.Name() }

// Clear forgets the conversation (the UI's /clear); the transcript keeps it.
// As in Claude Code, SessionEnd hooks fire with reason "clear" and the
// next prompt fires SessionStart with source "clear".
func (s *Session) Clear() {
	s.sessionEnd(EndClear)
	s.mu.Lock()
	s.history = nil
	s.forgetMeasureLocked()
	s.mu.Unlock()
	s.StartAgain("clear")
	s.record(EntryClear, struct{}{})
}

// appendMessage adds m to the history (withMessage: a prompt after an
// unanswered one joins it) and records m as it came, which replay joins
// the same way.
func (s *Session) appendMessage(m provider.Message) {
	s.mu.Lock()
	s.history = withMessage(s.history, m)
	s.mu.Unlock()
	s.record(EntryMessage, m)
}

func (s *Session) record(kind string, v any) {
	if s.cfg.Transcript != nil {
		s.cfg.Transcript.Append(kind, v)
	}
}

func (s *Session) flush() {
	if s.cfg.Transcript != nil {
		s.cfg.Transcript.Flush()
	}
}

func (s *Session) sync() {
	if s.cfg.Transcript != nil {
		s.cfg.Transcript.Sync()
	}
}

func (s *Session) hookInput(ev hooks.Event) hooks.Input {
	p := s.cfg.Pipeline
	in := hooks.Input{SessionID: s.id, TranscriptPath: p.TranscriptPath, Cwd: p.WorkDir, ProjectDir: p.ProjectDir,
		PermissionMode: string(p.mode()), HookEventName: ev, AgentType: s.cfg.AgentType}
	if s.cfg.Depth > 0 {
		// A subagent's id is its parent's and its Agent call's, joined
		// with "/": hooks hear the person's session and the agent apart.
		in.SessionID, in.AgentID, _ = strings.Cut(s.id, "/")
	}
	return in
}

func (s *Session) hooks() *hooks.Registry { return s.cfg.Pipeline.Hooks }

// Close ends the session: SessionEnd hooks fire (H6: on every way out) and
// the transcript is made durable. reason is recorded as given ("exit",
// "signal", "resume"); hooks are told one of Claude Code's documented
// reasons (EndPromptInputExit, EndClear, EndLogout), anything else as
// "other".
func (s *Session) Close(reason string) {
	s.sessionEnd(reason)
	s.record(EntryEnd, map[string]string{"reason": reason})
	s.sync()
}
