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

	"github.com/seed92b641c3/workbench/tools/memory"
)

// Facts are what the model is told about where it works.
type Facts struct {
	WorkDir   string
	Platform  string
	Date      string
	GitStatus string
	// Memory holds the instruction files (CLAUDE.md, AGENTS.md and what
	// they import), each with its path.
	Memory []MemoryFile
	// MemoryNotices say which imports were refused and why, for the person.
	MemoryNotices []string
	// Deferred lists tools that exist but are not in the schema list.
	Deferred []string
}

// MemoryFile is one instruction file.
type MemoryFile struct {
	Path    string
	Content string
	// Scope is "user" (~/.claude) or "project".
	Scope string
	// ImportedBy is the file whose @path imported this one, if any.
	ImportedBy string
}

// FactsDirs are the directories GatherFacts reads: the working directory
// (git status, the prompt's "Working directory"), the project root the
// instruction files are looked for from, and the home directory for
// ~/.claude/CLAUDE.md. An empty ProjectRoot is WorkDir; an empty Home skips
// the person's files.
type FactsDirs struct {
	WorkDir, ProjectRoot, Home string
}

// GatherFacts reads the environment of a project started in workDir, which
// is also its root, with the person's home directory from the OS.
func GatherFacts(ctx context.Context, workDir string) Facts {
	home, _ := os.UserHomeDir()
	return GatherFactsIn(ctx, FactsDirs{WorkDir: workDir, ProjectRoot: workDir, Home: home})
}

// GatherFactsIn reads platform, date, a short git status, and the
// instruction files from the project root down to the working directory.
func GatherFactsIn(ctx context.Context, d FactsDirs) Facts {
	f := GatherFactsButGit(d)
	f.GitStatus = GitStatus(ctx, d.WorkDir)
	return f
}

// GatherFactsButGit reads what GatherFactsIn reads except the git status,
// which costs a process: a session reads that with GitStatus while it
// starts, and waits for it only when its first request needs the prompt.
func GatherFactsButGit(d FactsDirs) Facts {
	workDir := d.WorkDir
	f := Facts{
		WorkDir:  workDir,
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
		Date:     time.Now().Format("2006-01-02"),
	}
	root := d.ProjectRoot
	if root == "" {
		root = workDir
	}
	files, notices := memory.LoadInstructions(memory.InstructionDirs{Home: d.Home, ProjectRoot: root, WorkDir: workDir})
	for _, m := range files {
		f.Memory = append(f.Memory, MemoryFile{Path: m.Path, Content: m.Content, Scope: m.Scope, ImportedBy: m.ImportedBy})
	}
	f.MemoryNotices = notices
	return f
}

// GitStatus is `git status --short --branch` in workDir, cut to 20 lines,
// or "" where it fails (no repository, no git, two seconds gone).
func GitStatus(ctx context.Context, workDir string) string {
	// Outside any sandbox, git must not run what a command of an earlier
	// session could have planted: an fsmonitor, a nested repository's
	// filters (status asks each submodule), a commondir sending git to
	// another config.
	if planted := plantedCommondir(workDir); planted != "" {
		return "(not read: " + planted + " sends git to another directory's config, which a command may have planted; remove it if you did not make it)"
	}
	gctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(gctx, "git", "-c", "core.fsmonitor=false", "status", "--short", "--branch", "--ignore-submodules=all")
	cmd.Dir = workDir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > 20 {
		lines = append(lines[:20], fmt.Sprintf("... and %d more changed files", len(lines)-20))
	}
	return strings.Join(lines, "\n")
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
		tag := "project-instructions"
		if m.Scope == "user" {
			tag = "user-instructions"
		}
		attrs := fmt.Sprintf("path=%q", m.Path)
		if m.ImportedBy != "" {
			attrs += fmt.Sprintf(" imported-by=%q", m.ImportedBy)
		}
		fmt.Fprintf(&b, "\n<%s %s>\n%s\n</%s>\n", tag, attrs, strings.TrimSpace(m.Content), tag)
	}
	return b.String()
}

// plantedCommondir is the commondir file of the git directory git would use
// in dir, when that is a repository's own .git directory (only a linked
// worktree's git directory has one), or "".
func plantedCommondir(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		dotGit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotGit); err == nil {
			if !fi.IsDir() {
				return "" // a worktree: its git directory's commondir is git's own
			}
			p := filepath.Join(dotGit, "commondir")
			if _, err := os.Lstat(p); err == nil {
				return p
			}
			return ""
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
