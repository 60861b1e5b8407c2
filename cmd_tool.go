package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/session"
	"github.com/seed92b641c3/workbench/tools/askuser"
)

// runTool is `workbench tool`: one call through the whole pipeline of a
// full session, with nobody to ask, so an ask becomes a denial that says
// how to allow it. Every tool the agent has can be called.
func runTool(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("workbench tool", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c commonFlags
	c.register(fs)
	answers := fs.String("answers", "", "answer AskUserQuestion from this JSON `file`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: workbench tool [flags] NAME [JSON]\n\nRuns one tool call through lookup, schema, permission, hooks, call, capture\nand post hooks, prints the result, and exits 0 (success), 1 (error result) or 2 (usage).\nAny tool of 'workbench tools' can be called; what it starts ends with the call.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(interleaved(fs, args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return exitUsage
	}
	name := fs.Arg(0)
	var input []byte
	if fs.NArg() == 2 {
		input = []byte(fs.Arg(1))
	} else {
		data, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "workbench tool: reading input from stdin: %v\n", err)
			return exitUsage
		}
		input = data
	}
	if strings.TrimSpace(string(input)) == "" {
		input = []byte("{}")
	}
	cfg, err := session.Load(c.options())
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	w := session.Wiring{Approver: agent.Headless{}, HookMessage: hookMessages(stderr)}
	if *answers != "" {
		a, err := askuser.LoadAnswers(*answers)
		if err != nil {
			fmt.Fprintf(stderr, "workbench: --answers: %v\n", err)
			return exitUsage
		}
		w.Asker = a
	}
	if c.trace {
		w.Trace = newTraceWriter(stderr).stages()
	}
	w.LateNotes = func(n []string) { writeNotes(stderr, n) }
	s, err := session.Open(cfg, session.Model{}, w)
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	writeNotes(stderr, s.Notes)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s.Start(ctx)
	res := s.Pipeline.Run(ctx, agent.Call{ID: "call_1", Name: name, Input: json.RawMessage(input)})
	stopped, err := s.Close("exit")
	if err != nil {
		fmt.Fprintf(stderr, "workbench: transcript: %v\n", err)
	}
	text := res.Text
	if ended := endedWithCall(stopped); ended != "" {
		text = strings.TrimRight(text, "\n") + "\n\n" + ended
	}
	if isTerminal(stdout) {
		// The result is shown to a person as it is; program output in it
		// must not drive their terminal.
		text = terminalSafe(text)
	}
	fmt.Fprint(stdout, text)
	if !strings.HasSuffix(text, "\n") {
		fmt.Fprintln(stdout)
	}
	if res.IsError {
		return exitError
	}
	return exitOK
}

// endedWithCall says what the call started that could not outlive the
// command: shell sessions and background tasks end when `workbench tool`
// exits, and the person reading the result should know.
func endedWithCall(stopped []session.Stopped) string {
	if len(stopped) == 0 {
		return ""
	}
	var parts []string
	for _, st := range stopped {
		what := "background task "
		if st.Kind == "shell" {
			what = "shell session "
		}
		parts = append(parts, what+st.ID)
	}
	return "[workbench tool: " + strings.Join(parts, ", ") + " ended with this command; use the interactive workbench or -p to keep one running]"
}

// writeNotes prints start-up notes (misconfiguration, H12) on stderr.
func writeNotes(w io.Writer, notes []string) {
	for _, n := range notes {
		fmt.Fprintln(w, "workbench: "+n)
	}
}

// interleaved lets flags follow positional arguments (`tool Bash '{}' --trace`),
// which is how people type them.
func interleaved(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 && !strings.HasPrefix(a, "-{") {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if strings.Contains(name, "=") {
				continue
			}
			if f := fs.Lookup(name); f != nil {
				if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
					continue
				}
				if i+1 < len(args) {
					i++
					flags = append(flags, args[i])
				}
			}
			continue
		}
		pos = append(pos, a)
	}
	return append(append(flags, "--"), pos...)
}
