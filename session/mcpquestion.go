package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/seed92b641c3/workbench/mcp"
	"github.com/seed92b641c3/workbench/settings"
)

// MCPQuestion is the TUI's one-time question about a trusted project's MCP
// servers that nobody has answered for yet: its .mcp.json servers not in
// enabledMcpjsonServers or disabledMcpjsonServers (or changed since the
// person approved them), and the mcpServers of its own settings files.
type MCPQuestion struct {
	Servers []MCPQuestionServer
	// AnswerFile is where the answer is kept (Config.AnswerFile).
	AnswerFile string
}

// MCPQuestionServer is one server the question asks about.
type MCPQuestionServer struct {
	Name string
	// File is the file that defines it.
	File string
	// Runs is what starting it does, for the person to judge: the command
	// line of a stdio server, or the URL of an HTTP one.
	Runs string
}

// Question returns the one-time question, or nil when there is nothing to
// ask: no server waits, or the project is not trusted (its own files then
// restrict only, and the project's trust is asked first).
func (c *MCPControl) Question() *MCPQuestion {
	c.s.egress.mu.Lock()
	defer c.s.egress.mu.Unlock()
	return c.question()
}

func (c *MCPControl) question() *MCPQuestion {
	cfg := c.s.Config
	if !cfg.ProjectTrusted || len(c.s.egress.pending) == 0 {
		return nil
	}
	q := &MCPQuestion{AnswerFile: cfg.AnswerFile}
	for _, p := range c.s.egress.pending {
		for _, n := range p.servers.Names() {
			q.Servers = append(q.Servers, MCPQuestionServer{Name: n, File: p.path, Runs: runs(p.servers[n])})
		}
	}
	return q
}

// runs says what a server entry starts.
func runs(c mcp.ServerConfig) string {
	if c.Command == "" {
		return c.URL
	}
	return strings.Join(append([]string{c.Command}, c.Args...), " ")
}

// Answer records the person's answer to the question and acts on it: the
// servers named in use start now and later, every other server the
// question asked about is turned off for good. As Claude Code does, the
// names go to enabledMcpjsonServers and disabledMcpjsonServers of the
// answer file; this machine's MCP trust record also keeps each used server
// as it is now, since the answer file is in the project, where a
// repository could have put the same names (see mcp.ProjectPolicy). Either
// way the question is not put again for these servers.
func (c *MCPControl) Answer(ctx context.Context, use []string) (string, error) {
	c.s.egress.mu.Lock()
	defer c.s.egress.mu.Unlock()
	q := c.question()
	if q == nil {
		return "", errors.New("no MCP server of this project waits for an answer")
	}
	file, err := mcp.DefaultTrustFile()
	if err != nil {
		return "", err
	}
	trust := mcp.NewTrust(file)
	var on, off []string
	start := mcp.Config{}
	var approvals []func() error
	for _, p := range c.s.egress.pending {
		kept := map[string]settings.MCPServer{}
		for _, n := range p.servers.Names() {
			if !slices.Contains(use, n) {
				off = append(off, n)
				continue
			}
			on = append(on, n)
			start[n] = p.servers[n]
			if p.fromSettings != nil {
				kept[n] = p.fromSettings[n]
				continue
			}
			path, cfg := p.path, p.servers[n]
			approvals = append(approvals, func() error { return trust.ApproveServer(path, n, cfg) })
		}
		if len(kept) > 0 {
			// The settings file's servers that stay on, as a whole: the
			// ones turned off are recorded as such, so the next start
			// finds exactly these.
			key := p.key
			approvals = append(approvals, func() error { return trust.Approve(key, settingsServersData(kept)) })
		}
	}
	// The answer first: an approval without it starts nothing, so a
	// failure part way leaves the question to be asked again.
	if err := settings.RecordMcpjsonAnswer(q.AnswerFile, on, off); err != nil {
		return "", fmt.Errorf("the answer was not recorded: %w", err)
	}
	for _, approve := range approvals {
		if err := approve(); err != nil {
			return "", err
		}
	}
	c.s.egress.pending = nil
	msg := fmt.Sprintf("Recorded in %s.", q.AnswerFile)
	if len(off) > 0 {
		msg = fmt.Sprintf("Turned off: %s (disabledMcpjsonServers). %s", strings.Join(off, ", "), msg)
	}
	if len(start) == 0 {
		return msg, nil
	}
	if c.s.egress.mcp == nil {
		c.s.egress.mcp = mcp.NewManager(c.s.Config.mcpOptions())
	}
	c.s.Config.protectServers(start)
	c.s.egress.mcp.Start(ctx, start)
	c.addTools()
	return msg + "\n" + c.status(), nil
}
