package approval

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/permission"
)

// planTool is the tool whose approval is a plan review, not a permission.
const planTool = "ExitPlanMode"

// fileTools are the tools whose input is reviewed as a diff of the file.
var fileTools = map[string]bool{"Edit": true, "Write": true, "MultiEdit": true}

// why says in plain words what made the call ask, and returns the
// decision's own message when it says more than "approve X?".
func why(req agent.ApprovalRequest) (reason, message string) {
	d := req.Decision
	if req.Tool == planTool {
		return "the agent has finished planning and needs your go-ahead to start", ""
	}
	r := d.Rule
	switch {
	case r == "" || r == "mode:" || r == "mode:default":
		reason = "no rule allows this call, so the default mode asks"
	case r == "mode:acceptEdits":
		reason = "no rule allows this call; acceptEdits mode lets only file edits inside the workspace through"
	case strings.HasPrefix(r, "mode:"):
		reason = "no rule allows this call in " + strings.TrimPrefix(r, "mode:") + " mode"
	case r == "tool" && len(req.Target.Commands) > 0:
		reason = "no rule allows this command; " + req.Tool + " asks before running anything else"
	case r == "tool" && req.Target.Host != "":
		reason = "no rule allows fetching from " + req.Target.Host
	case r == "tool" && len(req.Target.Paths) > 0:
		reason = "no rule allows this change; file edits ask unless a rule or acceptEdits allows them"
	case r == "tool":
		reason = "no rule allows " + req.Tool + ", which asks before it runs"
	case r == "workspace":
		reason = "outside the workspace"
	case r == "protected":
		reason = "git internals and settings files always ask"
	case strings.HasPrefix(r, "hook:"):
		reason = "asked by hook " + strings.TrimPrefix(r, "hook:")
	default:
		reason = "ask rule " + r
	}
	message = strings.TrimSpace(d.Message)
	switch {
	case message == "approve "+req.Tool+"?":
		message = ""
	case r == "tool" && len(req.Target.Commands) > 0:
		// A shell tool's own ask restates the command, and its first
		// lines are not the command: the pins and the body show it.
		message = ""
	}
	return reason, oneParagraph(message)
}

// oneParagraph joins the lines of a decision's sentence with ↵, leaving
// blank ones out: a message quoting a padded command must not lay itself
// out as if it were the command.
func oneParagraph(s string) string {
	var kept []string
	for _, l := range splitLines(s) {
		if strings.TrimSpace(l) != "" {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, " ↵ ")
}

// alwaysAsks says why no grant could stop rule from asking again, or ""
// when a grant would. Ask rules are checked before allow rules, protected
// files ask whatever the rules say, and a hook asks before the rules are
// consulted; offering "Yes for this session" there would be a promise the
// next call breaks.
func alwaysAsks(rule string) string {
	switch {
	case rule == "protected":
		return "Git internals and settings files ask every time"
	case rule == "unknown-target":
		return "A command writing a file named only when it runs asks every time"
	case rule == "unknown":
		return "A command whose parts are only known when it runs asks every time"
	case strings.HasPrefix(rule, "hook:"):
		return "Hook " + strings.TrimPrefix(rule, "hook:") + " asks every time"
	case rule == "" || rule == "tool" || rule == "workspace" || rule == "plan" || strings.HasPrefix(rule, "mode:"):
		return ""
	}
	return "The ask rule " + rule + " asks every time"
}

// sessionScope returns the rules "Yes for this session" and "Always" would
// allow, or why those choices are not offered. The scope is never the whole
// tool for a call that has a target: a session grant on bare Bash would let
// every later command run (crush #497). The decision's Suggestion is used
// when there is one (the policy wrote it knowing which parts are covered);
// otherwise the rules are built for the parts that need approval.
func sessionScope(req agent.ApprovalRequest, opts Options) (rules []string, note string) {
	if n := alwaysAsks(req.Decision.Rule); n != "" {
		return nil, n + ", so this can only be approved once."
	}
	t := targetOf(req)
	var candidates []string
	if s := strings.TrimSpace(req.Decision.Suggestion); s != "" {
		candidates = strings.Split(s, ", ")
	} else if len(t.Commands) > 0 {
		for _, p := range commandParts(t.Commands, opts.Covered) {
			if !p.covered {
				candidates = append(candidates, permission.SessionRules(req.Tool, permission.Target{Commands: []string{p.text}}, opts.WorkDir)...)
			}
		}
	} else {
		candidates = permission.SessionRules(req.Tool, t, opts.WorkDir)
	}
	targeted := len(t.Commands) > 0 || len(t.Paths) > 0 || t.Host != ""
	seen := map[string]bool{}
	for _, c := range candidates {
		c = strings.TrimSpace(c)
		r, err := permission.ParseRule(c)
		switch {
		case err != nil || seen[c] || r.Tool == "*":
			continue
		case r.Specifier == "" && (targeted || req.Tool == "Bash"):
			continue // the whole tool
		}
		seen[c] = true
		rules = append(rules, c)
	}
	if len(rules) == 0 {
		return nil, "No rule narrower than the whole tool covers this call, so it can only be approved once."
	}
	return rules, ""
}

// targetOf returns what the call touches: the request's Target, or, when
// the caller left it empty, what the input of a known tool names.
func targetOf(req agent.ApprovalRequest) permission.Target {
	t := req.Target
	if len(t.Commands) > 0 || len(t.Paths) > 0 || t.Host != "" {
		return t
	}
	switch {
	case req.Tool == "Bash":
		if c := inputString(req.Input, "command"); c != "" {
			t.Commands = []string{c}
		}
	case fileTools[req.Tool]:
		if p := inputString(req.Input, "file_path"); p != "" {
			t.Paths, t.Access = []string{p}, permission.AccessWrite
		}
	case req.Tool == "WebFetch":
		if u, err := url.Parse(inputString(req.Input, "url")); err == nil {
			t.Host = u.Hostname()
		}
	}
	return t
}

// shownPath is a path as the person thinks of it: relative to the project
// when inside it, absolute otherwise.
func shownPath(p, workDir string) string {
	if p == "" {
		return p
	}
	abs := p
	if !filepath.IsAbs(p) && workDir != "" {
		abs = filepath.Join(workDir, p)
	}
	if workDir != "" {
		if rel, err := filepath.Rel(workDir, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return rel
		}
	}
	return filepath.Clean(abs)
}

// absPath resolves a tool's path argument against the project directory,
// as the file tools do.
func absPath(p, workDir string) string {
	if filepath.IsAbs(p) || workDir == "" {
		return p
	}
	return filepath.Join(workDir, p)
}

// rawOr returns in, or an empty object when the input is empty, so JSON
// helpers always have something to read.
func rawOr(in json.RawMessage) json.RawMessage {
	if len(in) == 0 {
		return json.RawMessage("{}")
	}
	return in
}
