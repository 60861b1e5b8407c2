package agent

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/permission"
)

// Restored is what a transcript gives back to a resumed session: the
// conversation, the rules granted for the session and the unlocked tools
// (H10), so resuming changes nothing about what may run.
type Restored struct {
	Dir     SessionDir
	Cwd     string
	History []provider.Message
	// grants are the rules granted during the recorded session; see
	// GrantsFor, the only way to them.
	grants  []string
	Unlocks []string
	// PersonCommands are the person's own commands (`!cmd`), each with
	// its place in History.
	PersonCommands []PersonCommand
	// Nonce marks the recorded session's own notices; the resumed session
	// keeps it, so they still read as genuine (see Config.Nonce).
	Nonce string
	// Truncated reports that the transcript ended in a partial entry (a
	// crash mid-write); everything before it was restored.
	Truncated bool
	// Context is how full the context window was at the end (see
	// Session.ResumeContext).
	Context ContextAtEnd
}

// LoadSession reads a session's transcript.
func LoadSession(root, id string) (*Restored, error) {
	if !ValidSessionID(id) {
		return nil, fmt.Errorf("invalid session id %q", id)
	}
	dir := SessionDir{ID: id, Path: filepath.Join(root, "sessions", id)}
	f, err := os.Open(dir.Transcript())
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no session %q in %s", id, filepath.Join(root, "sessions"))
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := ReadTranscript(f)
	r := &Restored{Dir: dir}
	if errors.Is(err, ErrTruncated) {
		r.Truncated = true
	} else if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	for i, e := range entries {
		r.Context = replayContext(r.Context, e)
		switch e.Type {
		case EntrySession:
			var v struct {
				Cwd string `json:"cwd"`
			}
			json.Unmarshal(e.Data, &v)
			if r.Cwd == "" {
				r.Cwd = v.Cwd
			}
		case EntryMessage, EntryClear, EntryCompact, EntryRewind:
			before := r.History
			r.History = replayHistory(r.History, entries, i)
			r.PersonCommands = placePersonCommands(r.PersonCommands, e.Type, before, r.History)
		case EntryPersonCommand:
			if c, ok := readPersonCommand(e.Data, r.History); ok {
				r.PersonCommands = append(r.PersonCommands, c)
			}
		case EntryGrant:
			var v struct {
				Rule string `json:"rule"`
			}
			if json.Unmarshal(e.Data, &v) == nil && v.Rule != "" {
				r.grants = append(r.grants, v.Rule)
			}
		case EntryNonce:
			var v struct {
				Nonce string `json:"nonce"`
			}
			if json.Unmarshal(e.Data, &v) == nil && validNonce(v.Nonce) {
				r.Nonce = v.Nonce
			}
		case EntryUnlock:
			var v struct {
				Tools []string `json:"tools"`
			}
			if json.Unmarshal(e.Data, &v) == nil {
				r.Unlocks = append(r.Unlocks, v.Tools...)
			}
		}
	}
	r.History = repairHistory(r.History)
	return r, nil
}

// GrantsFor returns the session grants to restore into a session working
// in projectDir: all of them when the transcript was recorded in that
// project, none otherwise, since a rule granted in one project
// (`Edit(./**)`, `Bash(rm:*)`) says nothing about another. withheld counts
// the grants left out, so the person can be told.
func (r *Restored) GrantsFor(projectDir string) (grants []string, withheld int) {
	if r.Cwd != "" && samePlace(r.Cwd, projectDir) {
		return append([]string(nil), r.grants...), 0
	}
	return nil, len(r.grants)
}

// samePlace reports whether two directory names lead to the same place.
func samePlace(a, b string) bool {
	abs := func(p string) string {
		if q, err := filepath.Abs(p); err == nil {
			p = q
		}
		return permission.Resolve(p)
	}
	return abs(a) == abs(b)
}

