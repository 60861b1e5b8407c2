package todo

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/tools"
)

//go:embed todowrite.md
var todoWritePrompt string

const todoWriteSchema = `{
  "type": "object",
  "properties": {
    "todos": {
      "type": "array",
      "description": "The whole list, in order. It replaces the previous list.",
      "items": {
        "type": "object",
        "properties": {
          "content": {"type": "string", "minLength": 1, "description": "What is to be done, in the imperative: \"Run the tests\"."},
          "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]},
          "activeForm": {"type": "string", "description": "The same step as an -ing phrase, shown while it is in progress: \"Running the tests\"."}
        },
        "required": ["content", "status"],
        "additionalProperties": false
      }
    }
  },
  "required": ["todos"],
  "additionalProperties": false
}`

type todoWriteInput struct {
	Todos []Item `json:"todos"`
}

// TodoWrite lets the model keep a visible plan of its own work in s. Each
// call replaces the whole list, so the model never has to reason about
// partial updates. It changes session state only, so it needs no approval,
// but it is not read-only and calls to it do not run side by side.
func TodoWrite(s *Store) tools.Tool {
	if s == nil {
		panic("todo.TodoWrite: a Store is required")
	}
	return tools.Build(tools.Spec{
		Name:        "TodoWrite",
		Description: "Create or replace your todo list for the current task: each item has content and a status (pending, in_progress, completed). The person sees the list as you work.",
		Prompt:      todoWritePrompt,
		Schema:      todoWriteSchema,
		Permission:  tools.AllowSelf,
		// Read-only: the list is session state, not the workspace, so plan mode allows it.
		ReadOnly: tools.Always,
		Run: func(_ context.Context, input json.RawMessage, _ *tools.Context) (tools.Result, error) {
			return runTodoWrite(s, input)
		},
	})
}

func runTodoWrite(s *Store, input json.RawMessage) (tools.Result, error) {
	var in todoWriteInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("input: %w", err)
	}
	if msg := check(in.Todos); msg != "" {
		return tools.Error(msg), nil
	}
	items := make([]Item, len(in.Todos))
	for i, it := range in.Todos {
		items[i] = Item{Content: strings.TrimSpace(it.Content), Status: it.Status, ActiveForm: strings.TrimSpace(it.ActiveForm)}
	}
	s.Set(items)
	meta, err := json.Marshal(map[string][]Item{"todos": items})
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Result{Text: acknowledge(items), Meta: meta}, nil
}

// check finds what the schema cannot express: blank text and more than one
// item in progress. The message names the items so the model can fix them.
func check(items []Item) string {
	var active []string
	for i, it := range items {
		if strings.TrimSpace(it.Content) == "" {
			return fmt.Sprintf("todos[%d].content is blank; every item needs text saying what is to be done. The list was not changed.", i)
		}
		if it.Status == InProgress {
			active = append(active, fmt.Sprintf("todos[%d] %q", i, it.Content))
		}
	}
	if len(active) > 1 {
		return fmt.Sprintf("%d items are in_progress (%s), but only one may be at a time. Mark the one you are working on in_progress and the others pending or completed. The list was not changed.",
			len(active), strings.Join(active, ", "))
	}
	return ""
}

func acknowledge(items []Item) string {
	if len(items) == 0 {
		return "Todo list cleared."
	}
	p, a, c := Counts(items)
	return fmt.Sprintf("Todo list updated: %d pending, %d in progress, %d completed. Keep it current: mark an item in_progress when you start it and completed as soon as it is done.", p, a, c)
}
