package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/commands"
	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/rewind"
	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/askuser"
	"github.com/seed92b641c3/workbench/tools/deferred"
	"github.com/seed92b641c3/workbench/tools/files"
	"github.com/seed92b641c3/workbench/tools/memory"
	"github.com/seed92b641c3/workbench/tools/plan"
	"github.com/seed92b641c3/workbench/tools/ptytools"
	"github.com/seed92b641c3/workbench/tools/search"
	"github.com/seed92b641c3/workbench/tools/shell"
	"github.com/seed92b641c3/workbench/tools/skill"
	"github.com/seed92b641c3/workbench/tools/sleep"
	"github.com/seed92b641c3/workbench/tools/taskstools"
	"github.com/seed92b641c3/workbench/tools/todo"
)

// Wiring is what differs between the entry points: who answers approvals
// and questions, who watches the events, and how a run treats background
// work and untrusted project servers.
type Wiring struct {
	// Approver answers calls that ask (the UI's dialog, or agent.Headless).
	Approver agent.Approver
	// Asker answers AskUserQuestion; nil makes the tool say nobody can.
	Asker askuser.Asker
	// Publish receives every session event; it must not block for long.
	Publish func(agent.Event)
	// Trace receives every stage event (--trace).
	Trace func(agent.StageEvent)
	// BackgroundWait bounds how long a run that would end waits for
	// background tasks to report (headless; 0: not at all).
	BackgroundWait time.Duration
	// MaxDuration ends a run after this long (0: no limit).
	MaxDuration time.Duration
	// TrustHow tells the person how to trust a project's waiting .mcp.json
	// servers from this entry point; empty names the settings keys and
	// /mcp trust. Untrusted servers never start, whoever runs the session.
	TrustHow string
	// HookMessage, when set, also receives each hook's systemMessage for
	// the person (headless entry points print it on stderr); the TUI sees
	// it as a notice event.
	HookMessage func(string)
	// LateNotes, when set, receives the start-up notes that come after
	// Open: the sandbox's check runs in the background, and its notice
	// comes with its answer, before any command starts (headless entry
	// points print them on stderr); nil shows them as notice events.
	LateNotes func([]string)
	// IdleNotify, when positive, runs the Notification hooks with
	// notification_type "idle_prompt" once the prompt input has waited this
	// long after a run (the TUI: IdlePromptAfter); 0 for headless runs.
	IdleNotify time.Duration
}

// Session is a running session with everything it started, so one Close
// ends all of it.
type Session struct {
	Config     *Config
	Agent      *agent.Session
	Pipeline   *agent.Pipeline
	Registry   *tools.Registry
	Dir        agent.SessionDir
	Transcript *agent.Transcript
	Todos      *todo.Store
	Plan       *plan.Controller
	// Tasks and Shells are nil when settings disable them.
	Tasks  *tasks.Manager
	Shells *pty.Manager
	// Restored is the earlier session this one continues, or nil.
	Restored *agent.Restored
	// Notes are what the person should know at start (H12).
	Notes []string
	// Rewind holds the session's checkpoints; nil when rewind is off.
	Rewind *rewind.Store
	egress *egress
	// skillGrants take back the allowed-tools of the skills loaded in the
	// current run.
	skillMu     sync.Mutex
	skillGrants []func()
	// idle notifies Notification hooks of an input left waiting (TUI).
	idle *idleWatch
	// commands are the custom slash commands (commands.go); publish is
	// where their calls are shown.
	commands *commands.Set
	publish  func(agent.Event)
}

