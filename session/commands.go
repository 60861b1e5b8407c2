package session

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/commands"
	"github.com/seed92b641c3/workbench/tools"
)

// commandCalls numbers the pipeline calls a custom command makes, so each
// has an id of its own in the trace and the transcript.
var commandCalls atomic.Int64

// loadCommands reads the custom slash commands: the project's in a project
// the person trusts may grant their allowed-tools, the person's own always.
func (s *Session) loadCommands() {
	home, _ := os.UserHomeDir()
	set, notes := commands.Load(commands.Builtin, commands.DefaultDirs(s.Config.ProjectDir, home, s.Config.ProjectTrusted)...)
	s.commands = set
	for _, n := range notes {
		s.Notes = append(s.Notes, "command: "+n)
	}
}

// CommandList lists the session's custom slash commands, for the TUI's
// completion list and help page (ui.CustomCommands).
func (s *Session) CommandList() []commands.Command { return s.commands.List() }

// RunCommand runs line ("/name args") when it names a custom command, and
// reports false when it does not (the line is then an ordinary prompt or a
// built-in). The command's allowed-tools hold for this run only; each
// !`command` in it is a Bash call through the whole pipeline (rules,
// hooks, approval, sandbox, the transcript) and each @path a Read call,
// so a deny rule on a file holds for a command file as for the model.
func (s *Session) RunCommand(ctx context.Context, line string) (agent.Outcome, bool) {
	name, args, _ := strings.Cut(strings.TrimSpace(line), " ")
	if !strings.HasPrefix(name, "/") {
		return agent.Outcome{}, false
	}
	c, ok := s.commands.Get(name)
	if !ok {
		return agent.Outcome{}, false
	}
	if c.Granting && len(c.AllowedTools) > 0 {
		revoke, err := s.Config.Policy.GrantScoped("command /"+c.Name, c.AllowedTools...)
		if err != nil {
			s.publish(agent.Event{Kind: agent.EventNotice, Text: fmt.Sprintf("/%s: its allowed-tools were not granted: %v", c.Name, err)})
		} else {
			defer revoke()
		}
	}
	return s.Agent.Prompt(ctx, s.expandCommand(ctx, c, args)), true
}

// expandCommand is the prompt a command sends: its arguments in place, the
// referenced files after it, each !`command` replaced by what it printed.
// The references are taken before any command runs, so a command's output
// cannot name a file to be read.
func (s *Session) expandCommand(ctx context.Context, c commands.Command, args string) string {
	text := c.Expand(args)
	refs := commands.FileRefs(text)
	text = commands.ReplaceShell(text, func(command string) string {
		in, _ := json.Marshal(map[string]string{"command": command, "description": "/" + c.Name + ": " + command})
		res := s.commandCall(ctx, "Bash", in)
		if res.IsError {
			return "(" + command + " did not run to success: " + strings.TrimSpace(res.Text) + ")"
		}
		return strings.TrimSpace(res.Text)
	})
	var files strings.Builder
	for _, ref := range refs {
		path, ok := s.projectFile(ref)
		if !ok {
			continue
		}
		in, _ := json.Marshal(map[string]string{"file_path": path})
		res := s.commandCall(ctx, "Read", in)
		if res.IsError {
			fmt.Fprintf(&files, "\n\n@%s was not included: %s", ref, strings.TrimSpace(res.Text))
			continue
		}
		fmt.Fprintf(&files, "\n\nContents of @%s:\n%s", ref, res.Text)
	}
	return text + files.String()
}

// projectFile resolves an @path reference: relative to the working
// directory, and only a regular file inside the project (after links) is
// read. Anything else is left as text: an address, a decorator, a file
// outside the project.
func (s *Session) projectFile(ref string) (string, bool) {
	path := ref
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.Config.WorkDir, path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	root, err := filepath.EvalSymlinks(s.Config.ProjectDir)
	if err != nil {
		return "", false
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	if fi, err := os.Stat(real); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	return filepath.Clean(path), true
}

// commandCall runs one call of a command through the agent's pipeline,
// shown to the person like the model's calls.
func (s *Session) commandCall(ctx context.Context, tool string, in json.RawMessage) tools.Result {
	call := agent.Call{ID: fmt.Sprintf("command_%d", commandCalls.Add(1)), Name: tool, Input: in}
	s.publish(agent.Event{Kind: agent.EventToolUse, Call: &call})
	res := s.Pipeline.Run(ctx, call)
	s.publish(agent.Event{Kind: agent.EventToolResult, Call: &call, Result: &res})
	return res
}
