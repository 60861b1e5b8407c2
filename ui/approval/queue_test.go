package approval

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/agent"
)

func TestQueueShowsPositionAndAnswersInOrder(t *testing.T) {
	t.Parallel()
	c := newClock()
	q := &Queue{Now: c.now}
	opts := Options{Now: c.now, WorkDir: t.TempDir()}
	if !q.Add(New(bash("touch a"), opts)) {
		t.Error("the first request was not reported as shown")
	}
	if q.Add(New(bash("git status"), opts)) {
		t.Error("a queued request was reported as shown")
	}
	q.Push(bash("rm -rf build"), opts)
	c.advance(pastGrace)

	requireGolden(t, q.View(80, 24), 80, 24)

	var order []string
	for want := 3; want > 0; want-- {
		if q.Len() != want {
			t.Fatalf("Len = %d, want %d", q.Len(), want)
		}
		view := screen(t, q.View(80, 24), 80, 24)
		pos := fmt.Sprintf("1 of %d", want)
		if want > 1 != strings.Contains(view, pos) {
			t.Errorf("with %d waiting the title shows %q? %v\n%s", want, pos, strings.Contains(view, pos), view)
		}
		if want < 3 {
			// The dialog just came to the front: its grace period is new.
			if answered, _ := q.Update(press("y")); answered != nil {
				t.Fatal("y right after the dialog came to the front answered it")
			}
			c.advance(pastGrace)
		}
		answered, a := q.Update(press("y"))
		if !a.Done || answered == nil {
			t.Fatalf("y did not answer: done=%v", a.Done)
		}
		order = append(order, answered.(*Dialog).Request().Target.Commands[0])
	}
	if strings.Join(order, "; ") != "touch a; git status; rm -rf build" {
		t.Errorf("answered in the order %q", order)
	}
	if q.Current() != nil || q.View(80, 24) != "" {
		t.Error("the empty queue still shows a dialog")
	}
}

func TestQueueRemoveWithdrawsARequest(t *testing.T) {
	t.Parallel()
	c := newClock()
	q := &Queue{Now: c.now}
	a := q.Push(bash("touch a"), Options{Now: c.now})
	b := q.Push(bash("touch b"), Options{Now: c.now})
	if !q.Remove(a) || q.Current() != Modal(b) {
		t.Fatal("removing the shown request did not bring the next forward")
	}
	c.advance(100 * time.Millisecond)
	if _, act := q.Update(press("y")); act.Done {
		t.Error("the request brought forward skipped its grace period")
	}
	if q.Remove(a) {
		t.Error("a request removed twice was found")
	}
}

func TestQueueHoldsQuestionsToo(t *testing.T) {
	t.Parallel()
	c := newClock()
	q := &Queue{Now: c.now}
	q.Push(agent.ApprovalRequest{Tool: "Bash", Input: []byte(`{"command":"ls"}`)}, Options{Now: c.now})
	qd := q.PushQuestion(questions()[:1], Options{Now: c.now})
	c.advance(pastGrace)
	q.View(80, 24)
	q.Update(press("y"))
	if q.Current() != Modal(qd) {
		t.Fatal("the question did not come forward")
	}
	c.advance(pastGrace)
	answered, a := q.Update(press("2"))
	if answered != Modal(qd) || len(a.Answers) != 1 || a.Answers[0].Selected[0] != "SQLite" {
		t.Errorf("answered %T with %+v", answered, a.Answers)
	}
}

func TestAlertRingsAndNotifies(t *testing.T) {
	t.Parallel()
	if got, want := Alert(), "\a\x1b]9;Workbench: approval needed\x07"; got != want {
		t.Errorf("Alert() = %q, want %q", got, want)
	}
}
