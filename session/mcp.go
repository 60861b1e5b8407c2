package session

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/mcp"
)

// MCPControl answers the UI's /mcp: server status, reconnects, and trusting
// a project's .mcp.json. New tools join the session's registry at once.
type MCPControl struct {
	s *Session
}

// Status lists the servers, their state and tools.
func (c *MCPControl) Status() string {
	c.s.egress.mu.Lock()
	defer c.s.egress.mu.Unlock()
	return c.status()
}

func (c *MCPControl) status() string {
	e := c.s.egress
	var b strings.Builder
	if e.mcp == nil && len(e.pending) == 0 {
		return "No MCP servers are configured (mcpServers in settings, or a project .mcp.json)."
	}
	if e.mcp != nil {
		for _, s := range e.mcp.Servers() {
			fmt.Fprintf(&b, "%s (%s): %s", s.Name, s.Transport, s.State)
			if s.Err != nil {
				fmt.Fprintf(&b, " — %v", s.Err)
			}
			if len(s.Tools) > 0 {
				fmt.Fprintf(&b, "\n  tools: %s", strings.Join(s.Tools, ", "))
			}
			b.WriteString("\n")
		}
	}
	if len(e.pending) > 0 {
		fmt.Fprintf(&b, "Not started until trusted (/mcp trust): %s\n", strings.Join(e.pendingNames(), ", "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// Reconnect restarts one server, or every failed one when name is "".
func (c *MCPControl) Reconnect(ctx context.Context, name string) (string, error) {
	e := c.s.egress
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.mcp == nil {
		return "", errors.New("no MCP servers are running")
	}
	var targets []string
	for _, s := range e.mcp.Servers() {
		if (name == "" && s.State == mcp.StateFailed) || s.Name == name {
			targets = append(targets, s.Name)
		}
	}
	if len(targets) == 0 {
		return "", fmt.Errorf("no server to reconnect (%s)", name)
	}
	for _, n := range targets {
		if err := e.mcp.Reconnect(ctx, n); err != nil {
			return "", fmt.Errorf("%s: %w", n, err)
		}
	}
	c.addTools()
	return c.status(), nil
}

// Trust records the person's trust in the project's waiting servers (its
// .mcp.json, the mcpServers of its settings files), each for its exact
// content, and starts them.
func (c *MCPControl) Trust(ctx context.Context) (string, error) {
	e := c.s.egress
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.pending) == 0 {
		return "", errors.New("this project has no MCP servers waiting for trust")
	}
	file, err := mcp.DefaultTrustFile()
	if err != nil {
		return "", err
	}
	trust := mcp.NewTrust(file)
	start := mcp.Config{}
	for _, p := range e.pending {
		if err := trust.Approve(p.key, p.data); err != nil {
			return "", err
		}
		for n, s := range p.servers {
			start[n] = s
		}
	}
	if e.mcp == nil {
		e.mcp = mcp.NewManager(c.s.Config.mcpOptions())
	}
	c.s.Config.protectServers(start)
	e.mcp.Start(ctx, start)
	e.pending = nil
	c.addTools()
	return c.status(), nil
}

func (c *MCPControl) addTools() {
	for _, t := range c.s.egress.mcp.Tools() {
		c.s.Registry.Add(t)
	}
}
