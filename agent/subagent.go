package agent

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/tools"
)

// MaxAgentDepth bounds subagent nesting, so agents cannot recurse without
// end.
const MaxAgentDepth = 3

// AgentName is the subagent tool's name.
const AgentName = "Agent"

//go:embed subagent.md
var agentPrompt string

// AgentDef describes a kind of subagent the model may start.
type AgentDef struct {
	Name        string
	Description string
	// Instructions are added to the child's system prompt.
	Instructions string
	// Tools lists the tools the child may use; empty means all of the
	// parent's. The child never gets more than its parent.
	Tools []string
	// ReadOnly children may run in plan mode.
	ReadOnly bool
	MaxTurns int
}

// DefaultAgents are the built-in subagent kinds.
func DefaultAgents() []AgentDef {
	return []AgentDef{
		{Name: "general-purpose", Description: "Researches and carries out a multi-step task with the same tools as you.", MaxTurns: 50},
		{Name: "explore", Description: "Searches and reads the codebase to answer a question; cannot change anything.",
			Tools: []string{"Read", "LS", "Glob", "Grep", "SearchExtraTools"}, ReadOnly: true, MaxTurns: 30},
	}
}

type agentInput struct {
	Description  string `json:"description"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type"`
}

// AgentTool lets the model hand a task to a child session with its own
// conversation and a subset of tools. The child shares the parent's
// pipeline settings: rules, hooks, approver, deferred set and unlocks (H10),
// so it can do nothing the parent could not.
func (s *Session) AgentTool(defs []AgentDef) tools.Tool {
	var names []string
	var list strings.Builder
	for _, d := range defs {
		names = append(names, d.Name)
		fmt.Fprintf(&list, "- %s: %s\n", d.Name, d.Description)
	}
	find := func(in json.RawMessage) (AgentDef, agentInput, bool) {
		var v agentInput
		json.Unmarshal(in, &v)
		for _, d := range defs {
			if d.Name == v.SubagentType {
				return d, v, true
			}
		}
		return AgentDef{}, v, false
	}
	enum, _ := json.Marshal(names)
	return tools.Build(tools.Spec{
		Name:        AgentName,
		Description: "Start a subagent with its own conversation to carry out a task and report back.",
		Prompt:      agentPrompt + "\nAvailable kinds:\n" + list.String(),
		Schema: `{"type":"object","properties":{
  "description":{"type":"string","minLength":1,"maxLength":80,"description":"a few words saying what the subagent does, shown to the person"},
  "prompt":{"type":"string","minLength":1,"description":"the whole task: the subagent sees nothing else of this conversation"},
  "subagent_type":{"enum":` + string(enum) + `,"default":"general-purpose","description":"which kind of subagent"}
},"required":["description","prompt"],"additionalProperties":false}`,
		ReadOnly: func(in json.RawMessage) bool {
			d, _, ok := find(in)
			return ok && d.ReadOnly
		},
		Permission: tools.AllowSelf,
		Run: func(ctx context.Context, in json.RawMessage, tc *tools.Context) (tools.Result, error) {
			d, v, ok := find(in)
			if !ok {
				return tools.Error(fmt.Sprintf("Unknown subagent kind %q; use one of %s.", v.SubagentType, strings.Join(names, ", "))), nil
			}
			if s.cfg.Depth+1 > MaxAgentDepth {
				return tools.Error(fmt.Sprintf("Subagents may nest at most %d deep; do this task yourself.", MaxAgentDepth)), nil
			}
			return s.runChild(ctx, d, v, tc.CallID)
		},
	})
}

