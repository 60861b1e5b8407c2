package main

import (
	"strings"
	"testing"
)

// Each headless run is a new process: a run whose last request filled the
// window leaves its measure in the transcript, and the next --continue
// compacts before its first request instead of sending the full history.
// `-p "/compact"` with instructions on their own lines takes them all.
func TestHeadlessContinueCompactsWhenTheLastRunFilledTheWindow(t *testing.T) {
	c := newCLI(t)
	srv := newLoopbackChat(t,
		loopbackReply{text: "first done", prompt: 1000},
		loopbackReply{text: "second done", prompt: 90000},
		loopbackReply{text: "third done", prompt: 2000},
	)
	model := []string{"--cwd", c.project, "--provider", "openai", "--base-url", srv.URL, "--model", "loopback-model", "--context-window", "100000"}
	for i, p := range []string{"first: " + strings.Repeat("the words of a long first prompt ", 100), "second", "third"} {
		args := append(append([]string(nil), model...), "-p", p)
		if i > 0 {
			args = append(args, "--continue")
		}
		if code, out, errb := c.run("", args...); code != exitOK {
			t.Fatalf("run %d: exit %d\n%s\n%s", i+1, code, out, errb)
		}
	}
	reqs := srv.requests()
	if len(reqs) != 4 || !strings.Contains(reqs[2], "Write a summary of it now") {
		t.Fatalf("want the third run to compact first: %d requests", len(reqs))
	}
	if third := reqs[3]; strings.Contains(third, "long first prompt") || !strings.Contains(third, "SUMMARY that keeps") {
		t.Errorf("the third run sent the full history: %.300s", third)
	}

	code, out, errb := c.run("", append(model, "--continue", "-p", "/compact\nkeep the API names\nand the file paths")...)
	if code != exitOK || !strings.Contains(out, "Compacted (manual)") {
		t.Fatalf("/compact on its own line: exit %d\n%s\n%s", code, out, errb)
	}
	if sum := srv.requests()[4]; !strings.Contains(sum, `keep the API names\nand the file paths`) {
		t.Errorf("the instructions did not reach the summary request: %.300s", sum)
	}
}

// A headless prompt is /compact only when the word stands alone; its
// instructions may be on the same line or the next ones.
func TestCompactCommandReadsItsInstructions(t *testing.T) {
	for _, tc := range []struct {
		prompt, instructions string
		ok                   bool
	}{
		{"/compact", "", true},
		{"  /compact keep the API names ", "keep the API names", true},
		{"/compact\tkeep them", "keep them", true},
		{"/compact\nkeep\nthese", "keep\nthese", true},
		{"/compacting the logs", "", false},
		{"please /compact", "", false},
	} {
		got, ok := compactCommand(tc.prompt)
		if got != tc.instructions || ok != tc.ok {
			t.Errorf("compactCommand(%q) = %q, %v", tc.prompt, got, ok)
		}
	}
}
