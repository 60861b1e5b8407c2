package shell

import (
	"encoding/json"
	"strings"

	"github.com/seed92b641c3/workbench/permission"
)

// Gatekeeper is the session's sandbox policy for the pipeline (H16): it
// makes a call that leaves the sandbox ask, lets sandbox.autoAllow run
// confined calls that only lacked a rule, and says where each process
// runs. agent.Pipeline.Sandbox takes it.
type Gatekeeper struct {
	// Sandbox is the session's sandbox; the gate does nothing while it is
	// not in force.
	Sandbox Sandbox
	// Label describes a confined process ("sandbox workspace-write,
	// network none").
	Label string
	// AutoAllow is sandbox.autoAllow.
	AutoAllow bool
	// NetworkClosed says sandboxed commands have no network, so a command
	// that needs one is left to ask rather than fail unseen.
	NetworkClosed bool
}

// processTools are the tools whose calls start a process in the sandbox.
var processTools = map[string]bool{"Bash": true, "Monitor": true, "shell_open": true}

// Gate adjusts the rules' decision for a call.
func (g *Gatekeeper) Gate(tool string, input json.RawMessage, mode permission.Mode, d permission.Decision) permission.Decision {
	if g == nil || g.Sandbox == nil || tool != "Bash" || !g.settled().Active() {
		return d
	}
	var in bashInput
	if json.Unmarshal(input, &in) != nil {
		return d
	}
	if in.DangerouslyDisableSandbox {
		// Leaving the sandbox is a request a person answers, whatever a
		// rule allows; only bypassPermissions lets it through unasked.
		if d.Behavior != permission.Allow || mode == permission.ModeBypass {
			return d
		}
		msg := "run shell command OUTSIDE the sandbox: " + in.Command + " (" + d.Rule + " allows the command, not leaving the sandbox)"
		if mode == permission.ModeDontAsk || mode == permission.ModeAuto {
			return permission.Decision{Behavior: permission.Deny, Rule: "sandbox",
				Message: "this command asks to run outside the sandbox, which always needs a person's approval, and " + string(mode) + " mode never asks"}
		}
		return permission.Decision{Behavior: permission.Ask, Rule: "sandbox", Message: msg}
	}
	if g.AutoAllow && d.Behavior == permission.Ask && onlyUnmatched(d) &&
		!(g.NetworkClosed && needsNetwork(in.Command)) {
		return permission.Decision{Behavior: permission.Allow, Rule: "sandbox.autoAllow",
			Message: "runs in the sandbox without asking (sandbox.autoAllow): no rule asks for, denies or allows it"}
	}
	return d
}

// settled is the sandbox once its start-up check has answered, where it
// runs one in the background: what the gate says of a call is then what
// the call meets (its command waits for the answer too).
func (g *Gatekeeper) settled() Sandbox {
	if c, ok := g.Sandbox.(interface{ Checked() <-chan struct{} }); ok {
		<-c.Checked()
	}
	return g.Sandbox
}

// onlyUnmatched reports whether an ask comes only from no rule allowing
// the call: the tool's own question or the mode's default. Ask rules,
// protected files, writes outside the workspace, targets known only at run
// time and commands the analysis cannot read keep their own rule names.
func onlyUnmatched(d permission.Decision) bool {
	return d.Rule == "tool" || d.Rule == "mode:"+string(permission.ModeDefault) ||
		d.Rule == "mode:"+string(permission.ModeAcceptEdits)
}

// Describe says where a call's process runs.
func (g *Gatekeeper) Describe(tool string, input json.RawMessage) string {
	if g == nil || g.Sandbox == nil || !processTools[tool] {
		return ""
	}
	if !g.settled().Active() {
		return "no sandbox"
	}
	if tool == "Bash" {
		var in bashInput
		if json.Unmarshal(input, &in) == nil && in.DangerouslyDisableSandbox {
			return "outside the sandbox"
		}
	}
	return g.Label
}

// networkPrograms are commands whose work is the network.
var networkPrograms = map[string]bool{
	"curl": true, "wget": true, "ssh": true, "scp": true, "sftp": true, "rsync": true,
	"nc": true, "ncat": true, "netcat": true, "telnet": true, "ftp": true, "ping": true,
	"dig": true, "nslookup": true, "host": true, "gh": true, "docker": true,
}

// networkSubcommands are the subcommands that fetch or publish.
var networkSubcommands = map[string]map[string]bool{
	"git":   {"clone": true, "fetch": true, "pull": true, "push": true, "ls-remote": true, "submodule": true},
	"npm":   {"install": true, "i": true, "ci": true, "add": true, "publish": true, "update": true},
	"yarn":  {"install": true, "add": true, "publish": true},
	"pnpm":  {"install": true, "i": true, "add": true, "publish": true},
	"pip":   {"install": true, "download": true},
	"pip3":  {"install": true, "download": true},
	"cargo": {"install": true, "fetch": true, "publish": true, "update": true},
	"go":    {"get": true, "install": true, "mod": true},
}

// needsNetwork reports whether a command line plainly uses the network.
func needsNetwork(command string) bool {
	for _, part := range strings.FieldsFunc(command, func(r rune) bool {
		return r == ';' || r == '&' || r == '|' || r == '\n' || r == '(' || r == ')' || r == '`'
	}) {
		words := strings.Fields(part)
		for len(words) > 0 && (strings.Contains(words[0], "=") || words[0] == "sudo" || words[0] == "env" ||
			words[0] == "time" || words[0] == "nohup" || words[0] == "command" || words[0] == "exec") {
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		prog := words[0][strings.LastIndexByte(words[0], '/')+1:]
		if networkPrograms[prog] {
			return true
		}
		if subs := networkSubcommands[prog]; subs != nil {
			for _, w := range words[1:] {
				if strings.HasPrefix(w, "-") {
					continue
				}
				if subs[w] {
					return true
				}
				break
			}
		}
	}
	return false
}
