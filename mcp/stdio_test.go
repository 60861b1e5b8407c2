package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

func TestStdioServerToolsAreListedWithPrefixedNamesAndSchemas(t *testing.T) {
	t.Parallel()
	m := start(t, Options{}, Config{"local": stdioEntry(t)})
	st := requireReady(t, m, "local")

	want := []string{"mcp__local__echo", "mcp__local__env", "mcp__local__fail", "mcp__local__lookup",
		"mcp__local__mixed", "mcp__local__dotted_name", "mcp__local__crash", "mcp__local__spawn", "mcp__local__slow"}
	if got := slices.Sorted(slices.Values(st.Tools)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("tools = %v, want %v", got, want)
	}
	if st.Transport != TransportStdio || st.Prefix != "mcp__local__" {
		t.Errorf("transport %q prefix %q", st.Transport, st.Prefix)
	}
	if len(st.Skipped) != 1 || st.Skipped[0].Tool != "broken" || !strings.Contains(st.Skipped[0].Reason, "does not compile") {
		t.Errorf("skipped = %+v, want broken with a schema reason", st.Skipped)
	}

	echo := findTool(t, m, "mcp__local__echo")
	if echo.Description() != "Echo the text back." {
		t.Errorf("description %q", echo.Description())
	}
	if _, err := echo.Schema().Prepare(json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "text") {
		t.Errorf("the server's schema must require text; got %v", err)
	}
	if _, err := echo.Schema().Prepare(json.RawMessage(`{"text": 3}`)); err == nil {
		t.Error("the server's schema must reject a number for text")
	}
}

func TestToolMetadataFailsClosedUnlessReadOnlyHint(t *testing.T) {
	t.Parallel()
	m := start(t, Options{}, Config{"local": stdioEntry(t)})
	requireReady(t, m, "local")
	in := json.RawMessage(`{}`)

	echo := findTool(t, m, "mcp__local__echo")
	if echo.ReadOnly(in) || echo.ConcurrencySafe(in) {
		t.Error("a tool without readOnlyHint must count as mutating and exclusive")
	}
	d := echo.CheckPermission(context.Background(), in, &tools.Context{})
	if d.Behavior != permission.Ask || d.Message != "call MCP tool local/echo" {
		t.Errorf("echo permission = %+v, want ask with the server and tool named", d)
	}

	lookup := findTool(t, m, "mcp__local__lookup")
	if !lookup.ReadOnly(in) || !lookup.ConcurrencySafe(in) {
		t.Error("a readOnlyHint tool must be read-only and concurrency-safe")
	}
	if d := lookup.CheckPermission(context.Background(), in, &tools.Context{}); d.Behavior != permission.Allow {
		t.Errorf("lookup permission = %+v, want allow", d)
	}
}

func TestCallingStdioToolsTurnsContentIntoResults(t *testing.T) {
	t.Parallel()
	m := start(t, Options{}, Config{"local": stdioEntry(t)})
	requireReady(t, m, "local")

	cases := []struct {
		name    string
		tool    string
		input   string
		isError bool
		want    []string
	}{
		{"text comes back as is", "mcp__local__echo", `{"text":"hello there"}`, false, []string{"hello there"}},
		{"isError from the server marks an error result", "mcp__local__fail", `{}`, true, []string{"failed on purpose"}},
		{"structured content alone is shown as JSON", "mcp__local__lookup", `{"key":"k1"}`, false, []string{`"value": "v-k1"`}},
		{"a sanitised name still calls the server's tool", "mcp__local__dotted_name", `{}`, false, []string{"dotted"}},
		{"images are attached, binary becomes notes, resources text", "mcp__local__mixed", `{}`, false, []string{
			"first", "[image 1 (image/png, 7 bytes) attached]", "[image (image/svg+xml, 5 bytes) returned by the tool, not shown: the model takes PNG", "[resource file:///notes.txt (text/plain)]\nresource body",
			"file:///blob.bin (unknown type, 3 bytes of binary data", "[resource file:///linked.md linked]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, findTool(t, m, c.tool), c.input)
			if res.IsError != c.isError {
				t.Errorf("IsError = %v, want %v (%s)", res.IsError, c.isError, res.Text)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("result %q lacks %q", res.Text, w)
				}
			}
			var meta resultMeta
			if err := json.Unmarshal(res.Meta, &meta); err != nil || meta.Server != "local" {
				t.Errorf("meta %s: %v", res.Meta, err)
			}
		})
	}
}

func TestH13_ChildEnvLacksHostSecrets(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-host-secret")
	t.Setenv("GITHUB_TOKEN", "ghp_host_secret")
	t.Setenv("WB_H13_SOURCE", "value-from-host")
	t.Setenv("LANG", "C.UTF-8")
	entry := stdioEntry(t)
	entry.Env["NAMED_VAR"] = "${WB_H13_SOURCE}"
	entry.Env["LITERAL_VAR"] = "plain"

	m := start(t, Options{}, Config{"envsrv": entry}) // the real host environment
	requireReady(t, m, "envsrv")
	res := call(t, findTool(t, m, "mcp__envsrv__env"), `{}`)

	for _, secret := range []string{"ANTHROPIC_API_KEY", "GITHUB_TOKEN", "sk-ant-host-secret", "ghp_host_secret", "WB_H13_SOURCE"} {
		if strings.Contains(res.Text, secret) {
			t.Errorf("the server's environment contains %s:\n%s", secret, res.Text)
		}
	}
	for _, want := range []string{"NAMED_VAR=value-from-host", "LITERAL_VAR=plain", "LANG=C.UTF-8", "PATH=" + os.Getenv("PATH")} {
		if !slices.Contains(strings.Split(res.Text, "\n"), want) {
			t.Errorf("the server's environment lacks %s:\n%s", want, res.Text)
		}
	}
	allowed := []string{"GORACE", "HOME", "LANG", "LITERAL_VAR", "NAMED_VAR", "PATH", testServerEnv}
	for _, k := range envKeys(res.Text) {
		if !slices.Contains(allowed, k) {
			t.Errorf("unexpected variable %s in the server's environment", k)
		}
	}
}

