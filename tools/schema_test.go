package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

const editsSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1},
    "mode": {"enum": ["a", "b"], "default": "a"},
    "limit": {"type": "integer", "minimum": 1, "maximum": 10},
    "name": {"type": "string", "pattern": "^[a-z]+$"},
    "edits": {"type": "array", "items": {
      "type": "object",
      "properties": {"old_string": {"type": "string"}, "new_string": {"type": "string"}},
      "required": ["old_string", "new_string"],
      "additionalProperties": false
    }},
    "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`

func TestH01_SchemaIsFullyValidated(t *testing.T) {
	t.Parallel()
	s, err := CompileSchema("T", editsSchema)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, input, wantErr string
	}{
		{"required is honoured", `{}`, "file_path: required"},
		{"enum is enforced", `{"file_path":"x","mode":"c"}`, "mode"},
		{"upper bound is enforced", `{"file_path":"x","limit":11}`, "limit"},
		{"integer rejects a fraction", `{"file_path":"x","limit":1.5}`, "limit"},
		{"pattern is enforced", `{"file_path":"x","name":"ABC"}`, "name"},
		{"minLength is enforced", `{"file_path":""}`, "file_path"},
		{"unknown property is refused", `{"file_path":"x","bogus":1}`, "bogus"},
		{"nested required names the path", `{"file_path":"x","edits":[{"old_string":"a","new_string":"b"},{"new_string":"c"}]}`, "edits[1].old_string: required"},
		{"nested additionalProperties", `{"file_path":"x","edits":[{"old_string":"a","new_string":"b","x":1}]}`, "edits[0].x: unknown property"},
		{"oneOf is enforced", `{"file_path":"x","either":true}`, "either"},
		{"invalid JSON is said", `{"file_path":`, "not valid JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.Prepare(json.RawMessage(c.input))
			if err == nil {
				t.Fatalf("input %s was accepted", c.input)
			}
			if !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("error %q does not name %q", err, c.wantErr)
			}
		})
	}
}

func TestSchemaFillsDefaults(t *testing.T) {
	t.Parallel()
	s, _ := CompileSchema("T", editsSchema)
	out, err := s.Prepare(json.RawMessage(`{"file_path":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(out, &m)
	if m["mode"] != "a" {
		t.Errorf("default not filled: %s", out)
	}
}

func TestEmptyInputIsAnEmptyObject(t *testing.T) {
	t.Parallel()
	s, _ := CompileSchema("T", "")
	if _, err := s.Prepare(nil); err != nil {
		t.Errorf("empty input must count as {}: %v", err)
	}
}

func FuzzSchemaPrepare(f *testing.F) {
	s, err := CompileSchema("T", editsSchema)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(`{"file_path":"x"}`)
	f.Add(`{"file_path":"x","edits":[{"old_string":"a","new_string":"b"}]}`)
	f.Add(`[1,2`)
	f.Fuzz(func(t *testing.T, in string) {
		out, err := s.Prepare(json.RawMessage(in))
		if err != nil {
			return
		}
		// Whatever passed must pass again: preparation is idempotent.
		if _, err := s.Prepare(out); err != nil {
			t.Fatalf("prepared input %s fails a second check: %v", out, err)
		}
	})
}
