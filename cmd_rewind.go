package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/rewind"
	"github.com/seed92b641c3/workbench/session"
)

// rewindFlags are the flags of `workbench rewind`.
type rewindFlags struct {
	common       commonFlags
	session      string
	list         bool
	asJSON       bool
	conversation bool
	noCode       bool
	force        bool
	undo         bool
}

// runRewind is `workbench rewind`: list a session's prompts with the files
// each changed, or take the workspace (and with --conversation the
// conversation) back to before one of them.
func runRewind(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("workbench rewind", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: workbench rewind --list | N [--conversation] [--no-code] [--force] | --undo  [--session ID] [--cwd DIR]")
		fs.PrintDefaults()
	}
	var f rewindFlags
	f.common.register(fs)
	fs.StringVar(&f.session, "session", "", "the session `id` (default: the project's latest session)")
	fs.BoolVar(&f.list, "list", false, "list the prompts, their time and the files each changed")
	fs.BoolVar(&f.asJSON, "json", false, "with --list: print JSON")
	fs.BoolVar(&f.conversation, "conversation", false, "also take the conversation back to before prompt N (resume continues from there)")
	fs.BoolVar(&f.noCode, "no-code", false, "with --conversation: leave the files as they are")
	fs.BoolVar(&f.force, "force", false, "restore over files changed after the last checkpoint")
	fs.BoolVar(&f.undo, "undo", false, "undo the latest rewind of the files")
	n, err := parseRewindArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(stderr, "workbench rewind: %v\n", err)
		return exitUsage
	}
	cfg, err := session.Load(f.common.options())
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	cr, err := session.OpenClosedRewind(cfg, f.session)
	if err != nil {
		fmt.Fprintf(stderr, "workbench rewind: %v\n", err)
		return exitUsage
	}
	defer cr.Store.Close()
	ctx := context.Background()
	switch {
	case f.list:
		return listRewind(ctx, cr, f.asJSON, stdout, stderr)
	case f.undo:
		rep, err := cr.Store.Undo(ctx, rewind.RestoreOptions{Force: f.force})
		if err != nil {
			return restoreFailed(err, stderr)
		}
		fmt.Fprintf(stdout, "Undid the latest rewind: the files are back as checkpoint %d recorded them.\n", rep.To.ID)
		return printReport(rep, cr.Dir.ID, stdout)
	}
	return rewindTo(ctx, cr, n, f, stdout, stderr)
}

// parseRewindArgs reads the flags on both sides of N.
func parseRewindArgs(fs *flag.FlagSet, args []string) (int, error) {
	if err := fs.Parse(args); err != nil {
		return 0, err
	}
	n := 0
	if rest := fs.Args(); len(rest) > 0 {
		v, err := strconv.Atoi(rest[0])
		if err != nil || v < 1 {
			return 0, fmt.Errorf("%q is not a prompt number (1 for the first; see --list)", rest[0])
		}
		n = v
		if err := fs.Parse(rest[1:]); err != nil {
			return 0, err
		}
		if len(fs.Args()) > 0 {
			return 0, fmt.Errorf("unexpected %q", fs.Args()[0])
		}
	}
	list, undo := fs.Lookup("list").Value.String() == "true", fs.Lookup("undo").Value.String() == "true"
	conv, noCode := fs.Lookup("conversation").Value.String() == "true", fs.Lookup("no-code").Value.String() == "true"
	switch {
	case list && (n > 0 || undo):
		return 0, errors.New("--list takes no prompt number and no --undo")
	case undo && (n > 0 || conv):
		return 0, errors.New("--undo takes no prompt number: it restores the files as they were before the latest rewind")
	case !list && !undo && n == 0:
		return 0, errors.New("give a prompt number (1 for the first), --list or --undo")
	case noCode && !conv:
		return 0, errors.New("--no-code needs --conversation: there would be nothing to rewind")
	}
	return n, nil
}

func rewindTo(ctx context.Context, cr *session.ClosedRewind, n int, f rewindFlags, stdout, stderr io.Writer) int {
	// The conversation is checked first, so a transcript that cannot go
	// back stops the rewind before any file changes.
	if f.conversation {
		if _, err := agent.PromptText(cr.Dir.Transcript(), n); err != nil {
			fmt.Fprintf(stderr, "workbench rewind: %v\n", err)
			return exitUsage
		}
	}
	code := exitOK
	if !f.noCode {
		rep, err := cr.Store.RestorePrompt(ctx, n, rewind.RestoreOptions{Force: f.force})
		if err != nil {
			return restoreFailed(err, stderr)
		}
		fmt.Fprintf(stdout, "Rewound the files to before prompt %d (checkpoint %d).\n", n, rep.To.ID)
		code = printReport(rep, cr.Dir.ID, stdout)
	}
	if f.conversation {
		text, err := agent.RewindTranscript(cr.Dir.Transcript(), n)
		if err != nil {
			fmt.Fprintf(stderr, "workbench rewind: %v\n", err)
			return exitError
		}
		fmt.Fprintf(stdout, "Rewound the conversation to before prompt %d (%q); `workbench --resume %s` continues from there.\n", n, firstLine(text, 60), cr.Dir.ID)
	}
	return code
}

