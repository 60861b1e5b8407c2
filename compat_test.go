package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// claudeUser is a Claude Code user's files in temporary directories: the
// project of testdata/claude/project and a home directory holding
// testdata/claude/home (~/.claude), with HOME pointing at it.
type claudeUser struct {
	*cli
	home string
	sub  string // project/pkg/sub, a working directory below the root
}

func newClaudeUser(t *testing.T) *claudeUser {
	t.Helper()
	c := newCLI(t)
	home := t.TempDir()
	if real, err := filepath.EvalSymlinks(home); err == nil {
		home = real
	}
	copyTree(t, filepath.Join("testdata", "claude", "project"), c.project)
	copyTree(t, filepath.Join("testdata", "claude", "home"), home)
	c.trust()
	t.Setenv("HOME", home)
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("OPENAI_API_KEY", "")
	return &claudeUser{cli: c, home: home, sub: filepath.Join(c.project, "pkg", "sub")}
}

// copyTree copies the files of src into dst, keeping their modes.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// modelServer is a loopback Anthropic Messages endpoint: it records every
// request body and answers each with the next of its replies (the last one
// again when they run out).
type modelServer struct {
	*httptest.Server
	mu      sync.Mutex
	bodies  []map[string]any
	replies []string
}

func newModelServer(t *testing.T, replies ...string) *modelServer {
	t.Helper()
	m := &modelServer{replies: replies}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(data, &body)
		m.mu.Lock()
		m.bodies = append(m.bodies, body)
		reply := m.replies[min(len(m.bodies), len(m.replies))-1]
		m.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, reply)
	}))
	t.Cleanup(m.Close)
	t.Setenv("ANTHROPIC_BASE_URL", m.URL)
	return m
}

func (m *modelServer) requests() []map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]map[string]any(nil), m.bodies...)
}

// system is the system prompt of a request, whatever its JSON shape.
func system(body map[string]any) string {
	switch s := body["system"].(type) {
	case string:
		return s
	case []any:
		var b strings.Builder
		for _, blk := range s {
			if m, ok := blk.(map[string]any); ok {
				b.WriteString(fmt.Sprint(m["text"]))
			}
		}
		return b.String()
	}
	return ""
}

// sseText is a model reply of one text block.
func sseText(text string) string {
	t, _ := json.Marshal(text)
	return sse(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+string(t)+`}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}`)
}

