package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/seed92b641c3/workbench/mcp"
	"github.com/seed92b641c3/workbench/settings"
)

// runLaterFiles are the files in the project that the person's hooks and
// MCP stdio servers name: they run outside the sandbox, so a command that
// rewrote one would have it run there at the next hook or server start.
// Every word of a hook's command, and a server's command and arguments,
// that names an existing regular file counts ($CLAUDE_PROJECT_DIR and ~
// expanded, relative to the project directory, where hooks and servers
// start), and so does a word that names a path in the project that does
// not exist yet, if it has a slash or a script's extension (a hook
// `test -x scripts/fix.sh && scripts/fix.sh`): no command may make it.
// What those files load in turn (a module a script imports, the scripts of
// `npm run`) is not seen. hooks is hookFiles' answer.
func runLaterFiles(projectDir string, s *settings.Settings, hooks map[string][]string) []string {
	var out []string
	for _, files := range hooks {
		out = append(out, files...)
	}
	home, _ := os.UserHomeDir()
	for _, srv := range s.MCPServers {
		if srv.Command != "" {
			out = append(out, namedFiles(projectDir, home, append([]string{srv.Command}, srv.Args...))...)
		}
	}
	return out
}

// hookFiles are the project files each hook command of s names
// (namedFiles), by command: read once at start for runLaterFiles and
// hookGuard.
func hookFiles(projectDir string, s *settings.Settings) map[string][]string {
	home, _ := os.UserHomeDir()
	env := expand.ListEnviron("CLAUDE_PROJECT_DIR="+projectDir, "HOME="+home)
	out := map[string][]string{}
	for _, groups := range s.Hooks {
		for _, g := range groups {
			for _, m := range g {
				for _, h := range m.Hooks {
					if _, seen := out[h.Command]; h.Command != "" && !seen {
						out[h.Command] = namedFiles(projectDir, home, commandWords(h.Command, env))
					}
				}
			}
		}
	}
	return out
}

// hookGuard refuses, just before it runs, a hook whose command names a
// project script that was missing when the session started and exists
// now: a sandboxed command may have made it (one running in the
// background outlives the removal at its end), and the hook would run it
// outside the sandbox. A copy the person makes runs from the next session.
func hookGuard(hooks map[string][]string) func(string) error {
	missing := map[string][]string{}
	for cmd, files := range hooks {
		for _, f := range files {
			if _, err := os.Lstat(f); err != nil {
				missing[cmd] = append(missing[cmd], f)
			}
		}
	}
	return func(command string) error {
		for _, f := range missing[command] {
			// A directory that appeared is not run as a program (a hook
			// `prettier --write src/` in a project without src yet).
			if fi, err := os.Lstat(f); err == nil && !fi.IsDir() {
				return fmt.Errorf("not run: it names %s, which did not exist when the session started and does now; a command of the agent may have written it, and hooks run outside the sandbox (restart Workbench to run the hook with it)", f)
			}
		}
		return nil
	}
}

// protectServers makes the files the stdio servers of cfg name read-only
// for the agent's commands and their writes ask (runLaterFiles), before
// they start: the servers of .mcp.json and those approved mid-session as
// well as the settings' own.
func (c *Config) protectServers(cfg mcp.Config) {
	home, _ := os.UserHomeDir()
	for _, srv := range cfg {
		if srv.Command == "" {
			continue
		}
		files := namedFiles(c.ProjectDir, home, append([]string{srv.Command}, srv.Args...))
		c.Sandbox.ProtectRunLater(files...)
		c.Policy.AddRunLater(files...)
		c.noteMissing(files)
	}
}

// mcpOptions are the options of the session's MCP manager: servers start
// in the project directory, confined when their entry asks, and each stdio
// start is checked by serverGuard.
func (c *Config) mcpOptions() mcp.Options {
	return mcp.Options{Dir: c.ProjectDir, ClientVersion: Version, Sandbox: c.mcpSandbox, Guard: c.serverGuard}
}

// noteMissing remembers which of the files a server names were missing
// when Workbench first saw them (serverGuard).
func (c *Config) noteMissing(files []string) {
	c.runLaterMu.Lock()
	defer c.runLaterMu.Unlock()
	if c.missingAtStart == nil {
		c.missingAtStart = map[string]bool{}
	}
	for _, f := range files {
		if _, seen := c.missingAtStart[f]; seen {
			continue
		}
		_, err := os.Lstat(f)
		c.missingAtStart[f] = err != nil
	}
}

// serverGuard refuses to start a stdio server naming a project file that
// was missing when Workbench first saw it and exists now: a sandboxed
// command may have made it (one in the background outlives the removal at
// its end), and the server would run it outside the sandbox.
func (c *Config) serverGuard(srv mcp.ServerConfig) error {
	home, _ := os.UserHomeDir()
	files := namedFiles(c.ProjectDir, home, append([]string{srv.Command}, srv.Args...))
	c.noteMissing(files)
	c.runLaterMu.Lock()
	defer c.runLaterMu.Unlock()
	for _, f := range files {
		if !c.missingAtStart[f] {
			continue
		}
		if fi, err := os.Lstat(f); err == nil && !fi.IsDir() {
			return fmt.Errorf("not started: it names %s, which did not exist when the session started and does now; a command of the agent may have written it, and servers run outside the sandbox (restart Workbench to start it with that file)", f)
		}
	}
	return nil
}

// commandWords are the words of a shell command as the shell would see
// them, with nested commands' words too; a command that does not parse
// is split at blanks, which over-counts at worst.
func commandWords(cmd string, env expand.Environ) []string {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil {
		return strings.Fields(cmd)
	}
	cfg := &expand.Config{Env: env}
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		w, ok := n.(*syntax.Word)
		if !ok {
			return true
		}
		if lit, err := expand.Literal(cfg, w); err == nil {
			out = append(out, lit)
			out = append(out, strings.Fields(lit)...) // bash -c 'scripts/x.sh arg'
		}
		return true
	})
	return out
}

// namedFiles keeps the words that name an existing regular file, also
// after an option's = (--config=path), and those that look like a path to
// a script in the project that does not exist yet (maybeScript).
func namedFiles(projectDir, home string, words []string) []string {
	var out []string
	for _, w := range words {
		for _, word := range []string{w, afterEquals(w)} {
			if word == "" {
				continue
			}
			cand := word
			if rest, ok := strings.CutPrefix(cand, "~/"); ok && home != "" {
				cand = filepath.Join(home, rest)
			}
			if !filepath.IsAbs(cand) {
				cand = filepath.Join(projectDir, cand)
			}
			fi, err := os.Stat(cand)
			switch {
			case err == nil && fi.Mode().IsRegular():
				out = append(out, filepath.Clean(cand))
			case errors.Is(err, fs.ErrNotExist) && maybeScript(word, cand, projectDir):
				out = append(out, filepath.Clean(cand))
			}
		}
	}
	return out
}

// maybeScript reports whether word, naming the missing path cand, could
// be a script a hook will run once it exists: a path in the project with
// a slash or a script's extension, not an option, a URL or a pattern.
func maybeScript(word, cand, projectDir string) bool {
	if strings.HasPrefix(word, "-") || strings.Contains(word, "://") || strings.ContainsAny(word, "*?[{$ \t\n") {
		return false
	}
	if rel, err := filepath.Rel(projectDir, cand); err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	if strings.Contains(word, "/") {
		return true
	}
	switch filepath.Ext(word) {
	case ".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php", ".lua", ".ps1":
		return true
	}
	return false
}

func afterEquals(w string) string {
	if _, v, ok := strings.Cut(w, "="); ok {
		return v
	}
	return ""
}
