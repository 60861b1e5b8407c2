package conversation

import (
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tools"
)

// The copy key takes the selected call's result, the selected thinking
// block, or the whole last answer (every block of it, streamed or not), as
// text without terminal sequences.
func TestCopyTextIsTheSelectionOrTheLastAnswer(t *testing.T) {
	t.Parallel()
	v := newView(80, 30)
	if _, _, ok := v.CopyText(); ok {
		t.Fatal("an empty conversation offers something to copy")
	}
	v.AddAssistant("An earlier answer.")
	v.AddUser("and now?")
	v.AddToolUse("t1", "Bash", bashInput("ls --color"))
	v.SetToolResult("t1", tools.Result{Text: "\x1b[34mdir\x1b[0m\tfile\x07\r\nnext\n"}, time.Second)
	v.AddThinking("weighing it")
	for _, d := range strings.SplitAfter(answer, " ") {
		v.AppendAssistantDelta(d)
	}
	text, what, ok := v.CopyText()
	if !ok || what != "the agent's last answer" || text != strings.TrimSpace(answer) {
		t.Errorf("with nothing selected: %q, %q, %v; want the whole answer being streamed", text, what, ok)
	}
	v.FinishAssistant()
	if text, _, _ := v.CopyText(); text != strings.TrimSpace(answer) {
		t.Errorf("after the reply ended: %q", text)
	}
	v.SelectPrev() // the thinking block
	if text, what, _ := v.CopyText(); text != "weighing it" || what != "the thinking block" {
		t.Errorf("the thinking block selected: %q, %q", text, what)
	}
	v.SelectPrev() // the call
	if text, what, _ := v.CopyText(); text != "dir\tfile\nnext\n" || what != "the output of Bash" {
		t.Errorf("the call selected: %q, %q; want its output without sequences or control characters", text, what)
	}
}
