package ptytools

import (
	"context"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed send.md
var sendPrompt string

const sendSchema = `{
  "type": "object",
  "properties": {
    "session_id": {"type": "string", "minLength": 1, "description": "The session to type into (sh_1, ...)."},
    "text": {"type": "string", "description": "Text to type."},
    "submit": {"type": "boolean", "default": false, "description": "Press Enter after the text."},
    "keys": {"type": "array", "items": {"type": "string", "minLength": 1}, "description": "Named keys to press after the text, in order: enter, tab, esc, backspace, space, up, down, left, right, home, end, pageup, pagedown, delete, insert, f1-f12, ctrl+a..ctrl+z, ctrl+[, ctrl+\\, ctrl+], alt+<key>, ctrl+left, ..."},
    "hex": {"type": "array", "items": {"type": "string", "minLength": 1}, "description": "Raw bytes to send after the keys, as hex (\"1b5b41\")."},
    "paste": {"type": "string", "description": "Text to paste last, as a bracketed paste when the program supports it."},
    "wait": {"type": "boolean", "default": true, "description": "Wait until the program is done (prompt, quiet, exit or timeout) and return what it printed."},
    "prompt_regex": {"type": "string", "description": "The prompt pattern for this wait; default: the session's."},
    "quiet_ms": {"type": "integer", "minimum": 0, "maximum": 600000, "default": 8000, "description": "Done after this long without output (0: never by quiet)."},
    "timeout_ms": {"type": "integer", "minimum": 1, "maximum": 600000, "default": 120000, "description": "Longest wait."}
  },
  "required": ["session_id"],
  "additionalProperties": false
}`

type sendInput struct {
	SessionID   string   `json:"session_id"`
	Text        string   `json:"text"`
	Submit      bool     `json:"submit"`
	Keys        []string `json:"keys"`
	Hex         []string `json:"hex"`
	Paste       string   `json:"paste"`
	Wait        *bool    `json:"wait"`
	PromptRegex string   `json:"prompt_regex"`
	QuietMS     *int64   `json:"quiet_ms"`
	TimeoutMS   *int64   `json:"timeout_ms"`
}

// Limits of the output a waiting shell_send returns.
const (
	sendOutputMax   = 8 << 10
	sendOutputLines = 200
)

// typedLines remembers, per session, what calls typed without submitting,
// so a line typed in one call and submitted by Enter in the next is still
// checked as a whole (H5), and a line edited in one call with keys that
// cannot be replayed is still unknown when the next one submits it (H15).
type typedLines struct {
	mu      sync.Mutex
	pending map[string]line
}

func (t *typedLines) get(id string) line {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pending[id]
}

func (t *typedLines) set(id string, rest line) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(rest.text) == 0 && rest.unknown == "" {
		delete(t.pending, id)
	} else {
		t.pending[id] = rest
	}
}

// sendTarget is what a shell_send input submits: the command lines as far
// as they can be followed, and why one of them is not known exactly.
func sendTarget(typed *typedLines, input json.RawMessage) permission.Target {
	in, err := decode[sendInput](input)
	if err != nil {
		return permission.Target{Commands: []string{string(input)}, Unknown: "the input could not be read"}
	}
	raw, err := payload(in, pty.Modes{BracketedPaste: true})
	if err != nil {
		// The call will fail before it types anything.
		return permission.Target{}
	}
	got, _ := submitted(typed.get(in.SessionID), raw)
	// The session's shell keeps what earlier lines did (cd, functions,
	// aliases): the analysis must not assume it starts afresh.
	t := permission.Target{Persistent: true}
	for _, l := range got {
		if l.text != "" {
			t.Commands = append(t.Commands, l.text)
		}
		if t.Unknown == "" && l.unknown != "" {
			t.Unknown = l.unknown
		}
	}
	return t
}

