package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/agent/provider/anthropic"
	"github.com/seed92b641c3/workbench/agent/provider/openai"
	"github.com/seed92b641c3/workbench/agent/provider/script"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/askuser"
	"github.com/seed92b641c3/workbench/tools/deferred"
	"github.com/seed92b641c3/workbench/tools/memory"
	"github.com/seed92b641c3/workbench/tools/plan"
	"github.com/seed92b641c3/workbench/tools/ptytools"
	"github.com/seed92b641c3/workbench/tools/shell"
	"github.com/seed92b641c3/workbench/tools/skill"
	"github.com/seed92b641c3/workbench/tools/sleep"
	"github.com/seed92b641c3/workbench/tools/taskstools"
	"github.com/seed92b641c3/workbench/tools/todo"
)

// modelFlags choose the model; they mean the same headless and in the TUI.
type modelFlags struct {
	provider string
	model    string
	baseURL  string
	script   string
	maxTurns int
	cont     bool
	resume   string
	answers  string
}

func (m *modelFlags) register(fs flagSet) {
	fs.StringVar(&m.provider, "provider", "", "model `backend`: anthropic, openai or script (default: from settings or the environment; the built-in demo without a key)")
	fs.StringVar(&m.model, "model", "", "model `id`")
	fs.StringVar(&m.baseURL, "base-url", "", "API base `URL` (a proxy, Ollama, vLLM, llama.cpp, LM Studio, OpenRouter...)")
	fs.StringVar(&m.script, "script", "", "play a scripted session from `file` (implies --provider script)")
	fs.IntVar(&m.maxTurns, "max-turns", 0, "stop after this many model turns (0: no limit)")
	fs.BoolVar(&m.cont, "continue", false, "continue the latest session of this project")
	fs.StringVar(&m.resume, "resume", "", "resume the session with this `id`")
	fs.StringVar(&m.answers, "answers", "", "answer AskUserQuestion from this JSON `file` (headless)")
}

// flagSet is the part of flag.FlagSet the flag groups use.
type flagSet interface {
	StringVar(p *string, name, value, usage string)
	IntVar(p *int, name string, value int, usage string)
	BoolVar(p *bool, name string, value bool, usage string)
}

// chooseProvider picks the model backend: flags, then settings, then the
// environment; with nothing configured, the built-in demo script, so a
// first run shows every part of Workbench without a key.
func chooseProvider(h *harness, m *modelFlags) (provider.Provider, error) {
	name := m.provider
	if name == "" && m.script != "" {
		name = "script"
	}
	if name == "" {
		name = h.settings.Provider
	}
	baseURL := m.baseURL
	if baseURL == "" {
		baseURL = h.settings.BaseURL
	}
	model := m.model
	if model == "" {
		model = h.settings.Model
	}
	if name == "" {
		switch {
		case os.Getenv("ANTHROPIC_API_KEY") != "" || os.Getenv("ANTHROPIC_BASE_URL") != "":
			name = "anthropic"
		case os.Getenv("OPENAI_API_KEY") != "" || os.Getenv("OPENAI_BASE_URL") != "":
			name = "openai"
		default:
			return script.New(script.Demo()), nil
		}
	}
	retry := provider.RetryPolicy{}
	switch name {
	case "anthropic":
		p, err := anthropic.New(anthropic.FromEnv(anthropic.Options{BaseURL: baseURL, Model: model}))
		if err != nil {
			return nil, err
		}
		return provider.WithRetry(p, retry), nil
	case "openai":
		p, err := openai.New(openai.FromEnv(openai.Options{BaseURL: baseURL, Model: model}))
		if err != nil {
			return nil, err
		}
		return provider.WithRetry(p, retry), nil
	case "script":
		if m.script == "" {
			return script.New(script.Demo()), nil
		}
		sc, err := script.Load(m.script)
		if err != nil {
			return nil, err
		}
		return script.New(sc), nil
	default:
		return nil, fmt.Errorf("--provider %q: use anthropic, openai or script", name)
	}
}

// agentSession is a running agent session with what it was built from.
type agentSession struct {
	*session
	agent    *agent.Session
	todos    *todo.Store
	plan     *plan.Controller
	tasks    *tasks.Manager
	shells   *pty.Manager
	egress   *egress
	registry *tools.Registry
	restored *agent.Restored
	notes    []string // things the person should know at start (H12)
}

