package agent

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// StateRoot is where every session of every project lives:
// $XDG_STATE_HOME/workbench, or ~/.local/state/workbench when unset. One tree
// holds transcripts, spill files and task output (H14).
func StateRoot() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "workbench")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return filepath.Join(os.TempDir(), "workbench-state")
	}
	return filepath.Join(home, ".local", "state", "workbench")
}

var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidSessionID reports whether an id is safe to build paths from (H14).
func ValidSessionID(id string) bool { return sessionIDPattern.MatchString(id) }

// NewSessionID makes an id that sorts by creation time and cannot collide
// with another session started in the same second.
func NewSessionID() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// SessionDir is one session's directory in the state tree.
type SessionDir struct {
	ID   string
	Path string
}

// CreateSessionDir makes the directory of a session (mode 0700: transcripts
// and output can hold secrets).
func CreateSessionDir(root, id string) (SessionDir, error) {
	if !ValidSessionID(id) {
		return SessionDir{}, fmt.Errorf("invalid session id %q: use letters, digits, '_' and '-' (at most 64)", id)
	}
	dir := filepath.Join(root, "sessions", id)
	for _, d := range []string{dir, filepath.Join(dir, "spill"), filepath.Join(dir, "tasks")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return SessionDir{}, fmt.Errorf("creating session directory: %w", err)
		}
	}
	return SessionDir{ID: id, Path: dir}, nil
}

// Transcript is the path of the session's transcript.
func (s SessionDir) Transcript() string { return filepath.Join(s.Path, "transcript.jsonl") }

// Spill is the directory of the session's spill files.
func (s SessionDir) Spill() string { return filepath.Join(s.Path, "spill") }

// Tasks is the directory of the session's background task output.
func (s SessionDir) Tasks() string { return filepath.Join(s.Path, "tasks") }
