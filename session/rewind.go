package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/rewind"
)

// RewindDir is where a session keeps its checkpoints: the shadow
// repository and the checkpoint log, beside the transcript.
func RewindDir(d agent.SessionDir) string { return filepath.Join(d.Path, "rewind") }

// OpenRewind opens the checkpoints of a session directory for a project,
// for the session itself and for `workbench rewind`.
func OpenRewind(c *Config, d agent.SessionDir) (*rewind.Store, error) {
	return rewind.Open(rewind.Options{Dir: RewindDir(d), WorkTree: c.ProjectDir, Ignore: c.Settings.RewindIgnore, Shared: ProjectRewindDir(c.ProjectDir)})
}

// ProjectRewindDir is what a project's sessions share for their
// checkpoints: the objects, and the index the last session left, so the
// next one's first checkpoint hashes only what changed (named by a hash of
// the project's path, under the state root).
func ProjectRewindDir(project string) string {
	sum := sha256.Sum256([]byte(project))
	return filepath.Join(agent.StateRoot(), "rewind", hex.EncodeToString(sum[:8]))
}

// changesFiles says which calls take a checkpoint first: the file tools,
// Bash (in the foreground or starting a background task), keys sent to a
// shell or a shell started, a monitor's command, and every MCP tool, whose
// effects Workbench cannot see.
func changesFiles(name string) bool {
	switch name {
	case "Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "shell_send", "shell_open", "Monitor":
		return true
	}
	return strings.HasPrefix(name, "mcp__")
}

// wireRewind hangs the session's checkpoints on the pipeline and the loop.
// Without git, or with rewind.disable, the session runs without them and
// says so. A checkpoint that fails never stops the call: it is noted in
// the transcript instead.
func (s *Session) wireRewind(p *agent.Pipeline, cfg *agent.Config) {
	if s.Config.Settings.RewindDisable {
		return
	}
	store, err := OpenRewind(s.Config, s.Dir)
	if err != nil {
		s.Notes = append(s.Notes, "Rewind is off for this session: "+err.Error())
		return
	}
	s.Rewind = store
	note := func(err error) {
		s.Transcript.Append(agent.EntryNotice, map[string]string{"rewind": err.Error()})
	}
	p.BeforeCall = func(ctx context.Context, call agent.Call) {
		if !changesFiles(call.Name) {
			return
		}
		if _, err := store.BeforeCall(context.WithoutCancel(ctx), call.Name, call.ID, callSummary(call.Input)); err != nil {
			note(err)
		}
	}
	// The project's first checkpoint hashes the whole tree: it starts
	// now, in the background, and the prompt's checkpoint does not hold
	// the prompt up either; the first call that can change files waits
	// for it (rewind.Store.BeginPromptInBackground).
	store.Prepare(context.Background())
	cfg.BeforePrompt = func(ctx context.Context, text string) int {
		return store.BeginPromptInBackground(context.WithoutCancel(ctx), text, note)
	}
	cfg.AfterPrompt = func(ctx context.Context) {
		if _, err := store.EndPrompt(context.WithoutCancel(ctx)); err != nil {
			note(err)
		}
	}
}

// callSummary is the part of a call's input a checkpoint list shows: the
// command, the path, or what shell_send types.
func callSummary(in json.RawMessage) string {
	var v struct {
		Command  string `json:"command"`
		FilePath string `json:"file_path"`
		// shell_send's text, or what it pastes, or its named keys.
		Text  string   `json:"text"`
		Paste string   `json:"paste"`
		Keys  []string `json:"keys"`
	}
	json.Unmarshal(in, &v)
	for _, s := range []string{v.Command, v.FilePath, v.Text, v.Paste, strings.Join(v.Keys, " ")} {
		if s != "" {
			return s
		}
	}
	return ""
}

// ClosedRewind is a session's checkpoints opened from outside the session,
// for `workbench rewind`.
type ClosedRewind struct {
	Dir   agent.SessionDir
	Store *rewind.Store
}

// OpenClosedRewind opens the checkpoints of session id of the project
// (its latest session when id is ""). A session of another project, one
// without checkpoints and one still open are refused with nothing changed.
func OpenClosedRewind(c *Config, id string) (*ClosedRewind, error) {
	root := agent.StateRoot()
	if id == "" {
		latest, err := agent.LatestSession(root, c.ProjectDir)
		if err != nil {
			return nil, fmt.Errorf("no session of this project to rewind (%v)", err)
		}
		id = latest
	}
	r, err := agent.LoadSession(root, id)
	if err != nil {
		return nil, err
	}
	if r.Cwd != c.ProjectDir {
		return nil, fmt.Errorf("session %s belongs to %s, not %s: run from there or pass --cwd", id, r.Cwd, c.ProjectDir)
	}
	if _, err := os.Stat(filepath.Join(RewindDir(r.Dir), "checkpoints.jsonl")); err != nil {
		return nil, fmt.Errorf("session %s: %w", id, rewind.ErrNoCheckpoints)
	}
	store, err := OpenRewind(c, r.Dir)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	return &ClosedRewind{Dir: r.Dir, Store: store}, nil
}
