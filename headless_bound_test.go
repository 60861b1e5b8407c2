package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// stoppedLine is the result line's list of what the end of a run stopped.
type stoppedLine struct {
	Stop    string `json:"stop_reason"`
	Stopped []struct {
		ID         string  `json:"id"`
		Kind       string  `json:"kind"`
		Command    string  `json:"command"`
		RanFor     float64 `json:"ran_seconds"`
		Bytes      int64   `json:"output_bytes"`
		OutputFile string  `json:"output_file"`
	} `json:"stopped"`
}

func resultLine(t *testing.T, out string) stoppedLine {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var r stoppedLine
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
		t.Fatalf("last line is not the result: %v\n%s", err, out)
	}
	return r
}

// anyArgv reports live processes with this exact argument.
func anyArgv(arg string) []proc {
	var live []proc
	for _, p := range processesWith(func(argv []string) bool { return slices.Contains(argv, arg) }) {
		if alive(p.pid) {
			live = append(live, p)
		}
	}
	return live
}

// A headless run whose model is done does not wait for background work
// without bound: after --background-wait the tasks are stopped, the result
// lists them, and nothing is left running.
func TestHeadlessRunStopsBackgroundWorkAfterTheWait(t *testing.T) {
	c := newCLI(t)
	s := c.script("s.json", `{"turns":[
	  {"tool_calls":[
	    {"id":"bg","name":"Bash","input":{"command":"echo started; sleep 1000.71","run_in_background":true}},
	    {"id":"mon","name":"Monitor","input":{"command":"sleep 1000.72","watch":["never-matches"],"description":"watch nothing"}}]},
	  {"text":"Both run; I am done."}]}`)
	start := time.Now()
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--allow", "Bash", "--allow", "Monitor",
		"--background-wait", "3s", "--output-format", "json", "-p", "go")
	took := time.Since(start)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errb)
	}
	// Not a speed check: a run that waited for its tasks would take 1,000 s.
	if took > 500*time.Second {
		t.Errorf("the run took %s: it waited for the tasks instead of stopping them", took)
	}
	r := resultLine(t, out)
	if r.Stop != "completed" || len(r.Stopped) != 2 {
		t.Fatalf("result %+v, want completed with two stopped tasks\n%s", r, out)
	}
	kinds := map[string]string{}
	for _, st := range r.Stopped {
		kinds[st.Kind] = st.Command
		if st.ID == "" || st.OutputFile == "" || st.RanFor <= 0 {
			t.Errorf("stopped entry lacks id, output file or run time: %+v", st)
		}
	}
	if !strings.Contains(kinds["bash"], "sleep 1000.71") || !strings.Contains(kinds["monitor"], "sleep 1000.72") {
		t.Errorf("stopped %+v", r.Stopped)
	}
	for _, arg := range []string{"1000.71", "1000.72"} {
		if live := anyArgv(arg); len(live) > 0 {
			t.Errorf("sleep %s outlived the run: %+v", arg, live)
		}
	}
}

// In text mode the stopped tasks are told on stderr, one line each.
func TestHeadlessTextModeSaysWhatItStopped(t *testing.T) {
	c := newCLI(t)
	s := c.script("s.json", `{"turns":[
	  {"tool_calls":[{"id":"bg","name":"Bash","input":{"command":"sleep 1000.73","run_in_background":true}}]},
	  {"text":"done"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--allow", "Bash", "--background-wait", "0", "-p", "go")
	if code != exitOK || strings.TrimSpace(out) != "done" {
		t.Fatalf("exit %d %q %s", code, out, errb)
	}
	if !strings.Contains(errb, "stopped bash task_1 (sleep 1000.73") {
		t.Errorf("stderr does not name the stopped task:\n%s", errb)
	}
	if live := anyArgv("1000.73"); len(live) > 0 {
		t.Errorf("the task outlived the run: %+v", live)
	}
}

// --max-duration ends a run whatever it is doing, with its own stop reason.
func TestHeadlessMaxDurationWins(t *testing.T) {
	c := newCLI(t)
	s := c.script("s.json", `{"turns":[
	  {"tool_calls":[{"id":"z","name":"sleep","input":{"seconds":3600}}]},
	  {"text":"never reached"}]}`)
	start := time.Now()
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--max-duration", "2s", "--output-format", "json", "-p", "go")
	if code != exitError {
		t.Errorf("exit %d, want 1 for a run cut off by its limit\n%s", code, errb)
	}
	// Not a speed check: a run that ignored the limit would sleep an hour.
	if took := time.Since(start); took > 1800*time.Second {
		t.Errorf("the run took %s: --max-duration did not end it", took)
	}
	if r := resultLine(t, out); r.Stop != "max_duration" {
		t.Errorf("stop reason %q, want max_duration", r.Stop)
	}
}
