// Package agent runs tool calls through the one audited pipeline and, with a
// provider, the turn loop around them. Everything a person sees of a call (the
// pipeline panel, --trace, the transcript) is a view of the StageEvents the
// pipeline emits, so what is shown is what ran.
package agent

import (
	"encoding/json"
	"time"
)

// Stage names one step of the pipeline, in the order they run.
type Stage string

// The stages of a tool call. Recheck appears only when something rewrote the
// input after validation (H2).
const (
	StageLookup     Stage = "lookup"
	StageSchema     Stage = "schema"
	StagePermission Stage = "permission"
	StagePreHook    Stage = "pre_hook"
	StageRecheck    Stage = "recheck"
	StageCall       Stage = "call"
	StageCapture    Stage = "capture"
	StagePostHook   Stage = "post_hook"
	StageResult     Stage = "result"
)

// Outcomes a stage can end with. Permission stages use the permission
// behaviours (allow, deny, ask) and approval outcomes (approved, rejected).
const (
	OutcomeOK        = "ok"
	OutcomeError     = "error"
	OutcomeAllow     = "allow"
	OutcomeDeny      = "deny"
	OutcomeAsk       = "ask"
	OutcomeApproved  = "approved"
	OutcomeRejected  = "rejected"
	OutcomeBlock     = "block"
	OutcomeRewrite   = "rewrite"
	OutcomeSkipped   = "skipped"
	OutcomeSpilled   = "spilled"
	OutcomeTruncated = "truncated"
	OutcomeStart     = "start"
	OutcomeCancelled = "cancelled"
	OutcomePanic     = "panic"
	// OutcomeProgress is a line a running tool reported (an MCP server's
	// progress notification, a command's latest output): a call-stage
	// event that ends nothing, and may come from the tool's goroutines.
	OutcomeProgress = "progress"
)

// StageEvent is one step of one call. Its JSON form is what `--trace`
// prints and what the transcript records (H7).
type StageEvent struct {
	CallID      string          `json:"call_id"`
	Tool        string          `json:"tool"`
	Stage       Stage           `json:"stage"`
	Outcome     string          `json:"outcome"`
	Detail      string          `json:"detail,omitempty"`
	Rule        string          `json:"rule,omitempty"`
	DurationUS  int64           `json:"duration_us"`
	Bytes       int64           `json:"bytes,omitempty"`
	SpillPath   string          `json:"spill_path,omitempty"`
	SHA256      string          `json:"sha256,omitempty"`
	InputDigest string          `json:"input_digest,omitempty"`
	Input       json.RawMessage `json:"input,omitempty"`
	// Sandbox, on a call's start, says where its process runs (H16).
	Sandbox string    `json:"sandbox,omitempty"`
	Time    time.Time `json:"time"`
}
