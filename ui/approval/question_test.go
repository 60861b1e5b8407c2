package approval

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tools/askuser"
)

func readyQuestion(t *testing.T, qs []askuser.Question) *QuestionDialog {
	t.Helper()
	c := newClock()
	d := NewQuestion(qs, Options{Now: c.now})
	c.advance(pastGrace)
	return d
}

func TestQuestionAnswers(t *testing.T) {
	t.Parallel()
	single, multi := questions()[0], questions()[1]
	tests := []struct {
		name  string
		q     askuser.Question
		steps func(d *QuestionDialog) Action
		want  askuser.Answer
	}{
		{"single select takes the option under the cursor", single,
			func(d *QuestionDialog) Action { return keys(d, "down", "enter") },
			askuser.Answer{Selected: []string{"SQLite"}}},
		{"single select by digit", single,
			func(d *QuestionDialog) Action { return keys(d, "1") },
			askuser.Answer{Selected: []string{"Postgres"}}},
		{"multi select ticks with space", multi,
			func(d *QuestionDialog) Action { return keys(d, "space", "down", "down", "space", "enter") },
			askuser.Answer{Selected: []string{"Login", "Export"}}},
		{"multi select ticks by digit and untoggles", multi,
			func(d *QuestionDialog) Action { return keys(d, "2", "3", "3", "enter") },
			askuser.Answer{Selected: []string{"Search"}}},
		{"other takes free text in single select", single,
			func(d *QuestionDialog) Action {
				keys(d, "up")
				typeText(d, "MySQL 8, 2 replicas")
				return keys(d, "enter")
			},
			askuser.Answer{Other: "MySQL 8, 2 replicas"}},
		{"other joins the ticks in multi select", multi,
			func(d *QuestionDialog) Action {
				keys(d, "space", "up")
				typeText(d, "dark mode")
				return keys(d, "enter")
			},
			askuser.Answer{Selected: []string{"Login"}, Other: "dark mode"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := readyQuestion(t, []askuser.Question{tt.q})
			a := tt.steps(d)
			if !a.Done || a.Declined || len(a.Answers) != 1 {
				t.Fatalf("action = %+v", a)
			}
			got := a.Answers[0]
			if got.Question != tt.q.Question || !slices.Equal(got.Selected, tt.want.Selected) || got.Other != tt.want.Other {
				t.Errorf("answer = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestQuestionsAreAnsweredInTurn(t *testing.T) {
	t.Parallel()
	d := readyQuestion(t, questions())
	if a := keys(d, "enter"); a.Done {
		t.Fatalf("answering the first of two questions finished: %+v", a)
	}
	requireGolden(t, d.View(80, 24), 80, 24)
	a := keys(d, "space", "enter")
	if !a.Done || len(a.Answers) != 2 || a.Answers[0].Selected[0] != "Postgres" || a.Answers[1].Selected[0] != "Login" {
		t.Fatalf("action = %+v", a)
	}
}

func TestQuestionRefusesAnEmptyAnswer(t *testing.T) {
	t.Parallel()
	d := readyQuestion(t, questions()[1:])
	if a := keys(d, "enter"); a.Done {
		t.Fatalf("an empty multi-select answer was accepted: %+v", a)
	}
	if v := screen(t, d.View(80, 24), 80, 24); !strings.Contains(v, "Tick at least one option") {
		t.Errorf("no message:\n%s", v)
	}
	s := readyQuestion(t, questions()[:1])
	if a := keys(s, "up", "enter"); a.Done {
		t.Fatalf("an empty Other answer was accepted: %+v", a)
	}
}

func TestQuestionEscDeclines(t *testing.T) {
	t.Parallel()
	d := readyQuestion(t, questions())
	if a := keys(d, "esc"); !a.Done || !a.Declined || a.Answers != nil {
		t.Errorf("action = %+v", a)
	}
}

func TestQuestionIgnoresKeysInTheGracePeriod(t *testing.T) {
	t.Parallel()
	c := newClock()
	d := NewQuestion(questions()[:1], Options{Now: c.now})
	c.advance(100 * time.Millisecond)
	if a := keys(d, "1"); a.Done {
		t.Errorf("a key 100ms after opening answered: %+v", a)
	}
}

func TestQuestionScreens(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		keys []string
	}{
		{"single select", nil},
		{"other line focused", []string{"up", "M", "y"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := readyQuestion(t, questions())
			keys(d, tt.keys...)
			requireGolden(t, d.View(80, 24), 80, 24)
		})
	}
}
