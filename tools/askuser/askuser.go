// Package askuser lets the model put multiple-choice questions to the
// person at the keyboard. The tool knows nothing of screens: the session
// hands it an Asker, which the UI implements with a dialog and headless runs
// implement with FileAnswers (--answers FILE).
package askuser

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/tools"
)

//go:embed askuser.md
var askPrompt string

const askSchema = `{
  "type": "object",
  "properties": {
    "questions": {
      "type": "array",
      "minItems": 1,
      "maxItems": 4,
      "description": "One to four questions, asked together.",
      "items": {
        "type": "object",
        "properties": {
          "header": {"type": "string", "maxLength": 12, "description": "A very short tag shown above the question, such as \"Database\"."},
          "question": {"type": "string", "minLength": 1, "description": "The full question, ending with a question mark."},
          "multiSelect": {"type": "boolean", "default": false, "description": "Let the person pick more than one option."},
          "options": {
            "type": "array",
            "minItems": 2,
            "maxItems": 4,
            "items": {
              "type": "object",
              "properties": {
                "label": {"type": "string", "minLength": 1, "description": "The choice, in a few words."},
                "description": {"type": "string", "description": "What picking it means or costs."}
              },
              "required": ["label"],
              "additionalProperties": false
            }
          }
        },
        "required": ["question", "options"],
        "additionalProperties": false
      }
    }
  },
  "required": ["questions"],
  "additionalProperties": false
}`

// Question is one multiple-choice question, as the model wrote it. The
// person may always answer in their own words instead of picking.
type Question struct {
	// Header is a tag of at most 12 characters the dialog shows as a title.
	Header string `json:"header,omitempty"`
	// Question is the full text of the question.
	Question string `json:"question"`
	// MultiSelect lets the person pick several options.
	MultiSelect bool `json:"multiSelect,omitempty"`
	// Options are the two to four choices offered.
	Options []Option `json:"options"`
}

// Option is one choice of a Question.
type Option struct {
	// Label is what the person picks and what the model gets back.
	Label string `json:"label"`
	// Description explains the choice; it is shown, never returned.
	Description string `json:"description,omitempty"`
}

// Answer is the person's reply to one Question.
type Answer struct {
	// Question repeats the question text, so an answer can be read alone.
	Question string `json:"question"`
	// Selected holds the labels picked, in the order of the options.
	Selected []string `json:"selected,omitempty"`
	// Other is free text, when the person typed their own answer.
	Other string `json:"other,omitempty"`
}

// Asker puts questions to a person and waits for the answers, one Answer
// per Question in the same order. It is declared here, where it is used, so
// the UI and headless runner can each supply one without this package
// knowing either. Ask must return when ctx is done.
type Asker interface {
	Ask(ctx context.Context, qs []Question) ([]Answer, error)
}

// ErrDeclined is what an Asker returns when the person dismisses the
// questions without answering, so the model is told to go on without
// answers rather than that something broke.
var ErrDeclined = errors.New("the person declined to answer")

type askInput struct {
	Questions []Question `json:"questions"`
}

// AskUserQuestion is the tool that asks the person through a. A nil a is a
// session with nobody to answer (headless without --answers): the tool
// stays registered so the model learns that, rather than calling a tool it
// does not know. Asking needs no approval, but it is not read-only and it
// runs alone, because it waits on the one person there is.
func AskUserQuestion(a Asker) tools.Tool {
	return tools.Build(tools.Spec{
		Name:        "AskUserQuestion",
		Description: "Ask the person one to four multiple-choice questions and wait for their answers, when a choice is theirs to make or the request is ambiguous.",
		Prompt:      askPrompt,
		Schema:      askSchema,
		Permission:  tools.AllowSelf,
		// Read-only: asking the person changes nothing, so plan mode allows it.
		ReadOnly: tools.Always,
		Run: func(ctx context.Context, input json.RawMessage, _ *tools.Context) (tools.Result, error) {
			return runAsk(ctx, a, input)
		},
	})
}

func runAsk(ctx context.Context, a Asker, input json.RawMessage) (tools.Result, error) {
	var in askInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("input: %w", err)
	}
	if msg := check(in.Questions); msg != "" {
		return tools.Error(msg), nil
	}
	if a == nil {
		return tools.Error("Nobody can answer questions in this session: it runs without a person at the keyboard and no --answers file was given. Do not ask again; choose the most reasonable option yourself, say which you chose and why, and go on."), nil
	}
	answers, err := a.Ask(ctx, in.Questions)
	switch {
	case err == nil:
	case errors.Is(err, ErrDeclined):
		return tools.Error("The person closed the questions without answering. Do not ask the same again; go on with your best judgement, or stop and say what you need from them."), nil
	case ctx.Err() != nil:
		return tools.Result{}, ctx.Err()
	default:
		return tools.Error(fmt.Sprintf("The questions could not be answered: %v", err)), nil
	}
	answers = align(in.Questions, answers)
	meta, err := json.Marshal(map[string][]Answer{"answers": answers})
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Result{Text: render(in.Questions, answers), Meta: meta}, nil
}

// check finds what the schema cannot express: blank text and repeats, which
// would make an answer ambiguous (and FileAnswers match by question text).
func check(qs []Question) string {
	seenQ := map[string]int{}
	for i, q := range qs {
		text := strings.TrimSpace(q.Question)
		if text == "" {
			return fmt.Sprintf("questions[%d].question is blank.", i)
		}
		if j, ok := seenQ[text]; ok {
			return fmt.Sprintf("questions[%d] repeats questions[%d] (%q); ask each question once.", i, j, text)
		}
		seenQ[text] = i
		seenL := map[string]int{}
		for k, o := range q.Options {
			label := strings.TrimSpace(o.Label)
			if label == "" {
				return fmt.Sprintf("questions[%d].options[%d].label is blank.", i, k)
			}
			if m, ok := seenL[strings.ToLower(label)]; ok {
				return fmt.Sprintf("questions[%d].options[%d] has the same label as options[%d] (%q); labels must differ so an answer names one option.", i, k, m, label)
			}
			seenL[strings.ToLower(label)] = k
		}
	}
	return ""
}

// align gives exactly one answer per question, each naming its question,
// so the transcript's Meta reads on its own whatever the Asker filled in.
func align(qs []Question, answers []Answer) []Answer {
	out := make([]Answer, len(qs))
	for i, q := range qs {
		if i < len(answers) {
			out[i] = answers[i]
		}
		out[i].Question = q.Question
	}
	return out
}

// render writes a Q/A block per question; answers is aligned with qs. A
// question left without an answer is said to be unanswered rather than
// dropped, so the model does not take silence for consent.
func render(qs []Question, answers []Answer) string {
	var b strings.Builder
	b.WriteString("The person answered:")
	for i, q := range qs {
		b.WriteString("\n\nQ: ")
		b.WriteString(q.Question)
		b.WriteString("\nA: ")
		b.WriteString(answerText(answers[i]))
	}
	return b.String()
}

func answerText(a Answer) string {
	picked := strings.Join(a.Selected, ", ")
	other := strings.TrimSpace(a.Other)
	switch {
	case picked != "" && other != "":
		return picked + "; in their own words: " + other
	case picked != "":
		return picked
	case other != "":
		return other
	}
	return "(no answer)"
}