// ShellSend types into a session. Every line it submits (text with submit,
// text or paste with newlines, Enter after text typed earlier) is in its
// Target and goes through the Bash rules and hard deny (H5); a denied call
// sends nothing. A line edited with keys the tracker cannot replay asks in
// every mode (H15). Keys alone submit nothing new and need no approval: the
// session itself was approved.
func ShellSend(m *pty.Manager) tools.Tool {
	typed := &typedLines{pending: map[string]line{}}
	return tools.Build(tools.Spec{
		Name:        "shell_send",
		Description: "Type into a terminal session opened with shell_open: text, Enter, named keys (arrows, ctrl+c, ...), raw bytes or a paste; by default wait for the program to finish and return what it printed.",
		Prompt:      sendPrompt,
		Schema:      sendSchema,
		Target: func(input json.RawMessage, _ *tools.Context) permission.Target {
			return sendTarget(typed, input)
		},
		Permission: func(_ context.Context, input json.RawMessage, _ *tools.Context) permission.Decision {
			t := sendTarget(typed, input)
			if len(t.Commands) == 0 && t.Unknown == "" {
				return permission.Allowed()
			}
			in, _ := decode[sendInput](input)
			what := strings.Join(t.Commands, "; ")
			if t.Unknown != "" {
				what += " (" + t.Unknown + ")"
			}
			return permission.AskUser(fmt.Sprintf("send to shell session %s: %s", in.SessionID, strings.TrimSpace(what)))
		},
		Run: func(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
			return runSend(ctx, m, typed, input, tc)
		},
	})
}

// payload builds the bytes to type, in the reference's order: text, Enter
// when submit, the keys, the hex bytes, the paste.
func payload(in sendInput, modes pty.Modes) ([]byte, error) {
	var b []byte
	b = append(b, in.Text...)
	if in.Submit {
		b = append(b, '\r')
	}
	for _, k := range in.Keys {
		kb, err := pty.KeyBytesMode(k, modes.AppCursor)
		if err != nil {
			return nil, err
		}
		b = append(b, kb...)
	}
	for _, h := range in.Hex {
		clean := strings.NewReplacer(" ", "", "0x", "", "0X", "", "\\x", "").Replace(h)
		hb, err := hex.DecodeString(clean)
		if err != nil {
			return nil, fmt.Errorf("hex %q: %w", h, err)
		}
		b = append(b, hb...)
	}
	if in.Paste != "" {
		b = append(b, pty.PasteBytes(in.Paste, modes.BracketedPaste)...)
	}
	return b, nil
}

type sendResult struct {
	SessionID string     `json:"session_id"`
	Sent      *int       `json:"sent,omitempty"`
	Output    *string    `json:"output,omitempty"`
	DoneBy    pty.DoneBy `json:"done_by,omitempty"`
	Cursor    *int64     `json:"cursor,omitempty"`
	Running   bool       `json:"running"`
	Omitted   bool       `json:"omitted,omitempty"`
	ExitCode  *int       `json:"exit_code,omitempty"`
	// Sandbox explains a refusal of the sandbox the output shows.
	Sandbox string `json:"sandbox,omitempty"`
}

func runSend(ctx context.Context, m *pty.Manager, typed *typedLines, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	in, err := decode[sendInput](input)
	if err != nil {
		return tools.Result{}, err
	}
	s, bad := session(m, in.SessionID)
	if bad != nil {
		return *bad, nil
	}
	prompt := s.Prompt()
	if in.PromptRegex != "" {
		if prompt, bad = compile("prompt_regex", in.PromptRegex); bad != nil {
			return *bad, nil
		}
	}
	data, err := payload(in, s.Modes())
	if err != nil {
		return tools.Error(err.Error()), nil
	}
	if len(data) == 0 {
		return tools.Error("Nothing to send: give text, submit, keys, hex or paste."), nil
	}
	if exited, code := s.Exited(); exited {
		return tools.Error(fmt.Sprintf("Shell session %s has ended (exit code %d); its final screen is still readable with shell_read.", s.ID(), code)), nil
	}
	since := s.Total()
	n, err := s.Write(data)
	if err != nil {
		msg := fmt.Sprintf("Sending to %s failed after %d of %d bytes: %v", s.ID(), n, len(data), err)
		if errors.Is(err, pty.ErrExited) {
			msg = fmt.Sprintf("Shell session %s has ended; nothing was sent.", s.ID())
		}
		return tools.Error(msg), nil
	}
	_, rest := submitted(typed.get(s.ID()), data)
	typed.set(s.ID(), rest)
	res := sendResult{SessionID: s.ID()}
	if in.Wait != nil && !*in.Wait {
		res.Sent = &n
	} else {
		res.DoneBy = s.Wait(ctx, pty.WaitSpec{
			Since:   since,
			Prompt:  prompt,
			Quiet:   millis(in.QuietMS, pty.DefaultQuiet),
			Timeout: millis(in.TimeoutMS, pty.DefaultTimeout),
		})
		out := readOutput(s, since, sendOutputMax, sendOutputLines, tc)
		s.SetMark(out.next)
		res.Output, res.Cursor, res.Omitted, res.Sandbox = &out.text, &out.next, out.omitted, out.refusal
	}
	res.Running = s.State() == pty.Running
	res.ExitCode = exitCode(s)
	return jsonResult(res), nil
}
