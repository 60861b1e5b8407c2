package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/session"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/tools/askuser"
)

// runFlags are the flags of a session run: headless with -p, or the TUI.
type runFlags struct {
	commonFlags
	modelFlags
	prompt         string
	outputFormat   string
	backgroundWait time.Duration
	maxDuration    time.Duration
	theme          string
}

// parseRunFlags reads the flags of `workbench` and `workbench -p`.
func parseRunFlags(args []string, stderr io.Writer) (*runFlags, error) {
	fs := flag.NewFlagSet("workbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	f.commonFlags.register(fs)
	f.modelFlags.register(fs)
	fs.StringVar(&f.prompt, "p", "", "run headless with this `prompt` and exit")
	fs.StringVar(&f.prompt, "print", "", "same as -p")
	fs.StringVar(&f.outputFormat, "output-format", "text", "headless output: text, json or stream-json")
	fs.DurationVar(&f.backgroundWait, "background-wait", 2*time.Minute, "headless: how long to wait for background tasks to report once the model is done (0: not at all); then they are stopped")
	fs.DurationVar(&f.maxDuration, "max-duration", 0, "end the whole run after this `duration` (0: no limit)")
	fs.StringVar(&f.theme, "theme", "", "the screen's `palette`: auto (from the terminal's background), dark or light (default: theme in settings, else auto)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: workbench [flags] [-p PROMPT]\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (quote the prompt: -p \"...\")", fs.Arg(0))
	}
	if f.theme != "" && !theme.Valid(f.theme) {
		return nil, fmt.Errorf("--theme %q: use %s", f.theme, strings.Join(theme.Names, ", "))
	}
	if f.contextWindow < 0 {
		return nil, fmt.Errorf("--context-window %d: give the window in tokens, above 0", f.contextWindow)
	}
	switch f.outputFormat {
	case "text", "json", "stream-json":
	default:
		return nil, fmt.Errorf("--output-format %q: use text, json or stream-json", f.outputFormat)
	}
	return &f, nil
}

// runHeadless is `workbench -p PROMPT`: one run of the loop with nobody to
// ask. An ask becomes a denial the model sees; it never waits.
func runHeadless(f *runFlags, stdout, stderr io.Writer) int {
	cfg, err := session.Load(f.options())
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	var asker askuser.Asker
	if f.answers != "" {
		a, err := askuser.LoadAnswers(f.answers)
		if err != nil {
			fmt.Fprintf(stderr, "workbench: --answers: %v\n", err)
			return exitUsage
		}
		asker = a
	}
	out := newHeadlessOutput(f.outputFormat, f.trace, stdout)
	if f.backgroundWait < 0 || f.maxDuration < 0 {
		fmt.Fprintln(stderr, "workbench: --background-wait and --max-duration must not be negative")
		return exitUsage
	}
	w := session.Wiring{Approver: agent.Headless{}, Asker: asker, Publish: out.event,
		BackgroundWait: f.backgroundWait, MaxDuration: f.maxDuration, HookMessage: hookMessages(stderr)}
	if f.trace && f.outputFormat != "stream-json" {
		w.Trace = newTraceWriter(stderr).stages()
	}
	w.LateNotes = func(n []string) { writeNotes(stderr, n) }
	s, err := session.Open(cfg, f.choice(), w)
	if err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", err)
		return exitUsage
	}
	writeNotes(stderr, s.Notes)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var result agent.Outcome
	if instructions, ok := compactCommand(f.prompt); ok {
		result = compactHeadless(ctx, s.Agent, instructions)
	} else if r, ok := s.RunCommand(ctx, f.prompt); ok {
		result = r // a custom slash command (.claude/commands)
	} else {
		result = s.Agent.Prompt(ctx, f.prompt)
	}
	reason := "exit"
	if ctx.Err() != nil {
		reason = "signal"
	}
	stopped, err := s.Close(reason)
	if err != nil {
		fmt.Fprintf(stderr, "workbench: transcript: %v\n", err)
	}
	out.finish(result, stopped)
	if f.outputFormat == "text" {
		for _, st := range stopped {
			fmt.Fprintf(stderr, "workbench: stopped %s %s (%s, ran %.1fs, %d bytes of output%s)\n",
				st.Kind, st.ID, st.Command, st.RanFor, st.Bytes, outputAt(st.OutputFile))
		}
	}
	if result.Err != nil {
		fmt.Fprintf(stderr, "workbench: %v\n", result.Err)
	}
	switch result.StopReason {
	case agent.StopCompleted, agent.StopHookPrevented, stopCompacted:
		return exitOK
	default:
		return exitError
	}
}