// sessionOptions are the parts that differ between headless and the TUI.
type sessionOptions struct {
	approver agent.Approver
	asker    askuser.Asker
	publish  func(agent.Event)
	trace    *traceWriter
	// waitBackground makes runs wait for background tasks (headless).
	waitBackground bool
	// headless runs start a project's MCP servers without asking, and say so.
	headless bool
}

// taskSource adapts the task manager to the loop's notifier, adding
// whether backgrounded tasks are still running.
type taskSource struct{ *tasks.Manager }

func (t taskSource) Active() bool {
	for _, s := range t.List() {
		if s.Running() && s.Background {
			return true
		}
	}
	return false
}

// openAgent builds a whole agent session: provider, state directory (new or
// resumed), tools, pipeline and loop.
func openAgent(h *harness, m *modelFlags, o sessionOptions) (*agentSession, error) {
	prov, err := chooseProvider(h, m)
	if err != nil {
		return nil, err
	}
	root := agent.StateRoot()
	var restored *agent.Restored
	id := ""
	switch {
	case m.resume != "":
		id = m.resume
	case m.cont:
		if id, err = agent.LatestSession(root, h.projectDir); err != nil {
			return nil, fmt.Errorf("--continue: %w", err)
		}
	}
	if id != "" {
		if restored, err = agent.LoadSession(root, id); err != nil {
			return nil, err
		}
	} else {
		id = agent.NewSessionID()
	}
	dir, tr, err := createSession(h, id)
	if err != nil {
		return nil, err
	}
	as := &agentSession{session: &session{dir: dir, transcript: tr}, todos: &todo.Store{}, restored: restored}
	if restored == nil {
		tr.Append(agent.EntrySession, map[string]any{"id": id, "cwd": h.projectDir, "mode": h.mode.Get(), "provider": prov.Name()})
	} else {
		tr.Append(agent.EntryNotice, map[string]any{"resumed": true})
		if restored.Truncated {
			as.notes = append(as.notes, "The transcript was cut off mid-entry (the last run ended abruptly); the session was restored up to its last whole entry.")
		}
	}

	deferredSet := deferred.New(h.settings.DeferredTools)
	deferredSet.OnUnlock(func(names []string) { tr.Append(agent.EntryUnlock, map[string]any{"tools": names}) })
	if restored != nil {
		deferredSet.Restore(restored.Unlocks...)
		for _, g := range restored.Grants {
			h.policy.Grant(g)
		}
	}

	reg := builtinTools()
	if !h.settings.DisableBackgroundTasks {
		taskMgr, err := tasks.NewManager(dir.Tasks(), tasks.Options{Env: h.settings.Environ()})
		if err != nil {
			return nil, err
		}
		as.tasks = taskMgr
		reg.Add(shell.BashWith(taskMgr))
		for _, t := range taskstools.Tools(taskMgr) {
			reg.Add(t)
		}
	}
	if !h.settings.DisableShellSessions {
		as.shells = pty.NewManager(pty.Options{Env: append(os.Environ(), h.settings.Environ()...)})
		for _, t := range ptytools.All(as.shells) {
			reg.Add(t)
		}
	}
	reg.Add(todo.TodoWrite(as.todos))
	reg.Add(askuser.AskUserQuestion(o.asker))
	planCtl := &plan.Controller{Mode: h.mode.Get, SetMode: h.mode.Set, Approve: planApprover(o.approver)}
	as.plan = planCtl
	reg.Add(plan.EnterPlanMode(planCtl))
	reg.Add(plan.ExitPlanMode(planCtl))
	skills, skillErrs := skill.Load(skill.DefaultDirs(h.projectDir)...)
	for _, e := range skillErrs {
		as.notes = append(as.notes, "skill: "+e.Error())
	}
	skills.OnInvoke = func(sk skill.Skill) string {
		if len(sk.Unlocks) == 0 {
			return ""
		}
		var names []string
		for _, name := range reg.Names() {
			for _, pat := range sk.Unlocks {
				if ok, _ := filepath.Match(pat, name); ok || pat == name {
					names = append(names, name)
				}
			}
		}
		if added := deferredSet.Unlock(names...); len(added) > 0 {
			return "Unlocked tools: " + strings.Join(added, ", ")
		}
		return ""
	}
	reg.Add(skill.Tool(skills))
	mem := memory.DefaultStore(h.projectDir)
	reg.Add(memory.Recall(mem))
	reg.Add(memory.Record(mem))
	reg.Add(sleep.Sleep())
	as.egress = startEgress(context.Background(), h, egressOptions{startUntrusted: o.headless})
	for _, t := range as.egress.tools {
		reg.Add(t)
	}
	as.notes = append(as.notes, as.egress.notes...)
	as.registry = reg
	if deferredSet.Any() {
		reg.Add(deferred.Search(reg, deferredSet))
		reg.Add(deferred.Execute(reg, deferredSet))
	}

	publish := o.publish
	if publish == nil {
		publish = func(agent.Event) {}
	}
	p := recordedPipeline(h, reg, dir, tr, o.approver, o.trace, publish)
	p.Visible, p.Runnable = deferredSet.Visible, deferredSet.Runnable
	as.pipeline = p
	facts := agent.GatherFacts(context.Background(), h.projectDir)
	for _, n := range reg.Names() {
		if deferredSet.Deferred(n) {
			facts.Deferred = append(facts.Deferred, n)
		}
	}
	hist := restoredHistory(restored)
	as.agent = agent.NewSession(agent.Config{
		Provider: prov, Model: m.model, Pipeline: p, Deferred: deferredSet,
		System: agent.SystemPrompt(facts), MaxTurns: m.maxTurns,
		Transcript: tr, Publish: publish, Notifier: as.notifiers(),
		WaitForBackground: o.waitBackground, TodoReminder: as.todos.Reminder,
	}, id, hist)
	reg.Add(as.agent.AgentTool(agent.DefaultAgents()))
	return as, nil
}

