package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/ui"
)

// runTUI is `workbench` without -p: the interactive workbench.
func runTUI(f *runFlags, stdout, stderr io.Writer) int {
	h, err := setup(&f.commonFlags)
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	bridge := ui.NewBridge()
	as, err := openAgent(h, &f.modelFlags, sessionOptions{approver: bridge, asker: bridge, publish: bridge.Publish})
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	var history = as.agent.History()
	app := ui.New(ui.Config{
		Agent: as.agent, Bridge: bridge, Pipeline: as.pipeline, Policy: h.policy, Mode: h.mode,
		OnModeChange: func(permission.Mode) { as.plan.Forget() },
		ProjectDir:   h.projectDir, SessionID: as.dir.ID,
		LocalSettings: filepath.Join(h.projectDir, ".workbench", "settings.local.json"),
		Notes:         as.notes, History: history,
		MCP: &mcpControl{as: as, h: h},
	})
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	prog := tea.NewProgram(app, tea.WithContext(ctx), tea.WithOutput(stdout))
	_, runErr := prog.Run()
	bridge.Close()
	reason := "exit"
	if ctx.Err() != nil {
		reason = "signal"
	}
	as.close(reason)
	if runErr != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "workbench: %v\n", runErr)
		return exitError
	}
	fmt.Fprintf(stderr, "Session %s saved. Resume it with: workbench --resume %s\n", as.dir.ID, as.dir.ID)
	return exitOK
}

var _ = os.Stdout
