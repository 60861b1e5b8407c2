package askuser_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/askuser"
)

// fakeAsker records what it was asked and replies with fixed answers.
type fakeAsker struct {
	mu      sync.Mutex
	asked   [][]askuser.Question
	answers []askuser.Answer
	err     error
}

func (f *fakeAsker) Ask(_ context.Context, qs []askuser.Question) ([]askuser.Answer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, qs)
	return f.answers, f.err
}

func call(t *testing.T, tool tools.Tool, input string) tools.Result {
	t.Helper()
	prepared, err := tool.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatalf("the schema rejected %s: %v", input, err)
	}
	res, err := tool.Call(context.Background(), prepared, &tools.Context{})
	if err != nil {
		t.Fatalf("Call(%s) returned an error: %v", input, err)
	}
	return res
}

const dbQuestion = `{"questions":[{"header":"Database","question":"Which database should the service use?","options":[{"label":"Postgres","description":"the usual"},{"label":"SQLite"}]}]}`

const twoQuestions = `{"questions":[
 {"question":"Which database should the service use?","options":[{"label":"Postgres"},{"label":"SQLite"}]},
 {"header":"Checks","question":"Which checks should CI run?","multiSelect":true,"options":[{"label":"lint"},{"label":"test"},{"label":"race"}]}]}`

func TestSchemaRejectsMalformedQuestions(t *testing.T) {
	t.Parallel()
	opts := `"options":[{"label":"a"},{"label":"b"}]`
	q := `{"question":"q?",` + opts + `}`
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"no questions at all", `{"questions":[]}`, "questions"},
		{"five questions", `{"questions":[` + strings.Repeat(q+",", 4) + q + `]}`, "questions"},
		{"a header over 12 characters", `{"questions":[{"header":"Thirteen char","question":"q?",` + opts + `}]}`, "questions[0].header"},
		{"a missing question text", `{"questions":[{` + opts + `}]}`, "questions[0].question"},
		{"a single option", `{"questions":[{"question":"q?","options":[{"label":"a"}]}]}`, "questions[0].options"},
		{"five options", `{"questions":[{"question":"q?","options":[{"label":"a"},{"label":"b"},{"label":"c"},{"label":"d"},{"label":"e"}]}]}`, "questions[0].options"},
		{"an option without a label", `{"questions":[` + q + `,{"question":"r?","options":[{"label":"a"},{"description":"b"}]}]}`, "questions[1].options[1].label"},
		{"multiSelect that is not a boolean", `{"questions":[{"question":"q?","multiSelect":"yes",` + opts + `}]}`, "questions[0].multiSelect"},
	}
	tool := askuser.AskUserQuestion(&fakeAsker{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := tool.Schema().Prepare(json.RawMessage(c.input))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Prepare = %v, want an error naming %s", err, c.want)
			}
		})
	}
}

func TestAskUserQuestionMetadata(t *testing.T) {
	t.Parallel()
	tool := askuser.AskUserQuestion(nil)
	in := json.RawMessage(dbQuestion)
	if tool.Name() != "AskUserQuestion" || !tool.ReadOnly(in) || tool.ConcurrencySafe(in) {
		t.Errorf("%s: read-only %v, concurrency-safe %v; want read-only (plan mode may ask) and not concurrent", tool.Name(), tool.ReadOnly(in), tool.ConcurrencySafe(in))
	}
	if d := tool.CheckPermission(context.Background(), in, &tools.Context{}); d.Behavior != permission.Allow {
		t.Errorf("own verdict %v, want allow", d.Behavior)
	}
}

