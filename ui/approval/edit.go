package approval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/theme"
)

// startEdit opens the editor on the input: the command alone for Bash (what
// a person means to change), the whole JSON input for other tools.
func (d *Dialog) startEdit() {
	ed := textarea.New()
	ed.ShowLineNumbers = false
	ed.Prompt = "│ "
	ed.CharLimit = 0
	ed.MaxHeight = 0
	st := textarea.DefaultDarkStyles()
	st.Cursor.Blink = false
	st.Focused.CursorLine = lipgloss.NewStyle()
	st.Focused.Prompt = theme.Dim
	ed.SetStyles(st)
	if d.editCommand {
		ed.SetValue(inputString(d.req.Input, "command"))
	} else {
		ed.SetValue(prettyJSON(d.req.Input))
	}
	ed.MoveToBegin()
	ed.Focus()
	d.editor, d.editErr, d.mode = ed, "", editing
}

func (d *Dialog) updateEdit(msg tea.KeyPressMsg) Action {
	switch {
	case matches(msg, d.ekeys.Save) && d.waiting():
		d.editErr = "Approving waits until you have seen everything that needs approval: press esc, then scroll through it or press p."
	case matches(msg, d.ekeys.Save):
		in, err := d.edited(d.editor.Value())
		if err != nil {
			d.editErr = err.Error()
			return Action{}
		}
		return d.reply(agent.ApprovalReply{Approved: true, UpdatedInput: in, By: decidedBy})
	case matches(msg, d.ekeys.Back):
		d.mode, d.editErr = choosing, ""
		d.editor.Blur()
	default:
		d.editor, _ = d.editor.Update(msg)
	}
	return Action{}
}

// edited turns the editor's text into the input to send back. It refuses
// text the tool could not take (invalid JSON, something other than an
// object, an empty command) with a message for the dialog. An edit that
// changes nothing returns nil, so the call is not re-checked for nothing.
func (d *Dialog) edited(text string) (json.RawMessage, error) {
	var in []byte
	if d.editCommand {
		if strings.TrimSpace(text) == "" {
			return nil, errors.New("the command is empty; write one, or press esc")
		}
		if text == inputString(d.req.Input, "command") {
			return nil, nil
		}
		obj := inputObject(d.req.Input)
		if obj == nil {
			obj = map[string]json.RawMessage{}
		}
		cmd, err := json.Marshal(text)
		if err != nil {
			return nil, err
		}
		obj["command"] = cmd
		if in, err = json.Marshal(obj); err != nil {
			return nil, err
		}
	} else {
		var err error
		if in, err = compactObject([]byte(text)); err != nil {
			return nil, err
		}
	}
	if orig, err := compactObject(d.req.Input); err == nil && bytes.Equal(orig, in) {
		return nil, nil
	}
	return in, nil
}

// compactObject checks that text is one JSON object and returns it compact.
// Errors name the line and column, since the person fixing the text has
// only the message to go on.
func compactObject(text []byte) ([]byte, error) {
	var obj map[string]json.RawMessage
	err := json.Unmarshal(text, &obj)
	if err == nil && obj == nil {
		return nil, errors.New("the input must be a JSON object ({...}), not null")
	}
	if err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := position(text, syn.Offset)
			return nil, fmt.Errorf("not valid JSON at line %d, column %d: %v", line, col, syn)
		}
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return nil, errors.New("the input must be a JSON object ({...})")
		}
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	var b bytes.Buffer
	if err = json.Compact(&b, text); err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	return b.Bytes(), nil
}

// position converts a byte offset into a 1-based line and column.
func position(text []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(text)))
	before := text[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, max(col, 1)
}

// prettyJSON indents a JSON input for reading; input that is not JSON is
// returned as it is.
func prettyJSON(in json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, in, "", "  "); err != nil {
		return string(in)
	}
	return b.String()
}
