package approval

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/tools/askuser"
)

// QuestionDialog puts AskUserQuestion's questions to the person: one
// question at a time, its options as a list (one choice, or several for a
// multi-select question), and an "Other" line for an answer in their own
// words. It shares the approval dialog's grace period, queue and frame.
type QuestionDialog struct {
	qs       []askuser.Question
	states   []questionState
	cur      int
	now      func() time.Time
	grace    grace
	keys     questionKeys
	errMsg   string
	place    int
	total    int
	answered []bool
}

// questionState is the person's progress on one question.
type questionState struct {
	cursor int    // an option index, or len(options) for the Other line
	picked []bool // multi-select: the options ticked
	answer askuser.Answer
	other  textinput.Model
}

// NewQuestion builds the dialog for qs. opts is optional; only its Now is
// used (the grace period's clock, for tests). The grace period starts now.
func NewQuestion(qs []askuser.Question, opts ...Options) *QuestionDialog {
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	d := &QuestionDialog{qs: qs, now: o.now, keys: newQuestionKeys(), answered: make([]bool, len(qs))}
	for _, q := range qs {
		in := textinput.New()
		in.Prompt = ""
		in.Placeholder = "type your own answer"
		st := textinput.DefaultDarkStyles()
		st.Cursor.Blink = false
		in.SetStyles(st)
		d.states = append(d.states, questionState{picked: make([]bool, len(q.Options)), other: in})
	}
	d.grace.reset(d.now())
	return d
}

func (d *QuestionDialog) reopen(now time.Time)      { d.grace.reset(now) }
func (d *QuestionDialog) setPlace(place, total int) { d.place, d.total = place, total }

// Update handles keys and pastes and returns the answers once every
// question has one, or Declined when the person presses Esc.
func (d *QuestionDialog) Update(msg tea.Msg) Action {
	if len(d.qs) == 0 {
		return Action{Done: true}
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if d.grace.swallow(d.now()) {
			return Action{}
		}
		return d.key(msg)
	case tea.PasteMsg:
		if d.grace.swallow(d.now()) {
			return Action{}
		}
		if s := &d.states[d.cur]; d.onOther() {
			s.other, _ = s.other.Update(msg)
		}
	}
	return Action{}
}

func (d *QuestionDialog) onOther() bool {
	return d.states[d.cur].cursor == len(d.qs[d.cur].Options)
}

func (d *QuestionDialog) key(msg tea.KeyPressMsg) Action {
	q, s, k := d.qs[d.cur], &d.states[d.cur], d.keys
	d.errMsg = ""
	switch {
	case matches(msg, k.Decline):
		return Action{Done: true, Declined: true}
	case matches(msg, k.Up):
		d.move(-1)
	case matches(msg, k.Down):
		d.move(1)
	case matches(msg, k.Next):
		d.cur = (d.cur + 1) % len(d.qs)
		d.focus()
	case matches(msg, k.Prev):
		d.cur = (d.cur + len(d.qs) - 1) % len(d.qs)
		d.focus()
	case matches(msg, k.Confirm):
		return d.confirm()
	case d.onOther():
		s.other, _ = s.other.Update(msg)
	case matches(msg, k.Toggle) && q.MultiSelect:
		s.picked[s.cursor] = !s.picked[s.cursor]
	default:
		// A digit picks (or, multi-select, ticks) that option directly.
		if n := digit(msg.String()); n >= 1 && n <= len(q.Options) {
			s.cursor = n - 1
			if !q.MultiSelect {
				return d.confirm()
			}
			s.picked[n-1] = !s.picked[n-1]
		}
	}
	return Action{}
}

// digit returns the value of a one-digit key, or 0.
func digit(k string) int {
	if len(k) == 1 && k[0] >= '1' && k[0] <= '9' {
		return int(k[0] - '0')
	}
	return 0
}

func (d *QuestionDialog) move(by int) {
	s := &d.states[d.cur]
	n := len(d.qs[d.cur].Options) + 1 // the options and Other
	s.cursor = (s.cursor + by + n) % n
	d.focus()
}

// focus gives the Other line the keyboard exactly when it is under the
// cursor, so digits and space elsewhere pick options instead of typing.
func (d *QuestionDialog) focus() {
	for i := range d.states {
		s := &d.states[i]
		if i == d.cur && s.cursor == len(d.qs[i].Options) {
			s.other.Focus()
		} else {
			s.other.Blur()
		}
	}
}

