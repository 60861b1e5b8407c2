package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/seed92b641c3/workbench/internal/atomicfile"
	"io/fs"
	"os"
	"slices"
)

// AddAllowRule appends a rule to permissions.allow of a settings file (the
// approval dialog's "Always"), keeping every other key as it was. The file
// is replaced atomically, so a crash cannot leave half a policy. The rule
// is the person's own: when the file is a project's and the person trusted
// the project as it was, the trust follows the change.
func AddAllowRule(path, rule string) error {
	return keepingTrust(path, func() error { return addAllowRule(path, rule) })
}

func addAllowRule(path, rule string) error {
	doc := map[string]any{}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case len(bytes.TrimSpace(data)) > 0:
		if _, err := Parse(path, data, false); err != nil {
			return fmt.Errorf("not changing %s: %w", path, err)
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return err
		}
	}
	perms, _ := doc["permissions"].(map[string]any)
	if perms == nil {
		perms = map[string]any{}
	}
	var allow []any
	if a, ok := perms["allow"].([]any); ok {
		allow = a
	}
	if slices.Contains(allow, any(rule)) {
		return nil
	}
	perms["allow"] = append(allow, rule)
	doc["permissions"] = perms
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	out = append(out, '\n')
	return atomicfile.Write(path, out, 0o644, 0o755)
}
