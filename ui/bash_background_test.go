package ui

import (
	"strings"
	"testing"
)

// A Bash call started in the background shows the person what they need,
// not the model's instructions: the task's id, the command, that it runs
// in the background and how to watch it. The model still gets its text,
// with the output file and the TaskOutput hint.
func TestBackgroundBashShowsAReadableLine(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[
	  {"text":"Starting the server.","tool_calls":[{"id":"b1","name":"Bash","input":{"command":"sleep 30 && echo ready","run_in_background":true}}]},
	  {"text":"It is starting."}]}`, 80, 24, appOptions{tasks: true, allow: []string{"Bash(sleep:*)", "Bash(echo:*)"}})
	a.prompt("start it")
	a.idle()
	a.snap(t, "started")
	s := a.screen(t)
	if strings.Contains(s, "TaskOutput") || strings.Contains(s, "You will be notified") {
		t.Errorf("the conversation shows the model's instructions:\n%s", s)
	}
	res := toolResults(a)
	if len(res) != 1 || !strings.Contains(res[0], "TaskOutput") || !strings.Contains(res[0], "Output file:") {
		t.Errorf("the model's result is %q, want its text with the output file and TaskOutput", res)
	}
	if !strings.Contains(s, "in the background") || !strings.Contains(s, "/tasks open") {
		t.Errorf("the conversation does not say where the command runs and how to watch it:\n%s", s)
	}
}

// A command that outlives its timeout moves to the background: the
// person sees what it printed, that it goes on as a task and how to
// watch it, not the model's bracketed note.
func TestBashMovedToTheBackgroundShowsAReadableLine(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[
	  {"text":"Building.","tool_calls":[{"id":"b1","name":"Bash","input":{"command":"echo compiling; exec sleep 30","timeout":300}}]},
	  {"text":"It goes on."}]}`, 80, 24, appOptions{tasks: true, allow: []string{"Bash(echo:*)", "Bash(exec:*)", "Bash(sleep:*)"}})
	a.prompt("build it")
	a.idle()
	s := a.screen(t)
	if strings.Contains(s, "[command still running") || strings.Contains(s, "TaskOutput") {
		t.Errorf("the conversation shows the model's note:\n%s", s)
	}
	if !strings.Contains(s, "compiling") || !strings.Contains(s, "goes on in the background as task_1") || !strings.Contains(s, "/tasks open task_1") {
		t.Errorf("the conversation does not show the output, that the command goes on, and how to watch it:\n%s", s)
	}
	if res := toolResults(a); len(res) != 1 || !strings.Contains(res[0], "[command still running after") {
		t.Errorf("the model's result is %q, want its note", res)
	}
}
