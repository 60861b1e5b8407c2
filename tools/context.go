package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/seed92b641c3/workbench/permission"
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
	// Paths is the session's policy on paths, asked while the call runs:
	// which files the agent may see (Grep, Glob and LS leave out the rest)
	// and which places are protected from writes. The pipeline sets it;
	// nil means no rules apply (a tool run on its own, in tests).
	Paths PathPolicy
	// Nonce marks the session's own notices (capped output) for the
	// model, so quoted output cannot pass for them; empty outside a
	// session.
	Nonce string
	// Checked is the call's Target paths as the permission check resolved
	// them; the file tools open exactly these (H17). The pipeline sets it
	// after every check, so a rewritten input brings its own.
	Checked []permission.CheckedPath
}

// PathPolicy is what a running tool asks the session's permission policy
// about paths; *permission.Policy implements it.
type PathPolicy interface {
	// Readable is Allow when the agent may see path; otherwise Deny or
	// Ask, with the Read rule that decides.
	Readable(path string) (permission.Behavior, string)
	// HidesReads reports whether Readable can say anything but Allow.
	HidesReads() bool
	// WriteProtected says why writing path always asks, or "".
	WriteProtected(path string) string
	// Roots are the workspace roots, absolute and symlink-resolved.
	Roots() []string
}

// Readable reports whether the agent may see path, and the rule that hides
// it when it may not. Without a policy everything is readable.
func (c *Context) Readable(path string) (bool, string) {
	if c == nil || c.Paths == nil {
		return true, ""
	}
	b, rule := c.Paths.Readable(path)
	return b == permission.Allow, rule
}

// HidesReads reports whether Readable can say no, so a tool can skip
// counting what it leaves out.
func (c *Context) HidesReads() bool {
	return c != nil && c.Paths != nil && c.Paths.HidesReads()
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

// ErrMoved is the cause of a refusal because a path no longer leads where
// it led when the call's permission was checked.
var ErrMoved = errors.New("the path changed after the permission check")

// CheckedReal returns where the absolute path abs leads now, or refuses
// (ErrMoved, naming both places) when the call's permission check saw it
// lead elsewhere: a tool that searches or lists a directory (Grep, Glob,
// LS) then works on the place that was checked, so a symlink swapped in
// during a slow hook cannot send it outside the workspace (H17). A path
// the check did not see is resolved now.
func (c *Context) CheckedReal(abs string) (string, error) {
	now := permission.Resolve(abs)
	if c == nil {
		return now, nil
	}
	for _, ch := range c.Checked {
		if ch.Path != abs && c.Abs(ch.Path) != abs {
			continue
		}
		if ch.Real != now {
			return "", fmt.Errorf("%w: %s led to %s when it was checked and leads to %s now; nothing was searched (call the tool again to have the new place checked)",
				ErrMoved, abs, ch.Real, now)
		}
		return now, nil
	}
	return now, nil
}
