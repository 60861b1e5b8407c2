package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
)

// DefaultMaxOutput is the output cap in bytes when none is configured: about
// what a model can take in one result without crowding out the conversation.
const DefaultMaxOutput = 30000

// Context is what a call knows of its session. The pipeline builds one per
// call; tools must not keep it after Call returns.
type Context struct {
	// WorkDir is the project directory relative paths resolve against.
	WorkDir string
	// SessionID and CallID identify the call for spill provenance (H8).
	SessionID string
	CallID    string
	// Tool is the name the call runs under.
	Tool string
	// InputDigest is the sha256 of the validated input, for provenance.
	InputDigest string
	// MaxOutput caps a result's text in bytes; 0 means DefaultMaxOutput.
	MaxOutput int
	// SpillDir receives full output that exceeds the cap; empty means head
	// and tail are kept and the middle is dropped.
	SpillDir string
	// Env holds extra KEY=VALUE entries for child processes.
	Env []string
	// Progress, when set, receives short progress lines while a call runs.
	Progress func(string)
	// OnSpill, when set, is told of every spill file written, so the
	// session can record its provenance in the transcript (H8).
	OnSpill func(Spill)
	// Execute runs another tool through the whole pipeline under its own
	// name. The pipeline sets it only for dispatching tools (Spec.Dispatch),
	// so no other tool can reach around the pipeline (H10).
	Execute func(ctx context.Context, name string, input json.RawMessage) Result
}

// Cap returns the effective output cap.
func (c *Context) Cap() int {
	if c == nil || c.MaxOutput <= 0 {
		return DefaultMaxOutput
	}
	return c.MaxOutput
}

// Abs resolves a path from tool input against the working directory.
func (c *Context) Abs(p string) string {
	if p == "" {
		return c.WorkDir
	}
	if len(p) > 1 && p[0] == '~' && p[1] == '/' {
		if home := homeDir(); home != "" {
			p = filepath.Join(home, p[2:])
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(c.WorkDir, p)
}