func TestFailedServerIsReportedAndReconnectsOnceFixed(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "not-installed-yet")
	broken := stdioEntry(t)
	broken.Command = missing
	m := start(t, Options{}, Config{"good": stdioEntry(t), "later": broken})

	requireReady(t, m, "good")
	st := status(t, m, "later")
	if st.State != StateFailed || st.Err == nil || !strings.Contains(st.Err.Error(), "not-installed-yet") {
		t.Fatalf("later = %+v, want failed naming the command", st)
	}
	t.Logf("reported: %v", st.Err)
	for _, tl := range m.Tools() {
		if strings.HasPrefix(tl.Name(), "mcp__later__") {
			t.Errorf("a failed server must offer no tools, got %s", tl.Name())
		}
	}
	if res := call(t, findTool(t, m, "mcp__good__echo"), `{"text":"still here"}`); res.Text != "still here" {
		t.Errorf("the good server must still work: %+v", res)
	}

	if err := os.Symlink(testExe(t), missing); err != nil {
		t.Fatal(err)
	}
	if err := m.Reconnect(context.Background(), "later"); err != nil {
		t.Fatalf("reconnect after fixing: %v", err)
	}
	requireReady(t, m, "later")
	if res := call(t, findTool(t, m, "mcp__later__echo"), `{"text":"fixed"}`); res.Text != "fixed" || res.IsError {
		t.Errorf("after reconnect: %+v", res)
	}
	if err := m.Reconnect(context.Background(), "nobody"); err == nil {
		t.Error("reconnecting an unknown server must fail")
	}
}

func TestServerThatDiesMidSessionGivesAnErrorNamingIt(t *testing.T) {
	t.Parallel()
	m := start(t, Options{}, Config{"crashy": stdioEntry(t)})
	requireReady(t, m, "crashy")
	echo := findTool(t, m, "mcp__crashy__echo")

	if res := call(t, findTool(t, m, "mcp__crashy__crash"), `{}`); !res.IsError || !strings.Contains(res.Text, `"crashy"`) {
		t.Errorf("the crashing call = %+v, want an error naming the server", res)
	}
	res := call(t, echo, `{"text":"anyone?"}`)
	t.Logf("dead server: %s", res.Text)
	if !res.IsError || !strings.Contains(res.Text, `MCP server "crashy"`) || !strings.Contains(res.Text, "/mcp reconnect crashy") {
		t.Errorf("a call to a dead server = %+v, want an error naming it and /mcp reconnect", res)
	}
	if st := status(t, m, "crashy"); st.State != StateFailed {
		t.Errorf("state after the crash = %s, want failed", st.State)
	}

	if err := m.Reconnect(context.Background(), "crashy"); err != nil {
		t.Fatal(err)
	}
	if res := call(t, echo, `{"text":"back"}`); res.IsError || res.Text != "back" {
		t.Errorf("a tool from before the reconnect must use the new connection: %+v", res)
	}
}

func TestStartContextOnlyBoundsTheStart(t *testing.T) {
	t.Parallel()
	m := NewManager(Options{})
	t.Cleanup(m.Close)
	ctx, cancel := context.WithCancel(context.Background())
	m.Start(ctx, Config{"local": stdioEntry(t)})
	cancel()
	requireReady(t, m, "local")
	if res := call(t, findTool(t, m, "mcp__local__echo"), `{"text":"alive"}`); res.Text != "alive" {
		t.Errorf("the server must outlive the start context: %+v", res)
	}
}

// A guard that refuses a stdio server keeps it from starting, at Start and
// at Reconnect alike, and its error is the server's failure (H17).
func TestH17_AGuardRefusesAStdioServerAtEachStart(t *testing.T) {
	t.Parallel()
	var refuse atomic.Bool
	refuse.Store(true)
	var asked atomic.Int32
	m := NewManager(Options{Guard: func(ServerConfig) error {
		asked.Add(1)
		if refuse.Load() {
			return errors.New("not started: it names tools/server.py")
		}
		return nil
	}})
	t.Cleanup(m.Close)
	m.Start(context.Background(), Config{"local": stdioEntry(t)})
	st := m.Servers()
	if len(st) != 1 || st[0].State != StateFailed || st[0].Err == nil || !strings.Contains(st[0].Err.Error(), "tools/server.py") {
		t.Fatalf("a refused server: %+v", st)
	}
	if err := m.Reconnect(context.Background(), "local"); err == nil {
		t.Error("a refused server reconnected")
	}
	refuse.Store(false)
	if err := m.Reconnect(context.Background(), "local"); err != nil {
		t.Fatalf("reconnect once the guard allows it: %v", err)
	}
	requireReady(t, m, "local")
	if asked.Load() < 3 {
		t.Errorf("the guard was asked %d times for three starts", asked.Load())
	}
}