// sseTool is a model reply that calls one tool.
func sseTool(id, name, input string) string {
	in, _ := json.Marshal(input)
	return sse(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"`+id+`","name":"`+name+`","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+string(in)+`}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":3}}`)
}

func sse(events ...string) string {
	var b strings.Builder
	b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n")
	for _, e := range events {
		var typ struct{ Type string }
		_ = json.Unmarshal([]byte(e), &typ)
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", typ.Type, e)
	}
	b.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	return b.String()
}

// toolResults are the tool_result blocks of a request's last message.
func toolResults(body map[string]any) []map[string]any {
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return nil
	}
	last, _ := msgs[len(msgs)-1].(map[string]any)
	content, _ := last["content"].([]any)
	var out []map[string]any
	for _, c := range content {
		if m, ok := c.(map[string]any); ok && m["type"] == "tool_result" {
			out = append(out, m)
		}
	}
	return out
}

// resultText joins the text of a tool_result block.
func resultText(r map[string]any) string {
	switch c := r["content"].(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, blk := range c {
			if m, ok := blk.(map[string]any); ok {
				b.WriteString(fmt.Sprint(m["text"]))
			}
		}
		return b.String()
	}
	return ""
}

func TestCompat7_HeadlessRequestCarriesTheMemoryFiles(t *testing.T) {
	u := newClaudeUser(t)
	srv := newModelServer(t, sseText("Noted."))
	code, out, errb := u.run("", "--cwd", u.sub, "-p", "hello")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	reqs := srv.requests()
	if len(reqs) == 0 {
		t.Fatal("the model server got no request")
	}
	sys := system(reqs[0])
	order := []string{"user-memory", "user-import", "project-memory", "project-import", "dot-claude-memory",
		"agents-memory", "local-memory", "subdir-memory"}
	last := -1
	for _, m := range order {
		i := strings.Index(sys, "(marker: "+m+")")
		if i < 0 {
			t.Fatalf("the system prompt lacks %s:\n%s", m, sys)
		}
		if i < last {
			t.Errorf("%s comes before the file read ahead of it", m)
		}
		last = i
	}
	for _, m := range []string{"ssh-key", "code-block-import", "secret"} {
		if strings.Contains(sys, "(marker: "+m+")") {
			t.Errorf("the system prompt holds %s, which must not be read", m)
		}
	}
	if !strings.Contains(sys, "Working directory: "+u.sub) {
		t.Errorf("the working directory is not the one started in:\n%s", sys)
	}
	for _, want := range []string{"@import of ~/.ssh/id_test refused", "cycle"} {
		if !strings.Contains(errb, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errb)
		}
	}
}

func TestCompat8_ASubdirectoryUsesTheProjectsSettings(t *testing.T) {
	u := newClaudeUser(t)
	// Read(/secrets/**) of .claude/settings.json is the project root's
	// secrets directory, seen from two levels down.
	code, out, _ := u.run("", "tool", "--cwd", u.sub, "Read", `{"file_path":"../../secrets/token.txt"}`)
	if code != exitError || !strings.Contains(out, "Read(/secrets/**)") || !strings.Contains(out, filepath.Join(".claude", "settings.json")) {
		t.Fatalf("reading the secret: exit %d %s", code, out)
	}
	code, out, _ = u.run("", "tool", "--cwd", u.sub, "Edit",
		`{"file_path":"../../src/generated/schema.go","old_string":"package generated","new_string":"package gen"}`)
	if code != exitError || !strings.Contains(out, "Edit(/src/generated/**)") {
		t.Fatalf("editing generated code: exit %d %s", code, out)
	}
	// Bash(echo:*) is allowed by the project; relative paths are the
	// working directory's.
	code, out, errb := u.run("", "tool", "--cwd", u.sub, "Bash", `{"command":"echo from-sub"}`)
	if code != exitOK || !strings.Contains(out, "from-sub") {
		t.Fatalf("echo: exit %d %s %s", code, out, errb)
	}
	code, out, _ = u.run("", "tool", "--cwd", u.sub, "Read", `{"file_path":"CLAUDE.md"}`)
	if code != exitOK || !strings.Contains(out, "(marker: subdir-memory)") {
		t.Fatalf("a relative Read is not the working directory's: exit %d %s", code, out)
	}
	// The PostToolUse hook of .claude/settings.json ran, found through
	// $CLAUDE_PROJECT_DIR, the project root.
	data, err := os.ReadFile(filepath.Join(u.project, "hook-post-tool-use.json"))
	if err != nil {
		t.Fatalf("the project's hook did not run: %v", err)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil || in["tool_name"] != "Bash" || in["hook_event_name"] != "PostToolUse" {
		t.Fatalf("hook input %s (%v)", data, err)
	}
}

func TestCompat9_DisabledBypassIsRefused(t *testing.T) {
	u := newClaudeUser(t)
	code, _, errb := u.run("", "tool", "--cwd", u.sub, "--permission-mode", "bypassPermissions", "Bash", `{"command":"echo x"}`)
	want := "bypassPermissions is disabled by permissions.disableBypassPermissionsMode in " + filepath.Join(u.project, ".claude", "settings.json")
	if code != exitUsage || !strings.Contains(errb, want) {
		t.Fatalf("exit %d, stderr %s", code, errb)
	}
	u.write(".workbench/settings.json", `{"permissions":{"defaultMode":"bypassPermissions"}}`)
	code, _, errb = u.run("", "tool", "--cwd", u.sub, "Bash", `{"command":"echo x"}`)
	if code != exitUsage || !strings.Contains(errb, want) || !strings.Contains(errb, "defaultMode") {
		t.Fatalf("a bypass defaultMode: exit %d, stderr %s", code, errb)
	}
}

func TestCompat10_ProjectMCPServersWaitForTrust(t *testing.T) {
	u := newClaudeUser(t)
	ran := filepath.Join(u.project, "mcp-server-ran")
	for _, args := range [][]string{
		{"tools", "--cwd", u.sub},
		{"tool", "--cwd", u.project, "Read", `{"file_path":"CLAUDE.md"}`},
	} {
		code, out, errb := u.run("", args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d %s %s", args[0], code, out, errb)
		}
		if _, err := os.Stat(ran); err == nil {
			t.Fatalf("workbench %s started the untrusted server of .mcp.json", args[0])
		}
		if !strings.Contains(errb, "none of them starts until you trust the file") {
			t.Errorf("%s: stderr does not say the servers wait: %s", args[0], errb)
		}
		// The project's own enableAllProjectMcpServers (in a project the
		// person trusts) is an answer this machine has no record of: it
		// starts nothing.
	}
	// The person trusts the server in ~/.claude/settings.json: it starts.
	if err := os.WriteFile(filepath.Join(u.home, ".claude", "settings.json"), []byte(`{"enabledMcpjsonServers":["docs"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	u.run("", "tools", "--cwd", u.sub)
	if _, err := os.Stat(ran); err != nil {
		t.Fatalf("a server the person enabled did not start: %v", err)
	}
}

func TestCompat7_SkillAllowedToolsRunWithoutAskingWhileItRuns(t *testing.T) {
	u := newClaudeUser(t)
	srv := newModelServer(t,
		sseTool("toolu_1", "Bash", `{"command":"printf release-before"}`),
		sseTool("toolu_2", "Skill", `{"name":"release"}`),
		sseTool("toolu_3", "Bash", `{"command":"printf release-now"}`),
		sseText("Released."))
	code, out, errb := u.run("", "--cwd", u.project, "-p", "cut a release")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	reqs := srv.requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4:\n%s", len(reqs), errb)
	}
	if r := toolResults(reqs[1]); len(r) != 1 || r[0]["is_error"] != true {
		t.Fatalf("printf ran before the skill allowed it: %v", r)
	}
	if r := toolResults(reqs[3]); len(r) != 1 || r[0]["is_error"] == true || !strings.Contains(resultText(r[0]), "release-now") {
		t.Fatalf("the skill's allowed-tools did not let printf run: %v", r)
	}
	// The person's own skills are offered too.
	if !strings.Contains(fmt.Sprint(reqs[0]["tools"]), "review") {
		t.Error("~/.claude/skills/review is not offered")
	}
	// The grant is not kept with the session: a continued run asks again.
	srv2 := newModelServer(t, sseTool("toolu_4", "Bash", `{"command":"printf release-again"}`), sseText("ok"))
	u.run("", "--cwd", u.project, "--continue", "-p", "again")
	if r := toolResults(srv2.requests()[1]); len(r) != 1 || r[0]["is_error"] != true {
		t.Fatalf("the skill's grant outlived its run: %v", r)
	}
}
