//go:build unix

package mcp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gone reports whether pid no longer runs: it does not exist, or it is a
// zombie nobody has reaped yet (which no longer runs either).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z'
	}
	return false
}

// waitGone waits a little for pid to go, as killed processes take a moment.
func waitGone(pid int) bool {
	for range 50 {
		if gone(pid) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// leaderPid is the pid of a stdio server's process.
func leaderPid(m *Manager, name string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.servers[name]; s != nil && s.conn != nil {
		return s.conn.pid
	}
	return 0
}

func TestCloseStopsServersAndWhatTheySpawned(t *testing.T) {
	t.Parallel()
	m := NewManager(Options{StartTimeout: 20 * time.Second})
	m.Start(context.Background(), Config{"parent": stdioEntry(t)})
	requireReady(t, m, "parent")
	res := call(t, findTool(t, m, "mcp__parent__spawn"), `{}`)
	child, err := strconv.Atoi(strings.TrimSpace(res.Text))
	if err != nil {
		m.Close()
		t.Fatalf("spawn: %+v", res)
	}
	server := leaderPid(m, "parent")
	if server == 0 || gone(server) || gone(child) {
		m.Close()
		t.Fatalf("server %d and child %d should run before Close", server, child)
	}

	m.Close()
	if !waitGone(server) {
		t.Errorf("server %d survived Close", server)
	}
	if !waitGone(child) {
		_ = syscall.Kill(child, syscall.SIGKILL)
		t.Errorf("the server's child %d survived Close (an orphan)", child)
	}
	if res := call(t, findTool(t, m, "mcp__parent__echo"), `{"text":"x"}`); !res.IsError {
		t.Errorf("a call after Close must fail: %+v", res)
	}
}

func TestServerThatNeverAnswersTimesOut(t *testing.T) {
	t.Parallel()
	m := start(t, Options{StartTimeout: 300 * time.Millisecond}, Config{
		"mute": {Command: "sleep", Args: []string{"30"}},
	})
	st := status(t, m, "mute")
	if st.State != StateFailed || st.Err == nil || !strings.Contains(st.Err.Error(), "no answer within 300ms") {
		t.Errorf("mute = %+v, want failed for taking too long", st)
	}
}

func TestBrokenEntriesFailAloneWithTheirReason(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		entry ServerConfig
		want  string
	}{
		{"neither command nor url", ServerConfig{}, `needs "command"`},
		{"both command and url", ServerConfig{Command: "x", URL: "http://127.0.0.1:1"}, `both "command" and "url"`},
		{"the old SSE transport", ServerConfig{Type: "sse", URL: "http://127.0.0.1:1"}, `"sse"`},
		{"an unknown type", ServerConfig{Type: "websocket", URL: "ws://127.0.0.1:1"}, `unknown type "websocket"`},
		{"a url that is not http", ServerConfig{URL: "ftp://example.invalid/"}, "not an http or https URL"},
		{"stdio without a command", ServerConfig{Type: "stdio", URL: "http://127.0.0.1:1"}, `needs "command"`},
		{"an unset variable in env", ServerConfig{Command: "true", Env: map[string]string{"T": "${WB_SURELY_UNSET}"}}, "${WB_SURELY_UNSET}, which is not set"},
		{"an unset variable in a header", ServerConfig{URL: "http://127.0.0.1:1", Headers: map[string]string{"Authorization": "Bearer ${WB_NO_TOKEN}"}}, "headers Authorization"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m := start(t, Options{Lookup: fixedEnv(nil)}, Config{"bad": c.entry})
			st := status(t, m, "bad")
			if st.State != StateFailed || st.Err == nil || !strings.Contains(st.Err.Error(), c.want) {
				t.Errorf("bad = %+v, want failed with %q", st, c.want)
			}
		})
	}
}

func TestServersWhoseToolNamesWouldCollideDoNotBothStart(t *testing.T) {
	t.Parallel()
	missing := ServerConfig{Command: "/nonexistent/server"}
	m := start(t, Options{Lookup: fixedEnv(nil)}, Config{"a.b": missing, "a_b": missing, "...": missing})
	if st := status(t, m, "a_b"); st.Err == nil || !strings.Contains(st.Err.Error(), `like those of server "a.b"`) {
		t.Errorf("a_b = %+v, want a prefix collision with a.b", st)
	}
	if st := status(t, m, "a.b"); st.Err == nil || strings.Contains(st.Err.Error(), "like those") {
		t.Errorf("a.b = %+v, want only its own start failure", st)
	}
	if st := status(t, m, "..."); st.Err == nil || !strings.Contains(st.Err.Error(), "no characters usable") {
		t.Errorf("... = %+v, want an unusable name", st)
	}
}

func TestStartReplacesAServerOfTheSameName(t *testing.T) {
	t.Parallel()
	m := start(t, Options{}, Config{"s": stdioEntry(t)})
	first := leaderPid(m, "s")
	m.Start(context.Background(), Config{"s": stdioEntry(t)})
	requireReady(t, m, "s")
	if second := leaderPid(m, "s"); second == first || !waitGone(first) {
		t.Errorf("the first process %d must be stopped and replaced (now %d)", first, second)
	}
	if len(m.Servers()) != 1 {
		t.Errorf("servers = %+v", m.Servers())
	}
}

func TestCloseDuringAStartKillsTheServerBeingStarted(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	m := NewManager(Options{StartTimeout: time.Minute})
	started := make(chan struct{})
	go func() {
		defer close(started)
		m.Start(context.Background(), Config{"slow": {Command: "sh", Args: []string{"-c", "echo $$ > " + pidFile + "; exec sleep 30"}}})
	}()
	var pid int
	for range 250 {
		if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if pid == 0 {
		m.Close()
		<-started
		t.Fatal("the slow server never started")
	}
	if st := status(t, m, "slow"); st.State != StateStarting {
		t.Errorf("slow = %+v while starting", st)
	}

	begin := time.Now()
	m.Close()
	<-started
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("Close took %s with a start in flight", d)
	}
	if !waitGone(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the server being started (%d) survived Close", pid)
	}
}
