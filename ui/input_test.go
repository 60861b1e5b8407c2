package ui

import "testing"

// A command's arguments complete like command names: `/resume ` lists the
// sessions, a prefix narrows them, Tab writes the whole line.
func TestArgumentsComplete(t *testing.T) {
	in := newInput()
	in.args = func(cmd string) []slashCommand {
		if cmd != "/resume" {
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
	in.setValue("/mode pl")
	if got := in.completions(); len(got) != 0 {
		t.Errorf("a command without argument completion completes nothing: %v", got)
	}
	in.setValue("/res")
	if got := in.completions(); len(got) != 1 || got[0].name != "/resume" {
		t.Errorf("command names still complete: %v", got)
	}
}