// restoreCompaction redoes a recorded compaction on the history read so
// far: the same tool results cleared, and the same summary in front of the
// same latest messages. A record that does not fit the history (a
// transcript edited by hand) leaves the history whole rather than guessing.
func restoreCompaction(h []provider.Message, c compactRecord) []provider.Message {
	applyStubs(h, c.Stubs)
	if len(c.Head) == 0 || c.Kept < 0 || c.Kept > len(h) {
		return h
	}
	return append(append([]provider.Message(nil), c.Head...), h[len(h)-c.Kept:]...)
}

// repairHistory makes a history a model accepts again after a crash: tool
// calls whose results were never written get an interrupted result.
func repairHistory(h []provider.Message) []provider.Message {
	if len(h) == 0 {
		return h
	}
	last := h[len(h)-1]
	if last.Role != provider.RoleAssistant || len(last.ToolUses()) == 0 {
		return h
	}
	var blocks []provider.Block
	for _, u := range last.ToolUses() {
		blocks = append(blocks, provider.ToolResultBlock(u.ToolUseID, "The tool call was interrupted: the session ended before it finished.", true))
	}
	return append(h, provider.Message{Role: provider.RoleUser, Blocks: blocks})
}

// SessionInfo describes an earlier session for a list to choose from.
type SessionInfo struct {
	ID       string
	Modified time.Time
	// FirstPrompt is what the person first asked, so they can tell the
	// sessions apart.
	FirstPrompt string
}

// ListSessions returns the sessions of a project directory that hold a
// conversation, newest first. A session opened and left without a prompt
// has nothing to go back to and is left out.
func ListSessions(root, cwd string) []SessionInfo {
	dirs, err := os.ReadDir(filepath.Join(root, "sessions"))
	if err != nil {
		return nil
	}
	var out []SessionInfo
	for _, d := range dirs {
		if !d.IsDir() || !ValidSessionID(d.Name()) {
			continue
		}
		tp := filepath.Join(root, "sessions", d.Name(), "transcript.jsonl")
		info, err := os.Stat(tp)
		if err != nil {
			continue
		}
		dir, prompt := sessionHead(tp)
		if dir != cwd || prompt == "" {
			continue
		}
		out = append(out, SessionInfo{ID: d.Name(), Modified: info.ModTime(), FirstPrompt: prompt})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Modified.After(out[j].Modified) })
	return out
}

// LatestSession finds the most recent session started in a project
// directory, for --continue.
func LatestSession(root, cwd string) (string, error) {
	list := ListSessions(root, cwd)
	if len(list) == 0 {
		return "", fmt.Errorf("no earlier session in %s", cwd)
	}
	return list[0].ID, nil
}

// headEntries bounds how far sessionHead reads into a transcript for the
// first prompt: it comes right after the session entry and a few notices.
const headEntries = 50

// sessionHead reads a transcript's project directory from its first entry
// and the text of its first prompt.
func sessionHead(path string) (cwd, prompt string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 0; n < headEntries && sc.Scan(); n++ {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			return cwd, ""
		}
		switch {
		case n == 0 && e.Type != EntrySession:
			return "", ""
		case n == 0:
			var v struct {
				Cwd string `json:"cwd"`
			}
			json.Unmarshal(e.Data, &v)
			cwd = v.Cwd
		case e.Type == EntryPersonCommand:
			// A session of the person's own commands is one to go back to.
			if c, ok := readPersonCommand(e.Data, nil); ok {
				return cwd, "!" + c.Command
			}
		case e.Type == EntryMessage:
			var m provider.Message
			if json.Unmarshal(e.Data, &m) != nil || m.Role != provider.RoleUser {
				continue
			}
			// The prompt is the last text block; notifications and hook
			// context come before it.
			for i := len(m.Blocks) - 1; i >= 0; i-- {
				if m.Blocks[i].Type == provider.BlockText && m.Blocks[i].Text != "" {
					return cwd, m.Blocks[i].Text
				}
			}
		}
	}
	return cwd, ""
}

// OpenExistingSession reopens a session directory for appending.
func OpenExistingSession(root, id string) (SessionDir, error) {
	return CreateSessionDir(root, id)
}