func restoreFailed(err error, stderr io.Writer) int {
	var dirty *rewind.DirtyError
	if errors.As(err, &dirty) {
		fmt.Fprintf(stderr, "workbench rewind: %v\nNothing was changed. Pass --force to restore anyway (a checkpoint of them is taken first, so --undo brings them back).\n", err)
		return exitError
	}
	fmt.Fprintf(stderr, "workbench rewind: %v\n", err)
	if errors.Is(err, rewind.ErrNoCheckpoints) || errors.Is(err, rewind.ErrNoPrompt) || errors.Is(err, rewind.ErrInUse) {
		return exitUsage
	}
	return exitError
}

// verbs say what a restore did to a file, from the Report's statuses.
var verbs = map[rewind.Status]string{rewind.Modified: "restored", rewind.Added: "recreated", rewind.Deleted: "removed"}

func printReport(rep rewind.Report, id string, stdout io.Writer) int {
	if len(rep.Changed) == 0 {
		fmt.Fprintln(stdout, "  no file needed changing")
	}
	for _, c := range rep.Changed {
		fmt.Fprintf(stdout, "  %-10s %s\n", verbs[c.Status], c.Path)
	}
	for _, s := range rep.Skipped {
		fmt.Fprintf(stdout, "  %-10s %s (%s)\n", "left alone", s.Path, s.Why)
	}
	for _, s := range rep.Failed {
		fmt.Fprintf(stdout, "  %-10s %s: %s\n", "FAILED", s.Path, s.Why)
	}
	fmt.Fprintf(stdout, "The state before is checkpoint %d: `workbench rewind --undo --session %s` brings it back.\n", rep.Undo.ID, id)
	if len(rep.Failed) > 0 {
		return exitError
	}
	return exitOK
}

// promptJSON is one prompt in `workbench rewind --list --json`.
type promptJSON struct {
	N          int      `json:"n"`
	Time       string   `json:"time"`
	Prompt     string   `json:"prompt"`
	Checkpoint int      `json:"checkpoint"`
	Files      []string `json:"files"`
}

func listRewind(ctx context.Context, cr *session.ClosedRewind, asJSON bool, stdout, stderr io.Writer) int {
	prompts, err := cr.Store.Prompts(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "workbench rewind: %v\n", err)
		return exitError
	}
	dirty, err := cr.Store.Dirty(ctx)
	if err != nil && !errors.Is(err, rewind.ErrNoCheckpoints) {
		fmt.Fprintf(stderr, "workbench rewind: %v\n", err)
		return exitError
	}
	if asJSON {
		out := struct {
			Session string       `json:"session"`
			Prompts []promptJSON `json:"prompts"`
			Dirty   []string     `json:"changed_since_last_checkpoint"`
		}{Session: cr.Dir.ID, Prompts: []promptJSON{}, Dirty: changeStrings(dirty)}
		for _, p := range prompts {
			out.Prompts = append(out.Prompts, promptJSON{N: p.N, Time: p.Time.Format("2006-01-02T15:04:05Z07:00"), Prompt: p.Label, Checkpoint: p.Checkpoint.ID, Files: changeStrings(p.Files)})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return exitOK
	}
	fmt.Fprintf(stdout, "Session %s\n", cr.Dir.ID)
	if len(prompts) == 0 {
		fmt.Fprintln(stdout, "No prompts with checkpoints.")
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "N\tTIME\tFILES\tPROMPT")
	for _, p := range prompts {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\n", p.N, p.Time.Local().Format("2006-01-02 15:04:05"), len(p.Files), firstLine(p.Label, 60))
		for _, c := range p.Files {
			fmt.Fprintf(tw, "\t\t\t  %s\n", c)
		}
	}
	tw.Flush()
	if len(dirty) > 0 {
		fmt.Fprintln(stdout, "Changed after the last checkpoint (a rewind over them needs --force):")
		for _, c := range dirty {
			fmt.Fprintf(stdout, "  %s\n", c)
		}
	}
	return exitOK
}

func changeStrings(cs []rewind.Change) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}
