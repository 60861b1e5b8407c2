package commands

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/seed92b641c3/workbench/internal/frontmatter"
	"github.com/seed92b641c3/workbench/tools/skill"
	"go.yaml.in/yaml/v3"
)

// parse reads a command file: optional YAML front matter, then the prompt
// template. Keys Workbench does not follow are notices with file and line,
// never errors: a Claude Code user's file must load as it is. Only a front
// matter that is not YAML at all is an error, since then nothing in it can
// be trusted to mean what it says.
func parse(path string, data []byte) (Command, []string, error) {
	front, body, ok := frontmatter.Split(data)
	if !ok {
		body = data
	}
	c := Command{Body: strings.TrimSpace(string(body))}
	var notes []string
	if ok {
		var doc yaml.Node
		if err := yaml.Unmarshal(front, &doc); err != nil {
			// Claude Code reads `argument-hint: [pr] [focus]`, which
			// is not YAML; taking each top-level value as text reads
			// what its users write.
			if yaml.Unmarshal(quoteValues(front), &doc) != nil {
				return Command{}, nil, fmt.Errorf("%s: front matter: %w", path, err)
			}
		}
		if len(doc.Content) > 0 {
			m := doc.Content[0]
			if m.Kind != yaml.MappingNode {
				return Command{}, nil, fmt.Errorf("%s:%d: front matter must be a mapping of keys to values", path, m.Line)
			}
			for i := 0; i+1 < len(m.Content); i += 2 {
				key, val := m.Content[i], m.Content[i+1]
				if note := c.set(key.Value, val); note != "" {
					notes = append(notes, fmt.Sprintf("%s:%d: %s", path, key.Line, note))
				}
			}
		}
	}
	if c.Description == "" {
		first, _, _ := strings.Cut(c.Body, "\n")
		c.Description = strings.TrimSpace(strings.TrimLeft(first, "# "))
	}
	return c, notes, nil
}

// topLevel is a `key: value` line at the left margin of a front matter.
var topLevel = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_-]*):[ \t]+(\S.*?)[ \t\r]*$`)

// quoteValues writes each top-level value that is not already quoted as a
// single-quoted YAML string, keeping every line where it was.
func quoteValues(front []byte) []byte {
	lines := strings.Split(string(front), "\n")
	for i, l := range lines {
		m := topLevel.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(m[2], "'") || strings.HasPrefix(m[2], `"`) {
			continue
		}
		lines[i] = m[1] + ": '" + strings.ReplaceAll(m[2], "'", "''") + "'"
	}
	return []byte(strings.Join(lines, "\n"))
}

// set applies one front matter key and returns a notice for the person, or
// "" when the key was taken as Claude Code means it.
func (c *Command) set(key string, val *yaml.Node) string {
	text := func() string {
		if val.Kind != yaml.ScalarNode || val.ShortTag() == "!!null" {
			return ""
		}
		return strings.TrimSpace(val.Value)
	}
	switch key {
	case "description":
		c.Description = text()
	case "argument-hint":
		c.ArgumentHint = text()
		if val.Kind == yaml.SequenceNode {
			// `argument-hint: [message]` is a YAML list to a parser;
			// to Claude Code it is the text as written.
			var items []string
			for _, it := range val.Content {
				items = append(items, it.Value)
			}
			c.ArgumentHint = "[" + strings.Join(items, ", ") + "]"
		}
	case "allowed-tools":
		rules, err := skill.AllowedTools(val)
		if err != nil {
			return "allowed-tools is not granted: " + err.Error()
		}
		c.AllowedTools = rules
	case "disable-model-invocation":
		// Workbench's model never runs a person's slash commands, so
		// every command already behaves as if this were true.
	case "model":
		return "model " + text() + " is not used: the command runs with the session's model (--model)"
	default:
		return "front matter key " + key + " is not read by Workbench"
	}
	return ""
}
