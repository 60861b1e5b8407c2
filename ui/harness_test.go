package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/agent/provider/script"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/rewind"
	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/files"
	"github.com/seed92b641c3/workbench/tools/shell"
	"github.com/seed92b641c3/workbench/tools/web"
)

// testClock is the app's clock in tests: it stands still unless a test
// moves it, so elapsed times on screen are always the same. The approval
// dialog reads it from the bridge's goroutine, hence the lock.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock() *testClock {
	return &testClock{t: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// pastGrace is a clock step after which an approval dialog takes keys.
const pastGrace = time.Second

// modeBox is the permission mode a session reads and the app changes.
type modeBox struct {
	mu sync.Mutex
	m  permission.Mode
}

func (b *modeBox) Get() permission.Mode {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.m
}

func (b *modeBox) Set(m permission.Mode) {
	b.mu.Lock()
	b.m = m
	b.mu.Unlock()
}

// app is the root model with a real session behind it (the tools, the
// pipeline, the loop, the bridge) and a small stand-in for bubbletea's
// event loop: commands run in goroutines, their messages come back through
// msgs and the test goroutine alone calls Update and View, as the program
// would. Ticks are dropped, so spinners and elapsed times never move.
type app struct {
	t      testing.TB
	m      *Model
	clock  *testClock
	dir    string
	policy *permission.Policy
	msgs   chan tea.Msg
	done   chan struct{}
	// runsStarted counts prompts sent, runsEnded the end-of-run events
	// shown, so a test knows when the screen has settled.
	runsStarted, runsEnded int
}

// appOptions vary what the app is built with.
type appOptions struct {
	// provider replaces the script, when set.
	provider provider.Provider
	// allow and ask are rules of the session's settings.
	allow, ask []string
	// files are created in the project directory first.
	files map[string]string
	// web adds WebFetch.
	web bool
	// contextWindow is the session's window in tokens.
	contextWindow int
	// checkpoints gives the session a transcript and rewind's checkpoints
	// (rewind_test.go), as session.Open does.
	checkpoints bool
	// theme is the theme setting (Config.Theme).
	theme string
	// tasks gives the session a real task manager: Bash can run in the
	// background and /tasks lists what it ran.
	tasks bool
	// typed is Config.TypedAhead: keys typed before the start.
	typed string
	// mcpAsk is Config.MCPAsk: the one-time MCP servers' question.
	mcpAsk *MCPAsk
	// slowStart is how long the clock moves between New and Init, as on
	// a loaded machine where the program's first frame comes late.
	slowStart time.Duration
}

// newApp builds the app on a fresh project directory, plays body (a
// script) as the model, and sizes the screen to w × h.
func newApp(t testing.TB, body string, w, h int, o appOptions) *app {
	t.Helper()
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	for name, content := range o.files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prov := o.provider
	if prov == nil {
		sc, err := script.Parse([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		prov = script.New(sc)
	}
	reg := tools.NewRegistry(files.All()...)
	var taskMgr *tasks.Manager
	if o.tasks {
		var err error
		if taskMgr, err = tasks.NewManager(t.TempDir(), tasks.Options{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { taskMgr.Close() })
		reg.Add(shell.BashWith(taskMgr))
	} else {
		reg.Add(shell.Bash())
	}
	if o.web {
		reg.Add(web.WebFetch(web.FetchConfig{}))
	}
	policy := permission.NewPolicy([]string{dir})
	if err := policy.AddRules(permission.Allow, "test", o.allow...); err != nil {
		t.Fatal(err)
	}
	if err := policy.AddRules(permission.Ask, "test", o.ask...); err != nil {
		t.Fatal(err)
	}
	mode := &modeBox{m: permission.ModeDefault}
	bridge := NewBridge()
	clock := newTestClock()
	p := &agent.Pipeline{
		Tools: reg, Policy: policy, Mode: mode.Get, Approver: bridge,
		WorkDir: dir, SessionID: "test", SpillDir: filepath.Join(t.TempDir(), "spill"),
		Env: shell.NonInteractiveEnv(),
		Observe: func(ev agent.StageEvent) {
			steady(&ev, clock)
			bridge.Publish(agent.Event{Kind: agent.EventStage, Stage: &ev})
		},
	}
	acfg := agent.Config{Provider: prov, Pipeline: p, System: "test", Publish: bridge.Publish, ContextWindow: o.contextWindow}
	var store *rewind.Store
	if o.checkpoints {
		store = withCheckpoints(t, dir, clock, p, &acfg)
	}
	sess := agent.NewSession(acfg, "test-session", nil)
	if taskMgr != nil {
		bridge.WatchTasks(taskMgr)
	}
	m := New(Config{
		Tasks:  taskMgr,
		Rewind: store,
		Agent:  sess, Bridge: bridge, Pipeline: p, Policy: policy, Mode: mode,
		ProjectDir: dir, SessionID: "test-session",
		AlwaysFile: filepath.Join(dir, ".workbench", "settings.local.json"),
		Now:        clock.now,
		Theme:      o.theme,
		TypedAhead: o.typed,
		MCPAsk:     o.mcpAsk,
	})
	a := &app{t: t, m: m, clock: clock, dir: dir, policy: policy, msgs: make(chan tea.Msg, 64), done: make(chan struct{})}
	t.Cleanup(func() {
		m.interrupt()
		bridge.Close()
		close(a.done)
	})
	clock.advance(o.slowStart)
	a.exec(m.Init())
	a.send(tea.WindowSizeMsg{Width: w, Height: h})
	return a
}

// steady makes a stage event's timing the same on every run: the time is
// the test clock's and only the call stage takes a (fixed) while.
func steady(ev *agent.StageEvent, c *testClock) {
	ev.Time = c.now()
	ev.DurationUS = 0
	if ev.Stage == agent.StageCall && ev.Outcome != agent.OutcomeStart {
		ev.DurationUS = 1200
	}
}

// exec runs a command as the program would: in its own goroutine, its
// message delivered to the test goroutine.
func (a *app) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if msg == nil {
			return
		}
		select {
		case a.msgs <- msg:
		case <-a.done:
		}
	}()
}

// send hands one message to Update and runs the command it returns.
func (a *app) send(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			a.exec(c)
		}
		return
	case tickMsg:
		return
	case eventsMsg:
		for _, ev := range msg {
			if ev.Kind == agent.EventDone {
				a.runsEnded++
			}
		}
	}
	if _, ok := msg.(tea.KeyPressMsg); ok && (a.m.modalOpen() || a.m.mcpAsk != nil) {
		// Bubbletea draws the view after every Update, so a key reaches a
		// dialog that has been drawn; what the approval dialog lets the
		// person answer depends on what it has drawn. Drawing only here
		// keeps the stand-in loop as fast as before.
		a.m.View()
	}
	_, cmd := a.m.Update(msg)
	a.exec(cmd)
}

