package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command's arguments complete like command names: `/resume ` lists the
// sessions, a prefix narrows them, Tab writes the whole line.
func TestArgumentsComplete(t *testing.T) {
	in := newInput()
	in.args = func(line string) []slashCommand {
		if !strings.HasPrefix(line, "/resume ") {
			return nil
		}
		return []slashCommand{
			{name: "/resume 20261130-1111-aaaa", label: "20261130-1111-aaaa", help: "fix the parser"},
			{name: "/resume 20261129-2222-bbbb", label: "20261129-2222-bbbb", help: "write docs"},
		}
	}
	in.setValue("/resume ")
	if got := in.completions(); len(got) != 2 {
		t.Fatalf("/resume with nothing after it lists every session: %v", got)
	}
	in.setValue("/resume 20261129")
	if got := in.completions(); len(got) != 1 || got[0].help != "write docs" {
		t.Fatalf("a prefix narrows the list: %v", got)
	}
	if !in.complete() || in.value() != "/resume 20261129-2222-bbbb" {
		t.Fatalf("Tab completes the whole line: %q", in.value())
	}
	in.setValue("/resume 20261129-2222-bbbb extra")
	if got := in.completions(); len(got) != 0 {
		t.Errorf("nothing completes past a whole argument: %v", got)
	}
	in.setValue("/quit now")
	if got := in.completions(); len(got) != 0 {
		t.Errorf("a command without argument completion completes nothing: %v", got)
	}
	in.setValue("/res")
	if got := in.completions(); len(got) != 1 || got[0].name != "/resume" {
		t.Errorf("command names still complete: %v", got)
	}
}

// /open completes paths a directory at a time.
func TestOpenCompletesPaths(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src", "deep"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "main.go"), []byte("package main\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".env"), []byte("x"), 0o644)
	m := &Model{cfg: Config{ProjectDir: dir}}
	in := newInput()
	in.args = m.commandArgs
	in.setValue("/open s")
	if !in.complete() || in.value() != "/open src/" {
		t.Fatalf("a directory completes with its slash: %q", in.value())
	}
	in.setValue("/open src/m")
	if got := in.completions(); len(got) != 1 || got[0].help != "13 B" {
		t.Fatalf("files in the directory, with their size: %v", got)
	}
	in.setValue("/open ")
	for _, c := range in.completions() {
		if strings.Contains(c.name, ".env") {
			t.Errorf("hidden files are offered only when a dot is typed")
		}
	}
	in.setValue("/open .e")
	if got := in.completions(); len(got) != 1 || got[0].name != "/open .env" {
		t.Errorf("a dot asks for hidden files: %v", got)
	}
}

func TestModeCompletes(t *testing.T) {
	in := newInput()
	in.args = (&Model{}).commandArgs
	in.setValue("/mode ac")
	if !in.complete() || in.value() != "/mode acceptEdits" {
		t.Fatalf("/mode completes the mode: %q", in.value())
	}
}
