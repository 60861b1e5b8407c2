package agent

import (
	"encoding/json"

	"github.com/seed92b641c3/workbench/permission"
)

// SandboxPolicy is the session's sandbox as the pipeline sees it (H16). The
// rules decide first; the sandbox then has its say on what asks, and the
// call's record says where the process ran.
type SandboxPolicy interface {
	// Gate adjusts the rules' decision for a call: a call that asks to run
	// outside the sandbox asks even where a rule allows it, and
	// sandbox.autoAllow lets a confined call run that asked only because
	// no rule allows it.
	Gate(tool string, input json.RawMessage, mode permission.Mode, d permission.Decision) permission.Decision
	// Describe says how the call's process runs ("sandbox workspace-write,
	// network none", "outside the sandbox"), or "" for a tool that starts
	// none.
	Describe(tool string, input json.RawMessage) string
}

// gate applies the sandbox's adjustment, if there is a sandbox.
func (p *Pipeline) gate(tool string, input json.RawMessage, mode permission.Mode, d permission.Decision) permission.Decision {
	if p.Sandbox == nil {
		return d
	}
	return p.Sandbox.Gate(tool, input, mode, d)
}

// sandboxOf describes where a call's process runs, if there is a sandbox.
func (p *Pipeline) sandboxOf(tool string, input json.RawMessage) string {
	if p.Sandbox == nil {
		return ""
	}
	return p.Sandbox.Describe(tool, input)
}
