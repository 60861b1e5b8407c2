package mcp

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tools"
)

// testExe is the test binary, which serves MCP when testServerEnv is set.
func testExe(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// stdioEntry is a settings entry that starts the test server. GORACE
// spares each race-enabled child the detector's one-second pause at exit.
func stdioEntry(t *testing.T) ServerConfig {
	return ServerConfig{Command: testExe(t), Env: map[string]string{testServerEnv: "1", "GORACE": "atexit_sleep_ms=0"}}
}

// fixedEnv is a Lookup that sees only vars, so tests need not touch the
// process environment and can run in parallel.
func fixedEnv(vars map[string]string) LookupFunc {
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

// start runs a Manager over cfg and closes it when the test ends.
func start(t *testing.T, opts Options, cfg Config) *Manager {
	t.Helper()
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 20 * time.Second // the race detector slows the child's start
	}
	m := NewManager(opts)
	t.Cleanup(m.Close)
	m.Start(context.Background(), cfg)
	return m
}

// status returns one server's status.
func status(t *testing.T, m *Manager, name string) ServerStatus {
	t.Helper()
	for _, s := range m.Servers() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no server %q in %+v", name, m.Servers())
	return ServerStatus{}
}

// requireReady fails the test unless the server is ready.
func requireReady(t *testing.T, m *Manager, name string) ServerStatus {
	t.Helper()
	s := status(t, m, name)
	if s.State != StateReady {
		t.Fatalf("server %q is %s (%v), want ready", name, s.State, s.Err)
	}
	return s
}

// findTool returns the manager's tool with the workbench name.
func findTool(t *testing.T, m *Manager, name string) tools.Tool {
	t.Helper()
	var names []string
	for _, tl := range m.Tools() {
		if tl.Name() == name {
			return tl
		}
		names = append(names, tl.Name())
	}
	t.Fatalf("no tool %q among %v", name, names)
	return nil
}

// call validates input against the tool's schema and runs it, as the
// pipeline does.
func call(t *testing.T, tl tools.Tool, input string) tools.Result {
	t.Helper()
	in, err := tl.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s: input %s rejected: %v", tl.Name(), input, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := tl.Call(ctx, in, &tools.Context{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatalf("%s: %v", tl.Name(), err)
	}
	return res
}

// envKeys returns the sorted variable names of KEY=VALUE lines.
func envKeys(lines string) []string {
	var keys []string
	for l := range strings.SplitSeq(lines, "\n") {
		if k, _, ok := strings.Cut(l, "="); ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
