package skill

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/seed92b641c3/workbench/tools"
)

//go:embed skill.md
var skillPrompt string

const skillSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "description": "The name of the skill to load, exactly as listed."},
    "args": {"type": "string", "description": "Details of the request for the skill to act on, if any."}
  },
  "required": ["name"],
  "additionalProperties": false
}`

// Tuning numbers of the skill listing in the Skill tool's prompt.
const (
	// listBudget bounds the listing, in characters: the prompt is sent with
	// every request, so a person with many skills must not pay for all of
	// their descriptions on every turn.
	listBudget = 8000
	// descriptionClip bounds one skill's entry, so one long description
	// cannot use up the budget that the others need.
	descriptionClip = 500
)

// skillDirVar is replaced by a skill's folder in its instructions, so a
// skill can name its own scripts without knowing where it is installed.
const skillDirVar = "${SKILL_DIR}"

type skillInput struct {
	Name string `json:"name"`
	Args string `json:"args"`
}

// Tool is the Skill tool over r: the model loads a skill by name and gets
// its instructions as the next message. It is read-only (it changes nothing
// on disk, so plan mode allows it) but not concurrency-safe, because loading
// a skill may unlock tools that later calls in the same turn depend on.
func Tool(r *Registry) tools.Tool {
	return tools.Build(tools.Spec{
		Name:        "Skill",
		Description: "Load a skill: instructions (and sometimes scripts) that people wrote for a particular kind of task. The instructions follow the result as a message.",
		Prompt:      prompt(r),
		Schema:      skillSchema,
		ReadOnly:    tools.Always,
		Permission:  tools.AllowSelf,
		Run: func(_ context.Context, input json.RawMessage, _ *tools.Context) (tools.Result, error) {
			return run(r, input)
		},
	})
}

func run(r *Registry, input json.RawMessage) (tools.Result, error) {
	var in skillInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("input: %w", err)
	}
	// A person may type a skill as a slash command; the model may copy that.
	name := strings.TrimPrefix(strings.TrimSpace(in.Name), "/")
	s, ok := r.Get(name)
	if !ok {
		s, ok = r.Get(strings.ToLower(name))
	}
	if !ok {
		return tools.Error(unknown(r, in.Name)), nil
	}
	text := fmt.Sprintf("Loaded skill %s. Its instructions follow as the next message.", s.Name)
	if r.OnInvoke != nil {
		if note := strings.TrimSpace(r.OnInvoke(s)); note != "" {
			text += "\n" + note
		}
	}
	return tools.Result{Text: text, Extra: []string{instructions(s, in.Args)}}, nil
}

// unknown explains a name that is not a skill: the names that are, or where
// skills go when there are none, so the model does not guess again.
func unknown(r *Registry, name string) string {
	names := r.Names()
	if len(names) > 0 {
		return fmt.Sprintf("There is no skill named %q. Available skills: %s.", name, strings.Join(names, ", "))
	}
	msg := fmt.Sprintf("There is no skill named %q: no skills are installed.", name)
	if dirs := r.Dirs(); len(dirs) > 0 {
		msg += " A skill is a folder with a " + FileName + " file inside one of: " + strings.Join(dirs, ", ") + "."
	}
	return msg
}

// instructions is the message that carries a loaded skill into the
// conversation.
func instructions(s Skill, args string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Skill: %s\n\nThe files of this skill are in %s.\n", s.Name, s.Dir)
	if body := strings.ReplaceAll(s.Body, skillDirVar, s.Dir); body != "" {
		b.WriteString("\n" + body + "\n")
	}
	if args = strings.TrimSpace(args); args != "" {
		b.WriteString("\n## Arguments\n\n" + args + "\n")
	}
	return b.String()
}

// prompt is the usage guidance followed by the list of skills. Every skill
// is named; descriptions are given while the budget lasts, and the skills
// after that are listed by name only, since a skill the model has never
// heard of cannot be used at all.
func prompt(r *Registry) string {
	skills := r.List()
	if len(skills) == 0 {
		return skillPrompt + "\nNo skills are installed."
	}
	var b strings.Builder
	b.WriteString(skillPrompt + "\nAvailable skills:\n")
	used, spent := 0, false
	for _, s := range skills {
		line := "- " + s.Name + ": " + summary(s) + "\n"
		n := utf8.RuneCountInString(line)
		if !spent && used+n <= listBudget {
			b.WriteString(line)
			used += n
			continue
		}
		spent = true
		b.WriteString("- " + s.Name + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// summary is a skill's description and when-to-use on one line, clipped.
func summary(s Skill) string {
	text := s.Description
	if s.WhenToUse != "" {
		text += " Use when: " + s.WhenToUse
	}
	return clip(strings.Join(strings.Fields(text), " "), descriptionClip)
}

// clip shortens s to at most n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
