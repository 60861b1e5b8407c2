package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Instruction files are the Markdown files people write for coding agents
// (CLAUDE.md, AGENTS.md): unlike memories, they are not searched but read in
// full into the system prompt at the start of a session.

// maxInstructionBytes caps one instruction file, so a huge AGENTS.md cannot
// fill the context window on its own.
const maxInstructionBytes = 40000

// maxImportDepth is how many @imports deep a chain may go, as in Claude
// Code: a file's imports are depth 1, their imports depth 2, and so on.
const maxImportDepth = 5

// InstructionFile is one file read into the system prompt.
type InstructionFile struct {
	// Path is the file, absolute.
	Path string
	// Content is its text, cut at maxInstructionBytes.
	Content string
	// Scope is "user" for the person's own files (~/.claude), "project"
	// for the repository's.
	Scope string
	// ImportedBy is the file whose @path brought this one in; empty for a
	// file found by name.
	ImportedBy string
}

// InstructionDirs say where instruction files are looked for.
type InstructionDirs struct {
	// Home is the person's home directory: ~/.claude/CLAUDE.md and the
	// target of @~/ imports. Empty skips both.
	Home string
	// ProjectRoot is the repository root; WorkDir the directory the
	// session works in, at or below it. Every directory from the root down
	// to WorkDir contributes its files.
	ProjectRoot, WorkDir string
}

// projectNames are the files each directory contributes, in the order they
// are read: shared instructions first, the person's local ones last so they
// can refine them.
var projectNames = []string{"CLAUDE.md", filepath.Join(".claude", "CLAUDE.md"), "AGENTS.md", "CLAUDE.local.md"}

// LoadInstructions reads the person's ~/.claude/CLAUDE.md, then CLAUDE.md,
// .claude/CLAUDE.md, AGENTS.md and CLAUDE.local.md of every directory from
// the project root down to the working directory, each followed by the
// files it imports with @path. Notices say what was refused (a cycle, an
// import too deep or outside what a project file may read); nothing here
// stops a session.
func LoadInstructions(d InstructionDirs) ([]InstructionFile, []string) {
	l := &loader{dirs: d, seen: map[string]bool{}}
	root := d.ProjectRoot
	if root == "" {
		root = d.WorkDir
	}
	rules, notices := LoadRules(d.Home, root)
	l.notices = append(l.notices, notices...)
	if d.Home != "" {
		l.file(filepath.Join(d.Home, ".claude", "CLAUDE.md"), "user", "", nil)
		l.rules(rules, "user")
	}
	for i, dir := range dirsDown(d.ProjectRoot, d.WorkDir) {
		for _, name := range projectNames {
			l.file(filepath.Join(dir, name), "project", "", nil)
		}
		if i == 0 {
			// .claude/rules are read with the root's CLAUDE.md, as
			// Claude Code reads them with .claude/CLAUDE.md.
			l.rules(rules, "project")
		}
	}
	return l.out, l.notices
}

// rules adds the rules of scope that always apply (no `paths`); the
// path-scoped ones wait for a file they name (PathRules).
func (l *loader) rules(rules []Rule, scope string) {
	for _, r := range rules {
		if r.Scope == scope && len(r.Globs) == 0 && r.Body != "" {
			l.out = append(l.out, InstructionFile{Path: r.Path, Content: r.Body, Scope: scope})
		}
	}
}

// dirsDown lists root, then each directory below it on the way to work.
// A work directory outside root contributes itself alone.
func dirsDown(root, work string) []string {
	if root == "" {
		root = work
	}
	if work == "" {
		return []string{root}
	}
	rel, err := filepath.Rel(root, work)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return []string{work}
	}
	out := []string{root}
	if rel == "." {
		return out
	}
	cur := root
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, c)
		out = append(out, cur)
	}
	return out
}

type loader struct {
	dirs    InstructionDirs
	seen    map[string]bool // real paths already read, so a file appears once
	out     []InstructionFile
	notices []string
}

