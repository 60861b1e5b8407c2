package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/settings"
	"github.com/seed92b641c3/workbench/tools/askuser"
	"github.com/seed92b641c3/workbench/ui/approval"
)

func (m *Model) modalOpen() bool {
	return m.approvals.Current() != nil
}

// openApproval queues a request; the first one shows at once and rings the
// bell (and OSC 9 where the terminal supports it).
func (m *Model) openApproval(a askMsg) tea.Cmd {
	m.replies[a.dialog] = a.reply
	if m.approvals.Add(a.dialog) {
		return tea.Raw(approval.Alert())
	}
	return nil
}

// dialogOptions is what every approval dialog gets from the session.
func (m *Model) dialogOptions() approval.Options {
	return approval.Options{WorkDir: m.cfg.ProjectDir, Covered: m.covered, Now: m.cfg.Now, AlwaysFile: m.cfg.AlwaysFile}
}

// covered reports whether a part of a shell command is already allowed by
// a rule, so the dialog marks only the parts that need approval.
func (m *Model) covered(part string) bool {
	if m.cfg.Policy == nil {
		return false
	}
	d := m.cfg.Policy.Evaluate(permission.Request{
		Tool: "Bash", Mode: permission.ModeDefault, WorkDir: m.cfg.ProjectDir,
		Own:    permission.AskUser("run"),
		Target: permission.Target{Commands: []string{part}},
	})
	return d.Behavior == permission.Allow
}

func (m *Model) openQuestion(q pendingQuestion) tea.Cmd {
	d := m.approvals.PushQuestion(q.qs, m.dialogOptions())
	m.questions[d] = q.reply
	if m.approvals.Current() == approval.Modal(d) {
		return tea.Raw(approval.Alert())
	}
	return nil
}

// alwaysSavedMsg reports the result of writing "Always" rules.
type alwaysSavedMsg struct {
	rules []string
	err   error
}

// updateModal routes keys to the dialog in front and acts on its answer.
func (m *Model) updateModal(msg tea.Msg) tea.Cmd {
	cur := m.approvals.Current()
	act := cur.Update(msg)
	if !act.Done {
		return nil
	}
	m.approvals.Pop()
	var cmd tea.Cmd
	switch d := cur.(type) {
	case *approval.Dialog:
		reply := act.Reply
		if reply.By == "" {
			reply.By = "person"
		}
		if len(act.Always) > 0 {
			path, rules := m.cfg.AlwaysFile, act.Always
			cmd = func() tea.Msg {
				for _, r := range rules {
					if err := settings.AddAllowRule(path, r); err != nil {
						return alwaysSavedMsg{rules: rules, err: err}
					}
				}
				return alwaysSavedMsg{rules: rules}
			}
		}
		if ch, ok := m.replies[d]; ok {
			ch <- reply
			delete(m.replies, d)
		}
		if reply.Interrupt {
			// The session stops the turn once the call has its denial;
			// the keyboard goes back to the input for what to do instead.
			m.blurPane()
			m.say("Denied; the turn stops. Say what the agent should do instead.")
		}
	case *approval.QuestionDialog:
		r := questionReply{answers: act.Answers}
		if act.Declined {
			r.err = askuser.ErrDeclined
		}
		if ch, ok := m.questions[d]; ok {
			ch <- r
			delete(m.questions, d)
		}
	}
	if next := m.approvals.Current(); next != nil {
		return tea.Batch(cmd, tea.Raw(approval.Alert()))
	}
	return cmd
}

// denyAllAndInterrupt is Ctrl-C while a dialog is open: every waiting
// request is denied, the turn and the person's commands are interrupted,
// and a second Ctrl-C soon after quits (onKey, with no dialog left).
func (m *Model) denyAllAndInterrupt() {
	for m.approvals.Current() != nil {
		switch d := m.approvals.Pop().(type) {
		case *approval.Dialog:
			if ch, ok := m.replies[d]; ok {
				ch <- agent.ApprovalReply{By: "person", Feedback: "The person pressed Ctrl-C: denied and interrupted."}
				delete(m.replies, d)
			}
		case *approval.QuestionDialog:
			if ch, ok := m.questions[d]; ok {
				ch <- questionReply{err: askuser.ErrDeclined}
				delete(m.questions, d)
			}
		}
	}
	m.interrupt()
	m.quitAt = m.now()
	m.say("Denied and interrupted. Press Ctrl-C again to quit.")
}

// handleAlwaysSaved reports where "Always" rules went.
func (m *Model) handleAlwaysSaved(msg alwaysSavedMsg) {
	if msg.err != nil {
		m.conv.AddError("Could not save " + strings.Join(msg.rules, ", ") + ": " + msg.err.Error())
		return
	}
	m.say("Saved " + strings.Join(msg.rules, ", ") + " to " + m.dialogOptions().AlwaysShown())
}

var _ agent.Approver = (*Bridge)(nil)
