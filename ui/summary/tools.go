package summary

import (
	"fmt"
	"strconv"
	"strings"
)

// bash is the command, marked with & when it runs in the background.
func bash(in args) string {
	cmd := in.str("command")
	if in.truth("run_in_background") {
		cmd += " &"
	}
	return cmd
}

// read is the path and the range read (path:10-29).
func read(in args) string {
	p := pathOf(in)
	off, lim := int(in.num("offset")), int(in.num("limit"))
	switch {
	case off > 0 && lim > 0:
		return fmt.Sprintf("%s:%d-%d", p, off, off+lim-1)
	case off > 0:
		return fmt.Sprintf("%s:%d-", p, off)
	case lim > 0:
		return fmt.Sprintf("%s:1-%d", p, lim)
	}
	return p
}

func pathOf(in args) string { return in.first("file_path", "path", "notebook_path") }

// write is the path and how many lines it writes.
func write(in args) string {
	p := pathOf(in)
	content := in.str("content")
	if p == "" {
		return ""
	}
	n := strings.Count(strings.TrimSuffix(content, "\n"), "\n") + 1
	if content == "" {
		n = 0
	}
	return p + " · " + plural(n, "line")
}

// multiEdit is the path and how many edits.
func multiEdit(in args) string {
	p := pathOf(in)
	var edits []any
	if !in.list("edits", &edits) {
		return p
	}
	return p + " · " + plural(len(edits), "edit")
}

// search is the pattern, the glob and the directory when not the working
// one.
func search(in args) string {
	s := in.str("pattern")
	if g := in.str("glob"); g != "" {
		s += " " + g
	}
	if p := in.str("path"); p != "" && p != "." {
		s += " in " + p
	}
	return s
}

// question is the first question with its header, and how many more.
func question(in args) string {
	var qs []struct {
		Header   string `json:"header"`
		Question string `json:"question"`
	}
	if !in.list("questions", &qs) || len(qs) == 0 {
		return in.firstArg()
	}
	s := firstLine(qs[0].Question)
	if h := strings.TrimSpace(qs[0].Header); h != "" {
		s = h + ": " + s
	}
	if len(qs) > 1 {
		s += fmt.Sprintf(" (+%d more)", len(qs)-1)
	}
	return s
}

// todos counts the list TodoWrite writes: "3 todos, 1 in progress, 1 done".
func todos(in args) string {
	var list []struct {
		Status string `json:"status"`
	}
	if !in.list("todos", &list) {
		return in.firstArg()
	}
	s := plural(len(list), "todo")
	var doing, done int
	for _, t := range list {
		switch t.Status {
		case "in_progress":
			doing++
		case "completed":
			done++
		}
	}
	if doing > 0 {
		s += ", " + count(doing) + " in progress"
	}
	if done > 0 {
		s += ", " + count(done) + " done"
	}
	return s
}

// agentCall is the task's description and the kind of subagent.
func agentCall(in args) string {
	s := in.first("description", "prompt")
	s = firstLine(s)
	if t := in.str("subagent_type"); t != "" && t != "general-purpose" {
		s += " · " + t
	}
	return s
}

// skill is the skill's name and its arguments.
func skill(in args) string {
	s := in.str("name")
	if a := firstLine(in.str("args")); a != "" {
		s += " " + a
	}
	return s
}

// sleep is how long and why.
func sleep(in args) string {
	s := strconv.FormatFloat(in.num("seconds"), 'f', -1, 64) + "s"
	if r := firstLine(in.str("reason")); r != "" {
		s += " · " + r
	}
	return s
}

// monitor is what it watches: the description, else the command.
func monitor(in args) string {
	s := in.first("description", "command")
	var watch []string
	if in.list("watch", &watch) && len(watch) > 0 {
		s += " · watching " + strings.Join(watch, ", ")
	}
	return s
}

// shellSend is the session and what is typed into it.
func shellSend(in args) string {
	s := in.str("session_id")
	var parts []string
	if t := in.first("text", "paste"); t != "" {
		parts = append(parts, strconv.Quote(t))
	}
	var keys []string
	if in.list("keys", &keys) && len(keys) > 0 {
		parts = append(parts, strings.Join(keys, " "))
	}
	var hex []string
	if in.list("hex", &hex) && len(hex) > 0 {
		parts = append(parts, plural(len(hex), "byte sequence"))
	}
	if in.truth("submit") {
		parts = append(parts, "enter")
	}
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, " ")
	}
	return s
}

// shellRead is the session and the view read when not the default.
func shellRead(in args) string {
	s := in.str("session_id")
	if v := in.str("view"); v != "" {
		s += " · " + v
	}
	return s
}

// shellResize is the session and its new size.
func shellResize(in args) string {
	return fmt.Sprintf("%s · %g×%g", in.str("session_id"), in.num("cols"), in.num("rows"))
}

// executeExtra names the deferred tool it runs and that tool's summary.
func executeExtra(in args) string {
	name := in.str("tool_name")
	if name == "" {
		return in.firstArg()
	}
	if s := Of(name, in.values["params"]); s != "" {
		return name + ": " + s
	}
	return name
}
