// Package approval is the modal a person answers when a tool call stops at
// the ask outcome: it shows what the call would do in the form a person
// reviews (a command split into its parts, a diff, a URL, a plan) and
// returns the person's answer as an Action. AskUserQuestion's questions use
// the same machinery (QuestionDialog), and several open requests wait in a
// Queue.
//
// Nothing here has an event loop or returns a tea.Cmd: the root model calls
// Update and View and acts on the Action (replying to the agent, writing an
// Always rule to the settings file), so every behaviour can be tested as a
// plain function call.
package approval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/tools/askuser"
)

// LocalSettings is where an Always rule is written in a trusted project,
// relative to the project directory, and what the dialog names when
// Options.AlwaysFile is not set. The dialog names the file so the person
// knows where to undo it; the root does the writing.
const LocalSettings = ".workbench/settings.local.json"

// decidedBy is the ApprovalReply.By of every answer given in the dialog,
// for the audit trail.
const decidedBy = "person"

// Options is what a dialog needs from the session besides the request.
type Options struct {
	// WorkDir is the project directory: paths are shown relative to it and
	// session rules are written against it.
	WorkDir string
	// Covered reports whether a part of a shell command (one simple
	// command as permission.SplitCommand prints it) is already allowed by a
	// rule, so only the parts that need approval are marked and the session
	// scope names only them. Nil marks every part.
	Covered func(part string) bool
	// Now is the clock of the grace period; nil means time.Now. Tests
	// inject it.
	Now func() time.Time
	// ReadFile reads the file a file tool would change, to diff against;
	// nil means os.ReadFile. It is called by New, which is why New must
	// run outside Update (in the goroutine or tea.Cmd that receives the
	// request).
	ReadFile func(path string) ([]byte, error)
	// AlwaysFile is the file "Always" writes to, absolute; the dialog names
	// it (relative to WorkDir inside the project, from ~ outside).
	// Empty names LocalSettings.
	AlwaysFile string
}

