package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/internal/startgc"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/session"
	"github.com/seed92b641c3/workbench/ui"
	"github.com/seed92b641c3/workbench/ui/framegate"
)

// runTUI is `workbench` without -p: the interactive workbench. /resume ID
// ends one program and starts the next on the session asked for. The
// collector is off from here to the first frame (internal/startgc;
// ui/framegate gives it back).
func runTUI(f *runFlags, stdout, stderr io.Writer) int {
	startgc.Begin()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	for {
		next, code := runTUISession(ctx, f, stdout, stderr)
		if next == "" {
			return code
		}
		f.resume, f.cont = next, false
	}
}

// runTUISession runs one session in the TUI and closes it. It returns the
// session to open next, when the person asked for one, and the exit code.
// Settings are read again for each session, so grants given in one do not
// leak into the next.
func runTUISession(ctx context.Context, f *runFlags, stdout, stderr io.Writer) (next string, code int) {
	cfg, err := session.Load(f.options())
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return "", exitUsage
	}
	if askTrust(cfg, os.Stdin, stdout) {
		if cfg, err = session.Load(f.options()); err != nil {
			fmt.Fprintf(stderr, "workbench: %v\n", err)
			return "", exitUsage
		}
	}
	// What was typed in line mode is taken now, before the session
	// assembles, so nothing typed meanwhile is echoed or turned into
	// line feeds.
	typed, restoreTerminal := takeTypedAhead(os.Stdin)
	defer restoreTerminal()
	// The sandbox notice goes to stderr too, where it stays after the
	// screen is gone.
	writeNotes(stderr, cfg.SandboxNotes())
	bridge := ui.NewBridge()
	s, err := session.Open(cfg, f.choice(), session.Wiring{Approver: bridge, Asker: bridge, Publish: bridge.Publish,
		IdleNotify: session.IdlePromptAfter, TrustHow: tuiTrustHow(cfg)})
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return "", exitUsage
	}
	app := ui.New(ui.Config{
		Agent: s.Agent, Bridge: bridge, Pipeline: s.Pipeline, Policy: cfg.Policy, Mode: cfg.Mode,
		OnModeChange: func(permission.Mode) { s.Plan.Forget() },
		RefuseMode:   cfg.Mode.Refuse,
		ProjectDir:   cfg.WorkDir, SessionID: s.Dir.ID,
		AlwaysFile: cfg.AlwaysFile,
		Notes:      s.Notes, History: s.Agent.History(),
		MCP: s.MCP(), MCPAsk: mcpAsk(s.MCP()),
		Welcome: s.Welcome(),
		Shells:  s.Shells, Tasks: s.Tasks, TranscriptPath: s.Dir.Transcript(),
		PersonShell:    cfg.PersonShell(),
		Rewind:         s.Rewind,
		Theme:          startTheme(f.theme, cfg.Settings.Theme, os.Getenv("COLORFGBG")),
		PersonPipeline: s.PersonPipeline(), PersonCommands: s.RestoredPersonCommands(),
		TypedAhead: typed,
		Commands:   s,
	})
	if s.Shells != nil {
		go bridge.WatchShells(s.Shells)
	}
	if s.Tasks != nil {
		bridge.WatchTasks(s.Tasks)
	}
	// The gate lets the renderer sleep while nothing changes on screen.
	final, runErr := framegate.Run(ctx, app, stdout)
	bridge.Close()
	if m, ok := final.(*ui.Model); ok && runErr == nil {
		next = m.SwitchTo()
	}
	if ctx.Err() != nil {
		next = ""
	}
	s.Close(tuiEndReason(ctx.Err() != nil, next))
	if runErr != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "workbench: %v\n", runErr)
		return "", exitError
	}
	fmt.Fprintf(stderr, "Session %s saved. Resume it with: workbench --resume %s\n", s.Dir.ID, s.Dir.ID)
	return next, exitOK
}

// tuiEndReason is why a TUI session closes, as the transcript records it
// and SessionEnd hooks hear it: a signal and /resume are "other" to hooks;
// any other end is the person quitting at the prompt input (Ctrl-C twice,
// /quit, /exit, the only ways the program quits), prompt_input_exit as in
// Claude Code. /clear ends a session by itself (reason clear).
func tuiEndReason(signalled bool, next string) string {
	switch {
	case signalled:
		return "signal"
	case next != "":
		return "resume"
	}
	return agent.EndPromptInputExit
}

// mcpAsk turns the session's one-time question about the project's MCP
// servers into the UI's, or nil when there is nothing to ask.
func mcpAsk(c *session.MCPControl) *ui.MCPAsk {
	q := c.Question()
	if q == nil {
		return nil
	}
	a := &ui.MCPAsk{AnswerFile: q.AnswerFile, Answer: c.Answer}
	for _, s := range q.Servers {
		a.Servers = append(a.Servers, ui.MCPAskServer{Name: s.Name, File: s.File, Runs: s.Runs})
	}
	return a
}

// tuiTrustHow is how the TUI's notice says waiting project MCP servers can
// start: in a trusted project the one-time question is on screen.
func tuiTrustHow(cfg *session.Config) string {
	if cfg.ProjectTrusted {
		return "answer the question on screen (or /mcp trust later)"
	}
	return ""
}
