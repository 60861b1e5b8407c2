package main

import (
	"context"
	"fmt"
	"io"
	"os/signal"
	"path/filepath"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/ui"
)

// runTUI is `workbench` without -p: the interactive workbench. /resume ID
// ends one program and starts the next on the session asked for.
func runTUI(f *runFlags, stdout, stderr io.Writer) int {
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
	h, err := setup(&f.commonFlags)
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return "", exitUsage
	}
	bridge := ui.NewBridge()
	as, err := openAgent(h, &f.modelFlags, sessionOptions{approver: bridge, asker: bridge, publish: bridge.Publish})
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return "", exitUsage
	}
	var history = as.agent.History()
	app := ui.New(ui.Config{
		Agent: as.agent, Bridge: bridge, Pipeline: as.pipeline, Policy: h.policy, Mode: h.mode,
		OnModeChange: func(permission.Mode) { as.plan.Forget() },
		ProjectDir:   h.projectDir, SessionID: as.dir.ID,
		LocalSettings: filepath.Join(h.projectDir, ".workbench", "settings.local.json"),
		Notes:         as.notes, History: history,
		MCP:     &mcpControl{as: as, h: h},
		Welcome: welcome(h, as),
		Shells:  as.shells, Tasks: as.tasks, TranscriptPath: as.dir.Transcript(),
	})
	if as.shells != nil {
		go bridge.WatchShells(as.shells)
	}
	prog := tea.NewProgram(app, tea.WithContext(ctx), tea.WithOutput(stdout))
	final, runErr := prog.Run()
	bridge.Close()
	if m, ok := final.(*ui.Model); ok && runErr == nil {
		next = m.SwitchTo()
	}
	reason := "exit"
	switch {
	case ctx.Err() != nil:
		reason, next = "signal", ""
	case next != "":
		reason = "resume"
	}
	as.close(reason)
	if runErr != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "workbench: %v\n", runErr)
		return "", exitError
	}
	fmt.Fprintf(stderr, "Session %s saved. Resume it with: workbench --resume %s\n", as.dir.ID, as.dir.ID)
	return next, exitOK
}

// welcome is the first notice on screen: the project, the session, and
// what plays the model (saying plainly when it is the built-in demo).
func welcome(h *harness, as *agentSession) string {
	who := as.agent.Provider() + "/" + as.agent.Model()
	if as.agent.Model() == "demo" {
		who = "the built-in demo (no model is configured: set ANTHROPIC_API_KEY or OPENAI_API_KEY, or pass --provider)"
	}
	verb := "New session"
	if as.restored != nil {
		verb = "Resumed session"
	}
	return fmt.Sprintf("Workbench in %s\n%s %s\nModel: %s\nType a message and press Enter; F1 or /help for keys, !command for a shell command.",
		h.projectDir, verb, as.dir.ID, who)
}
