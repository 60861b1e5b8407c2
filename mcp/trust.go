package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Trust remembers which project .mcp.json files a person approved. A
// project file starts programs on the person's machine, and a cloned
// repository must not do that unasked; the approval is tied to the file's
// exact content, so any later change, a new server or a changed command,
// is asked about again.
type Trust struct {
	file string
	mu   sync.Mutex // serialises this process's read-modify-write of file
}

// trustDoc is the on-disk shape of the trust file.
type trustDoc struct {
	Version int                   `json:"version"`
	Files   map[string]trustEntry `json:"files"`
}

// trustEntry is one approved project file.
type trustEntry struct {
	SHA256   string    `json:"sha256"`
	Approved time.Time `json:"approved"`
}

// NewTrust returns a Trust stored in file, which is created on the first
// approval; see DefaultTrustFile.
func NewTrust(file string) *Trust { return &Trust{file: file} }

// DefaultTrustFile is where approvals live unless the lead chooses
// otherwise: per-machine state, not configuration, so it is under
// $XDG_STATE_HOME (or ~/.local/state) and never in the project.
func DefaultTrustFile() (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no place for the MCP trust file: %w", err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "workbench", "mcp-trust.json"), nil
}

// Trusted reports whether this exact content of the project file at path
// was approved. Anything it cannot establish, an unreadable or corrupt
// trust file included, counts as not trusted, so the person is asked.
func (t *Trust) Trusted(path string, content []byte) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	doc, err := t.read()
	if err != nil {
		return false
	}
	e, ok := doc.Files[trustKey(path)]
	return ok && e.SHA256 == digest(content)
}

// Approve records that the person trusts this content of the project file
// at path, replacing an earlier approval of that path. The trust file is
// rewritten atomically and readable by its owner only.
func (t *Trust) Approve(path string, content []byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	doc, err := t.read()
	if err != nil {
		return err
	}
	doc.Files[trustKey(path)] = trustEntry{SHA256: digest(content), Approved: time.Now().UTC()}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(t.file), 0o700); err != nil {
		return fmt.Errorf("MCP trust file: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(t.file), ".mcp-trust-*")
	if err != nil {
		return fmt.Errorf("MCP trust file: %w", err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("MCP trust file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("MCP trust file: %w", err)
	}
	if err := os.Rename(tmp.Name(), t.file); err != nil {
		return fmt.Errorf("MCP trust file: %w", err)
	}
	return nil
}

// ServerTrusted reports whether the person approved the server name of the
// project file at path exactly as c describes it now.
func (t *Trust) ServerTrusted(path, name string, c ServerConfig) bool {
	return t.Trusted(serverKey(path, name), serverData(c))
}

// ApproveServer records the person's approval of one server of the project
// file at path as c describes it (the one-time question's yes), so the
// answer the project's settings keep holds only for that command.
func (t *Trust) ApproveServer(path, name string, c ServerConfig) error {
	return t.Approve(serverKey(path, name), serverData(c))
}

// serverKey names one server of a project file in the trust record; "#"
// cannot end a file name's clean path, so it is never a whole file's key.
func serverKey(path, name string) string { return trustKey(path) + "#" + name }

// serverData is a server's entry in a stable form (the JSON encoding
// sorts map keys), so the same entry always has the same digest.
func serverData(c ServerConfig) []byte {
	data, _ := json.Marshal(c) // a struct of strings cannot fail to encode
	return data
}

// read loads the trust file; a missing file is an empty one. A corrupt
// file is an error naming it, so Approve does not silently discard the
// other approvals it held.
func (t *Trust) read() (*trustDoc, error) {
	doc := &trustDoc{Version: 1, Files: map[string]trustEntry{}}
	data, err := os.ReadFile(t.file)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return nil, fmt.Errorf("MCP trust file: %w", err)
	}
	if err := json.Unmarshal(data, doc); err != nil {
		return nil, fmt.Errorf("MCP trust file %s is damaged (%v); delete it to approve projects again", t.file, err)
	}
	if doc.Files == nil {
		doc.Files = map[string]trustEntry{}
	}
	return doc, nil
}

// trustKey names a project file by its absolute path with the directory's
// symlinks resolved, so the same file approved through two spellings is one
// entry. The file itself is not resolved: a .mcp.json that is a symlink is
// trusted by its own path and content, wherever it points.
func trustKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	dir, base := filepath.Split(path)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		path = filepath.Join(real, base)
	}
	return filepath.Clean(path)
}

func digest(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}
