package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/rewind"
	"github.com/seed92b641c3/workbench/ui/conversation"
)

// rewindListMsg carries what the /rewind dialog opens on, read by a
// command: the prompts and the files changed since the last checkpoint.
type rewindListMsg struct {
	prompts []rewind.Prompt
	dirty   []rewind.Change
	err     error
}

// rewindDoneMsg carries what a restore did: the files' report, and the
// conversation's prompt text when it went back too.
type rewindDoneMsg struct {
	req     rewindRequest
	report  rewind.Report
	codeErr error
	// text is the prompt the conversation went back to before, for the
	// person to edit and send again.
	text    string
	convErr error
}

// rewindCommand is /rewind (the dialog) and /rewind undo.
func (m *Model) rewindCommand(arg string) tea.Cmd {
	store := m.cfg.Rewind
	switch {
	case store == nil:
		m.say("Rewind is off for this session (rewind.disable, or no git to keep checkpoints with).")
		return nil
	case m.running:
		m.say("Interrupt the agent first (Esc), then /rewind.")
		return nil
	case arg == "undo":
		return m.runRewind(rewindRequest{undo: true, code: true})
	case arg != "":
		m.say("Usage: /rewind, or /rewind undo to take the latest rewind of the files back")
		return nil
	}
	return func() tea.Msg {
		ctx := context.Background()
		prompts, err := store.Prompts(ctx)
		if err != nil {
			return rewindListMsg{err: err}
		}
		dirty, err := store.Dirty(ctx)
		if errors.Is(err, rewind.ErrNoCheckpoints) {
			err = nil
		}
		return rewindListMsg{prompts: prompts, dirty: dirty, err: err}
	}
}

// rewindUpdate handles /rewind's messages and, while its dialog is open,
// the keys; ok is false for every other message. An approval that arrives
// meanwhile goes in front of the dialog.
func (m *Model) rewindUpdate(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case rewindListMsg:
		if msg.err != nil {
			m.conv.AddError("Rewind: " + msg.err.Error())
			return nil, true
		}
		if len(msg.prompts) == 0 {
			m.say("No prompt of this session has a checkpoint yet: nothing to rewind.")
			return nil, true
		}
		m.rewind = newRewindDialog(msg.prompts, msg.dirty, m.now().Location())
		return nil, true
	case rewindDoneMsg:
		m.rewindDone(msg)
		return nil, true
	case tea.KeyPressMsg, tea.PasteMsg:
		if m.rewind == nil || m.approvals.Current() != nil {
			return nil, false
		}
		act := m.rewind.Update(msg)
		if act.done {
			m.rewind = nil
			if act.req != nil {
				return m.runRewind(*act.req), true
			}
		}
		return nil, true
	}
	return nil, false
}

// runRewind carries a request out in a command: the files first (the
// store checks for unrecorded changes and takes the undo checkpoint), then
// the conversation, so a refused restore leaves both as they were.
func (m *Model) runRewind(req rewindRequest) tea.Cmd {
	if m.running {
		m.say("Interrupt the agent first (Esc), then /rewind.")
		return nil
	}
	store, sess := m.cfg.Rewind, m.cfg.Agent
	m.say("Rewinding…")
	return func() tea.Msg {
		ctx := context.Background()
		done := rewindDoneMsg{req: req}
		if req.code {
			o := rewind.RestoreOptions{Force: req.force}
			if req.undo {
				done.report, done.codeErr = store.Undo(ctx, o)
			} else {
				done.report, done.codeErr = store.RestorePrompt(ctx, req.prompt, o)
			}
			if done.codeErr != nil {
				return done
			}
		}
		if req.conversation {
			done.text, done.convErr = sess.RewindConversation(req.prompt)
		}
		return done
	}
}

// rewindDone reports a restore in the conversation: every file changed
// back, and how to undo it. Unrecorded changes found when it ran reopen
// the question.
func (m *Model) rewindDone(msg rewindDoneMsg) {
	m.flash = ""
	var dirty *rewind.DirtyError
	if errors.As(msg.codeErr, &dirty) {
		m.rewind = confirmRewind(msg.req, dirty.Files)
		return
	}
	if msg.codeErr != nil {
		m.conv.AddError("Rewind: " + msg.codeErr.Error() + "\nNothing was changed.")
		return
	}
	if msg.req.conversation && msg.convErr == nil {
		// The history went back: show it as it is now.
		m.conv = conversation.New()
		m.replayHistory(m.cfg.Agent.History(), nil)
	}
	var b strings.Builder
	if msg.req.code {
		rep := msg.report
		if msg.req.undo {
			fmt.Fprintf(&b, "Undid the latest rewind: the files are back as checkpoint %d recorded them.\n", rep.To.ID)
		} else {
			fmt.Fprintf(&b, "Rewound the files to before prompt %d (checkpoint %d).\n", msg.req.prompt, rep.To.ID)
		}
		writeRewindReport(&b, rep)
	}
	if msg.req.conversation {
		if msg.convErr != nil {
			m.conv.AddError("Rewind of the conversation: " + msg.convErr.Error())
		} else {
			fmt.Fprintf(&b, "Rewound the conversation to before prompt %d; its text is in the input to edit and send again.", msg.req.prompt)
			m.input.setValue(msg.text)
			m.input.ta.CursorEnd()
		}
	}
	if s := strings.TrimSpace(b.String()); s != "" {
		m.conv.AddNotice(s)
	}
	m.conv.ScrollToBottom()
}

// rewindVerbs say what a restore did to a file, from the report's statuses.
var rewindVerbs = map[rewind.Status]string{rewind.Modified: "restored", rewind.Added: "recreated", rewind.Deleted: "removed"}

func writeRewindReport(b *strings.Builder, rep rewind.Report) {
	if len(rep.Changed) == 0 {
		b.WriteString("  no file needed changing\n")
	}
	for _, c := range rep.Changed {
		fmt.Fprintf(b, "  %-10s %s\n", rewindVerbs[c.Status], c.Path)
	}
	for _, s := range rep.Skipped {
		fmt.Fprintf(b, "  %-10s %s (%s)\n", "left alone", s.Path, s.Why)
	}
	for _, s := range rep.Failed {
		fmt.Fprintf(b, "  %-10s %s: %s\n", "FAILED", s.Path, s.Why)
	}
	fmt.Fprintf(b, "The state before is checkpoint %d: /rewind undo brings it back.\n", rep.Undo.ID)
}
