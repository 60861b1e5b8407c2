// Package ptytools holds the tools that let a model drive programs in
// terminals: shell_open, shell_send, shell_read, shell_close, shell_list
// and shell_resize, over the sessions of a tasks/pty Manager. The command
// a session starts and every line submitted to it name themselves in the
// call's Target, so the Bash rules and the hard-deny patterns apply to
// them as to Bash (H5).
package ptytools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools"
)

// All returns the PTY tools over m, in the order a model is shown them.
func All(m *pty.Manager) []tools.Tool {
	return []tools.Tool{ShellOpen(m), ShellSend(m), ShellRead(m), ShellResize(m), ShellList(m), ShellClose(m)}
}

// jsonRoom is kept under the output cap for the JSON around the output
// text and for escaping; minOutput is returned however small the cap.
const (
	jsonRoom  = 1024
	minOutput = 512
)

// outputBudget is how many bytes of text fit a result.
func outputBudget(tc *tools.Context) int {
	return max(tc.Cap()-jsonRoom, minOutput)
}

// decode reads a tool's input, already validated against its schema.
func decode[T any](input json.RawMessage) (T, error) {
	var v T
	if err := json.Unmarshal(input, &v); err != nil {
		return v, fmt.Errorf("input: %w", err)
	}
	return v, nil
}

// session finds the session a call names, or explains what exists. The
// person's own panes are not the agent's: a call naming one is refused, so
// the agent cannot type into a shell that runs outside the sandbox.
func session(m *pty.Manager, id string) (*pty.Session, *tools.Result) {
	s, ok := m.Get(id)
	if ok && s.Person() {
		r := tools.Error(fmt.Sprintf("Shell session %s is the person's own terminal; the agent cannot read, type into, resize or close it. Open your own with shell_open.", id))
		return nil, &r
	}
	if ok {
		return s, nil
	}
	var ids []string
	for _, s := range agentSessions(m) {
		ids = append(ids, s.ID())
	}
	msg := fmt.Sprintf("No shell session %q.", id)
	if len(ids) > 0 {
		msg += " Open sessions: " + strings.Join(ids, ", ") + "."
	} else {
		msg += " There are no open sessions; start one with shell_open."
	}
	r := tools.Error(msg)
	return nil, &r
}

// agentSessions are the sessions the agent may use: all but the person's.
func agentSessions(m *pty.Manager) []*pty.Session {
	var out []*pty.Session
	for _, s := range m.List() {
		if !s.Person() {
			out = append(out, s)
		}
	}
	return out
}

// jsonResult renders a result object for the model: compact JSON with
// text left readable (no HTML escaping).
func jsonResult(v any) tools.Result {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return tools.Error("cannot render the result: " + err.Error())
	}
	return tools.Result{Text: strings.TrimSpace(b.String()), Captured: true}
}

// exitCode is a session's exit code for a result: null while it runs or
// when it was closed rather than exiting by itself.
func exitCode(s *pty.Session) *int {
	if s.State() != pty.Exited {
		return nil
	}
	_, code := s.Exited()
	return &code
}

// output is a piece of a session's stream made readable for a model.
type output struct {
	text    string
	next    int64 // the stream position after it
	omitted bool  // output between the start and text was left out
	// refusal is the sandbox's note on text, when it shows a refusal.
	refusal string
}

// readOutput reads the stream from position from on and keeps its end:
// at most maxBytes bytes and maxLines lines of text (0: no limit), within
// the call's output cap. The position it returns never splits an escape
// sequence, so the next read starts cleanly.
func readOutput(s *pty.Session, from int64, maxBytes, maxLines int, tc *tools.Context) output {
	data, next, omitted := s.ReadSince(from, 0)
	keep := pty.CompleteLen(data)
	next -= int64(len(data) - keep)
	text := pty.PlainText(data[:keep])
	budget := outputBudget(tc)
	if maxBytes <= 0 || maxBytes > budget {
		maxBytes = budget
	}
	if maxLines > 0 {
		if t, cut := lastLines(text, maxLines); cut {
			text, omitted = t, true
		}
	}
	if len(text) > maxBytes {
		text, omitted = tailBytes(text, maxBytes), true
	}
	return output{text: text, next: next, omitted: omitted, refusal: s.Explain(text)}
}

// lastLines keeps the last n lines of text.
func lastLines(text string, n int) (string, bool) {
	end := len(text)
	trimmed := strings.TrimSuffix(text, "\n")
	i := len(trimmed)
	for range n {
		i = strings.LastIndexByte(trimmed[:i], '\n')
		if i < 0 {
			return text, false
		}
	}
	return text[i+1 : end], true
}

// tailBytes keeps the last n bytes of text, starting on a whole character.
func tailBytes(text string, n int) string {
	i := len(text) - n
	for i < len(text) && i > 0 && text[i]&0xc0 == 0x80 {
		i++
	}
	return text[i:]
}
