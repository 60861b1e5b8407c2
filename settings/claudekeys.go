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

// claudeSandboxRead are the keys of Claude Code's "sandbox" object that
// Workbench reads (claudeSandbox), by path.
var claudeSandboxRead = []string{
	"failIfUnavailable", "autoAllowBashIfSandboxed", "allowUnsandboxedCommands",
	"filesystem.allowWrite", "filesystem.denyRead", "filesystem.allowRead",
	"network.allowedDomains", "network.allowAllUnixSockets",
}

// claudeSandboxUnread says, for the sandbox keys of Claude Code that
// Workbench knows but does not follow, what happens instead: each reads
// stricter here, and a Claude Code user whose docker socket or excluded
// command stops working should know why from the start.
var claudeSandboxUnread = map[string]string{
	"excludedCommands":          "they run in the sandbox like every command (a call with dangerouslyDisableSandbox asks)",
	"network.allowUnixSockets":  "sockets stay closed (sandbox.allowAllUnixSockets opens all of them)",
	"network.allowLocalBinding": "loopback in the sandbox's own network works; your host's does not",
}

// claudeSandboxKeysNotRead is one notice for the keys of a Claude Code
// file's sandbox object that Workbench does not read, at the line of the
// first, with what happens instead. "enabled": false is one of them: the
// sandbox stays on.
func claudeSandboxKeysNotRead(path string, data []byte) []Notice {
	var top struct {
		Sandbox map[string]json.RawMessage `json:"sandbox"`
	}
	if json.Unmarshal(data, &top) != nil || top.Sandbox == nil {
		return nil
	}
	var keys, why []string
	add := func(k string) {
		keys = append(keys, k)
		if w, ok := claudeSandboxUnread[k]; ok {
			why = append(why, k+": "+w)
		}
	}
	for k, v := range top.Sandbox {
		switch k {
		case "filesystem", "network":
			var sub map[string]json.RawMessage
			if json.Unmarshal(v, &sub) != nil {
				continue // parseSandbox names that error
			}
			for s := range sub {
				if !slices.Contains(claudeSandboxRead, k+"."+s) {
					add(k + "." + s)
				}
			}
		case "enabled":
			if string(v) == "false" {
				keys = append(keys, k)
				why = append(why, "enabled false: the sandbox stays on (sandbox.mode \"off\" in Workbench's own settings turns it off)")
			}
		default:
			if !slices.Contains(claudeSandboxRead, k) {
				add(k)
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	slices.Sort(keys)
	slices.Sort(why)
	msg := "not read from Claude Code's sandbox settings"
	if len(why) > 0 {
		msg += "; " + strings.Join(why, "; ")
	}
	n := Notice{Path: path, Field: "sandbox." + strings.Join(keys, ", sandbox."), Msg: msg}
	first := int64(-1)
	for _, k := range keys {
		parts := strings.Split(k, ".")
		if off := locate(data, append([]string{"sandbox"}, parts...)); off >= 0 && (first < 0 || off < first) {
			first = off
		}
	}
	if first >= 0 {
		n.Line, n.Column = position(data, first)
	}
	return []Notice{n}
}
