package conversation

import (
	"fmt"
	"strings"
	"time"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/agent/provider"
)

// Apply shows one session event, so the root model can hand every event to
// the conversation without knowing which ones it draws. Durations come from
// the pipeline's call stage and a rewritten input replaces the one shown,
// so the line under a call says what ran and how long it took. It reports
// whether the view changed.
func (v *View) Apply(ev agent.Event) bool {
	switch ev.Kind {
	case agent.EventTurnStart:
		v.turnStart = len(v.entries)
		return false
	case agent.EventDiscard:
		return v.DiscardReply()
	case agent.EventText:
		v.AppendAssistantDelta(ev.Text)
	case agent.EventThinking:
		v.AddThinking(ev.Text)
	case agent.EventToolUse:
		if ev.Call == nil {
			return false
		}
		v.AddToolUse(ev.Call.ID, ev.Call.Name, ev.Call.Input)
	case agent.EventStage:
		return ev.Stage != nil && v.applyStage(*ev.Stage)
	case agent.EventToolResult:
		if ev.Call == nil || ev.Result == nil {
			return false
		}
		if _, _, ok := v.toolOrChild(ev.Call.ID); !ok {
			v.AddToolUse(ev.Call.ID, ev.Call.Name, ev.Call.Input)
		}
		dur := v.durations[ev.Call.ID]
		delete(v.durations, ev.Call.ID)
		v.SetToolResult(ev.Call.ID, *ev.Result, dur)
	case agent.EventNotice, agent.EventNotification:
		if strings.TrimSpace(ev.Text) == "" {
			return false
		}
		v.AddNotice(ev.Text)
	case agent.EventAssistant:
		if !v.streamed && ev.Message != nil {
			// Nothing was streamed: the text only arrives whole.
			v.AddAssistant(messageText(*ev.Message))
		}
		v.FinishAssistant()
		v.streamed = false
	case agent.EventDone:
		v.FinishAssistant()
		v.streamed = false
		return v.applyOutcome(ev.Outcome)
	default:
		return false
	}
	return true
}

// applyStage takes what the conversation shows from a stage event: the
// wait for approval, a rewritten input and the call's duration.
func (v *View) applyStage(st agent.StageEvent) bool {
	switch {
	case st.Outcome == agent.OutcomeAsk:
		return v.SetToolWaiting(st.CallID, true)
	case st.Stage == agent.StagePermission && st.Outcome != agent.OutcomeAllow:
		return v.SetToolWaiting(st.CallID, false)
	case st.Outcome == agent.OutcomeRewrite && len(st.Input) > 0:
		i, t, ok := v.toolOrChild(st.CallID)
		if !ok {
			return false
		}
		t.input = st.Input
		v.changed(i)
		return true
	case st.Stage == agent.StageCall && st.Outcome != agent.OutcomeStart && st.Outcome != agent.OutcomeProgress:
		v.durations[st.CallID] = time.Duration(st.DurationUS) * time.Microsecond
	}
	return false
}

// applyOutcome reports how a run ended when it did not simply complete.
func (v *View) applyOutcome(o *agent.Outcome) bool {
	if o == nil {
		return false
	}
	switch o.StopReason {
	case agent.StopCompleted, "":
		return false
	case agent.StopModelError:
		msg := "The model call failed"
		if o.Err != nil {
			msg += ": " + o.Err.Error()
		}
		v.AddError(msg)
	case agent.StopAborted:
		v.AddNotice("Interrupted.")
	case agent.StopMaxTurns:
		v.AddNotice(fmt.Sprintf("Stopped after %d turns (the turn limit).", o.Turns))
	case agent.StopMaxDuration:
		v.AddNotice("Stopped: the run timed out.")
	default:
		text := "Stopped: " + strings.ReplaceAll(o.StopReason, "_", " ")
		if o.Err != nil {
			text += ": " + o.Err.Error()
		}
		v.AddNotice(text)
	}
	return true
}

// messageText joins the text blocks of a message.
func messageText(m provider.Message) string {
	var parts []string
	for _, b := range m.Blocks {
		if b.Type == provider.BlockText && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}