// Open builds a whole session: provider, state directory (new or resumed),
// the full tool catalog, the recorded pipeline and the loop.
func Open(c *Config, m Model, w Wiring) (*Session, error) {
	prov, err := chooseProvider(c, m)
	if err != nil {
		return nil, err
	}
	if c.Hooks != nil {
		// Prompt hooks put their question to the session's own model.
		c.Hooks.SetAsker(modelAsker(prov, m.Model))
	}
	root := agent.StateRoot()
	var restored *agent.Restored
	id := ""
	switch {
	case m.Resume != "":
		id = m.Resume
	case m.Continue:
		if id, err = agent.LatestSession(root, c.ProjectDir); err != nil {
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
	dir, tr, err := createDir(c, id)
	if err != nil {
		return nil, err
	}
	s := &Session{Config: c, Dir: dir, Transcript: tr, Todos: &todo.Store{}, Restored: restored}
	s.Notes = append(s.Notes, c.Notices...)
	if restored == nil {
		tr.Append(agent.EntrySession, map[string]any{"id": id, "cwd": c.ProjectDir, "mode": c.Mode.Get(), "provider": prov.Name()})
	} else {
		tr.Append(agent.EntryNotice, map[string]any{"resumed": true})
		if restored.Truncated {
			s.Notes = append(s.Notes, "The transcript was cut off mid-entry (the last run ended abruptly); the session was restored up to its last whole entry.")
		}
	}

	deferredSet := deferred.New(c.Settings.DeferredTools)
	deferredSet.OnUnlock(func(names []string) { tr.Append(agent.EntryUnlock, map[string]any{"tools": names}) })
	if restored != nil {
		deferredSet.Restore(restored.Unlocks...)
		grants, withheld := restored.GrantsFor(c.ProjectDir)
		for _, g := range grants {
			c.Policy.Grant(g)
		}
		if withheld > 0 {
			s.Notes = append(s.Notes, fmt.Sprintf("The session was recorded in %s, not here: its %d session grant(s) were not restored.", restored.Cwd, withheld))
		}
	}

	reg, err := s.catalog(w, deferredSet)
	if err != nil {
		s.closeStarted()
		return nil, err
	}
	s.Registry = reg
	publish := w.Publish
	if publish == nil {
		publish = func(agent.Event) {}
	}
	s.idle = newIdleWatch(w.IdleNotify, c.Hooks, s.idleNotify)
	// A skill's allowed-tools hold while the run that loaded it lasts;
	// the idle input's notification waits from the end of a run.
	inner := publish
	publish = func(ev agent.Event) {
		switch ev.Kind {
		case agent.EventDone:
			s.endSkillGrants()
			s.idle.arm()
		case agent.EventTurnStart:
			s.idle.disarm()
		}
		inner(ev)
	}
	w.Publish = publish
	s.publish = publish
	s.loadCommands()
	p := recordedPipeline(c, reg, dir, tr, w)
	p.Visible, p.Runnable = deferredSet.Visible, deferredSet.Runnable
	s.Pipeline = p
	home, _ := os.UserHomeDir()
	facts := agent.GatherFactsButGit(agent.FactsDirs{WorkDir: c.WorkDir, ProjectRoot: c.ProjectDir, Home: home})
	gitStatus := gitStatusInBackground(c.WorkDir)
	for _, n := range facts.MemoryNotices {
		s.Notes = append(s.Notes, "memory: "+n)
	}
	for _, n := range reg.Names() {
		if deferredSet.Deferred(n) {
			facts.Deferred = append(facts.Deferred, n)
		}
	}
	acfg := agent.Config{
		Provider: prov, Model: m.Model, Pipeline: p, Deferred: deferredSet,
		SystemFrom: func() string {
			facts.GitStatus = gitStatus()
			return agent.SystemPrompt(facts)
		},
		MaxTurns:   m.MaxTurns,
		Transcript: tr, Publish: publish, Notifier: s.notifiers(),
		BackgroundWait: w.BackgroundWait, MaxDuration: w.MaxDuration, TodoReminder: s.Todos.Reminder,
		Nonce:         restoredNonce(restored),
		ContextWindow: contextWindow(c, m), AutoCompactPercent: c.Settings.AutoCompactPercent,
		Memory: facts.Memory,
	}
	s.wireRewind(p, &acfg)
	s.Agent = agent.NewSession(acfg, id, restoredHistory(restored))
	if restored != nil {
		s.Agent.ResumeContext(restored.Context)
	}
	reg.Add(s.Agent.AgentTool(s.subagentDefs()))
	return s, nil
}

// gitStatusInBackground starts reading the project's git status for the
// system prompt and returns what waits for it: the session's first request
// needs it, its first frame does not (agent.Config.SystemFrom). The read
// ends by itself, in two seconds at most.
func gitStatusInBackground(workDir string) func() string {
	done := make(chan string, 1)
	go func() { done <- agent.GitStatus(context.Background(), workDir) }()
	return sync.OnceValue(func() string { return <-done })
}

// catalog builds every tool of the session: the one list the model, the
// TUI, `workbench tool` and `workbench tools` all see.
func (s *Session) catalog(w Wiring, deferredSet *deferred.Set) (*tools.Registry, error) {
	c := s.Config
	reg := tools.NewRegistry(withPathRules(c.ProjectDir, files.All())...)
	reg.Add(search.Grep())
	reg.Add(shell.Bash(c.bashOptions()...))
	s.Notes = append(s.Notes, s.sandboxNotes(w)...)
	if !c.Settings.DisableBackgroundTasks {
		taskMgr, err := tasks.NewManager(s.Dir.Tasks(), tasks.Options{Env: c.Settings.Environ(), Wrap: c.Sandbox.Start, Explain: c.Sandbox.Explain})
		if err != nil {
			return nil, err
		}
		s.Tasks = taskMgr
		reg.Add(shell.BashWith(taskMgr, c.bashOptions()...))
		for _, t := range taskstools.Tools(taskMgr) {
			reg.Add(t)
		}
	}
	if !c.Settings.DisableShellSessions {
		s.Shells = pty.NewManager(pty.Options{Env: append(tasks.InheritedEnv(), c.Settings.Environ()...), Wrap: c.Sandbox.Start, Explain: c.Sandbox.Explain})
		for _, t := range ptytools.All(s.Shells) {
			reg.Add(t)
		}
	}
	reg.Add(todo.TodoWrite(s.Todos))
	reg.Add(askuser.AskUserQuestion(w.Asker))
	s.Plan = &plan.Controller{Mode: c.Mode.Get, SetMode: c.Mode.Set, Approve: planApprover(w.Approver)}
	reg.Add(plan.EnterPlanMode(s.Plan))
	reg.Add(plan.ExitPlanMode(s.Plan))
	skills, skillErrs := skill.Load(skill.DefaultDirs(c.ProjectDir)...)
	for _, e := range skillErrs {
		s.Notes = append(s.Notes, "skill: "+e.Error())
	}
	skills.OnInvoke = func(sk skill.Skill) string {
		note := s.grantSkill(sk)
		if len(sk.Unlocks) == 0 {
			return note
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
			return strings.TrimSpace(note + "\nUnlocked tools: " + strings.Join(added, ", "))
		}
		return note
	}
	reg.Add(skill.Tool(skills))
	mem := memory.DefaultStore(c.ProjectDir)
	reg.Add(memory.Recall(mem))
	reg.Add(memory.Record(mem))
	reg.Add(sleep.Sleep())
	s.egress = startEgress(context.Background(), c, egressOptions{trustHow: w.TrustHow})
	for _, t := range s.egress.tools {
		reg.Add(t)
	}
	s.Notes = append(s.Notes, s.egress.notes...)
	if deferredSet.Any() {
		reg.Add(deferred.Search(reg, deferredSet))
		reg.Add(deferred.Execute(reg, deferredSet))
	}
	return reg, nil
}

// Start fires SessionStart hooks for a session that runs no prompt (one
// `workbench tool` call); the loop fires them itself before a first prompt.
func (s *Session) Start(ctx context.Context) {
	h := s.Config.Hooks
	if h == nil || !h.Has(hooks.SessionStart) {
		return
	}
	h.Run(ctx, hooks.Input{SessionID: s.Dir.ID, TranscriptPath: s.Dir.Transcript(), Cwd: s.Config.WorkDir, ProjectDir: s.Config.ProjectDir,
		HookEventName: hooks.SessionStart, Source: "startup"})
}

// Close ends everything the session started: SessionEnd hooks, every
// background process group and PTY session (H14), MCP servers, the
// transcript. reason is "exit", "signal", "resume"... It returns what was
// still running and had to be stopped, so a headless result can say so.
func (s *Session) Close(reason string) ([]Stopped, error) {
	stopped := s.running()
	s.idle.close()
	s.Agent.Close(reason)
	s.closeStarted()
	return stopped, s.Transcript.Close()
}

// Stopped is a background task or terminal session that was still running
// when its session closed, and so was stopped with it.
type Stopped struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Command string `json:"command"`
	// RanFor is how long it ran, in seconds.
	RanFor float64 `json:"ran_seconds"`
	// Bytes is the output it wrote; OutputFile where it is (tasks only).
	Bytes      int64  `json:"output_bytes"`
	OutputFile string `json:"output_file,omitempty"`
}

// running lists what Close is about to stop.
func (s *Session) running() []Stopped {
	var out []Stopped
	now := time.Now()
	if s.Tasks != nil {
		for _, t := range s.Tasks.List() {
			if t.Running() {
				out = append(out, Stopped{ID: t.ID, Kind: string(t.Kind), Command: t.Command,
					RanFor: t.Elapsed(now).Seconds(), Bytes: t.Bytes, OutputFile: t.OutputFile})
			}
		}
	}
	if s.Shells != nil {
		for _, sh := range s.Shells.List() {
			if done, _ := sh.Exited(); !done {
				out = append(out, Stopped{ID: sh.ID(), Kind: "shell", Command: sh.Command(),
					RanFor: now.Sub(sh.Started()).Seconds(), Bytes: sh.Total()})
			}
		}
	}
	return out
}

// closeStarted stops the processes a session started.
func (s *Session) closeStarted() {
	if s.Tasks != nil {
		s.Tasks.Close()
	}
	if s.Shells != nil {
		s.Shells.CloseAll()
	}
	s.Config.Sandbox.Close() // its server; a later command would take the launcher
	s.egress.close()
	if s.Rewind != nil {
		s.Rewind.Close()
	}
}

// MCP is the control behind the UI's /mcp.
func (s *Session) MCP() *MCPControl { return &MCPControl{s: s} }

// Welcome is the first notice on screen: the project, the session, and
// what plays the model (saying plainly when it is the built-in demo).
func (s *Session) Welcome() string {
	who := s.Agent.Provider() + "/" + s.Agent.Model()
	if s.Agent.Model() == "demo" {
		who = "the built-in demo (no model is configured: set ANTHROPIC_API_KEY or OPENAI_API_KEY, or pass --provider)"
	}
	verb := "New session"
	if s.Restored != nil {
		verb = "Resumed session"
	}
	return fmt.Sprintf("Workbench in %s\n%s %s\nModel: %s\nType a message and press Enter; F1 or /help for keys, !command for a shell command.",
		s.Config.ProjectDir, verb, s.Dir.ID, who)
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

// restoredNonce is the nonce a resumed session keeps, "" for a new one.
func restoredNonce(r *agent.Restored) string {
	if r == nil {
		return ""
	}
	return r.Nonce
}

func restoredHistory(r *agent.Restored) []provider.Message {
	if r == nil {
		return nil
	}
	return r.History
}

// contextWindow is the window the flag or the settings give, or 0 for the
// table of known models.
func contextWindow(c *Config, m Model) int {
	if m.ContextWindow > 0 {
		return m.ContextWindow
	}
	return c.Settings.ContextWindow
}
