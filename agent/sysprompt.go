package agent

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Facts are what the model is told about where it works.
type Facts struct {
	WorkDir   string
	Platform  string
	Date      string
	GitStatus string
	// Memory holds project instructions: AGENTS.md, and CLAUDE.md when
	// present, each with its path.
	Memory []MemoryFile
	// Deferred lists tools that exist but are not in the schema list.
	Deferred []string
}

// MemoryFile is one project instruction file.
type MemoryFile struct {
	Path    string
	Content string
}

// maxMemoryFile caps one instruction file, so a huge AGENTS.md cannot fill
// the context window on its own.
const maxMemoryFile = 40000

// GatherFacts reads the environment of a project: platform, date, a short
// git status, and its instruction files.
func GatherFacts(ctx context.Context, workDir string) Facts {
	f := Facts{
		WorkDir:  workDir,
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
		Date:     time.Now().Format("2006-01-02"),
	}
	gctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(gctx, "git", "status", "--short", "--branch")
	cmd.Dir = workDir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	if out, err := cmd.Output(); err == nil {
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		if len(lines) > 20 {
			lines = append(lines[:20], fmt.Sprintf("... and %d more changed files", len(lines)-20))
		}
		f.GitStatus = strings.Join(lines, "\n")
	}
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		p := filepath.Join(workDir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		text := string(data)
		if len(text) > maxMemoryFile {
			text = text[:maxMemoryFile] + "\n[... cut: the file is longer; Read it for the rest]"
		}
		f.Memory = append(f.Memory, MemoryFile{Path: p, Content: text})
	}
	return f
}

// SystemPrompt renders the system prompt. Tool guidance travels with each
// tool's schema (its prompt is appended to its description), so this holds
// what no tool knows: who the agent is, where it works, and the project's
// own instructions.
func SystemPrompt(f Facts) string {
	var b strings.Builder
	b.WriteString(`You are a coding agent working in a person's repository through Workbench. Every tool call you make is shown to the person and checked against their permission rules; some calls wait for their approval, and a call they decline comes back as an error with their reason. Prefer the dedicated file tools (Read, Edit, Write, Grep, Glob, LS) to shell commands for reading and changing files. Keep answers short and concrete; say what you changed and what you could not do.
`)
	fmt.Fprintf(&b, "\n<environment>\nWorking directory: %s\nPlatform: %s\nDate: %s\n", f.WorkDir, f.Platform, f.Date)
	if f.GitStatus != "" {
		fmt.Fprintf(&b, "Git status:\n%s\n", f.GitStatus)
	} else {
		b.WriteString("Not a git repository (or git is not installed).\n")
	}
	b.WriteString("</environment>\n")
	if len(f.Deferred) > 0 {
		b.WriteString("\n<deferred-tools>\nThese tools exist but are not listed; load one with SearchExtraTools (select:Name) before calling it:\n")
		for _, n := range f.Deferred {
			b.WriteString(n + "\n")
		}
		b.WriteString("</deferred-tools>\n")
	}
	for _, m := range f.Memory {
		fmt.Fprintf(&b, "\n<project-instructions path=%q>\n%s\n</project-instructions>\n", m.Path, strings.TrimSpace(m.Content))
	}
	return b.String()
}