// confirm records the answer to the current question and moves to the next
// unanswered one, or finishes.
func (d *QuestionDialog) confirm() Action {
	q, s := d.qs[d.cur], &d.states[d.cur]
	a := askuser.Answer{Question: q.Question, Other: strings.TrimSpace(s.other.Value())}
	switch {
	case q.MultiSelect:
		for i, o := range q.Options {
			if s.picked[i] {
				a.Selected = append(a.Selected, o.Label)
			}
		}
	case !d.onOther():
		a.Selected, a.Other = []string{q.Options[s.cursor].Label}, ""
	}
	if len(a.Selected) == 0 && a.Other == "" {
		if q.MultiSelect {
			d.errMsg = "Tick at least one option (space), or type an answer on the Other line."
		} else {
			d.errMsg = "Type an answer on the Other line, or pick an option."
		}
		return Action{}
	}
	s.answer, d.answered[d.cur] = a, true
	for i := range d.qs {
		if j := (d.cur + 1 + i) % len(d.qs); !d.answered[j] {
			d.cur = j
			d.focus()
			return Action{}
		}
	}
	answers := make([]askuser.Answer, len(d.qs))
	for i := range d.states {
		answers[i] = d.states[i].answer
	}
	return Action{Done: true, Answers: answers}
}

// View draws the current question: a tab per question (ticked when
// answered), the question, its options and the Other line.
func (d *QuestionDialog) View(width, height int) string {
	w := innerWidth(width)
	rows := max(1, height-dialogBorderRows)
	title := "The agent has a question"
	if len(d.qs) > 1 {
		title = fmt.Sprintf("The agent has %d questions", len(d.qs))
	}
	lines := []string{titleLine(title, d.place, d.total, w)}
	if len(d.qs) == 0 {
		return frame(lines, w, rows)
	}
	if len(d.qs) > 1 {
		lines = append(lines, d.tabs(w))
	}
	q, s := d.qs[d.cur], &d.states[d.cur]
	for _, l := range wrapText(q.Question, w) {
		lines = append(lines, theme.Bold.Render(l))
	}
	hint := "choose one"
	if q.MultiSelect {
		hint = "choose any (space ticks, enter confirms)"
	}
	lines = append(lines, theme.Dim.Render(truncate(hint, w)), "")

	opts, at := d.optionLines(q, s, w)
	foot := []string{""}
	if d.errMsg != "" {
		for _, l := range wrapText(d.errMsg, w) {
			foot = append(foot, theme.Err.Render(l))
		}
	}
	k := d.keys
	bs := []key.Binding{k.Up, k.Confirm}
	if q.MultiSelect {
		bs = append(bs, k.Toggle)
	}
	bs = append(bs, k.Decline)
	if len(d.qs) > 1 {
		bs = append(bs, k.Next)
	}
	foot = append(foot, helpLine(w, bs...))

	// Keep the cursor's option in view when the options do not fit.
	room := max(1, rows-len(lines)-len(foot))
	if len(opts) > room {
		start := max(0, min(at-room/2, len(opts)-room))
		opts = opts[start : start+room]
	}
	lines = append(lines, opts...)
	return frame(append(lines, foot...), w, rows)
}

// tabs is the row of question headers; the current one is highlighted and
// answered ones are ticked.
func (d *QuestionDialog) tabs(w int) string {
	var parts []string
	for i, q := range d.qs {
		name := q.Header
		if name == "" {
			name = fmt.Sprintf("Q%d", i+1)
		}
		if d.answered[i] {
			name = theme.SymbolOK + " " + name
		}
		name = visible(name)
		switch {
		case i == d.cur:
			parts = append(parts, theme.Selected.Render(" "+name+" "))
		default:
			parts = append(parts, theme.Dim.Render(" "+name+" "))
		}
	}
	return truncate(strings.Join(parts, " "), w)
}

// optionWidth is the columns before an option's label ("› 1. [x] ").
const optionWidth = 9

// optionLines renders the options and the Other line, and returns the index
// of the line under the cursor.
func (d *QuestionDialog) optionLines(q askuser.Question, s *questionState, w int) ([]string, int) {
	var out []string
	at := 0
	indent := strings.Repeat(" ", optionWidth)
	textW := max(1, w-optionWidth)
	for i, o := range q.Options {
		if i == s.cursor {
			at = len(out)
		}
		box := "( )"
		switch {
		case q.MultiSelect && s.picked[i]:
			box = "[x]"
		case q.MultiSelect:
			box = "[ ]"
		case d.answered[d.cur] && len(s.answer.Selected) == 1 && s.answer.Selected[0] == o.Label:
			box = "(•)"
		}
		mark, st := "  ", theme.Base
		if i == s.cursor {
			mark, st = theme.KeyHint.Render("› "), theme.Bold
		}
		for j, l := range wrapText(o.Label, textW) {
			head := indent
			if j == 0 {
				head = mark + pad(fmt.Sprintf("%d. %s", i+1, box), optionWidth-3) + " "
			}
			out = append(out, head+st.Render(l))
		}
		if o.Description != "" {
			for _, l := range wrapText(o.Description, textW) {
				out = append(out, indent+theme.Dim.Render(l))
			}
		}
	}
	mark := "  "
	if d.onOther() {
		mark, at = theme.KeyHint.Render("› "), len(out)
	}
	label := fmt.Sprintf("%d. Other: ", len(q.Options)+1)
	// The input draws its cursor one cell past its width.
	s.other.SetWidth(max(1, w-2-len(label)-1))
	out = append(out, mark+label+s.other.View())
	return out, at
}
