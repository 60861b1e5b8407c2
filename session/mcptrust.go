package session

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/seed92b641c3/workbench/mcp"
	"github.com/seed92b641c3/workbench/settings"
)

// pendingServers are MCP servers of one project file that wait for the
// person's trust.
type pendingServers struct {
	// path is the file, for the person; key and data are what the trust
	// file records (the file and its content, or for a settings file its
	// path with "#mcpServers" and those servers alone, so editing its
	// rules does not ask again while a changed server does).
	path, key string
	data      []byte
	servers   mcp.Config
	// fromSettings holds a settings file's entries as written (nil for a
	// .mcp.json), so an answer that keeps some of them records those.
	fromSettings map[string]settings.MCPServer
}

// settingsServersData is what the trust file records for servers of a
// settings file: their entries, map keys sorted, so the same servers give
// the same bytes.
func settingsServersData(servers map[string]settings.MCPServer) []byte {
	data, _ := json.Marshal(servers) // strings only: it cannot fail
	return data
}

// pendingNames lists every waiting server as "name (file)".
func (e *egress) pendingNames() []string {
	var out []string
	for _, p := range e.pending {
		for _, n := range p.servers.Names() {
			out = append(out, n+" ("+p.path+")")
		}
	}
	return out
}

// projectSettingsServers decides about the mcpServers of a project's own
// settings files: like its .mcp.json, they start (into cfg) only when the
// person approved exactly these servers; otherwise they wait, with a
// notice. enabledMcpjsonServers and enableAllProjectMcpServers are about
// .mcp.json, as in Claude Code, and do not trust them.
func (e *egress) projectSettingsServers(h *Config, trust *mcp.Trust, cfg mcp.Config, how string) {
	for _, f := range h.Settings.ProjectMCPServers {
		// disabledMcpjsonServers (the one-time question's "no") keeps
		// these off too: a restriction is safe to take from anyone.
		kept := map[string]settings.MCPServer{}
		servers := mcp.Config{}
		for name, s := range f.Servers {
			if slices.Contains(h.Settings.ProjectMCP.Disabled, name) {
				continue
			}
			kept[name] = s
			servers[name] = mcp.ServerConfig{Type: s.Type, Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers, Sandbox: s.Sandbox}
		}
		if len(kept) == 0 {
			continue
		}
		data := settingsServersData(kept)
		key := f.Path + "#mcpServers"
		if trust != nil && trust.Trusted(key, data) {
			for n, c := range servers {
				cfg[n] = c
			}
			continue
		}
		e.pending = append(e.pending, pendingServers{path: f.Path, key: key, data: data, servers: servers, fromSettings: kept})
		if how == "" {
			how = "run /mcp trust in the TUI (a project's settings cannot trust themselves)"
		}
		e.notes = append(e.notes, fmt.Sprintf("%s defines MCP servers (%s) in mcpServers that run commands on this machine; none of them starts until you trust them: %s",
			f.Path, strings.Join(servers.Names(), ", "), how))
	}
}
