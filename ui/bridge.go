// Package ui is the bubbletea application: the conversation, the live
// pipeline panel, the approval modal, panes and the input. It is a view of
// what the agent session publishes; no goroutine touches the model directly.
package ui

import (
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools/askuser"
	"github.com/seed92b641c3/workbench/ui/approval"
)

// Bridge carries what the agent's goroutines produce to the UI's single
// goroutine: session events, approval requests and questions. Events are
// batched, so a burst of text deltas costs one message to the UI, not one
// per delta.
type Bridge struct {
	mu     sync.Mutex
	events []agent.Event
	// dropped are replies nobody waits for any more (the call was
	// cancelled while its dialog was open); the UI closes their dialogs.
	dropped []chan agent.ApprovalReply
	// msgs are UI messages from other goroutines (a PTY session opened).
	msgs  []tea.Msg
	wake  chan struct{}
	asks  chan pendingAsk
	quest chan pendingQuestion
	quit  chan struct{}
	once  sync.Once
	// options builds what an approval dialog needs; the dialog is built in
	// wait's goroutine because it reads the file under review (no IO in
	// Update).
	options func() approval.Options
}

type pendingAsk struct {
	req   agent.ApprovalRequest
	reply chan agent.ApprovalReply
}

type pendingQuestion struct {
	qs    []askuser.Question
	reply chan questionReply
}

type questionReply struct {
	answers []askuser.Answer
	err     error
}

// NewBridge makes an empty bridge.
func NewBridge() *Bridge {
	return &Bridge{wake: make(chan struct{}, 1), asks: make(chan pendingAsk), quest: make(chan pendingQuestion), quit: make(chan struct{})}
}

// Close ends the bridge: the UI stops waiting and pending approvals are
// denied, so no agent goroutine waits for a screen that is gone.
func (b *Bridge) Close() { b.once.Do(func() { close(b.quit) }) }

// Publish is the session's event sink; it never blocks.
func (b *Bridge) Publish(ev agent.Event) {
	b.mu.Lock()
	b.events = append(b.events, ev)
	b.mu.Unlock()
	b.poke()
}

func (b *Bridge) poke() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// WatchShells shows every PTY session the manager opens as a pane, live.
// It returns when the bridge closes.
func (b *Bridge) WatchShells(m *pty.Manager) {
	events, stop := m.Subscribe()
	defer stop()
	for {
		select {
		case <-b.quit:
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			if ev.Kind == pty.EventExited {
				b.shellEnded(m, ev.ID)
				continue
			}
			if ev.Kind != pty.EventOpened {
				continue
			}
			if s, ok := m.Get(ev.ID); ok {
				b.mu.Lock()
				b.msgs = append(b.msgs, paneOpenedMsg{s: s})
				b.mu.Unlock()
				b.poke()
			}
		}
	}
}

// Approve implements agent.Approver: it waits for the person's answer in
// the modal, or for the call's context to end.
func (b *Bridge) Approve(ctx context.Context, req agent.ApprovalRequest) agent.ApprovalReply {
	reply := make(chan agent.ApprovalReply, 1)
	select {
	case b.asks <- pendingAsk{req: req, reply: reply}:
	case <-ctx.Done():
		return agent.ApprovalReply{By: "person", Feedback: "cancelled"}
	case <-b.quit:
		return agent.ApprovalReply{By: "person", Feedback: "Workbench is quitting"}
	}
	select {
	case r := <-reply:
		return r
	case <-ctx.Done():
		b.mu.Lock()
		b.dropped = append(b.dropped, reply)
		b.mu.Unlock()
		b.poke()
		return agent.ApprovalReply{By: "person", Feedback: "cancelled"}
	case <-b.quit:
		return agent.ApprovalReply{By: "person", Feedback: "Workbench is quitting"}
	}
}

// Ask implements askuser.Asker through the same modal machinery.
func (b *Bridge) Ask(ctx context.Context, qs []askuser.Question) ([]askuser.Answer, error) {
	reply := make(chan questionReply, 1)
	select {
	case b.quest <- pendingQuestion{qs: qs, reply: reply}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-b.quit:
		return nil, askuser.ErrDeclined
	}
	select {
	case r := <-reply:
		return r.answers, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-b.quit:
		return nil, askuser.ErrDeclined
	}
}

// eventsMsg is a batch of session events.
type eventsMsg []agent.Event

// askMsg is an approval request with its dialog, built outside Update.
type askMsg struct {
	dialog *approval.Dialog
	reply  chan agent.ApprovalReply
}

// droppedMsg lists approval replies nobody waits for any more.
type droppedMsg []chan agent.ApprovalReply

// questionMsg is an AskUserQuestion for the modal.
type questionMsg pendingQuestion

// wait returns a command that delivers the next thing from the agent side.
// The root re-issues it after each delivery, so exactly one is pending.
func (b *Bridge) wait() tea.Cmd {
	return func() tea.Msg {
		for {
			b.mu.Lock()
			if len(b.msgs) > 0 {
				msg := b.msgs[0]
				b.msgs = b.msgs[1:]
				b.mu.Unlock()
				return msg
			}
			if len(b.dropped) > 0 {
				d := b.dropped
				b.dropped = nil
				b.mu.Unlock()
				return droppedMsg(d)
			}
			if len(b.events) > 0 {
				batch := b.events
				b.events = nil
				b.mu.Unlock()
				return eventsMsg(batch)
			}
			b.mu.Unlock()
			select {
			case <-b.wake:
			case <-b.quit:
				return nil
			case a := <-b.asks:
				var opts approval.Options
				if b.options != nil {
					opts = b.options()
				}
				return askMsg{dialog: approval.New(a.req, opts), reply: a.reply}
			case q := <-b.quest:
				return questionMsg(q)
			}
		}
	}
}