// eventsLate is how long a batch of session events waits for other
// messages to overtake it. Bubbletea orders nothing between commands, so
// the events of a run may reach Update after the message that says the run
// ended; the stand-in loop makes that order the rule, and a model that
// depends on luck shows it on every run instead of once in a while.
const eventsLate = 20 * time.Millisecond

// until delivers messages until cond holds, failing after a deadline.
func (a *app) until(what string, cond func() bool) {
	a.t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for !cond() {
		select {
		case msg := <-a.msgs:
			if _, ok := msg.(eventsMsg); ok {
				a.overtake()
			}
			a.send(msg)
		case <-deadline.C:
			a.t.Fatalf("timed out waiting until %s; the screen:\n%s", what, ansi.Strip(a.m.render()))
		}
	}
}

// overtake delivers the messages that arrive within eventsLate, before the
// batch of events that came first.
func (a *app) overtake() {
	late := time.NewTimer(eventsLate)
	defer late.Stop()
	for {
		select {
		case msg := <-a.msgs:
			a.send(msg)
		case <-late.C:
			return
		}
	}
}

// shows waits until the screen contains s.
func (a *app) shows(s string) {
	a.t.Helper()
	a.until("the screen shows "+s, func() bool { return strings.Contains(ansi.Strip(a.m.render()), s) })
}

// idle waits until every prompt sent has ended and its last event is on
// the screen.
func (a *app) idle() {
	a.t.Helper()
	a.until("the run ends", func() bool { return !a.m.running && a.runsEnded == a.runsStarted })
}

// modal waits until an approval dialog is open.
func (a *app) modal() {
	a.t.Helper()
	a.until("a dialog opens", a.m.modalOpen)
}

// typeText types s into the app, one key press per rune.
func (a *app) typeText(s string) {
	for _, r := range s {
		a.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// key presses one named key.
func (a *app) key(code rune, mod tea.KeyMod) {
	a.send(tea.KeyPressMsg{Code: code, Mod: mod})
}

// prompt types text and sends it with Enter.
func (a *app) prompt(text string) {
	a.typeText(text)
	a.key(tea.KeyEnter, 0)
	a.runsStarted++
}

// answer presses a dialog key once its grace period is over.
func (a *app) answer(r rune) {
	a.clock.advance(pastGrace)
	a.send(tea.KeyPressMsg{Code: r, Text: string(r)})
}

// feedProvider is a model the test speaks for: every Stream plays the
// events the test sends on its channel, up to a message stop, so a test
// can look at the screen in the middle of an answer.
type feedProvider struct {
	events chan provider.Event
}

func newFeedProvider() *feedProvider {
	return &feedProvider{events: make(chan provider.Event)}
}

func (p *feedProvider) Name() string  { return "feed" }
func (p *feedProvider) Model() string { return "test-model" }

func (p *feedProvider) Stream(ctx context.Context, _ provider.Request) (provider.Stream, error) {
	return &feedStream{ctx: ctx, events: p.events}, nil
}

// say sends text deltas, then the end of the message when end is set.
func (p *feedProvider) say(end bool, deltas ...string) {
	for _, d := range deltas {
		p.events <- provider.Event{Kind: provider.EventTextDelta, Text: d}
	}
	if end {
		p.events <- provider.Event{Kind: provider.EventUsage, Usage: provider.Usage{InputTokens: 1200, OutputTokens: 345}}
		p.events <- provider.Event{Kind: provider.EventMessageStop, StopReason: provider.StopEndTurn}
	}
}

type feedStream struct {
	ctx    context.Context
	events chan provider.Event
	cur    provider.Event
	err    error
	ended  bool
}

func (s *feedStream) Next() bool {
	if s.ended || s.err != nil {
		return false
	}
	select {
	case ev := <-s.events:
		s.cur = ev
		s.ended = ev.Kind == provider.EventMessageStop
		return true
	case <-s.ctx.Done():
		s.err = s.ctx.Err()
		return false
	}
}

func (s *feedStream) Event() provider.Event { return s.cur }
func (s *feedStream) Err() error            { return s.err }
func (s *feedStream) Close() error          { return nil }