func TestAskUserQuestionWithAnAsker(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		input   string
		answers []askuser.Answer
		want    string
	}{
		{"one picked label", dbQuestion, []askuser.Answer{{Selected: []string{"Postgres"}}},
			"The person answered:\n\nQ: Which database should the service use?\nA: Postgres"},
		{"several labels and a second question", twoQuestions,
			[]askuser.Answer{{Selected: []string{"SQLite"}}, {Selected: []string{"lint", "race"}}},
			"The person answered:\n\nQ: Which database should the service use?\nA: SQLite\n\nQ: Which checks should CI run?\nA: lint, race"},
		{"their own words", dbQuestion, []askuser.Answer{{Other: "  whatever ops already runs "}},
			"The person answered:\n\nQ: Which database should the service use?\nA: whatever ops already runs"},
		{"a label and their own words", dbQuestion, []askuser.Answer{{Selected: []string{"Postgres"}, Other: "version 16"}},
			"The person answered:\n\nQ: Which database should the service use?\nA: Postgres; in their own words: version 16"},
		{"an answer missing from the asker", twoQuestions, []askuser.Answer{{Selected: []string{"SQLite"}}},
			"The person answered:\n\nQ: Which database should the service use?\nA: SQLite\n\nQ: Which checks should CI run?\nA: (no answer)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a := &fakeAsker{answers: c.answers}
			res := call(t, askuser.AskUserQuestion(a), c.input)
			if res.IsError || res.Text != c.want {
				t.Fatalf("got (error=%v)\n%s\nwant\n%s", res.IsError, res.Text, c.want)
			}
			var meta struct{ Answers []askuser.Answer }
			if err := json.Unmarshal(res.Meta, &meta); err != nil || len(meta.Answers) != len(a.asked[0]) || meta.Answers[0].Question == "" {
				t.Fatalf("Meta %s (%v) must hold one answer per question, each naming it", res.Meta, err)
			}
		})
	}
}

func TestAskerReceivesTheQuestionsAsWritten(t *testing.T) {
	t.Parallel()
	a := &fakeAsker{answers: []askuser.Answer{{}, {}}}
	call(t, askuser.AskUserQuestion(a), twoQuestions)
	if len(a.asked) != 1 {
		t.Fatalf("asked %d times, want once for all questions", len(a.asked))
	}
	qs := a.asked[0]
	if len(qs) != 2 || qs[0].MultiSelect || !qs[1].MultiSelect || qs[1].Header != "Checks" || len(qs[1].Options) != 3 {
		t.Fatalf("questions reached the asker as %+v", qs)
	}
}

func TestAskUserQuestionFailures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		asker askuser.Asker
		input string
		want  string
	}{
		{"nobody to answer", nil, dbQuestion, "Nobody can answer"},
		{"the person declines", &fakeAsker{err: askuser.ErrDeclined}, dbQuestion, "closed the questions without answering"},
		{"the asker fails", &fakeAsker{err: errors.New("terminal lost")}, dbQuestion, "could not be answered: terminal lost"},
		{"two options with one label", &fakeAsker{}, `{"questions":[{"question":"q?","options":[{"label":"Yes"},{"label":"yes"}]}]}`, "same label"},
		{"a question asked twice", &fakeAsker{}, `{"questions":[{"question":"q?","options":[{"label":"a"},{"label":"b"}]},{"question":"q?","options":[{"label":"a"},{"label":"b"}]}]}`, "repeats questions[0]"},
		{"a blank question", &fakeAsker{}, `{"questions":[{"question":"  ","options":[{"label":"a"},{"label":"b"}]}]}`, "questions[0].question is blank"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := call(t, askuser.AskUserQuestion(c.asker), c.input)
			if !res.IsError || !strings.Contains(res.Text, c.want) {
				t.Fatalf("got (error=%v) %q, want an error containing %q", res.IsError, res.Text, c.want)
			}
		})
	}
}

