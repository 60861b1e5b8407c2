package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/internal/scratch"
)

// questionProject is a project the person trusts whose .mcp.json has two
// servers; each, when started, appends its name to a file, then exits.
func questionProject(t *testing.T) (dir string) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	dir, _ = filepath.EvalSymlinks(t.TempDir())
	writeMCPJSON(t, dir, "docs")
	return dir
}

func writeMCPJSON(t *testing.T, dir, docsArg string) {
	t.Helper()
	data := `{"mcpServers":{
		"docs":{"command":"sh","args":["-c","echo ` + docsArg + ` >> started"]},
		"db":{"command":"sh","args":["-c","echo db >> started"]}}}`
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// openQuestion opens a session of dir and returns its question.
func openQuestion(t *testing.T, dir string, trusted bool) (*Session, *MCPQuestion) {
	t.Helper()
	c, err := Load(Options{Dir: dir, TrustProject: trusted})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(c, Model{Script: writeScript(t, dir)}, Wiring{Approver: agent.Headless{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close("exit") })
	return s, s.MCP().Question()
}

func writeScript(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(p, []byte(`{"turns":[{"text":"done"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func started(t *testing.T, dir string) string {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(dir, "started"))
	return strings.Join(strings.Fields(string(data)), ",")
}

// The TUI's one-time question about a trusted project's .mcp.json: it
// lists the servers nobody answered for, the answer is kept in
// .claude/settings.local.json as Claude Code keeps it (enabledMcpjsonServers,
// disabledMcpjsonServers), the servers used start at once and at the next
// start without a question, the others stay off and are not asked about
// again; a server whose command changes is asked about again.
func TestCompat10_TheOneTimeMCPQuestionIsAskedOnceAndKept(t *testing.T) {
	dir := questionProject(t)
	if _, q := openQuestion(t, dir, false); q != nil {
		t.Fatalf("an untrusted project's servers were asked about: %+v", q)
	}
	s, q := openQuestion(t, dir, true)
	if q == nil || len(q.Servers) != 2 || q.Servers[0].Name != "db" || q.Servers[1].Runs != "sh -c echo docs >> started" ||
		q.AnswerFile != filepath.Join(dir, ".claude", "settings.local.json") {
		t.Fatalf("question %+v", q)
	}
	if got := started(t, dir); got != "" {
		t.Fatalf("%s started before the answer", got)
	}
	msg, err := s.MCP().Answer(context.Background(), []string{"docs"})
	if err != nil || !strings.Contains(msg, "Turned off: db") {
		t.Fatalf("answer: %q %v", msg, err)
	}
	if got := started(t, dir); got != "docs" {
		t.Fatalf("started %q after the answer, want docs", got)
	}
	local, _ := os.ReadFile(q.AnswerFile)
	if !strings.Contains(string(local), `"enabledMcpjsonServers": [`) || !strings.Contains(string(local), `"disabledMcpjsonServers": [`) {
		t.Fatalf("the answer file:\n%s", local)
	}
	// The next start: no question, docs starts, db stays off.
	if _, q := openQuestion(t, dir, true); q != nil {
		t.Fatalf("asked again: %+v", q)
	}
	if got := started(t, dir); got != "docs,docs" {
		t.Fatalf("started %q at the next start, want docs twice", got)
	}
	// A pull that changes docs' command: docs is asked about again, and
	// does not start meanwhile; db, turned off, is not asked about.
	writeMCPJSON(t, dir, "changed")
	_, q = openQuestion(t, dir, true)
	if q == nil || len(q.Servers) != 1 || q.Servers[0].Name != "docs" {
		t.Fatalf("after a change: %+v", q)
	}
	if got := started(t, dir); got != "docs,docs" {
		t.Fatalf("the changed server started unasked: %q", got)
	}
}

// Turning every server off is an answer too: nothing starts, and nothing
// is asked again until a name leaves disabledMcpjsonServers.
func TestCompat10_TurningTheMCPServersOffIsKept(t *testing.T) {
	dir := questionProject(t)
	s, q := openQuestion(t, dir, true)
	if q == nil {
		t.Fatal("no question")
	}
	if _, err := s.MCP().Answer(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, q := openQuestion(t, dir, true); q != nil || started(t, dir) != "" {
		t.Fatalf("question %+v, started %q", q, started(t, dir))
	}
	// A name taken out of disabledMcpjsonServers is asked about again.
	if err := os.WriteFile(q.AnswerFile, []byte(`{"disabledMcpjsonServers":["db"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, q := openQuestion(t, dir, true); q == nil || len(q.Servers) != 1 || q.Servers[0].Name != "docs" {
		t.Fatalf("after docs left disabledMcpjsonServers: %+v", q)
	}
}

// /mcp in the TUI runs while the question's answer is being recorded: the
// two share the waiting servers and the manager, and neither sees the other
// half done (the race detector fails this test without the lock).
func TestTheMCPAnswerAndStatusRunSideBySide(t *testing.T) {
	dir := questionProject(t)
	s, q := openQuestion(t, dir, true)
	if q == nil {
		t.Fatal("no question")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 200; i++ {
			_ = s.MCP().Status()
			_ = s.MCP().Question()
		}
	}()
	if _, err := s.MCP().Answer(context.Background(), []string{"docs"}); err != nil {
		t.Fatal(err)
	}
	<-done
	if st := s.MCP().Status(); strings.Contains(st, "Not started until trusted") {
		t.Errorf("after the answer the status still lists waiting servers:\n%s", st)
	}
}

// A server the question starts runs in the session's sandbox when its
// entry says "sandbox": true, as one /mcp trust starts does: it may write in
// the project, not outside it.
func TestH16_AServerTheAnswerStartsKeepsItsSandbox(t *testing.T) {
	dir := questionProject(t)
	outside := scratch.Dir(t)
	data := `{"mcpServers":{"box":{"command":"sh","args":["-c","echo box >> started; touch ` + outside + `/planted"],"sandbox":true}}}`
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	s, q := openQuestion(t, dir, true)
	if q == nil || len(q.Servers) != 1 {
		t.Fatalf("question %+v", q)
	}
	if _, err := s.MCP().Answer(context.Background(), []string{"box"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for started(t, dir) == "" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if got := started(t, dir); got != "box" {
		t.Fatalf("the server did not start after the answer: %q\n%s", got, s.MCP().Status())
	}
	if _, err := os.Stat(filepath.Join(outside, "planted")); err == nil {
		t.Error("the server started by the answer ran outside the sandbox")
	}
}
