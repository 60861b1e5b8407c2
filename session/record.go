package session

import (
	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/tools"
)

// createDir creates (or, for a resumed id, reopens) a session directory and
// its transcript, and starts spill retention over the earlier sessions in
// the background: it reads every spill directory, and the first frame need
// not wait for that.
func createDir(c *Config, id string) (agent.SessionDir, *agent.Transcript, error) {
	root := agent.StateRoot()
	dir, err := agent.CreateSessionDir(root, id)
	if err != nil {
		return dir, nil, err
	}
	go agent.ApplyRetention(root, dir.ID, c.Settings.Retention.MaxAgeDays, c.Settings.Retention.MaxTotalMB)
	tr, err := agent.OpenTranscript(dir.Transcript())
	return dir, tr, err
}

// recordedPipeline builds the pipeline of a session so that every stage,
// hook verdict, spill file and session grant lands in the transcript (H7,
// H8), with --trace and the UI as further views of the stage events.
func recordedPipeline(c *Config, reg *tools.Registry, dir agent.SessionDir, tr *agent.Transcript, w Wiring) *agent.Pipeline {
	if c.Hooks != nil {
		// Every hook's verdict goes into the audit trail, including
		// failures that an aggregate result would hide.
		// A hook's systemMessage is shown to the person as it comes.
		c.Hooks.Observe(func(in hooks.Input, o hooks.Outcome) {
			tr.Append(agent.EntryHook, hookRecord(in, o))
			if msg := hookMessage(in, o); msg != "" {
				tellPerson(w, msg)
			}
		})
	}
	spill := dir.Spill()
	if c.SpillDir != "" {
		spill = c.SpillDir
	}
	publish, trace := w.Publish, w.Trace
	return &agent.Pipeline{
		Tools: reg, Policy: c.Policy, Mode: c.Mode.Get, Hooks: c.Hooks, Approver: w.Approver,
		WorkDir: c.WorkDir, ProjectDir: c.ProjectDir, SessionID: dir.ID, TranscriptPath: dir.Transcript(),
		SpillDir: spill, MaxOutput: c.MaxOutput, Env: c.Settings.Environ(),
		OnSpill: func(s tools.Spill) { tr.Append(agent.EntrySpill, s) },
		OnGrant: func(rule string) { tr.Append(agent.EntryGrant, map[string]string{"rule": rule}) },
		Sandbox: c.sandboxGate(),
		Observe: func(ev agent.StageEvent) {
			tr.Append(agent.EntryStage, &ev)
			if trace != nil {
				trace(ev)
			}
			if publish != nil {
				publish(agent.Event{Kind: agent.EventStage, Stage: &ev})
			}
		},
	}
}

// hookRecord is how one hook verdict is written to the transcript.
func hookRecord(in hooks.Input, o hooks.Outcome) map[string]any {
	rec := map[string]any{
		"event": in.HookEventName, "hook": o.Hook, "tool": in.ToolName, "tool_use_id": in.ToolUseID,
		"duration_us": o.Duration.Microseconds(),
	}
	if o.Block {
		rec["block"], rec["reason"] = true, o.Reason
	}
	if o.PermissionDecision != "" {
		rec["permission_decision"] = o.PermissionDecision
	}
	if len(o.UpdatedInput) > 0 {
		rec["updated_input"] = o.UpdatedInput
	}
	if o.Err != nil {
		rec["error"] = o.Err.Error()
	}
	recordOutput(rec, o)
	return rec
}