// AlwaysShown is AlwaysFile as the dialog names it, for the notice that
// says the rule was saved too.
func (o Options) AlwaysShown() string {
	if o.AlwaysFile == "" {
		return LocalSettings
	}
	shown := shownPath(o.AlwaysFile, o.WorkDir)
	if home, err := os.UserHomeDir(); err == nil && home != "" && filepath.IsAbs(shown) {
		if rel, err := filepath.Rel(home, shown); err == nil && filepath.IsLocal(rel) {
			return "~/" + rel
		}
	}
	return shown
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// Action is what a dialog asks the root to do after a message. The zero
// Action means "nothing yet, keep the dialog open".
type Action struct {
	// Done is set when the person has answered: the root removes the dialog
	// (Queue.Pop) and delivers Reply or Answers.
	Done bool
	// Reply is the answer to an approval request.
	Reply agent.ApprovalReply
	// Always lists rules the person chose to allow from now on; the root
	// appends them to the permissions.allow list of LocalSettings. Reply.Grant
	// carries the same rules so the running session allows them at once.
	Always []string
	// Answers are the answers of a QuestionDialog, one per question.
	Answers []askuser.Answer
	// Declined is set when the person dismissed a QuestionDialog without
	// answering; the root returns askuser.ErrDeclined.
	Declined bool
}

// mode is what the dialog's keys currently drive.
type mode int

const (
	choosing mode = iota // the choice buttons
	feedback             // the "tell the agent why" line
	editing              // the input editor
)

// choiceID names a choice independently of its label.
type choiceID int

const (
	choiceYes choiceID = iota
	choiceSession
	choiceAlways
	choiceNo
)

// choice is one button of the dialog.
type choice struct {
	id    choiceID
	key   string // the letter shown beside the label
	label string
}

// Dialog is the approval modal for one request. Build it with New; the root
// feeds it messages with Update and draws it with View.
type Dialog struct {
	always string // where Always writes, as shown
	req    agent.ApprovalRequest
	now    func() time.Time
	grace  grace
	keys   choiceKeys
	fkeys  feedbackKeys
	ekeys  editKeys

	title   func(width int) string
	reason  string   // why it asks, in plain words
	message string   // the decision's own sentence, when it adds something
	hidden  []string // invisible characters in the input, as shown
	body    *cachedReview
	plan    bool // ExitPlanMode: a plan to start, not a tool call

	// pins are what the last View pinned; seen holds the keys of the pins
	// the person has had on screen, whole in the fixed part or scrolled
	// through in the body, which the approve keys wait for. progress is
	// which anchor lines of each unseen pin were on screen, for the body
	// drawn with progressOf.
	pins       pinned
	drawn      bool
	seen       map[string]bool
	progress   map[string]map[int]bool
	progressOf bodyID
	listing    bool // the body lists every pin (p)
	cut        bool // the last View could not pin everything whole
	drawnW     int  // the inner width of the last View
	expanded   bool // folded blank runs and here-documents are shown (x)

	choices  []choice
	selected int
	scope    []string // the rules "Yes for this session" and "Always" allow
	noScope  string   // why those choices are missing, when they are

	mode        mode
	feedback    textinput.Model
	editor      textarea.Model
	editCommand bool // the editor holds a shell command, not JSON
	editable    bool
	editErr     string

	scroll   int
	bodyRows int // body rows shown by the last View, for paging
	bodyLen  int // body lines at the last View's width, for clamping

	place, total int // position in the queue; total 0 when not queued
}

// New builds the dialog for req. It reads the file a file tool would change
// (through opts.ReadFile) and resolves paths for the session rule, so it
// does IO: call it where the request arrives (the approver's goroutine or a
// tea.Cmd), never inside Update. The grace period starts now.
func New(req agent.ApprovalRequest, opts Options) *Dialog {
	if opts.ReadFile == nil {
		opts.ReadFile = os.ReadFile
	}
	d := &Dialog{
		always: opts.AlwaysShown(),
		req:    req,
		now:    opts.now,
		keys:   newChoiceKeys(),
		fkeys:  newFeedbackKeys(),
		ekeys:  newEditKeys(),
		plan:   req.Tool == planTool,
	}
	d.grace.reset(d.now())
	title, body := newReview(req, opts)
	d.title, d.body = title, &cachedReview{review: body}
	d.reason, d.message = why(req)
	d.hidden = hiddenIn(req.Input)
	if !d.plan {
		d.scope, d.noScope = sessionScope(req, opts)
		d.editable = true
		d.editCommand = req.Tool == "Bash"
	}
	d.choices = d.buildChoices()
	d.feedback = newFeedbackInput(d.plan)
	return d
}

// Request returns the request the dialog answers, so the root can route
// the reply.
func (d *Dialog) Request() agent.ApprovalRequest { return d.req }

// Scope returns the rules "Yes for this session" and "Always" would allow;
// empty when those choices are not offered.
func (d *Dialog) Scope() []string { return append([]string(nil), d.scope...) }

func (d *Dialog) buildChoices() []choice {
	if d.plan {
		return []choice{
			{choiceYes, "y", "Yes, start"},
			{choiceNo, "n", "No, keep planning"},
		}
	}
	cs := []choice{{choiceYes, "y", "Yes"}}
	if len(d.scope) > 0 {
		cs = append(cs, choice{choiceSession, "s", "Yes for this session"}, choice{choiceAlways, "a", "Always"})
	}
	return append(cs, choice{choiceNo, "n", "No, and tell the agent why"})
}

func newFeedbackInput(plan bool) textinput.Model {
	in := textinput.New()
	in.Prompt = "› "
	in.Placeholder = "what the agent should do instead (optional)"
	if plan {
		in.Placeholder = "what to change in the plan (optional)"
	}
	st := textinput.DefaultDarkStyles()
	st.Cursor.Blink = false
	in.SetStyles(st)
	return in
}

// reopen restarts the grace period, for a dialog shown again after waiting
// in the queue: it appears under the person's fingers just as a new one does.
func (d *Dialog) reopen(now time.Time) { d.grace.reset(now) }

func (d *Dialog) setPlace(place, total int) { d.place, d.total = place, total }

// Update handles a key, paste or mouse-wheel message and returns what the
// root should do. Keys arriving during the grace period are ignored. The
// root keeps its global keys (ctrl+c) and passes the rest here while the
// dialog is shown.
func (d *Dialog) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if d.grace.swallow(d.now()) {
			return Action{}
		}
		switch d.mode {
		case feedback:
			return d.updateFeedback(msg)
		case editing:
			return d.updateEdit(msg)
		}
		return d.updateChoosing(msg)
	case tea.PasteMsg:
		if d.grace.swallow(d.now()) {
			return Action{}
		}
		switch d.mode {
		case feedback:
			d.feedback, _ = d.feedback.Update(msg)
		case editing:
			d.editor, _ = d.editor.Update(msg)
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			d.scrollBy(-wheelStep)
		case tea.MouseWheelDown:
			d.scrollBy(wheelStep)
		}
	}
	return Action{}
}

// wheelStep is how many body lines one mouse-wheel notch scrolls.
const wheelStep = 3

