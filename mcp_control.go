package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/mcp"
)

// mcpControl answers the UI's /mcp: server status, reconnects, and trusting
// a project's .mcp.json. New tools join the session's registry at once.
type mcpControl struct {
	as *agentSession
	h  *harness
}

func (c *mcpControl) Status() string {
	e := c.as.egress
	var b strings.Builder
	if e.mcp == nil && e.pending == nil {
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
	if e.pending != nil {
		fmt.Fprintf(&b, "Not started until trusted (/mcp trust): %s from %s\n", strings.Join(names(e.pending), ", "), e.pendingPath)
	}
	return strings.TrimRight(b.String(), "\n")
}

func (c *mcpControl) Reconnect(ctx context.Context, name string) (string, error) {
	e := c.as.egress
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
	return c.Status(), nil
}

func (c *mcpControl) Trust(ctx context.Context) (string, error) {
	e := c.as.egress
	if e.pending == nil {
		return "", errors.New("there is no untrusted .mcp.json in this project")
	}
	file, err := mcp.DefaultTrustFile()
	if err != nil {
		return "", err
	}
	if err := mcp.NewTrust(file).Approve(e.pendingPath, e.pendingData); err != nil {
		return "", err
	}
	if e.mcp == nil {
		e.mcp = mcp.NewManager(mcp.Options{Dir: c.h.projectDir, ClientVersion: version})
	}
	e.mcp.Start(ctx, e.pending)
	e.pending = nil
	c.addTools()
	return c.Status(), nil
}

func (c *mcpControl) addTools() {
	for _, t := range c.as.egress.mcp.Tools() {
		c.as.registry.Add(t)
	}
}
