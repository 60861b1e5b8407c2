package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// maxDescription caps a server's tool description: it is sent to the model
// on every turn, and one verbose server should not crowd out the rest.
const maxDescription = 2048

// listTools lists a server's tools and turns each into a workbench tool.
// A tool that cannot be offered is skipped with its reason; only a failure
// to list at all fails the server.
func (m *Manager) listTools(ctx context.Context, server, prefix string, c *conn) ([]tools.Tool, []SkippedTool, error) {
	if init := c.session.InitializeResult(); init != nil && init.Capabilities != nil && init.Capabilities.Tools == nil {
		return nil, nil, nil // the server offers no tools (only resources or prompts)
	}
	var out []tools.Tool
	var skipped []SkippedTool
	seen := map[string]string{} // workbench name -> server tool name
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, nil, fmt.Errorf("listing tools: %w", err)
		}
		wt, err := m.buildTool(server, prefix, t)
		if err == nil {
			if first, dup := seen[wt.Name()]; dup {
				err = fmt.Errorf("its name becomes %s, like that of tool %q", wt.Name(), first)
			}
		}
		if err != nil {
			skipped = append(skipped, SkippedTool{Tool: t.Name, Reason: err.Error()})
			continue
		}
		seen[wt.Name()] = t.Name
		out = append(out, wt)
	}
	return out, skipped, nil
}

// buildTool makes a workbench tool of a server's tool. Security metadata
// fails closed: a tool is read-only (and so concurrency-safe and free of
// approval) only when the server annotates it readOnlyHint; otherwise it
// is mutating, runs alone and asks.
func (m *Manager) buildTool(server, prefix string, t *sdk.Tool) (tools.Tool, error) {
	if t.Name == "" {
		return nil, errors.New("the server listed a tool without a name")
	}
	name, ok := toolName(prefix, t.Name)
	if !ok {
		return nil, fmt.Errorf("the server name leaves no room for tool names within %d characters", maxToolName)
	}
	schema := []byte(`{"type":"object"}`)
	if t.InputSchema != nil {
		b, err := json.Marshal(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("its input schema cannot be encoded: %w", err)
		}
		schema = b
	}
	if _, err := tools.CompileSchema(name, string(schema)); err != nil {
		return nil, fmt.Errorf("its input schema does not compile: %w", err)
	}
	tool := t.Name
	spec := tools.Spec{
		Name:        name,
		Description: describeTool(server, t),
		Schema:      string(schema),
		Run: func(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
			var report func(string)
			if tc != nil {
				report = tc.Progress
			}
			return m.call(ctx, server, tool, input, report), nil
		},
	}
	if t.Annotations != nil && t.Annotations.ReadOnlyHint {
		spec.ReadOnly = tools.Always
		spec.ConcurrencySafe = tools.Always
		spec.Permission = tools.AllowSelf
	} else {
		question := fmt.Sprintf("call MCP tool %s/%s", server, tool)
		spec.Permission = func(context.Context, json.RawMessage, *tools.Context) permission.Decision {
			return permission.AskUser(question)
		}
	}
	return tools.Build(spec), nil
}

// describeTool returns the server's description, capped, or a plain one
// when the server gave none.
func describeTool(server string, t *sdk.Tool) string {
	d := t.Description
	if d == "" && t.Annotations != nil {
		d = t.Annotations.Title
	}
	if d == "" {
		d = t.Title
	}
	if d == "" {
		return fmt.Sprintf("Tool %q of the MCP server %q.", t.Name, server)
	}
	if len(d) > maxDescription {
		cut := maxDescription
		for cut > 0 && !utf8.RuneStart(d[cut]) {
			cut--
		}
		d = d[:cut] + "…"
	}
	return d
}

// call runs one tool on the server's current connection. Every failure is
// an error result the model can read, naming the server, and a dead server
// tells the person how to bring it back.
//
// When report is set the request carries a progressToken, and the server's
// progress notifications for it are passed to report.
func (m *Manager) call(ctx context.Context, server, tool string, input json.RawMessage, report func(string)) tools.Result {
	m.mu.Lock()
	s := m.servers[server]
	var c *conn
	var state State
	var serr error
	if s != nil && !m.closed {
		c, state, serr = s.conn, s.state, s.err
	}
	m.mu.Unlock()
	if c == nil || state != StateReady || c.dead() {
		return notRunning(server, serr)
	}
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage("{}")
	}
	params := &sdk.CallToolParams{Name: tool, Arguments: input}
	token, done := m.progress.open(report)
	defer done()
	if token != "" {
		params.SetProgressToken(token)
	}
	res, err := c.session.CallTool(ctx, params)
	switch {
	case err == nil:
		return convertResult(server, tool, res)
	case ctx.Err() != nil:
		return tools.Error(fmt.Sprintf("MCP tool %s/%s was interrupted: %v", server, tool, context.Cause(ctx)))
	case errors.Is(err, sdk.ErrConnectionClosed) || c.dead():
		return notRunning(server, m.markDead(s, c, err))
	}
	return tools.Error(fmt.Sprintf("MCP server %q could not run %s: %v. If the server is unreachable, the user can restart it with /mcp reconnect %s.",
		server, tool, err, server))
}

// markDead records that a connection broke during a call, before the
// watcher may have noticed, and returns the recorded reason.
func (m *Manager) markDead(s *server, c *conn, cause error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.conn == c && s.state == StateReady {
		s.state, s.err = StateFailed, withStderr(fmt.Errorf("the server stopped: %w", cause), c.stderr)
	}
	return s.err
}

// notRunning is the result of calling a tool of a server that is down.
func notRunning(server string, why error) tools.Result {
	reason := ""
	if why != nil {
		reason = " (" + why.Error() + ")"
	}
	return tools.Error(fmt.Sprintf("MCP server %q is not running%s. Its tools cannot be called until the user restarts it with /mcp reconnect %s.",
		server, reason, server))
}
