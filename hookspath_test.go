package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A repository whose core.hooksPath is a directory in the working tree
// (husky's .husky/_) runs hooks from there at the person's next git
// command: a Write there always asks, in acceptEdits and bypass too.
func TestH17_WritesIntoTheHooksPathAsk(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	c := newCLI(t)
	for _, args := range [][]string{{"init", "-q"}, {"config", "core.hooksPath", ".husky/_"}} {
		if out, err := exec.Command("git", append([]string{"-C", c.project}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	for _, mode := range []string{"acceptEdits", "bypassPermissions"} {
		code, out, _ := c.run("", "tool", "--cwd", c.project, "--permission-mode", mode, "Write",
			`{"file_path":".husky/_/pre-commit","content":"#!/bin/sh\ntouch planted\n"}`)
		if code == exitOK || !strings.Contains(out, "core.hooksPath") {
			t.Errorf("%s: a hook was written without a question: exit %d %s", mode, code, out)
		}
	}
	if _, err := os.Stat(filepath.Join(c.project, ".husky", "_", "pre-commit")); err == nil {
		t.Error("the hook was planted")
	}
	// Elsewhere in the project the same Write goes through.
	if code, out, _ := c.run("", "tool", "--cwd", c.project, "--permission-mode", "acceptEdits", "Write",
		`{"file_path":".husky/notes.txt","content":"x\n"}`); code != exitOK {
		t.Errorf("a plain file beside the hooks directory: exit %d %s", code, out)
	}
}
