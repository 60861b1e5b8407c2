package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/session"
)

// runTools is `workbench tools`: the catalog of this project, exactly the
// tools a session of it has, with the approval each really gets.
func runTools(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("workbench tools", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c commonFlags
	c.register(fs)
	asJSON := fs.Bool("json", false, "print the catalog as JSON")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	cfg, err := session.Load(c.options())
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	s, err := session.Open(cfg, session.Model{}, session.Wiring{Approver: agent.Headless{},
		LateNotes: func(n []string) { writeNotes(stderr, n) }})
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	writeNotes(stderr, s.Notes)
	entries := append(s.Catalog(), s.Unavailable()...)
	s.Close("exit")
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(entries)
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tREAD-ONLY\tCONCURRENT\tAPPROVAL\tDESCRIPTION")
	for _, e := range entries {
		approval := e.Approval
		if e.Rule != "" {
			approval += " (" + e.Rule + ")"
		}
		if e.Deferred {
			approval += ", deferred"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Name, yesNo(e.ReadOnly), yesNo(e.ConcurrencySafe), approval, firstLine(e.Description, 70))
	}
	tw.Flush()
	return exitOK
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func firstLine(s string, max int) string {
	for i, r := range s {
		if r == '\n' {
			s = s[:i]
			break
		}
	}
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}
