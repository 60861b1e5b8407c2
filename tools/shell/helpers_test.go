package shell

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tools"
)

// run validates input against the Bash schema, as the pipeline does, and
// calls the tool.
func run(t *testing.T, ctx context.Context, tc *tools.Context, input string) tools.Result {
	t.Helper()
	tool := Bash()
	in, err := tool.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatalf("Prepare(%s): %v", input, err)
	}
	res, err := tool.Call(ctx, in, tc)
	if err != nil {
		t.Fatalf("Call(%s): %v", input, err)
	}
	if !res.Captured {
		t.Errorf("Call(%s): result not marked Captured", input)
	}
	return res
}

// cmd builds Bash input for a command and a timeout (0: the default).
func cmd(command string, timeoutMS int) string {
	m := map[string]any{"command": command}
	if timeoutMS > 0 {
		m["timeout_ms"] = timeoutMS
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func meta(t *testing.T, res tools.Result) Meta {
	t.Helper()
	var m Meta
	if err := json.Unmarshal(res.Meta, &m); err != nil {
		t.Fatalf("Meta %q: %v", res.Meta, err)
	}
	return m
}

// running reports whether pid is a live process. A zombie counts as dead:
// it runs nothing, and orphans stay zombies where PID 1 does not reap.
func running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	f := strings.Fields(string(stat[i+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// readPids waits until file holds want pids, one a line, and returns them.
func readPids(t *testing.T, file string, want int) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(file)
		lines := strings.Fields(string(b))
		if len(lines) >= want {
			pids := make([]int, 0, len(lines))
			for _, l := range lines {
				pid, err := strconv.Atoi(l)
				if err != nil {
					t.Fatalf("pid file %s: %q", file, b)
				}
				pids = append(pids, pid)
			}
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid file %s has %q, want %d pids", file, b, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// noTempFiles fails if a spill's temporary file is left in dir (H8).
func noTempFiles(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") || strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left in spill dir: %s", filepath.Join(dir, e.Name()))
		}
	}
	return entries
}