func (d *Dialog) updateChoosing(msg tea.KeyPressMsg) Action {
	k := d.keys
	switch {
	case matches(msg, k.Yes):
		return d.choose(choiceYes)
	case matches(msg, k.Session):
		return d.choose(choiceSession)
	case matches(msg, k.Always):
		return d.choose(choiceAlways)
	case matches(msg, k.No):
		return d.choose(choiceNo)
	case matches(msg, k.Deny):
		// Esc denies and stops the turn, so the person can say what to do
		// instead; n denies and lets the agent go on.
		return d.reply(agent.ApprovalReply{By: decidedBy, Interrupt: true})
	case matches(msg, k.Edit) && d.editable:
		d.startEdit()
	case matches(msg, k.List) && !d.plan:
		d.listing = !d.listing
		d.scroll = 0
	case matches(msg, k.Expand) && d.body.foldable():
		d.expanded = !d.expanded
	case matches(msg, k.Next):
		d.selected = (d.selected + 1) % len(d.choices)
	case matches(msg, k.Prev):
		d.selected = (d.selected + len(d.choices) - 1) % len(d.choices)
	case matches(msg, k.Confirm):
		return d.choose(d.choices[d.selected].id)
	default:
		d.scrollKey(msg)
	}
	return Action{}
}

// scrollKey scrolls the body for the scrolling keys and reports whether the
// key was one.
func (d *Dialog) scrollKey(msg tea.KeyPressMsg) bool {
	k := d.keys
	page := max(1, d.bodyRows-1)
	switch {
	case matches(msg, k.Up):
		d.scrollBy(-1)
	case matches(msg, k.Down):
		d.scrollBy(1)
	case matches(msg, k.PageUp):
		d.scrollBy(-page)
	case matches(msg, k.PageDown):
		d.scrollBy(page)
	case matches(msg, k.Top):
		d.scroll = 0
	case matches(msg, k.Bottom):
		d.scrollBy(d.bodyLen)
	default:
		return false
	}
	return true
}

// Scrolls reports whether the dialog's body is longer than it shows, as
// last drawn: then the page keys are the dialog's, and otherwise the root
// lets them scroll the conversation behind it.
func (d *Dialog) Scrolls() bool { return d.bodyLen > d.bodyRows }

func (d *Dialog) scrollBy(n int) {
	d.scroll = max(0, min(d.scroll+n, d.bodyLen-d.bodyRows))
}

// choose acts on a choice; a choice the dialog does not offer does nothing,
// so `s` on a request with no safe session rule cannot grant the whole tool.
func (d *Dialog) choose(id choiceID) Action {
	offered := false
	for i, c := range d.choices {
		if c.id == id {
			offered, d.selected = true, i
		}
	}
	if !offered || d.waitingFor(id) {
		return Action{}
	}
	switch id {
	case choiceYes:
		return d.reply(agent.ApprovalReply{Approved: true, By: decidedBy})
	case choiceSession:
		return d.reply(agent.ApprovalReply{Approved: true, Grant: strings.Join(d.scope, ", "), By: decidedBy})
	case choiceAlways:
		a := d.reply(agent.ApprovalReply{Approved: true, Grant: strings.Join(d.scope, ", "), By: decidedBy})
		a.Always = d.Scope()
		return a
	default:
		d.mode = feedback
		d.feedback.Reset()
		d.feedback.Focus()
		return Action{}
	}
}

func (d *Dialog) reply(r agent.ApprovalReply) Action {
	return Action{Done: true, Reply: r}
}

func (d *Dialog) updateFeedback(msg tea.KeyPressMsg) Action {
	switch {
	case matches(msg, d.fkeys.Send):
		return d.reply(agent.ApprovalReply{Feedback: strings.TrimSpace(d.feedback.Value()), By: decidedBy})
	case matches(msg, d.fkeys.Back):
		d.mode = choosing
		d.feedback.Blur()
	case d.scrollKeyOnly(msg):
	default:
		d.feedback, _ = d.feedback.Update(msg)
	}
	return Action{}
}

// scrollKeyOnly scrolls for the keys a text line does not use (up, down,
// page up, page down), so the body stays readable while typing feedback.
func (d *Dialog) scrollKeyOnly(msg tea.KeyPressMsg) bool {
	switch msg.String() {
	case "up", "down", "pgup", "pgdown":
		return d.scrollKey(msg)
	}
	return false
}

// inputObject decodes a tool input as a JSON object, keeping each value's
// bytes, so editing one field leaves the others exactly as they were.
func inputObject(in json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(in, &m) != nil {
		return nil
	}
	return m
}

// inputString returns a string field of a tool input, or "".
func inputString(in json.RawMessage, field string) string {
	var s string
	if raw, ok := inputObject(in)[field]; ok && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// inputBool returns a boolean field of a tool input, or false.
func inputBool(in json.RawMessage, field string) bool {
	var v bool
	if raw, ok := inputObject(in)[field]; ok && json.Unmarshal(raw, &v) == nil {
		return v
	}
	return false
}
