package main

import (
	"strings"
	"testing"
)

// rewind.ignore in the project's settings keeps files out of every
// checkpoint of a real session: the list does not show them and a rewind
// leaves them as they are, beside the files it takes back.
func TestRewindIgnoreSettingInARealSession(t *testing.T) {
	c := newCLI(t)
	c.write(".workbench/settings.json", `{"rewind":{"ignore":["data/", "*.tmp"]}}`)
	c.write("a.txt", "a\n")
	c.write("data/big.csv", "1,2\n")
	s := c.script("../s.json", `{"turns":[
	  {"tool_calls":[{"id":"b","name":"Bash","input":{"command":"echo changed > a.txt && echo 3,4 >> data/big.csv && echo t > x.tmp"}}]},
	  {"text":"done"}]}`)
	if code, out, errb := c.run("", "--cwd", c.project, "--allow", "Bash", "--script", s, "-p", "change things"); code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	l := c.rewindList()
	if len(l.Prompts) != 1 || sorted(l.Prompts[0].Files) != "M a.txt" {
		t.Fatalf("the list shows ignored files or misses a.txt: %+v", l.Prompts)
	}
	if code, out, errb := c.run("", "rewind", "--cwd", c.project, "1"); code != exitOK {
		t.Fatalf("rewind: exit %d\n%s\n%s", code, out, errb)
	}
	if c.read("a.txt") != "a\n" || c.read("data/big.csv") != "1,2\n3,4\n" || c.read("x.tmp") != "t\n" {
		t.Errorf("after the rewind: a.txt %q, data/big.csv %q, x.tmp %q", c.read("a.txt"), c.read("data/big.csv"), c.read("x.tmp"))
	}
}

// --session picks an older session of the project than the latest; an
// unknown one is an error.
func TestRewindSessionPicksAnOlderSession(t *testing.T) {
	c := newCLI(t)
	c.write("a.txt", "a\n")
	one := c.script("../one.json", `{"turns":[{"tool_calls":[{"id":"b","name":"Bash","input":{"command":"echo one > a.txt"}}]},{"text":"one"}]}`)
	two := c.script("../two.json", `{"turns":[{"tool_calls":[{"id":"b","name":"Bash","input":{"command":"echo two > b.txt"}}]},{"text":"two"}]}`)
	if code, _, errb := c.run("", "--cwd", c.project, "--allow", "Bash", "--script", one, "-p", "first session"); code != exitOK {
		t.Fatal(errb)
	}
	first := c.rewindList().Session
	if code, _, errb := c.run("", "--cwd", c.project, "--allow", "Bash", "--script", two, "-p", "second session"); code != exitOK {
		t.Fatal(errb)
	}
	if latest := c.rewindList().Session; latest == first {
		t.Fatal("the second run did not make a new session")
	}
	// What the later session did is, for the older one, a change after
	// its last checkpoint: shown, and overwritten only with --force.
	code, out, errb := c.run("", "rewind", "--cwd", c.project, "--session", first, "1")
	if code != exitError || !strings.Contains(errb, "A b.txt") || c.read("a.txt") != "one\n" || c.read("b.txt") != "two\n" {
		t.Fatalf("rewind --session over the later session's file: exit %d\n%s\n%s", code, out, errb)
	}
	code, out, errb = c.run("", "rewind", "--cwd", c.project, "--session", first, "1", "--force")
	if code != exitOK || !strings.Contains(out, "restored   a.txt") || !strings.Contains(out, "removed    b.txt") {
		t.Fatalf("rewind --session --force: exit %d\n%s\n%s", code, out, errb)
	}
	if c.read("a.txt") != "a\n" || c.exists("b.txt") {
		t.Errorf("a.txt %q, b.txt there %v: not the files before the first session's prompt", c.read("a.txt"), c.exists("b.txt"))
	}
	if code, _, errb := c.run("", "rewind", "--cwd", c.project, "--session", "20990101-000000-00000000", "1"); code != exitUsage || errb == "" {
		t.Errorf("an unknown session: exit %d %q", code, errb)
	}
}
