package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/rewind"
	"github.com/seed92b641c3/workbench/theme"
)

// rewindStep is where the /rewind dialog is: choosing a prompt, choosing
// what to restore, or confirming a restore over unrecorded changes.
type rewindStep int

const (
	stepPrompt rewindStep = iota
	stepWhat
	stepConfirm
)

// Tuning numbers of the /rewind dialog.
const (
	// rewindFilesShown is how many changed files a prompt that is not
	// selected lists; the selected one lists all that fit.
	rewindFilesShown = 3
	// rewindDialogMax caps the dialog's width on wide terminals.
	rewindDialogMax = 100
)

// rewindRequest is what the person chose: the prompt to go back to before,
// and whether the code, the conversation or both go back. Force restores
// over files changed after the last checkpoint; Undo takes the latest
// rewind of the files back instead.
type rewindRequest struct {
	prompt       int
	code         bool
	conversation bool
	force        bool
	undo         bool
}

// rewindWhat are the choices of the second step, in order.
var rewindWhat = []struct {
	label              string
	code, conversation bool
}{
	{"Code and conversation", true, true},
	{"Conversation only (the files stay as they are)", false, true},
	{"Code only (the conversation goes on)", true, false},
}

// rewindDialog is the /rewind dialog: a plain value the root model drives.
// It reads nothing itself: the prompts and the files changed since the last
// checkpoint are loaded before it opens.
type rewindDialog struct {
	// prompts are newest first, as the list shows them.
	prompts []rewind.Prompt
	dirty   []rewind.Change
	loc     *time.Location
	step    rewindStep
	cursor  int // the prompt selected
	what    int // the choice selected in stepWhat
	req     rewindRequest
}

// rewindAction is the dialog's answer to a key: still open, closed without
// a choice, or closed with a request to carry out.
type rewindAction struct {
	done bool
	req  *rewindRequest
}

// newRewindDialog opens on the newest prompt. loc is where times are shown.
func newRewindDialog(oldestFirst []rewind.Prompt, dirty []rewind.Change, loc *time.Location) *rewindDialog {
	d := &rewindDialog{dirty: dirty, loc: loc}
	for i := len(oldestFirst) - 1; i >= 0; i-- {
		d.prompts = append(d.prompts, oldestFirst[i])
	}
	return d
}

// confirmRewind opens the dialog straight on the question whether to
// restore over dirty files, for a request already made (/rewind undo, or a
// restore that found new changes when it ran).
func confirmRewind(req rewindRequest, dirty []rewind.Change) *rewindDialog {
	return &rewindDialog{dirty: dirty, step: stepConfirm, req: req, loc: time.Local}
}

// Update handles one key.
func (d *rewindDialog) Update(msg tea.Msg) rewindAction {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return rewindAction{}
	}
	key := k.String()
	if key == "ctrl+c" {
		return rewindAction{done: true}
	}
	switch d.step {
	case stepPrompt:
		switch key {
		case "esc", "q":
			return rewindAction{done: true}
		case "up", "k":
			d.cursor = max(0, d.cursor-1)
		case "down", "j":
			d.cursor = min(len(d.prompts)-1, d.cursor+1)
		case "home":
			d.cursor = 0
		case "end":
			d.cursor = len(d.prompts) - 1
		case "enter":
			if len(d.prompts) > 0 {
				d.step, d.what = stepWhat, 0
			}
		}
	case stepWhat:
		switch key {
		case "esc":
			d.step = stepPrompt
		case "up", "k":
			d.what = max(0, d.what-1)
		case "down", "j":
			d.what = min(len(rewindWhat)-1, d.what+1)
		case "1", "2", "3":
			d.what = int(key[0] - '1')
			return d.choose()
		case "enter":
			return d.choose()
		}
	case stepConfirm:
		switch key {
		case "y", "Y":
			req := d.req
			req.force = true
			return rewindAction{done: true, req: &req}
		case "n", "N", "esc":
			if d.prompts == nil {
				return rewindAction{done: true}
			}
			d.step = stepWhat
		}
	}
	return rewindAction{}
}

// choose takes the choice of the second step: done, unless the files go
// back over changes no checkpoint holds, which asks first.
func (d *rewindDialog) choose() rewindAction {
	w := rewindWhat[d.what]
	d.req = rewindRequest{prompt: d.prompts[d.cursor].N, code: w.code, conversation: w.conversation}
	if w.code && len(d.dirty) > 0 {
		d.step = stepConfirm
		return rewindAction{}
	}
	req := d.req
	return rewindAction{done: true, req: &req}
}