func TestCancelledAskReturnsTheContextError(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tool := askuser.AskUserQuestion(&fakeAsker{err: context.Canceled})
	_, err := tool.Call(ctx, json.RawMessage(dbQuestion), &tools.Context{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled so the pipeline reports an interrupted call", err)
	}
}

func writeAnswers(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestAskUserQuestionWithFileAnswers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		file    string
		input   string
		want    string
		wantErr bool
	}{
		{"an exact question", `{"answers":[{"question":"Which database should the service use?","select":["SQLite"]}]}`, dbQuestion,
			"A: SQLite", false},
		{"a substring ignoring case", `{"answers":[{"question":"DATABASE","select":["postgres"]}]}`, dbQuestion,
			"A: Postgres", false},
		{"exact beats a substring listed first", `{"answers":[{"question":"database","select":["SQLite"]},{"question":"Which database should the service use?","select":["Postgres"]}]}`, dbQuestion,
			"A: Postgres", false},
		{"the longest substring wins", `{"answers":[{"question":"database","select":["SQLite"]},{"question":"service use","select":["Postgres"]}]}`, dbQuestion,
			"A: Postgres", false},
		{"labels come back in option order", `{"answers":[{"question":"database","select":["Postgres"]},{"question":"checks","select":["race","lint","race"]}]}`, twoQuestions,
			"Q: Which checks should CI run?\nA: lint, race", false},
		{"free text", `{"answers":[{"question":"database","other":"MySQL, sadly"}]}`, dbQuestion,
			"A: MySQL, sadly", false},
		{"an unmatched question is named", `{"answers":[{"question":"database","select":["SQLite"]}]}`, twoQuestions,
			`no answer for the question "Which checks should CI run?"`, true},
		{"a label the question does not offer", `{"answers":[{"question":"database","select":["Oracle"]}]}`, dbQuestion,
			`selects "Oracle", which is not one of its options (Postgres, SQLite)`, true},
		{"two labels for a single choice", `{"answers":[{"question":"database","select":["Postgres","SQLite"]}]}`, dbQuestion,
			"selects 2 options, but the question takes one", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fa, err := askuser.LoadAnswers(writeAnswers(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			res := call(t, askuser.AskUserQuestion(fa), c.input)
			if res.IsError != c.wantErr || !strings.Contains(res.Text, c.want) {
				t.Fatalf("got (error=%v)\n%s\nwant (error=%v) text containing %q", res.IsError, res.Text, c.wantErr, c.want)
			}
		})
	}
}

func TestLoadAnswersExplainsBadFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		file string
		want string
	}{
		{"a syntax error with its position", "{\"answers\": [\n  {\"question\": \"db\" \"select\": [\"a\"]}\n]}", "line 2, column 21"},
		{"a wrong type with its position", "{\"answers\": [\n  {\"question\": \"db\", \"select\": \"a\"}\n]}", `"answers.select" must be []string, not string`},
		{"an unknown field", `{"answers":[{"question":"db","selected":["a"]}]}`, `unknown field "selected"`},
		{"an empty file", ``, "the file is empty"},
		{"a truncated file", `{"answers":[{"question":"db"`, "ends too soon"},
		{"trailing data", `{"answers":[{"question":"db","select":["a"]}]} {}`, "unexpected data after the JSON object"},
		{"no answers", `{"answers":[]}`, "it has no answers"},
		{"a blank question", `{"answers":[{"question":" ","select":["a"]}]}`, `answers[0]: "question" is empty`},
		{"an entry with nothing to answer", `{"answers":[{"question":"db","select":["a"]},{"question":"ci"}]}`, `answers[1]: the answer to "ci" has neither`},
		{"a blank label", `{"answers":[{"question":"db","select":["a",""]}]}`, "answers[0]: select[1] is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			path := writeAnswers(t, c.file)
			_, err := askuser.LoadAnswers(path)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("LoadAnswers = %v, want an error naming the file and containing %q", err, c.want)
			}
		})
	}
}

func TestLoadAnswersOfAMissingFile(t *testing.T) {
	t.Parallel()
	_, err := askuser.LoadAnswers(filepath.Join(t.TempDir(), "nope.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want one that wraps os.ErrNotExist", err)
	}
}
