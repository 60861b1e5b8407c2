package rewind

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// Kind says what a checkpoint was taken before (or after).
type Kind string

// The kinds of checkpoint.
const (
	// KindPrompt is taken before a prompt of the person runs: the state a
	// rewind to that prompt goes back to.
	KindPrompt Kind = "prompt"
	// KindCall is taken before a call that can change files.
	KindCall Kind = "call"
	// KindEnd is taken when a prompt's run ended, so what changes after it
	// is the person's own work, which a restore asks about.
	KindEnd Kind = "end"
	// KindRestore is taken before a restore, so the restore can be undone.
	KindRestore Kind = "restore"
	// KindRestored is taken after a restore: the state it left.
	KindRestored Kind = "restored"
)

func (k Kind) valid() bool {
	switch k {
	case KindPrompt, KindCall, KindEnd, KindRestore, KindRestored:
		return true
	}
	return false
}

// Checkpoint is one recorded state of the work tree.
type Checkpoint struct {
	// ID numbers the session's checkpoints from 1, in order.
	ID     int    `json:"id"`
	Kind   Kind   `json:"kind"`
	Prompt int    `json:"prompt"`
	Label  string `json:"label,omitempty"`
	Tool   string `json:"tool,omitempty"`
	CallID string `json:"call_id,omitempty"`
	// Tree is the work tree's git tree id; Commit the shadow commit that
	// holds it.
	Tree   string    `json:"tree"`
	Commit string    `json:"commit"`
	Time   time.Time `json:"time"`
	// Warning names files git could not read, left out of this checkpoint.
	Warning string `json:"warning,omitempty"`
}

// checkpointLog is the store's JSONL list of checkpoints. It is appended
// one whole line per checkpoint; a last line cut short by a crash is left
// out when it is read.
type checkpointLog struct {
	path string
	f    *os.File
	all  []Checkpoint
	// Truncated reports that the log ended in a partial line.
	truncated bool
}

func openLog(path string) (*checkpointLog, error) {
	l := &checkpointLog{path: path}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("rewind: %w", err)
	}
	l.all, l.truncated, err = parseLog(data)
	if err != nil {
		return nil, fmt.Errorf("rewind: %s: %w", path, err)
	}
	if l.truncated {
		// Drop the partial line so the next append starts a whole one.
		if err := os.Truncate(path, int64(bytes.LastIndexByte(data, '\n')+1)); err != nil {
			return nil, fmt.Errorf("rewind: %w", err)
		}
	}
	if l.f, err = os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err != nil {
		return nil, fmt.Errorf("rewind: %w", err)
	}
	return l, nil
}

func parseLog(data []byte) (out []Checkpoint, truncated bool, err error) {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		// A last line without its newline was cut by a crash mid-write.
		data, truncated = data[:bytes.LastIndexByte(data, '\n')+1], true
	}
	for n, line := range bytes.Split(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var c Checkpoint
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, false, fmt.Errorf("line %d is not a checkpoint: %v", n+1, err)
		}
		out = append(out, c)
	}
	return out, truncated, nil
}

func (l *checkpointLog) append(c *Checkpoint) error {
	c.ID = len(l.all) + 1
	line, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if _, err := l.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("rewind: writing the checkpoint log: %w", err)
	}
	l.all = append(l.all, *c)
	return nil
}

func (l *checkpointLog) last() (Checkpoint, bool) {
	if len(l.all) == 0 {
		return Checkpoint{}, false
	}
	return l.all[len(l.all)-1], true
}

func (l *checkpointLog) maxPrompt() int {
	m := 0
	for _, c := range l.all {
		if c.Prompt > m {
			m = c.Prompt
		}
	}
	return m
}

func (l *checkpointLog) close() error {
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// List returns every checkpoint in order.
func (s *Store) List() []Checkpoint {
	defer s.line.enter()()
	return append([]Checkpoint(nil), s.log.all...)
}