// file reads path and, depth first, what it imports. chain holds the real
// paths of the importers above it, which is how a cycle is told from a file
// merely imported twice.
func (l *loader) file(path, scope, importedBy string, chain []string) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return // a missing file is normal: most directories have none
	}
	for _, c := range chain {
		if c == real {
			l.notices = append(l.notices, fmt.Sprintf("%s: @import of %s refused: it imports itself in a cycle (%s)",
				importedBy, path, strings.Join(append(chain, real), " -> ")))
			return
		}
	}
	if l.seen[real] {
		return
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	data, err := os.ReadFile(real)
	if err != nil {
		l.notices = append(l.notices, fmt.Sprintf("%s: %v", path, err))
		return
	}
	l.seen[real] = true
	text := string(data)
	if len(text) > maxInstructionBytes {
		text = text[:maxInstructionBytes] + "\n[... cut: the file is longer; Read it for the rest]"
	}
	l.out = append(l.out, InstructionFile{Path: path, Content: text, Scope: scope, ImportedBy: importedBy})
	chain = append(chain, real)
	for _, imp := range importPaths(string(data)) {
		target := l.resolve(imp, filepath.Dir(path))
		if _, err := os.Stat(target); err != nil {
			continue // prose such as @team/ui that names no file, as in Claude Code
		}
		if len(chain) > maxImportDepth {
			l.notices = append(l.notices, fmt.Sprintf("%s: @import of %s refused: imports go at most %d deep", path, imp, maxImportDepth))
			continue
		}
		if why := l.refuse(scope, target); why != "" {
			l.notices = append(l.notices, fmt.Sprintf("%s: @import of %s refused: %s", path, imp, why))
			continue
		}
		l.file(target, scope, path, chain)
	}
}

// resolve makes an import absolute: ~/ in the home directory, a relative
// path against the importing file's directory.
func (l *loader) resolve(imp, dir string) string {
	switch {
	case strings.HasPrefix(imp, "~/"):
		return filepath.Join(l.dirs.Home, imp[2:])
	case filepath.IsAbs(imp):
		return filepath.Clean(imp)
	}
	return filepath.Join(dir, imp)
}

// refuse says why a file of scope may not import target, or "". The
// person's own files may import anything. A project's files come with a
// cloned repository, and what they import is sent to the model provider:
// they may import files inside the project and Markdown files under
// ~/.claude (personal notes kept there, as Claude Code's documentation
// suggests), never ~/.ssh/id_rsa or ~/.claude/.credentials.json.
func (l *loader) refuse(scope, target string) string {
	if scope == "user" {
		return ""
	}
	real := target
	if r, err := filepath.EvalSymlinks(target); err == nil {
		real = r
	}
	if root := l.dirs.ProjectRoot; root != "" && inside(real, realOr(root)) {
		return ""
	}
	if home := l.dirs.Home; home != "" && inside(real, filepath.Join(realOr(home), ".claude")) &&
		strings.EqualFold(filepath.Ext(real), ".md") && !strings.HasPrefix(filepath.Base(real), ".") {
		return ""
	}
	return "a project's instruction file may import only files inside the project and Markdown files under ~/.claude"
}

func realOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func inside(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// importPaths finds the @path references of a Markdown text: an @ at the
// start of a line or after white space, followed by a path, outside code
// spans and fenced code blocks (where @ is usually a decorator or an npm
// scope). A path must contain a '/' or a '.' so that a mention such as
// @alice is not taken for a file.
func importPaths(text string) []string {
	var out []string
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		out = append(out, lineImports(line)...)
	}
	return out
}

// lineImports finds the imports of one line outside `code spans`.
func lineImports(line string) []string {
	var out []string
	inCode := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '`':
			inCode = !inCode
		case c == '@' && !inCode && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			j := i + 1
			for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '`' {
				j++
			}
			p := strings.TrimRight(line[i+1:j], ".,;:)")
			if p != "" && strings.ContainsAny(p, "/.") {
				out = append(out, p)
			}
			i = j - 1
		}
	}
	return out
}
