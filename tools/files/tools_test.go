package files_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/files"
)

func TestAllListsTheToolsInTheirOrder(t *testing.T) {
	t.Parallel()
	var names []string
	for _, tool := range files.All() {
		names = append(names, tool.Name())
	}
	want := []string{"Read", "Write", "Edit", "MultiEdit", "LS", "Glob"}
	if !slices.Equal(names, want) {
		t.Fatalf("All() = %v, want %v", names, want)
	}
}

func TestEveryToolHasADescriptionAndAPrompt(t *testing.T) {
	t.Parallel()
	for _, tool := range files.All() {
		if tool.Description() == "" || len(tool.Prompt()) < 100 {
			t.Errorf("%s: description %q, prompt of %d bytes", tool.Name(), tool.Description(), len(tool.Prompt()))
		}
	}
}

// checkObject walks a schema object: every property has a description and
// every object forbids unknown properties.
func checkObject(t *testing.T, where string, obj map[string]any) {
	t.Helper()
	if obj["additionalProperties"] != false {
		t.Errorf("%s: additionalProperties is %v, want false", where, obj["additionalProperties"])
	}
	props, _ := obj["properties"].(map[string]any)
	for name, p := range props {
		prop := p.(map[string]any)
		if d, _ := prop["description"].(string); d == "" {
			t.Errorf("%s.%s has no description", where, name)
		}
		if items, ok := prop["items"].(map[string]any); ok && items["type"] == "object" {
			checkObject(t, where+"."+name+"[]", items)
		}
	}
}

func TestEverySchemaDescribesEachPropertyAndForbidsOthers(t *testing.T) {
	t.Parallel()
	for _, tool := range files.All() {
		checkObject(t, tool.Name(), tool.Schema().Doc())
	}
}

func TestReadersAllowThemselvesAndRunSideBySide(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	cases := []struct {
		tool  tools.Tool
		input string
		path  string
	}{
		{files.Read(), `{"file_path":"src/a.go"}`, dir + "/src/a.go"},
		{files.LS(), `{"path":"src"}`, dir + "/src"},
		{files.LS(), `{}`, dir},
		{files.Glob(), `{"pattern":"**/*.go"}`, dir},
		{files.Glob(), `{"pattern":"src/**/*.go","path":"."}`, dir + "/src"},
		{files.Glob(), `{"pattern":"/etc/*.conf"}`, "/etc"},
	}
	for _, c := range cases {
		t.Run(c.tool.Name()+" "+c.input, func(t *testing.T) {
			in := json.RawMessage(c.input)
			if !c.tool.ReadOnly(in) || !c.tool.ConcurrencySafe(in) {
				t.Errorf("ReadOnly=%v ConcurrencySafe=%v, want both true", c.tool.ReadOnly(in), c.tool.ConcurrencySafe(in))
			}
			if d := c.tool.CheckPermission(context.Background(), in, tc); d.Behavior != permission.Allow {
				t.Errorf("CheckPermission = %+v, want allow", d)
			}
			got := c.tool.Target(in, tc)
			if got.Access != permission.AccessRead || !slices.Equal(got.Paths, []string{c.path}) {
				t.Errorf("Target = %+v, want read access to %s", got, c.path)
			}
		})
	}
}

func TestWritersFailClosedAndSayWhatWillChange(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	writeFile(t, dir+"/old.txt", "abc\n")
	cases := []struct {
		name  string
		tool  tools.Tool
		input string
		path  string
		ask   string
	}{
		{"Write to a new file", files.Write(), `{"file_path":"src/x.go","content":"package x\n"}`, dir + "/src/x.go", "write 10 bytes to src/x.go (new file)"},
		{"Write over a file", files.Write(), `{"file_path":"old.txt","content":"x"}`, dir + "/old.txt", "write 1 byte to old.txt (replacing 4 bytes)"},
		{"Edit a file", files.Edit(), `{"file_path":"old.txt","old_string":"abc","new_string":"a\nb"}`, dir + "/old.txt", "edit old.txt: replace 1 line with 2 lines"},
		{"Edit every occurrence", files.Edit(), `{"file_path":"old.txt","old_string":"a","new_string":"b","replace_all":true}`, dir + "/old.txt", "edit old.txt: replace 1 line with 1 line (every occurrence)"},
		{"Edit that creates a file", files.Edit(), `{"file_path":"new.txt","old_string":"","new_string":"hi"}`, dir + "/new.txt", "create new.txt with 2 bytes"},
		{"MultiEdit", files.MultiEdit(), `{"file_path":"/abs/f.txt","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}`, "/abs/f.txt", "edit /abs/f.txt: apply 2 edits"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := json.RawMessage(c.input)
			if c.tool.ReadOnly(in) || c.tool.ConcurrencySafe(in) {
				t.Errorf("ReadOnly=%v ConcurrencySafe=%v, want both false", c.tool.ReadOnly(in), c.tool.ConcurrencySafe(in))
			}
			d := c.tool.CheckPermission(context.Background(), in, tc)
			if d.Behavior != permission.Ask || d.Message != c.ask {
				t.Errorf("CheckPermission = %v %q, want ask %q", d.Behavior, d.Message, c.ask)
			}
			got := c.tool.Target(in, tc)
			if got.Access != permission.AccessWrite || !slices.Equal(got.Paths, []string{c.path}) {
				t.Errorf("Target = %+v, want write access to %s", got, c.path)
			}
		})
	}
}

func TestTargetsExpandTheHomeDirectory(t *testing.T) {
	t.Parallel()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	tc, _ := newContext(t)
	got := files.Write().Target(json.RawMessage(`{"file_path":"~/notes/a.md","content":""}`), tc)
	if want := filepath.Join(home, "notes/a.md"); !slices.Equal(got.Paths, []string{want}) {
		t.Fatalf("Target paths = %v, want [%s]", got.Paths, want)
	}
}
