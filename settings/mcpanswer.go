package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/seed92b641c3/workbench/internal/atomicfile"
)

// RecordMcpjsonAnswer keeps the person's answer to the one-time question
// about a project's .mcp.json servers where Claude Code keeps it: the
// names used go to enabledMcpjsonServers, the names turned off to
// disabledMcpjsonServers (each leaving the other list), in the project's
// local settings file at path. Every other key stays as it was and the
// file is replaced atomically. A file that does not parse is not touched.
// The answer is the person's own: a project they trusted as it was stays
// trusted (the keys are no power of the project's, see ProjectDigest, but
// a new file changes the digest).
func RecordMcpjsonAnswer(path string, enabled, disabled []string) error {
	return keepingTrust(path, func() error { return recordMcpjsonAnswer(path, enabled, disabled) })
}

func recordMcpjsonAnswer(path string, enabled, disabled []string) error {
	doc := map[string]any{}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case len(bytes.TrimSpace(data)) > 0:
		claude := filepath.Base(filepath.Dir(path)) == ".claude"
		if _, err := Parse(path, data, claude); err != nil {
			return fmt.Errorf("not changing %s: %w", path, err)
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return err
		}
	}
	list := func(key string) []string {
		var out []string
		if a, ok := doc[key].([]any); ok {
			for _, v := range a {
				if s, ok := v.(string); ok {
					out = append(out, s)
				}
			}
		}
		return out
	}
	on, off := list("enabledMcpjsonServers"), list("disabledMcpjsonServers")
	for _, n := range enabled {
		off = slices.DeleteFunc(off, func(s string) bool { return s == n })
		if !slices.Contains(on, n) {
			on = append(on, n)
		}
	}
	for _, n := range disabled {
		on = slices.DeleteFunc(on, func(s string) bool { return s == n })
		if !slices.Contains(off, n) {
			off = append(off, n)
		}
	}
	set := func(key string, names []string) {
		if len(names) == 0 {
			delete(doc, key)
			return
		}
		doc[key] = names
	}
	set("enabledMcpjsonServers", on)
	set("disabledMcpjsonServers", off)
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(out, '\n'), 0o644, 0o755)
}
