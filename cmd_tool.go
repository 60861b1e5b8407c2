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
	"github.com/seed92b641c3/workbench/hooks"
)

// runTool is `workbench tool`: one call through the whole pipeline, with
// nobody to ask, so an ask becomes a denial that says how to allow it.
func runTool(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("workbench tool", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c commonFlags
	c.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: workbench tool [flags] NAME [JSON]\n\nRuns one tool call through lookup, schema, permission, hooks, call, capture\nand post hooks, prints the result, and exits 0 (success), 1 (error result) or 2 (usage).\n\nFlags:")
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
	h, err := setup(&c)
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	eg := withEgress(h, stderr)
	defer eg.close()
	var trace *traceWriter
	if c.trace {
		trace = newTraceWriter(stderr)
	}
	sess, err := openSession(h, &c, trace, agent.Headless{})
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fireSession(ctx, h, sess, hooks.SessionStart)
	res := sess.pipeline.Run(ctx, agent.Call{ID: "call_1", Name: name, Input: json.RawMessage(input)})
	fireSession(context.WithoutCancel(ctx), h, sess, hooks.SessionEnd)
	if err := sess.transcript.Close(); err != nil {
		fmt.Fprintf(stderr, "workbench: transcript: %v\n", err)
	}
	fmt.Fprint(stdout, res.Text)
	if !strings.HasSuffix(res.Text, "\n") {
		fmt.Fprintln(stdout)
	}
	if res.IsError {
		return exitError
	}
	return exitOK
}

// fireSession runs SessionStart or SessionEnd hooks; their failures are
// reported on stderr by the trace, never fatal.
func fireSession(ctx context.Context, h *harness, s *session, ev hooks.Event) {
	if h.hooks == nil || !h.hooks.Has(ev) {
		return
	}
	in := hooks.Input{SessionID: s.dir.ID, TranscriptPath: s.dir.Transcript(), Cwd: h.projectDir, HookEventName: ev}
	if ev == hooks.SessionStart {
		in.Source = "startup"
	} else {
		in.Reason = "exit"
	}
	h.hooks.Run(ctx, in)
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
