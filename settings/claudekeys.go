package settings

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// claudeKeysRead are the top-level keys of Claude Code's settings files
// that Workbench reads (README, Claude Code compatibility); "$schema" is
// an editor's hint, not a setting.
var claudeKeysRead = []string{
	"$schema", "permissions", "hooks", "sandbox",
	"enableAllProjectMcpServers", "enabledMcpjsonServers", "disabledMcpjsonServers",
}

// claudeKeysNotRead is one notice for a Claude Code settings file naming
// the keys Workbench does not read there (env, model, statusLine, ...), at
// the line of the first: a Claude Code user should learn that their env
// or model does not apply here, not find out later.
func claudeKeysNotRead(path string, data []byte) []Notice {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil
	}
	var keys []string
	first := int64(-1)
	for k := range top {
		if slices.Contains(claudeKeysRead, k) {
			continue
		}
		keys = append(keys, k)
		if off := findKey(data, k); off >= 0 && (first < 0 || off < first) {
			first = off
		}
	}
	if len(keys) == 0 {
		return nil
	}
	slices.Sort(keys)
	n := Notice{Path: path, Field: strings.Join(keys, ", "),
		Msg: fmt.Sprintf("not read from Claude Code's files (Workbench reads %s there; Workbench's own settings in .workbench/ have env and model)",
			strings.Join(claudeKeysRead[1:], ", "))}
	if first >= 0 {
		n.Line, n.Column = position(data, first)
	}
	return []Notice{n}
}
