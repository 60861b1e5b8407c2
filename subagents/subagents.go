// Package subagents loads custom subagents: Claude Code's .claude/agents/*.md
// and ~/.claude/agents/*.md, Markdown files whose front matter names a kind
// of subagent (name, description, tools) and whose body is its system
// prompt. They become subagent types of the Agent tool beside the built-in
// ones. A definition only narrows: its tools are a subset of the session's,
// and every call it makes goes through the session's pipeline, so a file
// from a repository can give a subagent no permission the person lacks.
package subagents

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/internal/frontmatter"
	"go.yaml.in/yaml/v3"
)

// maxFileBytes bounds a definition: a system prompt that large is data.
const maxFileBytes = 256 << 10

// maxTurns is a custom subagent's turn limit, the general-purpose one's.
const maxTurns = 50

// namePattern is what Claude Code allows in a subagent name: lower-case
// letters, digits and hyphens; it also keeps the name safe in a hook
// matcher and a JSON enum.
var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// toolAliases are Claude Code's names for tools Workbench names otherwise.
var toolAliases = map[string]string{"Task": agent.AgentName}

// DefaultDirs are where definitions are looked for, in the order they win a
// name clash: the project's .claude/agents, then the person's
// ~/.claude/agents, as in Claude Code.
func DefaultDirs(projectDir, home string) []string {
	dirs := []string{filepath.Join(projectDir, ".claude", "agents")}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".claude", "agents"))
	}
	return dirs
}

// Load reads the *.md files of each dir (not below: Claude Code reads none
// there). builtin are the built-in subagents, which win a name clash with
// a notice. Nothing here stops a session: a file that cannot be used is a
// notice with its path and line, and the rest load.
func Load(builtin []agent.AgentDef, dirs ...string) ([]agent.AgentDef, []string) {
	var defs []agent.AgentDef
	var notes []string
	taken := map[string]string{}
	for _, b := range builtin {
		taken[b.Name] = "a built-in subagent"
	}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		sort.Strings(files)
		for _, f := range files {
			d, fileNotes, err := loadFile(f)
			notes = append(notes, fileNotes...)
			if err != nil {
				notes = append(notes, err.Error())
				continue
			}
			if by, ok := taken[d.Name]; ok {
				notes = append(notes, fmt.Sprintf("%s: subagent %s is also %s, which wins", f, d.Name, by))
				continue
			}
			taken[d.Name] = f
			defs = append(defs, d)
		}
	}
	return defs, notes
}

// loadFile reads one definition.
func loadFile(path string) (agent.AgentDef, []string, error) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return agent.AgentDef{}, nil, fmt.Errorf("%s: not a regular file", path)
	}
	if fi.Size() > maxFileBytes {
		return agent.AgentDef{}, nil, fmt.Errorf("%s: %d bytes is over the %d-byte limit for a subagent", path, fi.Size(), maxFileBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return agent.AgentDef{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	front, body, ok := frontmatter.Split(data)
	if !ok {
		return agent.AgentDef{}, nil, fmt.Errorf("%s:1: a subagent starts with front matter (name, description) between two --- lines", path)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		return agent.AgentDef{}, nil, fmt.Errorf("%s: front matter: %w", path, err)
	}
	d := agent.AgentDef{Instructions: strings.TrimSpace(string(body)), MaxTurns: maxTurns}
	var notes []string
	nameLine := 1
	if len(doc.Content) > 0 && doc.Content[0].Kind == yaml.MappingNode {
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			key, val := m.Content[i], m.Content[i+1]
			switch key.Value {
			case "name":
				d.Name, nameLine = strings.TrimSpace(val.Value), key.Line
			case "description":
				d.Description = strings.Join(strings.Fields(val.Value), " ")
			case "tools":
				d.Tools = toolList(val)
				if len(d.Tools) == 0 {
					// Claude Code reads an empty list as none; none
					// would still be more than intended by all.
					d.Tools = []string{"(none)"}
				}
			case "model":
				if v := strings.TrimSpace(val.Value); v != "" && v != "inherit" {
					notes = append(notes, fmt.Sprintf("%s:%d: model %s is not used: the subagent runs with the session's model", path, key.Line, v))
				}
			default:
				notes = append(notes, fmt.Sprintf("%s:%d: front matter key %s is not read by Workbench", path, key.Line, key.Value))
			}
		}
	}
	switch {
	case d.Name == "":
		return agent.AgentDef{}, notes, fmt.Errorf("%s:1: name is missing", path)
	case !namePattern.MatchString(d.Name):
		return agent.AgentDef{}, notes, fmt.Errorf("%s:%d: name %q is not a valid subagent name (lower-case letters, digits and hyphens)", path, nameLine, d.Name)
	case d.Description == "":
		return agent.AgentDef{}, notes, fmt.Errorf("%s:1: description is missing; the model chooses a subagent by it", path)
	}
	return d, notes, nil
}

// toolList reads `tools`: a comma-separated string, as Claude Code writes
// it, or a YAML list.
func toolList(n *yaml.Node) []string {
	var raw []string
	switch n.Kind {
	case yaml.ScalarNode:
		raw = strings.Split(n.Value, ",")
	case yaml.SequenceNode:
		for _, it := range n.Content {
			raw = append(raw, it.Value)
		}
	}
	var out []string
	for _, t := range raw {
		if t = strings.TrimSpace(t); t == "" {
			continue
		}
		if alias, ok := toolAliases[t]; ok {
			t = alias
		}
		out = append(out, t)
	}
	return out
}
