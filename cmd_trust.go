package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/seed92b641c3/workbench/session"
	"github.com/seed92b641c3/workbench/settings"
)

// runTrust is `workbench trust [--cwd DIR] [--revoke]`: the person trusts
// (or stops trusting) the project, so its own settings files apply whole.
func runTrust(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("workbench trust", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cwd := fs.String("cwd", "", "project `directory` (default: the current directory)")
	revoke := fs.Bool("revoke", false, "stop trusting the project")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: workbench trust [--cwd DIR] [--revoke]")
		fmt.Fprintln(stderr, "\nTrusts the project, so its own settings files (.workbench/, .claude/) apply whole:")
		fmt.Fprintln(stderr, "hooks, allow rules, defaultMode, a looser sandbox, env, baseURL. Until then they")
		fmt.Fprintln(stderr, "count only where they restrict. The record is beside your user settings.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "workbench trust: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	cfg, err := session.Load(session.Options{Dir: *cwd})
	if err != nil {
		fmt.Fprintf(stderr, "workbench trust: %v\n", err)
		return exitUsage
	}
	file := settings.TrustFile(settings.DefaultPaths(cfg.ProjectDir))
	if *revoke {
		_, err = settings.SetTrust(file, cfg.ProjectDir, false)
	} else if cfg.Settings.Digest != "" {
		// What is listed below is what is trusted, not what a file says a
		// moment later.
		err = settings.SetTrustAsShown(file, cfg.ProjectDir, cfg.Settings.Digest)
	} else {
		_, err = settings.SetTrust(file, cfg.ProjectDir, true)
	}
	if err != nil {
		fmt.Fprintf(stderr, "workbench trust: %v\n", err)
		return exitError
	}
	if *revoke {
		fmt.Fprintf(stdout, "No longer trusted: %s. Its settings files count only where they restrict.\n", cfg.ProjectDir)
		return exitOK
	}
	fmt.Fprintf(stdout, "Trusted: %s. Its settings files apply whole from the next session on, until what they ask for changes.\n", cfg.ProjectDir)
	for _, w := range cfg.Settings.Withheld {
		fmt.Fprintf(stdout, "  %s: %s\n", w.Path, strings.Join(w.Parts, "; "))
	}
	return exitOK
}

// askTrust puts the trust question on the terminal before the TUI starts,
// when the project's files asked for something they did not get. It
// reports whether the person trusted the project (and records it).
func askTrust(cfg *session.Config, in *os.File, out io.Writer) bool {
	if len(cfg.Settings.Withheld) == 0 || !term.IsTerminal(in.Fd()) {
		return false
	}
	if cfg.Settings.Withheld[0].Changed {
		fmt.Fprintf(out, "This project's settings files changed since you trusted it. They now ask for:\n\n")
	} else {
		fmt.Fprintf(out, "This project's settings files would run commands or widen what the agent may do:\n\n")
	}
	for _, w := range cfg.Settings.Withheld {
		fmt.Fprintf(out, "  %s\n", w.Path)
		for _, p := range w.Parts {
			fmt.Fprintf(out, "    %s\n", p)
		}
	}
	fmt.Fprintf(out, "\nTrust %s? Without trust they count only where they restrict. [y/N] ", cfg.ProjectDir)
	// One byte at a time, so nothing after the line is taken from the TUI.
	var line []byte
	b := make([]byte, 1)
	for {
		n, err := in.Read(b)
		if n == 0 || err != nil || b[0] == '\n' || b[0] == '\r' {
			break
		}
		line = append(line, b[0])
	}
	answer := strings.ToLower(strings.TrimSpace(string(line)))
	if answer != "y" && answer != "yes" {
		fmt.Fprintln(out, "Not trusted; starting without those parts.")
		return false
	}
	if err := settings.SetTrustAsShown(settings.TrustFile(settings.DefaultPaths(cfg.ProjectDir)), cfg.ProjectDir, cfg.Settings.Digest); err != nil {
		fmt.Fprintf(out, "Could not record the trust: %v\n", err)
		return false
	}
	return true
}
