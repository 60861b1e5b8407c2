package files_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed92b641c3/workbench/tools"
)

// newContext gives a test its own working directory.
func newContext(t *testing.T) (*tools.Context, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &tools.Context{WorkDir: dir, Tool: "test"}, dir
}

// call runs a tool the way the pipeline does: schema defaults and
// validation first (H1), then Call.
func call(t *testing.T, tool tools.Tool, tc *tools.Context, input string) tools.Result {
	t.Helper()
	prepared, err := tool.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s rejected %s: %v", tool.Name(), input, err)
	}
	res, err := tool.Call(context.Background(), prepared, tc)
	if err != nil {
		t.Fatalf("%s(%s) returned an error: %v", tool.Name(), input, err)
	}
	return res
}

// prepare runs only the schema step and returns its error.
func prepare(tool tools.Tool, input string) error {
	_, err := tool.Schema().Prepare(json.RawMessage(input))
	return err
}

// jsonInput encodes v as tool input.
func jsonInput(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// meta decodes a writing tool's Meta.
func meta(t *testing.T, res tools.Result) map[string]string {
	t.Helper()
	var m map[string]string
	if err := json.Unmarshal(res.Meta, &m); err != nil {
		t.Fatalf("Meta %q is not a JSON object of strings: %v", res.Meta, err)
	}
	return m
}
