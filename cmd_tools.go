package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/seed92b641c3/workbench/tools"
)

// catalogEntry is one tool as `workbench tools` describes it. Safety
// metadata can depend on input; these are the answers for an empty input.
type catalogEntry struct {
	Name            string `json:"name"`
	ReadOnly        bool   `json:"read_only"`
	ConcurrencySafe bool   `json:"concurrency_safe"`
	Approval        string `json:"approval"`
	Description     string `json:"description"`
}

// runTools is `workbench tools`: the catalog of this project.
func runTools(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("workbench tools", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c commonFlags
	c.register(fs)
	asJSON := fs.Bool("json", false, "print the catalog as JSON")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	h, err := setup(&c)
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	eg := withEgress(h, stderr)
	defer eg.close()
	entries := catalog(h)
	for _, u := range eg.unavailable {
		entries = append(entries, catalogEntry{Name: u.Name, Approval: "unavailable", Description: u.Reason})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(entries)
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tREAD-ONLY\tCONCURRENT\tAPPROVAL\tDESCRIPTION")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Name, yesNo(e.ReadOnly), yesNo(e.ConcurrencySafe), e.Approval, firstLine(e.Description, 70))
	}
	tw.Flush()
	return exitOK
}

func catalog(h *harness) []catalogEntry {
	empty := json.RawMessage("{}")
	tc := &tools.Context{WorkDir: h.projectDir}
	var out []catalogEntry
	for _, t := range h.registry.List() {
		approval := "ask"
		if t.ReadOnly(empty) {
			approval = "none (read-only)"
		} else if d := t.CheckPermission(context.Background(), empty, tc); d.Behavior != "ask" {
			approval = string(d.Behavior)
		}
		out = append(out, catalogEntry{
			Name: t.Name(), ReadOnly: t.ReadOnly(empty), ConcurrencySafe: t.ConcurrencySafe(empty),
			Approval: approval, Description: t.Description(),
		})
	}
	return out
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
	if len(s) > max {
		s = s[:max-1] + "…"
	}
	return s
}
