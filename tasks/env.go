package tasks

import (
	"os"
	"slices"
	"strings"
)

// NonInteractiveEnv returns what every shell command gets on top of the
// inherited environment, so that nothing waits for a person who is not
// there. Each entry turns a prompt into a failure or a no-op:
//
//   - GIT_TERMINAL_PROMPT=0 and GCM_INTERACTIVE=never: git and Git
//     Credential Manager fail instead of asking for credentials.
//   - GIT_PAGER, PAGER=cat: output is never held in a pager.
//   - GIT_EDITOR, EDITOR, VISUAL=true: a program that opens an editor gets
//     it back unchanged at once (git commit without -m then aborts).
//   - DEBIAN_FRONTEND=noninteractive, PIP_NO_INPUT=1: package tools take
//     defaults instead of asking.
//   - TERM=dumb: no cursor movement or screen redraws in the output.
//
// Deliberately left alone: NO_COLOR (output is a pipe, so programs already
// leave colour off unless the project forces it, and forcing it back off
// would change what a project's own tests see); CI (it changes how test
// runners and installers behave); GIT_ASKPASS and SSH_ASKPASS (a helper
// the person configured is how they supply credentials without a prompt);
// npm_config_yes (it would approve installs nobody reviewed). Terminal
// prompts cannot happen anyway: the command has no controlling terminal
// and its stdin is /dev/null (see StartProcess).
func NonInteractiveEnv() []string {
	return append([]string(nil), nonInteractive...)
}

var nonInteractive = []string{
	"GIT_TERMINAL_PROMPT=0",
	"GCM_INTERACTIVE=never",
	"GIT_PAGER=cat",
	"PAGER=cat",
	"GIT_EDITOR=true",
	"EDITOR=true",
	"VISUAL=true",
	"DEBIAN_FRONTEND=noninteractive",
	"PIP_NO_INPUT=1",
	"TERM=dumb",
}

// modelCredentials are the variables that carry the person's own keys to
// the model provider. Workbench reads them to reach the model; the agent's
// commands never need them, and a command that can print them can hand the
// person's key to whoever reads its output.
var modelCredentials = []string{
	"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
	"OPENAI_API_KEY",
}

// InheritedEnv is Workbench's own environment without the model
// credentials: what the agent's commands, background tasks and shell
// sessions start from. A project that needs one of them in its commands
// sets it in the settings' env, which is added after this.
func InheritedEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(modelCredentials, k) {
			out = append(out, kv)
		}
	}
	return out
}

// environ builds a child's environment: inherited, then the non-interactive
// defaults, then the caller's extras. os/exec keeps the last entry of a
// key, so a setting the person configured (tc.Env) beats a default.
func environ(extra []string) []string {
	base := InheritedEnv()
	env := make([]string, 0, len(base)+len(nonInteractive)+len(extra))
	env = append(env, base...)
	env = append(env, nonInteractive...)
	return append(env, extra...)
}
