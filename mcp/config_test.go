package mcp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseFileReadsTheCommonShape(t *testing.T) {
	t.Parallel()
	doc := `{
  "mcpServers": {
    "github": {"command": "gh-mcp", "args": ["--stdio"], "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}, "timeout": 5},
    "docs": {"type": "http", "url": "https://docs.example/mcp", "headers": {"Authorization": "Bearer x"}}
  },
  "otherProgramsKey": true
}`
	cfg, err := ParseFile(".mcp.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	gh := cfg["github"]
	if gh.Command != "gh-mcp" || len(gh.Args) != 1 || gh.Env["GITHUB_TOKEN"] != "${GITHUB_TOKEN}" {
		t.Errorf("github = %+v", gh)
	}
	if tr, err := gh.Transport(); tr != TransportStdio || err != nil {
		t.Errorf("github transport %q %v", tr, err)
	}
	if d := cfg["docs"]; d.URL != "https://docs.example/mcp" || d.Headers["Authorization"] != "Bearer x" {
		t.Errorf("docs = %+v", d)
	}
}

func TestParseFileErrorsCarryTheLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		doc  string
		line int
		want string
	}{
		{"a trailing comma", "{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"a\",}\n  }\n}", 3, "invalid JSON"},
		{"args that are not a list", "{\n  \"mcpServers\": {\n    \"x\": {\n      \"args\": \"--flag\"\n    }\n  }\n}", 4, "args: expected []string"},
		{"servers that are not an object", "{\"mcpServers\": [1]}", 1, "mcpServers"},
		{"a file cut short", "{\n  \"mcpServers\": {\n", 3, "unexpected end"},
		{"data after the object", "{}\n{}", 2, "extra data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseFile("/p/.mcp.json", []byte(c.doc))
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a FileError", err)
			}
			if fe.Line != c.line || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "/p/.mcp.json:") {
				t.Errorf("err = %v (line %d), want line %d and %q", err, fe.Line, c.line, c.want)
			}
		})
	}
}

func TestLoadProjectFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg, err := LoadProjectFile(dir)
	if cfg != nil || err != nil {
		t.Fatalf("a project without .mcp.json: %v %v", cfg, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ProjectFileName), []byte(`{"mcpServers":{"a":{"command":"x"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg, err = LoadProjectFile(dir); err != nil || cfg["a"].Command != "x" {
		t.Fatalf("cfg %+v err %v", cfg, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ProjectFileName), []byte("{\n\"mcpServers\": nope}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err = LoadProjectFile(dir); err == nil || !strings.Contains(err.Error(), ProjectFileName+":2:") {
		t.Errorf("err = %v, want the file and line 2", err)
	}
}

func TestExpandReadsOnlyTheNamedVariables(t *testing.T) {
	t.Parallel()
	env := fixedEnv(map[string]string{"A": "alpha", "EMPTY": ""})
	cases := []struct {
		in, want, err string
	}{
		{in: "${A}", want: "alpha"},
		{in: "x-${A}-y", want: "x-alpha-y"},
		{in: "${MISSING:-fallback}", want: "fallback"},
		{in: "${EMPTY:-fallback}", want: ""},
		{in: "$A and $$ stay", want: "$A and $$ stay"},
		{in: "${MISSING}", err: "${MISSING}, which is not set"},
		{in: "${A", err: "unterminated"},
		{in: "${1A}", err: "not a variable reference"},
	}
	for _, c := range cases {
		got, err := expand(c.in, env)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("expand(%q) err = %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("expand(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestChildEnvHasOnlyInheritedAndNamedVariables(t *testing.T) {
	t.Parallel()
	host := fixedEnv(map[string]string{"PATH": "/bin", "HOME": "/h", "LANG": "C", "TERM": "xterm", "SECRET_KEY": "s", "TOKEN": "t"})
	env, err := childEnv(ServerConfig{Env: map[string]string{"TOKEN": "${TOKEN}", "PATH": "/opt/bin"}}, host)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"HOME=/h", "LANG=C", "PATH=/opt/bin", "TOKEN=t"}
	if strings.Join(env, " ") != strings.Join(want, " ") {
		t.Errorf("env = %v, want %v", env, want)
	}
}