func (s *Session) runChild(ctx context.Context, d AgentDef, v agentInput, callID string) (tools.Result, error) {
	parent := s.cfg.Pipeline
	reg := tools.NewRegistry()
	for _, t := range parent.Tools.List() {
		if len(d.Tools) == 0 || slices.Contains(d.Tools, t.Name()) {
			reg.Add(t)
		}
	}
	child := *parent
	child.Tools = reg
	cfg := s.cfg
	cfg.Pipeline = &child
	cfg.Depth = s.cfg.Depth + 1
	cfg.AgentType = d.Name
	cfg.MaxTurns = d.MaxTurns
	cfg.Transcript = nil // the child's messages are not the parent's history
	cfg.Notifier = nil   // background news goes to the parent
	cfg.SystemFrom = nil
	cfg.System = s.system() + "\n<subagent>\nYou are a subagent (" + d.Name + ") started by another agent for one task. " +
		"Do it and end with a short report of what you found or did; that report is all the other agent will see.\n" + d.Instructions + "\n</subagent>\n"
	// The child's calls are shown and recorded under the Agent call that
	// started them: their ids get its id in front ("agent/child"), the way
	// ExecuteExtraTool's target is nested, so the pipeline panel indents
	// them and the transcript says whose calls they were. The child's own
	// history keeps the model's ids, which its results must pair with.
	nest := func(id string) string { return callID + "/" + id }
	child.Approver = subagentApprover{inner: parent.Approver, agent: d.Name + ": " + v.Description, callID: callID}
	if observe := parent.Observe; observe != nil {
		child.Observe = func(ev StageEvent) {
			ev.CallID = nest(ev.CallID)
			observe(ev)
		}
	}
	parentPublish := s.cfg.Publish
	cfg.Publish = func(ev Event) {
		// Only the child's tool activity reaches the person's view; its
		// text is summarised by the final report.
		switch ev.Kind {
		case EventToolUse, EventToolResult:
			if ev.Call != nil {
				c := *ev.Call
				c.ID = nest(c.ID)
				ev.Call = &c
			}
			parentPublish(ev)
		case EventStage:
			parentPublish(ev)
		}
	}
	if cfg.Deferred != nil {
		child.Runnable = cfg.Deferred.Runnable
		child.Visible = cfg.Deferred.Visible
	}
	prompt := v.Prompt
	if h := parent.Hooks; h != nil && h.Has(hooks.SubagentStart) {
		in := s.hookInput(hooks.SubagentStart)
		_, in.AgentID, _ = strings.Cut(s.id+"/"+callID, "/")
		in.AgentType = d.Name
		sv := h.Begin(ctx, in)
		if sv.Prevent {
			// "continue": false: the subagent does not start, and the
			// run that asked for it ends too.
			if hs, ok := ctx.Value(hookStopKey{}).(*hookStop); ok {
				hs.stop(sv.StopReason)
			}
			return tools.Error("A SubagentStart hook stopped the run: " + sv.StopReason), nil
		}
		if sv.Context != "" {
			// The hooks' additionalContext is for the subagent.
			prompt += "\n\n" + sv.Context
		}
	}
	sub := NewSession(cfg, s.id+"/"+callID, nil)
	out := sub.Prompt(ctx, prompt)
	text := out.Text
	if text == "" {
		text = "(the subagent returned no text)"
	}
	switch out.StopReason {
	case StopCompleted:
		return tools.Text(text), nil
	case StopHookPrevented:
		// A hook's "continue": false in the subagent (its SubagentStop,
		// or one of its calls' hooks) stops everything, as it does in the
		// person's own run: the run that asked for the subagent ends too.
		if hs, ok := ctx.Value(hookStopKey{}).(*hookStop); ok {
			hs.stop(out.Text)
		}
		return tools.Error("A hook stopped the subagent and the run: " + out.Text), nil
	default:
		msg := fmt.Sprintf("The subagent stopped early (%s) after %d turns.", out.StopReason, out.Turns)
		if out.Err != nil {
			msg += " " + out.Err.Error()
		}
		return tools.Error(msg + "\nIts last words:\n" + text), nil
	}
}

// subagentApprover passes a subagent's asks on to the parent's approver,
// saying which subagent asks and placing the call under the Agent call.
type subagentApprover struct {
	inner  Approver
	agent  string
	callID string
}

// Approve implements Approver.
func (a subagentApprover) Approve(ctx context.Context, req ApprovalRequest) ApprovalReply {
	req.CallID = a.callID + "/" + req.CallID
	if req.Agent == "" {
		req.Agent = a.agent
	} else {
		req.Agent = a.agent + " › " + req.Agent
	}
	inner := a.inner
	if inner == nil {
		inner = Headless{}
	}
	return inner.Approve(ctx, req)
}
