package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
	tools       []tools.Tool
	notes       []string
	unavailable []unavailableTool
	mcp         *mcp.Manager
	// pending is a project .mcp.json not started because nobody trusted it
	// yet; /mcp trust starts it.
	pending     mcp.Config
	pendingPath string
	pendingData []byte
}

// egressOptions say how project MCP servers are treated.
type egressOptions struct {
	// startUntrusted starts project .mcp.json servers without asking
	// (headless runs, which say so on stderr).
	startUntrusted bool
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
		cfg[name] = mcp.ServerConfig{Type: s.Type, Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers}
	}
	projFile := filepath.Join(h.ProjectDir, mcp.ProjectFileName)
	if data, err := os.ReadFile(projFile); err == nil {
		proj, perr := mcp.ParseFile(projFile, data)
		switch {
		case perr != nil:
			e.notes = append(e.notes, "MCP: "+perr.Error())
		case len(proj) == 0:
		case o.startUntrusted || trusted(projFile, data):
			if o.startUntrusted && !trusted(projFile, data) {
				e.notes = append(e.notes, fmt.Sprintf("starting the MCP servers of %s (%s) without asking: this is a headless run", projFile, strings.Join(names(proj), ", ")))
			}
			for n, c := range proj {
				cfg[n] = c
			}
		default:
			e.pending, e.pendingPath, e.pendingData = proj, projFile, data
			e.notes = append(e.notes, fmt.Sprintf("%s defines MCP servers (%s) that run commands on this machine; they start once you trust the file with /mcp trust", projFile, strings.Join(names(proj), ", ")))
		}
	}
	if len(cfg) > 0 {
		e.mcp = mcp.NewManager(mcp.Options{Dir: h.ProjectDir, ClientVersion: Version})
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
	if e != nil && e.mcp != nil {
		e.mcp.Close()
	}
}

func trusted(path string, data []byte) bool {
	file, err := mcp.DefaultTrustFile()
	if err != nil {
		return false
	}
	return mcp.NewTrust(file).Trusted(path, data)
}

func names(c mcp.Config) []string {
	var out []string
	for n := range c {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
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