// notifiers merges the notification sources of a session (background
// tasks, PTY sessions) into the one the loop drains.
type notifiers []interface {
	Drain() []tasks.Notification
	Pending() bool
}

func (n notifiers) Drain() []agent.Notification {
	var out []agent.Notification
	for _, src := range n {
		for _, x := range src.Drain() {
			out = append(out, agent.Notification{ID: x.ID, Text: x.Text})
		}
	}
	return out
}

// Active reports running background tasks that will notify when they end.
func (n notifiers) Active() bool {
	for _, src := range n {
		if a, ok := src.(interface{ Active() bool }); ok && a.Active() {
			return true
		}
	}
	return false
}

// WaitNotification polls until news is pending or nothing runs any more.
func (n notifiers) WaitNotification(ctx context.Context) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for !n.Pending() && n.Active() {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (n notifiers) Pending() bool {
	for _, src := range n {
		if src.Pending() {
			return true
		}
	}
	return false
}

// notifiers lists the session's sources of background news.
func (as *agentSession) notifiers() notifiers {
	var n notifiers
	if as.tasks != nil {
		n = append(n, taskSource{as.tasks})
	}
	if as.shells != nil {
		n = append(n, shellSource{as.shells})
	}
	return n
}

// shellSource adapts PTY sessions' dispatch and monitor news.
type shellSource struct{ m *pty.Manager }

func (s shellSource) Pending() bool { return s.m.Pending() > 0 }

func (s shellSource) Drain() []tasks.Notification {
	var out []tasks.Notification
	for _, n := range s.m.Drain() {
		out = append(out, tasks.Notification{ID: n.ID, Text: n.Text})
	}
	return out
}

// close ends everything the session started: SessionEnd hooks, every
// background process group (H14), the transcript.
func (as *agentSession) close(reason string) {
	as.agent.Close(reason)
	if as.tasks != nil {
		as.tasks.Close()
	}
	if as.shells != nil {
		as.shells.CloseAll()
	}
	as.egress.close()
	as.transcript.Close()
}

// planApprover routes ExitPlanMode through the approval path, so the person
// reviews a plan in the same dialog as any risky call.
func planApprover(a agent.Approver) func(ctx context.Context, plan string) (bool, string) {
	if a == nil {
		return nil
	}
	if _, headless := a.(agent.Headless); headless {
		return func(context.Context, string) (bool, string) {
			return false, "This is a headless run: nobody can approve a plan. Stay in plan mode and end your turn with the plan as your answer."
		}
	}
	return func(ctx context.Context, text string) (bool, string) {
		r := a.Approve(ctx, agent.ApprovalRequest{
			CallID: "plan", Tool: "ExitPlanMode",
			Decision: permission.Decision{Behavior: permission.Ask, Message: text, Rule: "plan"},
		})
		return r.Approved, r.Feedback
	}
}

func restoredHistory(r *agent.Restored) []provider.Message {
	if r == nil {
		return nil
	}
	return r.History
}

// writeNotes prints start-up notes (misconfiguration, H12) for headless runs.
func writeNotes(w io.Writer, notes []string) {
	for _, n := range notes {
		fmt.Fprintln(w, "workbench: "+n)
	}
}
