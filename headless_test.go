package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/session"
)

// streamLine is one line of stream-json output.
type streamLine struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Name      string          `json:"name"`
	ID        string          `json:"id"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   string          `json:"content"`
	Stage     string          `json:"stage"`
	Outcome   string          `json:"outcome"`
	CallID    string          `json:"call_id"`
	Time      time.Time       `json:"time"`
	Stop      string          `json:"stop_reason"`
	Turns     int             `json:"turns"`
	SessionID string          `json:"session_id"`
	Input     json.RawMessage `json:"input"`
}

func (c *cli) script(name, body string) string {
	return c.write(name, body)
}

func parseStream(t *testing.T, out string) []streamLine {
	t.Helper()
	var lines []streamLine
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var l streamLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("not a JSON line: %q", sc.Text())
		}
		lines = append(lines, l)
	}
	return lines
}

func resultsByID(lines []streamLine) map[string]streamLine {
	m := map[string]streamLine{}
	for _, l := range lines {
		if l.Type == "tool_result" {
			m[l.ToolUseID] = l
		}
	}
	return m
}

func last(lines []streamLine) streamLine { return lines[len(lines)-1] }

func TestHeadlessStreamJSONShowsTheRun(t *testing.T) {
	c := newCLI(t)
	c.write("notes.md", "# notes\n")
	s := c.script("s.json", `{"turns":[
	  {"text":"Looking.","tool_calls":[{"id":"a","name":"Glob","input":{"pattern":"*.md"}}]},
	  {"text":"Found notes.md."}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--output-format", "stream-json", "-p", "what is here?")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	lines := parseStream(t, out)
	var kinds []string
	for _, l := range lines {
		kinds = append(kinds, l.Type)
	}
	if got := strings.Join(kinds, ","); got != "text,tool_use,tool_result,text,result" {
		t.Errorf("line types %s", got)
	}
	if r := resultsByID(lines)["a"]; r.IsError || !strings.Contains(r.Content, "notes.md") {
		t.Errorf("Glob result %+v", r)
	}
	end := last(lines)
	if end.Stop != "completed" || end.Turns != 2 || end.SessionID == "" {
		t.Errorf("result line %+v", end)
	}
}

func TestHeadlessJSONPrintsOnlyTheResult(t *testing.T) {
	c := newCLI(t)
	s := c.script("s.json", `{"turns":[{"text":"Hello there."}]}`)
	code, out, _ := c.run("", "--cwd", c.project, "--script", s, "--output-format", "json", "-p", "hi")
	lines := parseStream(t, out)
	if code != exitOK || len(lines) != 1 || lines[0].Type != "result" || lines[0].Text != "Hello there." {
		t.Fatalf("exit %d output %s", code, out)
	}
}

func TestHeadlessAskIsADenialTheModelSees(t *testing.T) {
	c := newCLI(t)
	s := c.script("s.json", `{"turns":[
	  {"tool_calls":[{"id":"w","name":"Write","input":{"file_path":"x.txt","content":"hi"}}]},
	  {"text":"I could not write."}]}`)
	code, out, _ := c.run("", "--cwd", c.project, "--script", s, "--output-format", "stream-json", "-p", "write")
	r := resultsByID(parseStream(t, out))["w"]
	if code != exitOK || !r.IsError || !strings.Contains(r.Content, "--allow") {
		t.Fatalf("exit %d, result %+v", code, r)
	}
	if _, err := os.Stat(filepath.Join(c.project, "x.txt")); err == nil {
		t.Error("the file was written without approval")
	}
}

func TestLoopRunsSafeCallsTogetherAndUnsafeAlone(t *testing.T) {
	c := newCLI(t)
	s := c.script("s.json", `{"turns":[
	  {"tool_calls":[
	    {"id":"s1","name":"sleep","input":{"seconds":1}},
	    {"id":"s2","name":"sleep","input":{"seconds":1}},
	    {"id":"b","name":"Bash","input":{"command":"echo alone"}},
	    {"id":"s3","name":"sleep","input":{"seconds":1}}]},
	  {"text":"done"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--allow", "Bash(echo:*)", "--trace", "--output-format", "stream-json", "-p", "go")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	lines := parseStream(t, out)
	start, end := map[string]time.Time{}, map[string]time.Time{}
	for _, l := range lines {
		if l.Type == "stage" && l.Stage == "call" {
			if l.Outcome == "start" {
				start[l.CallID] = l.Time
			} else {
				end[l.CallID] = l.Time
			}
		}
	}
	if !start["s2"].Before(end["s1"]) {
		t.Errorf("the two safe calls did not overlap: s1 %v-%v, s2 from %v", start["s1"], end["s1"], start["s2"])
	}
	if start["b"].Before(end["s1"]) || start["b"].Before(end["s2"]) {
		t.Error("the unsafe call started while safe calls ran")
	}
	if start["s3"].Before(end["b"]) {
		t.Error("a safe call queued after the unsafe one started before it finished")
	}
	// Results are paired in arrival order whatever order they finished in.
	var ids []string
	for _, l := range lines {
		if l.Type == "tool_result" {
			ids = append(ids, l.ToolUseID)
		}
	}
	if len(ids) != 4 {
		t.Errorf("results %v", ids)
	}
}

func TestStopHookBlocksOnce(t *testing.T) {
	c := newCLI(t)
	hook := c.write("stop.sh", "#!/bin/sh\necho '{\"decision\":\"block\",\"reason\":\"run the tests before you stop\"}'\n")
	os.Chmod(hook, 0o755)
	c.write(".workbench/settings.json", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"`+hook+`"}]}]}}`)
	s := c.script("s.json", `{"turns":[{"text":"All done."},{"text":"Tests pass now."},{"text":"never reached"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--output-format", "stream-json", "-p", "fix it")
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errb)
	}
	lines := parseStream(t, out)
	end := last(lines)
	if end.Turns != 2 || end.Text != "Tests pass now." {
		t.Errorf("the Stop hook must keep the model going exactly once: %+v", end)
	}
	seen := false
	for _, l := range lines {
		if l.Type == "notice" && strings.Contains(l.Text, "run the tests before you stop") {
			seen = true
		}
	}
	if !seen {
		t.Error("the hook's reason was not shown")
	}
}

func TestH10_DeferredToolRunsOnlyOnceUnlocked(t *testing.T) {
	c := newCLI(t)
	c.write(".workbench/settings.json", `{"deferredTools":["sleep","Bash"]}`)
	s := c.script("s.json", `{"turns":[
	  {"tool_calls":[
	    {"id":"direct","name":"sleep","input":{"seconds":1}},
	    {"id":"wrapped","name":"ExecuteExtraTool","input":{"tool_name":"sleep","params":{"seconds":1}}}]},
	  {"tool_calls":[{"id":"load","name":"SearchExtraTools","input":{"query":"select:sleep,Bash"}}]},
	  {"tool_calls":[
	    {"id":"after","name":"ExecuteExtraTool","input":{"tool_name":"sleep","params":{"seconds":1}}},
	    {"id":"gated","name":"ExecuteExtraTool","input":{"tool_name":"Bash","params":{"command":"rm -r build"}}},
	    {"id":"badparams","name":"ExecuteExtraTool","input":{"tool_name":"sleep","params":{"seconds":99999}}}]},
	  {"text":"ok"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--deny", "Bash(rm:*)", "--output-format", "stream-json", "-p", "go")
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errb)
	}
	r := resultsByID(parseStream(t, out))
	if !r["direct"].IsError || !strings.Contains(r["direct"].Content, "not unlocked") {
		t.Errorf("a locked deferred tool ran when called by name: %+v", r["direct"])
	}
	if !r["wrapped"].IsError {
		t.Errorf("a locked deferred tool ran through ExecuteExtraTool: %+v", r["wrapped"])
	}
	if r["load"].IsError || r["after"].IsError {
		t.Errorf("after loading, the tool must run: %+v %+v", r["load"], r["after"])
	}
	if !r["gated"].IsError || !strings.Contains(r["gated"].Content, "Bash(rm:*)") {
		t.Errorf("ExecuteExtraTool must apply the target's rules: %+v", r["gated"])
	}
	if !r["badparams"].IsError || !strings.Contains(r["badparams"].Content, "seconds") {
		t.Errorf("ExecuteExtraTool must validate against the target's schema: %+v", r["badparams"])
	}
	// The system prompt told the model which tools are deferred; the
	// transcript recorded the unlock for resume.
	tr := c.transcripts()
	if len(tr) != 1 || !strings.Contains(readFile(t, tr[0]), `"type":"unlock"`) {
		t.Error("the unlock was not recorded in the transcript")
	}
}

func (c *cli) transcripts() []string {
	m, _ := filepath.Glob(filepath.Join(c.state, "workbench", "sessions", "*", "transcript.jsonl"))
	return m
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestResumeRestoresHistoryGrantsAndUnlocks(t *testing.T) {
	c := newCLI(t)
	c.write(".workbench/settings.json", `{"deferredTools":["sleep"]}`)
	s1 := c.script("s1.json", `{"turns":[
	  {"tool_calls":[{"id":"t","name":"Bash","input":{"command":"touch first"}},{"id":"l","name":"SearchExtraTools","input":{"query":"select:sleep"}}]},
	  {"text":"first run done"}]}`)
	// The first run has a person who says "Yes for this session".
	cfg, err := session.Load(session.Options{Dir: c.project})
	if err != nil {
		t.Fatal(err)
	}
	grant := agent.ApproverFunc(func(_ context.Context, req agent.ApprovalRequest) agent.ApprovalReply {
		return agent.ApprovalReply{Approved: true, Grant: req.Decision.Suggestion, By: "person"}
	})
	s, err := session.Open(cfg, session.Model{Script: s1}, session.Wiring{Approver: grant})
	if err != nil {
		t.Fatal(err)
	}
	if out := s.Agent.Prompt(context.Background(), "remember the word pelican"); out.StopReason != agent.StopCompleted {
		t.Fatalf("first run %+v", out)
	}
	s.Close("exit")
	id := s.Dir.ID

	// The second run is headless: nobody can approve, so `touch` only runs
	// if the grant came back, and sleep only if the unlock came back.
	s2 := c.script("s2.json", `{"turns":[
	  {"tool_calls":[{"id":"t2","name":"Bash","input":{"command":"touch second"}},{"id":"z","name":"sleep","input":{"seconds":1}}]},
	  {"text":"second run done"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--resume", id, "--script", s2, "--output-format", "stream-json", "-p", "again")
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errb)
	}
	lines := parseStream(t, out)
	r := resultsByID(lines)
	if r["t2"].IsError || r["z"].IsError {
		t.Errorf("resume lost the grant or the unlock: %+v %+v", r["t2"], r["z"])
	}
	if last(lines).SessionID != id {
		t.Errorf("resume must keep the session id %s, got %s", id, last(lines).SessionID)
	}
	if _, err := os.Stat(filepath.Join(c.project, "second")); err != nil {
		t.Error("the granted command did not run")
	}
	// The history came back: the resumed transcript still starts with the
	// first prompt, and a fresh load sees both runs.
	restored, err := agent.LoadSession(filepath.Join(c.state, "workbench"), id)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal(restored.History)
	if !strings.Contains(string(all), "pelican") || !strings.Contains(string(all), "again") {
		t.Errorf("history lost a run: %s", all)
	}
}

func TestKill9MidRunThenContinue(t *testing.T) {
	c := newCLI(t)
	marker := "workbench-kill9-" + filepath.Base(c.project)
	s1 := c.script("s1.json", `{"turns":[{"tool_calls":[{"id":"long","name":"Bash","input":{"command":"exec -a `+marker+` sleep 60"}}]},{"text":"never"}]}`)
	cmd := exec.Command(os.Args[0], "--cwd", c.project, "--script", s1, "--allow", "Bash(exec:*)", "-p", "wait")
	cmd.Env = append(os.Environ(), "WORKBENCH_TEST_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { exec.Command("pkill", "-f", marker).Run() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		tr := c.transcripts()
		if len(tr) == 1 && strings.Contains(readFile(t, tr[0]), `"tool_use_id":"long"`) {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the tool call never reached the transcript")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	// A crash can also cut the last line in half.
	tr := c.transcripts()[0]
	f, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":999,"type":"stage","da`)
	f.Close()

	s2 := c.script("s2.json", `{"turns":[{"text":"picked up where we left off"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--continue", "--script", s2, "--output-format", "json", "-p", "continue")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	if !strings.Contains(errb, "cut off") {
		t.Errorf("a cut transcript must be reported: %q", errb)
	}
	if l := parseStream(t, out); l[0].Text != "picked up where we left off" {
		t.Errorf("output %s", out)
	}
}

func TestBackgroundTaskNotifiesTheModel(t *testing.T) {
	c := newCLI(t)
	s := c.script("s.json", `{"turns":[
	  {"tool_calls":[{"id":"bg","name":"Bash","input":{"command":"sleep 0.3; echo finished-marker","run_in_background":true}}]},
	  {"text":"It runs in the background; I will wait."},
	  {"text":"The task finished."}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--allow", "Bash(sleep:*)", "--allow", "Bash(echo:*)", "--output-format", "stream-json", "-p", "go")
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errb)
	}
	lines := parseStream(t, out)
	if r := resultsByID(lines)["bg"]; r.IsError || !strings.Contains(r.Content, "task_1") {
		t.Fatalf("background start %+v", r)
	}
	var note string
	for _, l := range lines {
		if l.Type == "notification" {
			note = l.Text
		}
	}
	if !strings.Contains(note, "task_1") || !strings.Contains(note, "completed") {
		t.Errorf("notification %q", note)
	}
	if end := last(lines); end.Text != "The task finished." || end.Turns != 3 {
		t.Errorf("the pending notification must keep the loop going: %+v", end)
	}
}

func TestH05_ShellSessionsFollowTheBashRules(t *testing.T) {
	c := newCLI(t)
	s := c.script("s.json", `{"turns":[
	  {"tool_calls":[{"id":"open","name":"shell_open","input":{"command":"bash --norc --noprofile","mode":"hands-free"}}]},
	  {"tool_calls":[
	    {"id":"ok","name":"shell_send","input":{"session_id":"sh_1","text":"echo pty-says-hi","submit":true,"quiet_ms":300,"timeout_ms":5000}},
	    {"id":"bad","name":"shell_send","input":{"session_id":"sh_1","text":"rm -rf /","submit":true}},
	    {"id":"denied","name":"shell_send","input":{"session_id":"sh_1","text":"curl example.com","submit":true}}]},
	  {"tool_calls":[{"id":"screen","name":"shell_read","input":{"session_id":"sh_1","view":"screen"}}]},
	  {"text":"done"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--allow", "Bash(bash:*)", "--allow", "Bash(echo:*)",
		"--deny", "Bash(curl:*)", "--output-format", "stream-json", "-p", "go")
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errb)
	}
	r := resultsByID(parseStream(t, out))
	if r["open"].IsError || r["ok"].IsError || !strings.Contains(r["ok"].Content, "pty-says-hi") {
		t.Fatalf("open %+v\nsend %+v", r["open"], r["ok"])
	}
	if !r["bad"].IsError || !strings.Contains(r["bad"].Content, "every mode") {
		t.Errorf("the hard-deny list must hold in a shell session: %+v", r["bad"])
	}
	if !r["denied"].IsError || !strings.Contains(r["denied"].Content, "Bash(curl:*)") {
		t.Errorf("a Bash deny rule must hold in a shell session: %+v", r["denied"])
	}
	if !strings.Contains(r["screen"].Content, "pty-says-hi") {
		t.Errorf("the screen must show what ran: %+v", r["screen"])
	}
}
