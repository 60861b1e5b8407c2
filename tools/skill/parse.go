package skill

import (
	"errors"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/internal/frontmatter"
	"github.com/seed92b641c3/workbench/permission"

	"go.yaml.in/yaml/v3"
)

// parse reads a SKILL.md. folder is the name of the folder holding it, which
// the skill's name must equal: the folder is what a person sees and renames,
// so a second name inside the file could only drift from it. Errors name the
// file and, where the fault has one, the line.
func parse(path, folder string, data []byte) (Skill, error) {
	front, body, ok := splitFrontMatter(data)
	if !ok {
		return Skill{}, fmt.Errorf("%s:1: a skill must start with YAML front matter between two --- lines", path)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		// The front matter is handed to yaml with its opening line kept as
		// a blank one, so the line in yaml's message is the file's line.
		return Skill{}, fmt.Errorf("%s: front matter: %w", path, err)
	}
	s := Skill{Path: path, Body: strings.TrimSpace(string(body))}
	var nameLine int
	if len(doc.Content) > 0 {
		m := doc.Content[0]
		if m.Kind != yaml.MappingNode {
			return Skill{}, fmt.Errorf("%s:%d: front matter must be a mapping of keys to values", path, m.Line)
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			key, val := m.Content[i], m.Content[i+1]
			var err error
			switch key.Value {
			case "name":
				s.Name, err = scalar(val)
				nameLine = key.Line
			case "description":
				s.Description, err = scalar(val)
			case "when_to_use", "whenToUse", "when-to-use":
				s.WhenToUse, err = scalar(val)
			case "unlocks", "tools":
				var names []string
				names, err = nameList(val)
				s.Unlocks = append(s.Unlocks, names...)
			case "allowed-tools":
				s.AllowedTools, err = ruleList(val)
			}
			// Other keys (license, compatibility, ...) belong to other
			// tools' formats and are left alone.
			if err != nil {
				return Skill{}, fmt.Errorf("%s:%d: %s: %w", path, val.Line, key.Value, err)
			}
		}
	}
	s.Name = strings.TrimSpace(s.Name)
	s.Description = strings.TrimSpace(s.Description)
	s.WhenToUse = strings.TrimSpace(s.WhenToUse)
	switch {
	case s.Name == "":
		if !namePattern.MatchString(folder) {
			return Skill{}, fmt.Errorf("%s: folder name %q is not a valid skill name (lower-case letters, digits and hyphens, at most 64, starting with a letter or digit)", path, folder)
		}
		s.Name = folder
	case !namePattern.MatchString(s.Name):
		return Skill{}, fmt.Errorf("%s:%d: name %q is not a valid skill name (lower-case letters, digits and hyphens, at most 64, starting with a letter or digit)", path, nameLine, s.Name)
	case s.Name != folder:
		return Skill{}, fmt.Errorf("%s:%d: name %q does not match its folder %q; rename one so they agree", path, nameLine, s.Name, folder)
	}
	if s.Description == "" {
		return Skill{}, fmt.Errorf("%s:1: description is missing; the model chooses skills by their description", path)
	}
	return s, nil
}

// splitFrontMatter splits a file into its front matter and the rest.
func splitFrontMatter(data []byte) (front, body []byte, ok bool) {
	return frontmatter.Split(data)
}

// scalar reads a value written as plain text. Numbers and booleans are taken
// as the text they were written as, which is what a person meant.
func scalar(n *yaml.Node) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", errors.New("must be text, not a list or mapping")
	}
	if n.ShortTag() == "!!null" {
		return "", nil
	}
	return n.Value, nil
}

// nameList reads tool names given either as a YAML list or as one string
// separated by commas or spaces, the two ways people write them.
func nameList(n *yaml.Node) ([]string, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return nil, nil
		}
		return strings.FieldsFunc(n.Value, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }), nil
	case yaml.SequenceNode:
		var out []string
		for _, item := range n.Content {
			v, err := scalar(item)
			if err != nil {
				return nil, fmt.Errorf("line %d: each entry %w", item.Line, err)
			}
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
		return out, nil
	}
	return nil, errors.New("must be a list of tool names or a comma-separated string")
}

// ruleList reads allowed-tools: permission rules given as a YAML list or
// as one string, separated by commas (or, with no comma, by spaces) outside
// parentheses, so `Bash(git add:*), Read` is two rules. Each must parse: a
// typo that matched nothing would only surprise the person later.
func ruleList(n *yaml.Node) ([]string, error) {
	var raw []string
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return nil, nil
		}
		raw = splitRules(n.Value)
	case yaml.SequenceNode:
		for _, item := range n.Content {
			v, err := scalar(item)
			if err != nil {
				return nil, fmt.Errorf("line %d: each entry %w", item.Line, err)
			}
			raw = append(raw, v)
		}
	default:
		return nil, errors.New("must be a list of permission rules or a comma-separated string")
	}
	var out []string
	for _, r := range raw {
		if r = strings.TrimSpace(r); r == "" {
			continue
		}
		if _, err := permission.ParseRule(r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// splitRules splits at commas outside parentheses, or at spaces outside
// parentheses when there is no such comma.
func splitRules(s string) []string {
	sep := byte(' ')
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				sep = ','
			}
		}
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// AllowedTools reads an allowed-tools value the way a skill's is read (a
// YAML list, or rules separated by commas or spaces), so a custom slash
// command's allowed-tools (package commands) means exactly what a skill's
// does.
func AllowedTools(n *yaml.Node) ([]string, error) { return ruleList(n) }