// View draws the dialog in width × height cells.
func (d *rewindDialog) View(width, height int) string {
	w := max(20, min(width, rewindDialogMax)-4)
	rows := max(3, height-2)
	var lines []string
	switch d.step {
	case stepPrompt:
		lines = d.promptLines(w, rows)
	case stepWhat:
		lines = d.whatLines(w)
	case stepConfirm:
		lines = d.confirmLines(w, rows)
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return theme.Focused.Padding(0, 1).Width(w + 4).Render(strings.Join(lines, "\n"))
}

func (d *rewindDialog) hint(s string) string { return theme.Dim.Render(s) }

// promptLines lists the prompts, newest first, each with its time and the
// files it changed, scrolled so the selected one shows.
func (d *rewindDialog) promptLines(w, rows int) []string {
	head := append([]string{theme.Title.Render("Rewind")}, prose(theme.Dim, "Go back to before a prompt: the files as they were when it was sent, the conversation as it was.", w)...)
	var foot []string
	if len(d.dirty) > 0 {
		foot = append(foot, "", theme.Warn.Render(fmt.Sprintf("Changed after the last checkpoint (%d), a restore of the code asks first:", len(d.dirty))))
		for i, c := range d.dirty {
			if i == rewindFilesShown && len(d.dirty) > rewindFilesShown+1 {
				foot = append(foot, theme.Warn.Render(fmt.Sprintf("  … and %d more", len(d.dirty)-i)))
				break
			}
			foot = append(foot, theme.Warn.Render("  "+c.String()))
		}
	}
	foot = append(foot, "", d.hint("↑/↓ choose · enter restore… · esc close"))
	if len(d.prompts) == 0 {
		return append(append(head, "", "No prompt has a checkpoint yet."), foot...)
	}
	var body []string
	selStart, selEnd := 0, 0
	for i, p := range d.prompts {
		sel := i == d.cursor
		if sel {
			selStart = len(body)
		}
		label := fmt.Sprintf("%3d  %s  %s", p.N, p.Time.In(d.loc).Format("15:04:05"), promptPreview(p.Label, w))
		if sel {
			body = append(body, theme.Selected.Render(ansi.Truncate("› "+label, w, "…")))
		} else {
			body = append(body, "  "+label)
		}
		files := p.Files
		shown := len(files)
		if !sel && shown > rewindFilesShown+1 {
			shown = rewindFilesShown
		}
		if len(files) == 0 {
			body = append(body, theme.Dim.Render("       no file changed"))
		}
		for _, c := range files[:shown] {
			body = append(body, "       "+changeStyle(c).Render(c.String()))
		}
		if shown < len(files) {
			body = append(body, theme.Dim.Render(fmt.Sprintf("       … and %d more", len(files)-shown)))
		}
		if sel {
			selEnd = len(body)
		}
	}
	room := max(1, rows-len(head)-1-len(foot))
	start := 0
	if len(body) > room {
		// Keep the selected prompt's first line in view, with as many of
		// its files as fit.
		start = min(selStart, len(body)-room)
		if selEnd-room > start {
			start = min(selStart, selEnd-room)
		}
		body = body[start:min(len(body), start+room)]
	}
	return append(append(append(head, ""), body...), foot...)
}

func changeStyle(c rewind.Change) interface{ Render(...string) string } {
	switch c.Status {
	case rewind.Added:
		return theme.OK
	case rewind.Deleted:
		return theme.Err
	}
	return theme.Base
}

func (d *rewindDialog) whatLines(w int) []string {
	p := d.prompts[d.cursor]
	lines := []string{
		theme.Title.Render(fmt.Sprintf("Rewind to before prompt %d", p.N)),
		theme.Dim.Render(promptPreview(p.Label, w)),
		"",
	}
	for i, c := range rewindWhat {
		label := fmt.Sprintf("%d. %s", i+1, c.label)
		if i == d.what {
			lines = append(lines, theme.Selected.Render("› "+label))
		} else {
			lines = append(lines, "  "+label)
		}
	}
	lines = append(lines, "")
	lines = append(lines, prose(theme.Dim, "A checkpoint is taken before the files change, so /rewind undo takes it back.", w)...)
	return append(lines, "", d.hint("1-3 or ↑/↓ enter choose · esc back"))
}

func (d *rewindDialog) confirmLines(w, rows int) []string {
	what := fmt.Sprintf("Restoring the files to before prompt %d", d.req.prompt)
	if d.req.undo {
		what = "Undoing the latest rewind"
	}
	lines := []string{
		theme.Warn.Render(fmt.Sprintf("%d file(s) changed after the last checkpoint", len(d.dirty))),
		theme.Dim.Render(what + " overwrites them:"),
		"",
	}
	ask := prose(theme.Base, "Restore over them? They are kept in a checkpoint first, so /rewind undo brings them back.", w)
	room := max(1, rows-len(lines)-3-len(ask))
	for i, c := range d.dirty {
		if i == room-1 && len(d.dirty) > room {
			lines = append(lines, theme.Warn.Render(fmt.Sprintf("  … and %d more", len(d.dirty)-i)))
			break
		}
		lines = append(lines, theme.Warn.Render("  "+c.String()))
	}
	lines = append(append(append(lines, ""), ask...), "")
	return append(lines, d.hint("y restore over them · n back"))
}

// prose wraps a sentence to the dialog's width, one styled line per row.
func prose(style interface{ Render(...string) string }, text string, w int) []string {
	lines := strings.Split(ansi.Wordwrap(text, w, ""), "\n")
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}
