package session

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/seed92b641c3/workbench/mcp"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/web"
)

// Version is what Workbench reports to servers it talks to and prints for
// --version; the build may set it with -ldflags.
var Version = "0.1.0"

// unavailableTool is a configured tool that could not be installed, with
// why (H12): a search backend without its key, an MCP server that failed.
type unavailableTool struct {
	Name   string
	Reason string
}

// egress holds the tools that reach outside the machine: web and MCP.
type egress struct {
	// mu guards mcp and pending once the session runs: /mcp in the TUI,
	// the one-time question's answer and the session's end come from
	// different goroutines.
	mu          sync.Mutex
	tools       []tools.Tool
	notes       []string
	unavailable []unavailableTool
	mcp         *mcp.Manager
	// pending are a project's servers not started because nobody trusted
	// them yet (its .mcp.json, the mcpServers of its settings files); /mcp
	// trust, or the TUI's question, starts them.
	pending []pendingServers
}

// egressOptions say how project MCP servers are offered.
type egressOptions struct {
	// trustHow tells the person how to trust waiting project servers from
	// this entry point; empty gives the settings keys and /mcp trust.
	trustHow string
}

// startEgress builds WebFetch, WebSearch and the MCP tools. Failures become
// notes and unavailable entries, never a failed start.
func startEgress(ctx context.Context, h *Config, o egressOptions) *egress {
	e := &egress{}
	e.tools = append(e.tools, web.WebFetch(web.FetchConfig{
		Version:              Version,
		AllowPrivate:         func(host string) bool { return namesHost(h.Policy, host) },
		CheckRedirect:        func(host string) error { return redirectAllowed(h, host) },
		Proxy:                h.Settings.WebFetch.Proxy,
		ProxyFromEnvironment: h.Settings.WebFetch.ProxyFromEnvironment,
		MaxBytes:             h.Settings.WebFetch.MaxBytes,
	}))
	// The search backend is probed while MCP servers start; its outcome is
	// merged after both are done, so nothing is shared between goroutines.
	var wg sync.WaitGroup
	var searchTool tools.Tool
	var searchErr error
	ws := h.Settings.WebSearch
	if ws != nil {
		wg.Go(func() {
			cfg := web.SearchConfig{Backend: ws.Backend, APIKey: os.ExpandEnv(ws.APIKey), BaseURL: ws.BaseURL, Version: Version}
			searchTool, searchErr = web.WebSearch(cfg)
			if searchErr == nil {
				pctx, cancel := context.WithTimeout(ctx, web.ProbeTimeout)
				searchErr = web.Probe(pctx, cfg)
				cancel()
			}
		})
	}
	cfg := mcp.Config{}
	for name, s := range h.Settings.MCPServers {
		cfg[name] = mcp.ServerConfig{Type: s.Type, Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers, Sandbox: s.Sandbox}
	}
	// A project's .mcp.json starts only what the person trusts (the
	// content approved with /mcp trust, or enableAllProjectMcpServers and
	// enabledMcpjsonServers in their own settings), whatever the entry
	// point: a cloned repository must not run programs on `workbench tools`.
	var trust *mcp.Trust
	if file, err := mcp.DefaultTrustFile(); err == nil {
		trust = mcp.NewTrust(file)
	}
	pm := h.Settings.ProjectMCP
	ps := mcp.LoadProjectServers(h.ProjectDir, mcp.ProjectPolicy{EnableAll: pm.EnableAll, Enabled: pm.Enabled,
		AnsweredAll: pm.AnsweredAll, Answered: pm.Answered, Disabled: pm.Disabled}, trust)
	switch {
	case ps.Err != nil:
		e.notes = append(e.notes, "MCP: "+ps.Err.Error())
	default:
		for n, c := range ps.Start {
			cfg[n] = c
		}
		if len(ps.Pending) > 0 {
			e.pending = append(e.pending, pendingServers{path: ps.Path, key: ps.Path, data: ps.Data, servers: ps.Pending})
			how := o.trustHow
			if how == "" {
				how = fmt.Sprintf(`add "enabledMcpjsonServers": [%s] (or "enableAllProjectMcpServers": true) to ~/.claude/settings.json, or run /mcp trust in the TUI`, quoted(ps.Pending.Names()))
			}
			e.notes = append(e.notes, ps.PendingNotice(how))
		}
		if len(ps.Disabled) > 0 {
			e.notes = append(e.notes, fmt.Sprintf("MCP servers %s of %s are off (disabledMcpjsonServers)", strings.Join(ps.Disabled, ", "), ps.Path))
		}
	}
	e.projectSettingsServers(h, trust, cfg, o.trustHow)
	// Those waiting for the person's trust too: what they will be shown
	// is the entry, not the script, which must still be theirs.
	for _, p := range e.pending {
		h.protectServers(p.servers)
	}
	if len(cfg) > 0 {
		e.mcp = mcp.NewManager(h.mcpOptions())
		h.protectServers(cfg)
		e.mcp.Start(ctx, cfg)
	}
	wg.Wait()
	if ws != nil {
		if searchErr != nil {
			e.notes = append(e.notes, fmt.Sprintf("WebSearch (%s) is not available: %v", ws.Backend, searchErr))
			e.unavailable = append(e.unavailable, unavailableTool{"WebSearch", searchErr.Error()})
		} else {
			e.tools = append(e.tools, searchTool)
		}
	}
	if e.mcp != nil {
		e.collectMCP()
	}
	return e
}

// collectMCP adds the MCP tools and reports servers that failed (H12).
func (e *egress) collectMCP() {
	e.tools = append(e.tools, e.mcp.Tools()...)
	for _, s := range e.mcp.Servers() {
		if s.Err != nil {
			e.notes = append(e.notes, fmt.Sprintf("MCP server %s failed: %v (retry with /mcp reconnect %s)", s.Name, s.Err, s.Name))
			e.unavailable = append(e.unavailable, unavailableTool{s.Prefix + "*", s.Err.Error()})
		}
		for _, sk := range s.Skipped {
			e.notes = append(e.notes, fmt.Sprintf("MCP tool %s of %s is not offered: %s", sk.Tool, s.Name, sk.Reason))
		}
	}
}

func (e *egress) close() {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.mcp != nil {
		e.mcp.Close()
	}
}

// quoted renders names as JSON strings for a settings line to copy.
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// namesHost reports whether an allow rule names this exact host, which is
// what lets WebFetch reach a loopback or private address (H11). A wildcard
// written for public hosts does not count.
func namesHost(p *permission.Policy, host string) bool {
	for _, r := range p.Rules(permission.Allow) {
		if r.Tool == "WebFetch" && strings.EqualFold(r.Specifier, "domain:"+host) {
			return true
		}
	}
	return false
}

// redirectAllowed checks a redirect to another host against the rules: it
// needs an allow rule of its own, and a deny rule stops it.
func redirectAllowed(h *Config, host string) error {
	d := h.Policy.Evaluate(permission.Request{
		Tool: "WebFetch", Mode: h.Mode.Get(), WorkDir: h.ProjectDir,
		Own:    permission.AskUser("fetch from " + host),
		Target: permission.Target{Host: host},
	})
	switch d.Behavior {
	case permission.Allow:
		return nil
	case permission.Deny:
		return fmt.Errorf("redirect to %s denied: %s", host, d.Message)
	default:
		return fmt.Errorf("redirect to %s needs its own rule, such as WebFetch(domain:%s)", host, host)
	}
}