// headlessOutput renders session events in the chosen format.
type headlessOutput struct {
	format string
	trace  bool
	w      *traceWriter
	raw    io.Writer
	// text collects reply text until a tool call or the end of the
	// message, so stream-json shows text and calls in the order they came.
	text strings.Builder
}

func newHeadlessOutput(format string, trace bool, w io.Writer) *headlessOutput {
	return &headlessOutput{format: format, trace: trace, w: newTraceWriter(w), raw: w}
}

// event prints stream-json lines as things happen.
func (o *headlessOutput) event(ev agent.Event) {
	if o.format != "stream-json" {
		return
	}
	switch ev.Kind {
	case agent.EventText:
		o.text.WriteString(ev.Text)
	case agent.EventDiscard:
		// The turn is tried again from the start: the broken attempt's
		// text is not part of the reply.
		o.text.Reset()
	case agent.EventAssistant, agent.EventDone:
		o.flushText()
	case agent.EventToolUse:
		o.flushText()
		o.w.write(map[string]any{"type": "tool_use", "id": ev.Call.ID, "name": ev.Call.Name, "input": json.RawMessage(nonEmpty(ev.Call.Input))})
	case agent.EventToolResult:
		o.w.write(map[string]any{"type": "tool_result", "tool_use_id": ev.Call.ID, "is_error": ev.Result.IsError, "content": ev.Result.Text})
	case agent.EventStage:
		if o.trace {
			line := append([]byte(`{"type":"stage",`), ev.Stage.AppendJSON(nil)[1:]...)
			o.w.write(json.RawMessage(line))
		}
	case agent.EventNotification:
		o.w.write(map[string]any{"type": "notification", "text": ev.Text})
	case agent.EventNotice:
		o.w.write(map[string]any{"type": "notice", "text": ev.Text})
	}
}

func (o *headlessOutput) flushText() {
	if o.text.Len() > 0 {
		o.w.write(map[string]any{"type": "text", "text": o.text.String()})
		o.text.Reset()
	}
}

func (o *headlessOutput) finish(r agent.Outcome, stopped []session.Stopped) {
	switch o.format {
	case "text":
		text := r.Text
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		fmt.Fprint(o.raw, text)
	default:
		v := map[string]any{"type": "result", "stop_reason": r.StopReason, "turns": r.Turns,
			"session_id": r.SessionID, "text": r.Text, "usage": map[string]int{
				"input_tokens": r.Usage.InputTokens, "output_tokens": r.Usage.OutputTokens,
				"cache_read_tokens": r.Usage.CacheRead, "cache_write_tokens": r.Usage.CacheWrite}}
		if r.Err != nil {
			v["error"] = r.Err.Error()
		}
		if stopped == nil {
			stopped = []session.Stopped{}
		}
		v["stopped"] = stopped
		o.w.write(v)
	}
}

func outputAt(file string) string {
	if file == "" {
		return ""
	}
	return " in " + file
}

func nonEmpty(b []byte) []byte {
	if len(b) == 0 {
		return []byte("{}")
	}
	return b
}

// stopCompacted is the stop reason of a headless /compact that succeeded.
const stopCompacted = "compacted"

// compactCommand reads a headless prompt that is /compact [instructions].
// The instructions may follow on the same line or on the next ones.
func compactCommand(prompt string) (instructions string, ok bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(prompt), "/compact")
	if !ok || (rest != "" && !unicode.IsSpace(rune(rest[0]))) {
		return "", false
	}
	return strings.TrimSpace(rest), true
}

// compactHeadless is `-p "/compact ..."` (with --continue or --resume): the
// session's history is compacted, nothing is sent as a prompt. A failure
// leaves the history as it was and is the run's error.
func compactHeadless(ctx context.Context, s *agent.Session, instructions string) agent.Outcome {
	res, err := s.Compact(ctx, instructions)
	out := agent.Outcome{StopReason: stopCompacted, Text: res.String(), SessionID: s.ID(), Usage: s.Usage()}
	if err != nil {
		out.StopReason, out.Text, out.Err = agent.StopModelError, "", err
	}
	return out
}
